"""The ``guandan-dup`` command line: one module per command group, all on one typer app."""

from __future__ import annotations

from . import deals, demo, event, movement, rules, scoring, simulate, site  # noqa: F401  (registers)
from .app import app


def main() -> None:
    app()
