"""CLI for the day of the event: ``serve`` (the phones' server) and ``event tokens`` (the
tables' entry links and PINs)."""

from __future__ import annotations

from pathlib import Path

import typer

from ..atomic import write_bytes
from ..event.access import DEFAULT_PORT, event_tokens, links_csv
from .app import app
from .event import DIR, ROUND, event_app


@event_app.command("tokens")
def tokens(
    directory: Path = DIR,
    round_no: int = ROUND,
    out: Path | None = typer.Option(
        None, "--out", help="Write the CSV to this file (owner-only) instead of printing it."),
    revoke: int | None = typer.Option(
        None, "--revoke", metavar="TABLE",
        help="Give this table a new token and PIN first (its old link and PIN stop working)."),
    base_url: str | None = typer.Option(
        None, "--base-url", metavar="URL",
        help="Save the address phones use, e.g. http://192.168.1.20:8000 (default: this "
        "laptop's LAN address, port 8000)."),
) -> None:
    """The round's table links and PINs as CSV: table,pin,url (the url carries the token).

    Tokens stay the same until revoked, so cards printed early stay valid. Makes
    DIR/director.token (owner-only) when missing.
    """
    text = links_csv(event_tokens(directory, round_no, revoke, base_url))
    if out is None:
        typer.echo(text, nl=False)
        return
    write_bytes(out, text.encode("utf-8"), mode=0o600)
    typer.echo(f"Wrote {out} (owner-only: it holds every table's token)", err=True)


@app.command("serve")
def serve(
    directory: Path = DIR,
    host: str = typer.Option(
        "127.0.0.1", "--host",
        help="Address to listen on; 0.0.0.0 lets the venue's Wi-Fi (the phones) reach it."),
    port: int = typer.Option(DEFAULT_PORT, "--port", min=1, max=65535,
                             help="Port to listen on."),
) -> None:
    """Run the event's web server: table phones enter results, the director's console, the board.

    Prints the director's console URL with its token (DIR/director.token); ready when
    GET /api/v1/health answers 200. Stop it with Ctrl+C.
    """
    from ..live.server import serve as run_server  # uvicorn only when serving

    run_server(directory, host, port, echo=typer.echo)
