"""CLI command ``event site``: publish an event folder as a static results site."""

from __future__ import annotations

from pathlib import Path

import typer

from ..event.publish import build_event_site
from .event import WAIT, event_app, locked_folder


@event_app.command("site")
def site(
    event_dir: Path = typer.Argument(
        ..., metavar="DIR", help="The event folder (made by `event init`)."
    ),
    out: Path | None = typer.Option(
        None,
        "--out",
        metavar="SITE",
        help="Folder to write the site into (default: DIR/site); replaced whole.",
    ),
    lang: str = typer.Option(
        "zh", "--lang", metavar="zh|en", help="Page language: zh (Chinese) or en (English)."
    ),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
    wait: float = WAIT,
) -> None:
    """Write the results site: standings, player pages, travellers and played hand records.

    A team event gets team standings, a page per team and a page per match instead.
    """
    with locked_folder(event_dir, "event site", wait) as folder:
        index = build_event_site(folder, out, lang=lang, show_progress=not quiet)
    typer.echo(str(index))
