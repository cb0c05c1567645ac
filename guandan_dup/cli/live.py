"""CLI for the day of the event: ``serve`` (the phones' server), ``event tokens`` (the
tables' entry links and PINs, the platforms' and venue directors' tokens) and ``event open``
(a round's boards released to platforms)."""

from __future__ import annotations

from pathlib import Path

import typer

from ..errors import GuandanError
from ..event.access import DEFAULT_PORT, event_tokens, write_links
from ..event.opening import open_round
from ..event.platforms import make_platform_token, revoke_platform
from ..event.venue_tokens import make_venue_token, revoke_venue
from .app import app
from .event import DIR, ROUND, WAIT, event_app, locked_folder
from .ledger import command_line


def _named(flag: str, metavar: str, text: str):
    """An option naming a platform or a venue whose token to make or revoke."""
    return typer.Option(None, flag, metavar=metavar, help=text)


@event_app.command("tokens")
def tokens(
    directory: Path = DIR,
    round_no: int | None = typer.Option(
        None, "--round", help="Round number (1 = first): the tables' links of this round."),
    out: Path | None = typer.Option(
        None, "--out", help="Write the links to this file (owner-only) instead of printing "
        "them: .xlsx (PINs kept as text, so Excel keeps 004217's zeros) or .csv."),
    revoke: int | None = typer.Option(
        None, "--revoke", metavar="TABLE",
        help="Give this table a new token and PIN first (its old link and PIN stop working)."),
    base_url: str | None = typer.Option(
        None, "--base-url", metavar="URL",
        help="Save the address phones use, e.g. http://192.168.1.20:8000 (default: this "
        "laptop's LAN address, port 8000)."),
    platform: str | None = _named(
        "--platform", "NAME",
        "Make a new token for this platform (replacing its old one) and print it."),
    revoke_platform_name: str | None = _named(
        "--revoke-platform", "NAME", "Remove this platform's token: it stops working."),
    venue: str | None = _named(
        "--venue", "V", "Make a new token for the director of venue V (one of the event's "
        "venues), replacing its old one, and print it."),
    revoke_venue_name: str | None = _named(
        "--revoke-venue", "V", "Remove venue V's director's token: it stops working."),
) -> None:
    """The round's table links and PINs as CSV: table,pin,url (the url carries the token).

    Tokens stay the same until revoked, so cards printed early stay valid. Makes
    DIR/director.token (owner-only) when missing. With --platform NAME, instead: a new
    token for an online platform; with --venue V, a new token for the director of venue V
    (its tables only): printed once, only its hash is kept.
    """
    named = {"--platform": platform, "--revoke-platform": revoke_platform_name,
             "--venue": venue, "--revoke-venue": revoke_venue_name}
    given = [option for option, value in named.items() if value is not None]
    if given:
        if len(given) > 1 or round_no is not None or revoke is not None or out is not None \
                or base_url is not None:
            raise GuandanError(f"{' and '.join(given)} go{'es' if len(given) == 1 else ''} "
                               "alone: give one of --platform, "
                               "--revoke-platform, --venue, --revoke-venue, without --round, "
                               "--revoke, --base-url or --out")
        _named_token(directory, given[0], named[given[0]])
        return
    if round_no is None:
        raise GuandanError("event tokens needs --round R (the tables' links), or --platform "
                           "NAME / --revoke-platform NAME, or --venue V / --revoke-venue V")
    found = event_tokens(directory, round_no, revoke, base_url)
    if out is None:
        typer.echo(write_links(found), nl=False)
        return
    write_links(found, out)
    typer.echo(f"Wrote {out} (owner-only: it holds every table's token)", err=True)


def _named_token(directory: Path, option: str, name: str) -> None:
    """A platform's or a venue director's token made (printed as the last word) or
    revoked."""
    if option == "--revoke-platform":
        revoke_platform(directory, name)
        typer.echo(f"Revoked platform {name!r}'s token: it no longer works")
        return
    if option == "--revoke-venue":
        revoke_venue(directory, name)
        typer.echo(f"Revoked the token of the director of venue {name}: it no longer works")
        return
    if option == "--platform":
        made, whose = make_platform_token(directory, name), f"platform {name!r}"
    else:
        made, whose = make_venue_token(directory, name), f"the director of venue {name}"
    if made.replaced:
        typer.echo(f"Replaced the token of {whose} (the old one no longer works)")
    typer.echo(f"Token of {whose} (shown once, only its hash is kept): {made.token}")


@event_app.command("open")
def open_command(
    ctx: typer.Context,
    directory: Path = DIR,
    round_no: int = ROUND,
    reason: str = typer.Option("the round starts", "--reason",
                               help="Why (recorded with the ledger row)."),
    wait: float = WAIT,
) -> None:
    """Start the round: release its boards to the platforms (a ledger row, kind open).

    Before it, GET /api/v1/rounds/R/tables/T/boards is refused; a running server sees it
    at once. Refused for a round not dealt, not seated, or already open.
    """
    with locked_folder(directory, "event open", wait) as folder:
        row = open_round(folder, round_no, reason, command=command_line(ctx))
    typer.echo(f"Ledger row {int(row['id'])}: round {round_no} is open; platforms may now "
               "fetch its tables' boards")


@app.command("serve")
def serve(
    directory: Path = DIR,
    host: str = typer.Option(
        "127.0.0.1", "--host",
        help="Address to listen on; 0.0.0.0 lets the venue's Wi-Fi (the phones) reach it."),
    port: int = typer.Option(DEFAULT_PORT, "--port", min=1, max=65535,
                             help="Port to listen on."),
    auto_score: bool = typer.Option(
        False, "--auto-score/--no-auto-score",
        help="Score each round (as `event score` does) once every set of it is stored, and "
        "again after a correction or a late set. Off by default: the first scoring of a "
        "round starts its correction period (art. 48)."),
) -> None:
    """Run the event's web server: table phones enter results, the director's console, the board.

    Prints the director's console URL with its token (DIR/director.token); ready when
    GET /api/v1/health answers 200. Stop it with Ctrl+C.
    """
    from ..live.server import serve as run_server  # uvicorn only when serving

    run_server(directory, host, port, echo=typer.echo, auto_score=auto_score)
