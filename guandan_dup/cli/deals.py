"""CLI commands for keys and board sets: ``key new``, ``deal`` and ``deal verify``."""

from __future__ import annotations

import warnings
from pathlib import Path

import typer

from ..deals import (
    BoardSetInfo,
    KeyPermissionWarning,
    OutputFormat,
    create_key,
    deal_file,
    read_key,
    verify_file,
)
from ..deals.boardset import DEFAULT_BOARDS_PER_SET
from ..wording import words
from .app import app

key_app = typer.Typer(no_args_is_help=True, help="Make the secret event key that fixes the deals.")
app.add_typer(key_app, name="key")

deal_app = typer.Typer(
    help=(
        "Deal a board set from an event key (guandan-dup deal --key FILE --boards 1-36 --out "
        "boards.parquet), or check one with 'deal verify'."
    )
)
app.add_typer(deal_app, name="deal")


@key_app.command("new")
def key_new(
    out: Path = typer.Option(..., "--out", help="Key file to write (mode 0600, keep it secret)."),
    force: bool = typer.Option(False, "--force", help="Replace an existing key file."),
) -> None:
    """Write a new 256-bit event key and print its commitment (never the key)."""
    published = create_key(out, force=force)
    typer.echo(f"Wrote a new event key to {out} (owner-only; keep it secret until the event ends).")
    typer.echo(f"Commitment (publish this before the event): {published}")


def _read_key(path: Path) -> bytes:
    """Read a key file, turning a permission warning into a ``Warning:`` line on stderr."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", KeyPermissionWarning)
        key = read_key(path)
    for warning in caught:
        typer.echo(f"Warning: {warning.message}", err=True)
    return key


@deal_app.callback(invoke_without_command=True)
def deal(
    ctx: typer.Context,
    key: Path | None = typer.Option(None, "--key", help="The event key file."),
    boards: str | None = typer.Option(
        None, "--boards", help="Boards to deal: ranges and numbers, e.g. 1-36 or 1-12,25-36."
    ),
    out: Path | None = typer.Option(
        None, "--out", help="Output file (.parquet/.json/.txt/.html); - prints text or json."
    ),
    boards_per_set: int = typer.Option(
        DEFAULT_BOARDS_PER_SET, "--boards-per-set", help="Boards in a set (1 = board mode)."
    ),
    delayed: str = typer.Option(
        "", "--delayed", help="Public value fixed after the commitment, e.g. a lottery draw."
    ),
    fmt: OutputFormat | None = typer.Option(
        None, "--to", "--format", case_sensitive=False,
        help="Output type; default from --out's suffix.",
    ),
    leader: str = typer.Option("E", "--leader", help="Seat that leads the first board of a set."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
) -> None:
    """Deal boards from the event key into a board-set file or hand records."""
    if ctx.invoked_subcommand is not None:
        return
    missing = [name for name, value in (("--key", key), ("--boards", boards), ("--out", out))
               if value is None]
    if missing:
        ctx.fail(f"deal needs {words(missing)} (e.g. --key event.key --boards 1-36 "
                 f"--out boards.parquet), or the subcommand 'verify'")
    table = deal_file(
        _read_key(key), boards, out, fmt, boards_per_set, delayed, leader, show_progress=not quiet
    )
    printed = str(out) == "-"  # the report goes to stderr, not into the printed boards
    where = "standard output" if printed else out
    plural = "" if table.num_rows == 1 else "s"
    typer.echo(f"Dealt {table.num_rows} board{plural} to {where}.", err=printed)
    typer.echo(f"Commitment: {BoardSetInfo.from_table(table).commitment}", err=printed)


@deal_app.command("verify")
def deal_verify(
    board_file: Path = typer.Argument(..., help="Board-set Parquet file to check."),
    key: Path = typer.Option(..., "--key", help="The revealed event key file."),
    delayed: str | None = typer.Option(
        None, "--delayed", help="Delayed value to use instead of the one in the file."
    ),
    published: str | None = typer.Option(
        None, "--commitment", metavar="HEX",
        help="The commitment published before the event (default: the event.toml of the "
        "event folder holding BOARD_FILE, if any).",
    ),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
) -> None:
    """Recompute every board from the key; list the boards that differ (exit 1 if any)."""
    result = verify_file(
        board_file, _read_key(key), delayed, show_progress=not quiet, published=published
    )
    typer.echo(result.summary())
    if not result.ok:
        raise typer.Exit(1)
