"""The server's public pages: the table's page (``/t/{token}``, what the card's QR code
opens), the PIN form that finds it (``/t``) and the scoreboard (``/board``).

The pages are drawn by their scripts (``static/table.js``, ``board.js``) from the JSON API,
the same answers a script of the director's own would get, so a page shows nothing the API
would not tell its caller: the table's page gets only its own table's view (its token is
the last segment of its address and the page's Bearer token), the board only the public
standings (``board.py``: sets still being played elsewhere are left out). The PIN form is
the fallback for a phone whose camera will not read the code; its guesses are rate-limited
per address (``guard.PinGuard``) and it answers a right PIN with the table's link.

``render`` (shared with the console) draws a template in the page's language
(``labels.lang_of``) with the event's name.
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from pathlib import Path

import jinja2
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..event.folder import EventFolder
from ..wording import pasteable
from .guard import PinGuard
from .labels import LABELS, lang_of
from .tokens import Table, table_links

STATIC = Path(__file__).parent / "static"
"""The pages' scripts and stylesheet, served at ``/static/`` (``app.py`` mounts it)."""
PIN = re.compile(r"^[0-9]{6}$")
PRIVATE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
"""Headers of a page whose address or content is a table's or the director's: never cached,
and its address (with a token) never sent on as a referrer."""

_TEMPLATES = jinja2.Environment(
    loader=jinja2.PackageLoader("guandan_dup.live", "templates"),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
)


@cache
def static(name: str) -> str:
    """The address of a static file, with a digest of its content: a phone that cached
    yesterday's script after an upgrade loads the new one."""
    data = (STATIC / name).read_bytes()
    return f"/static/{name}?v={hashlib.sha256(data).hexdigest()[:12]}"


_TEMPLATES.globals["static"] = static


def path_of(request: Request) -> Path:
    """The event folder's path: the Desk's, the one the app serves."""
    return request.app.state.desk.path


def folder_of(request: Request) -> EventFolder:
    """The event folder the server serves, opened afresh (a step from a second terminal may
    have changed event.toml)."""
    return EventFolder.open(path_of(request))


def render(request: Request, template: str, status_code: int = 200,
           headers: dict | None = None, **context) -> HTMLResponse:
    """``template`` in the request's language, given the event's name, ``L`` (labels) and
    ``event_dir``, the folder as ``serve`` was given it (the console's help names it)."""
    lang = lang_of(request.cookies, request.query_params)
    folder = context.pop("folder", None) or folder_of(request)
    html = _TEMPLATES.get_template(template).render(
        L=LABELS[lang], lang=lang, event_name=folder.plan.name,
        event_dir=pasteable(path_of(request)), **context)
    return HTMLResponse(html, status_code=status_code, headers=headers)


def event_id(folder: EventFolder) -> str:
    """A short id of the event, from its published commitment: the phone's outbox is kept
    per event, round and table, so a phone used at two events never mixes their entries."""
    return folder.commitment[:16]


def seated_round(folder: EventFolder) -> int | None:
    """The latest round with a seating: the round being played (the board's default)."""
    seated = [r for r in range(1, folder.plan.rounds + 1)
              if folder.file(r, "seating").exists()]
    return max(seated) if seated else None


def _unknown_link(request: Request, status_code: int) -> HTMLResponse:
    L = LABELS[lang_of(request.cookies, request.query_params)]
    return render(request, "message.html.j2", status_code, PRIVATE, title=L["pin_title"],
                  paragraphs=[L["link_unknown"]], link={"href": "/t", "text": L["open_with_pin"]})


async def table_page(request: Request) -> Response:
    """``GET /t/{token}``: the table's page, for a table's token only."""
    caller = request.app.state.keys.who(request.path_params["token"])
    if not isinstance(caller, Table):
        return _unknown_link(request, 404)
    folder = folder_of(request)
    view = request.app.state.desk.table_view(caller.round, caller.table)
    return render(request, "table.html.j2", headers=PRIVATE, folder=folder, view=view,
                  event_id=event_id(folder))


async def pin_form(request: Request) -> Response:
    """``GET /t``: the form for the table card's 6-digit PIN."""
    return render(request, "pin.html.j2", headers=PRIVATE)


def routes() -> list[Route]:
    """The public pages' routes and the static files, with a PIN guard of their own (one
    per app)."""
    pins = PinGuard()

    async def pin_submit(request: Request) -> Response:
        """``POST /t``: a right PIN redirects to its table's page; a wrong one says so and
        counts against the address; too many in a minute are refused until they age out."""
        L = LABELS[lang_of(request.cookies, request.query_params)]
        client = request.client.host if request.client else ""
        pin = str((await request.form()).get("pin", "")).strip()
        wait = pins.retry_after(client)
        if wait:
            return render(request, "pin.html.j2", 429, PRIVATE | {"Retry-After": str(wait)},
                          pin=pin, problem=L["pin_slow"].format(seconds=wait))
        if not PIN.match(pin):
            return render(request, "pin.html.j2", 400, PRIVATE, pin=pin,
                          problem=L["pin_malformed"])
        table = request.app.state.keys.table_of_pin(pin)
        if table is None:
            pins.failed(client)
            return render(request, "pin.html.j2", 401, PRIVATE, pin=pin,
                          problem=L["pin_wrong"].format(pin=pin))
        link = next(link for link in table_links(path_of(request), table.round, "")
                    if link.table == table.table)
        return RedirectResponse(f"/t/{link.token}", status_code=303, headers=PRIVATE)

    return [
        Route("/t", pin_form, methods=["GET"]),
        Route("/t", pin_submit, methods=["POST"]),
        Route("/t/{token}", table_page, methods=["GET"]),
        Route("/board", board_page, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]


async def board_page(request: Request) -> Response:
    """``GET /board[?round=R][&every=S]``: the public scoreboard of round R (default: the
    round being played), paging every S seconds (default 12) through a large field."""
    folder = folder_of(request)
    round_no = _int(request.query_params.get("round")) or seated_round(folder)
    every = min(max(_int(request.query_params.get("every")) or 12, 3), 120)
    rounds = [r for r in range(1, folder.plan.rounds + 1) if folder.file(r, "seating").exists()]
    return render(request, "board.html.j2", folder=folder, round_no=round_no, rounds=rounds,
                  every=every, kind=folder.plan.kind)


def _int(text: str | None) -> int | None:
    """A positive whole number from a query value, else ``None`` (ignored, not an error)."""
    return int(text) if text is not None and text.isdigit() and int(text) > 0 else None
