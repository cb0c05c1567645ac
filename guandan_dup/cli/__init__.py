"""The ``guandan-dup`` command line: one module per command group, all on one typer app.

The modules register their commands when imported; ``app.LazyGroup`` imports each only when
its command runs, so start-up stays fast.
"""

from __future__ import annotations

from .app import app


def main() -> None:
    app()
