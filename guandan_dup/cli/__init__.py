"""The ``guandan-dup`` command line: one module per command group, all on one typer app."""

from __future__ import annotations

from . import (  # noqa: F401  (registers)
    deals,
    demo,
    event,
    ledger,
    movement,
    rules,
    scoring,
    simulate,
    site,
)
from .app import app


def main() -> None:
    app()
