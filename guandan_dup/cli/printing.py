"""CLI command ``event print``: A4 PDFs of a seated round for the venue (``printing``)."""

from __future__ import annotations

from pathlib import Path

import typer

from ..printing import KINDS, print_round
from ..wording import counted
from .event import DIR, ROUND, WAIT, event_app, locked_folder

WHAT = typer.Option(..., "--what", metavar="WHAT", help=f"What to print: {', '.join(KINDS)}.")
OUT = typer.Option(None, "--out", metavar="FILE.pdf",
                   help="The PDF to write (default: DIR/print/round-R-WHAT.pdf).")
FONT = typer.Option(None, "--font", metavar="FILE",
                    help="A Chinese TrueType font (.ttf/.ttc) to embed (default: one found on "
                    "this machine, such as WenQuanYi Micro Hei or Microsoft YaHei).")


@event_app.command("print")
def print_command(directory: Path = DIR, round_no: int = ROUND, what: str = WHAT,
                  out: Path | None = OUT, font: Path | None = FONT, wait: float = WAIT) -> None:
    """Print a round for the venue as an A4 PDF: table cards (fold-up, with each table's
    QR code and PIN), scoresheets, the seat list, team lineup forms or hand records."""
    with locked_folder(directory, "event print", wait) as folder:
        printed = print_round(folder, round_no, what, out, font)
    typer.echo(f"Wrote {printed.path} ({counted(printed.pages, 'page')}, A4)")
    for note in printed.notes:
        typer.echo(note)
