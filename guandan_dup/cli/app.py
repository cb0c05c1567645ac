"""The root typer app and the one place where domain errors become ``Error: ...``, exit 1.

Commands hold no logic: each reads its options, calls one library function and prints the
outcome. Any ``GuandanError`` (bad input) or ``OSError`` (a file that cannot be read or
written) raised below is shown as a one-line ``Error:`` message without a traceback.
"""

from __future__ import annotations

import typer
from typer.core import TyperGroup

from ..errors import GuandanError


def describe_os_error(error: OSError) -> str:
    """``cannot use 'x.parquet': No such file or directory`` rather than a traceback."""
    if error.filename is not None:
        return f"cannot use {str(error.filename)!r}: {error.strerror or error}"
    return str(error)


class ReportingGroup(TyperGroup):
    """A command group that reports domain and file errors as ``Error: ...`` with exit 1."""

    def invoke(self, ctx: typer.Context):
        try:
            return super().invoke(ctx)
        except GuandanError as error:
            typer.echo(f"Error: {error}", err=True)
            raise typer.Exit(1) from error
        except OSError as error:
            typer.echo(f"Error: {describe_os_error(error)}", err=True)
            raise typer.Exit(1) from error


app = typer.Typer(
    cls=ReportingGroup,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    help="Run duplicate (复式) Guandan tournaments: deals, results, scoring, movement, exports.",
)
