"""The JSON API (issue 22's pinned contracts): thin routes over ``live.desk.Desk``.

Each route reads the path and the body, finds the caller (``live.callers``) and calls one
``Desk`` method, which checks who may do what and answers (status, JSON). Shapes:

- ``POST /api/v1/rounds/{R}/tables/{T}/entries`` (``Desk.enter``): body ``{"id", "set",
  "ns_level", "ew_level"}``, ``{"id", "set", "board", "finish"}`` or, for a knockout,
  ``{"id", "set", "tiebreak": "NS"|"EW"}``; ``201 {"id", "state": "entered", "round",
  "table", "set", ["board"], "levels": {"ns", "ew"}, "played", "complete"}``, ``200`` the
  same again, ``409 {"error"}``, ``422 {"problems": [{"field", "message"}]}``.
- ``POST .../sets/{S}/verify`` (``Desk.verify``): ``200 {"state": "verified", ...}``,
  ``409 {"error", "problems"}`` while incomplete.
- ``POST .../sets/{S}/dispute`` (``Desk.dispute``), body ``{"note"}`` optional: ``200
  {"state": "disputed", ...}``.
- ``GET /api/v1/rounds/{R}/tables/{T}`` (``Desk.table_view``), the table's token.
- ``GET /api/v1/rounds/{R}/progress`` and ``.../queue`` (``Desk.progress``,
  ``Desk.queue``), the director's token.
- ``GET /api/v1/rounds/{R}/standings`` (``live.board.standings``), public;
  ``?venue=V``: that venue's players, ranked within it.
- ``GET /api/v1/rounds/{R}/tables/{T}/boards`` (``live.boards.TableBoards``), a platform's
  token: ``200 {"round", "table", "boards": [{"board", "set", "leader", "north", "east",
  "south", "west"}]}`` once the round is open (``event open``), ``403 {"error"}`` before,
  ``404`` an unknown round or table.
- ``POST /api/v1/results`` (``live.pushes.push``), a platform's token: body ``{"results":
  [...]}``, up to 1,000 items; ``200 {"results": [{"id", "state"} or {"id", "problems"}]}``
  in the order given; ``400`` a body that is not such an object, ``413`` a larger one.
- ``GET /api/v1/feed?after=C&limit=N`` (``live.feed.Feed.page``), a platform's or the
  director's token: ``200 {"events": [...], "next": C}``; ``400`` a bad cursor or limit.
- ``GET /api/v1/openapi.json`` (``live.openapi``), public: the OpenAPI 3.1 description.
- ``GET /api/v1/health``: ``200 {"ok": true, ...}`` once the server can take entries.

A venue director's token (``event tokens --venue V``) acts like the director's on its
venue's tables: entries, corrections, verify, dispute, the table's view; progress, queue and
the feed show its tables only (``live.venue_scope``). Another venue's table, and the
platforms' routes: ``403 {"error", "caller", "venue", "tables": {"first", "last"}}``.

No token or an unknown one: ``401``; a token for another table or round: ``403``. Every
error is JSON (``{"error"}`` or ``{"problems"}``), never a traceback (``live.app``).
"""

from __future__ import annotations

import asyncio
import json

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import GuandanError
from . import jsontext, openapi, pushes, reach, venue_scope
from .board import standings as board_standings
from .callers import caller_of
from .desk import Desk
from .feed import CursorError, parse_cursor, parse_limit
from .sets import Answer
from .tokens import Director, Platform, VenueDirector

MAX_BODY = 64 * 1024
"""An entry is a few dozen bytes; a body beyond this is refused unread."""


def respond(answer: Answer) -> JSONResponse:
    return JSONResponse(answer.body, answer.status)


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status)


def desk_of(request: Request) -> Desk:
    return request.app.state.desk


async def json_body(request: Request, optional: bool = False):
    """The request's JSON body, or the ``JSONResponse`` that refuses it (``422``)."""
    if int(request.headers.get("content-length") or 0) > MAX_BODY:
        return error(413, f"the body is over {MAX_BODY // 1024} KB; an entry is a few bytes")
    raw = await request.body()
    if len(raw) > MAX_BODY:
        return error(413, f"the body is over {MAX_BODY // 1024} KB; an entry is a few bytes")
    if not raw.strip() and optional:
        return {}
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as failure:
        return JSONResponse({"problems": [{"field": None, "message": f"the body is not JSON "
                                           f"({failure})"}]}, 422)


def director_only(request: Request, venue: bool = False
                  ) -> tuple[Director | VenueDirector | None, JSONResponse | None]:
    """(the caller, None) for the director (or, with ``venue``, a venue's director), else
    (None, the ``401``/``403`` that refuses it)."""
    _, caller = caller_of(request)
    if caller is None:
        return None, error(401, "the director's token is needed")
    if isinstance(caller, Director) or (venue and isinstance(caller, VenueDirector)):
        return caller, None
    if isinstance(caller, VenueDirector):
        return None, respond(venue_scope.refusal(caller, "this route"))
    return None, error(403, "only the director's token reaches this")


def _ints(request: Request, *names: str) -> list[int]:
    return [int(request.path_params[name]) for name in names]


async def health(request: Request) -> JSONResponse:
    desk = desk_of(request)
    failed = desk.journal.failed
    body = {"ok": failed is None, "event": desk.plan().name,
            "round": desk.current_round(), "version": desk.version,
            "journal": {"written": desk.journal.written, "commits": desk.journal.commits}}
    if failed is not None:
        return JSONResponse(body | {"error": failed}, 503)
    return JSONResponse(body)


async def enter(request: Request) -> JSONResponse:
    round_no, table = _ints(request, "round", "table")
    _, caller = caller_of(request)
    if caller is None:  # before reading the body: nobody learns what it would have said
        return respond(reach.refused(None, round_no, table))
    body = await json_body(request)
    if isinstance(body, JSONResponse):
        return body
    return respond(await desk_of(request).enter(round_no, table, body, caller))


async def verify(request: Request) -> JSONResponse:
    round_no, table, set_no = _ints(request, "round", "table", "set")
    _, caller = caller_of(request)
    return respond(await desk_of(request).verify(round_no, table, set_no, caller))


async def dispute(request: Request) -> JSONResponse:
    round_no, table, set_no = _ints(request, "round", "table", "set")
    _, caller = caller_of(request)
    if caller is None:
        return respond(reach.refused(None, round_no, table))
    body = await json_body(request, optional=True)
    if isinstance(body, JSONResponse):
        return body
    note = body.get("note", "") if isinstance(body, dict) else None
    return respond(await desk_of(request).dispute(round_no, table, set_no, caller, note))


async def table_view(request: Request) -> JSONResponse:
    round_no, table = _ints(request, "round", "table")
    _, caller = caller_of(request)
    desk = desk_of(request)
    refused = reach.refused(caller, round_no, table)
    if refused is not None:
        return respond(refused)
    ready = await desk.ready(round_no)
    if ready is not None:
        return respond(ready)
    try:
        return JSONResponse(desk.table_view(round_no, table))
    except GuandanError as failure:
        return error(404, str(failure))


async def _director_view(request: Request, view) -> JSONResponse:
    """``view(desk, round)``, ``{"round", "sets"}``, for the director; for a venue's
    director, its tables' sets only."""
    (round_no,) = _ints(request, "round")
    caller, refused = director_only(request, venue=True)
    if refused is not None:
        return refused
    desk = desk_of(request)
    ready = await desk.ready(round_no)
    if ready is not None:
        return respond(ready)
    shown = view(desk, round_no)
    if isinstance(caller, VenueDirector):
        shown = venue_scope.only_tables(shown, caller)
    return JSONResponse(shown)


async def progress(request: Request) -> JSONResponse:
    return await _director_view(request, Desk.progress)


async def queue(request: Request) -> JSONResponse:
    return await _director_view(request, lambda desk, r: {"round": r,
                                                          "sets": desk.queue(r)})


async def standings(request: Request) -> JSONResponse:
    (round_no,) = _ints(request, "round")
    desk = desk_of(request)
    try:
        figures = await asyncio.to_thread(board_standings, desk.path, round_no, None,
                                          request.query_params.get("venue"))
    except GuandanError as failure:
        unknown = "not in the plan" in str(failure) or str(failure).startswith("venue ")
        return error(404 if unknown else 409, str(failure))
    return JSONResponse(figures)


async def boards(request: Request) -> JSONResponse:
    round_no, table = _ints(request, "round", "table")
    _, caller = caller_of(request)
    if caller is None:
        return error(401, "a platform's token is needed (`guandan-dup event tokens DIR "
                     "--platform NAME`)")
    if isinstance(caller, VenueDirector):
        return respond(venue_scope.refusal(caller, "the boards (a platform's route)"))
    if not isinstance(caller, Platform):
        return error(403, "only a platform's token reaches the boards")
    status, body = await asyncio.to_thread(request.app.state.boards.answer, caller.name,
                                           round_no, table)
    return JSONResponse(body, status)


def platform_only(request: Request, what: str, director: bool = False
                  ) -> tuple[Platform | Director | VenueDirector | None,
                             JSONResponse | None]:
    """(the caller, None) for a platform (or, with ``director``, the director or a venue's
    director), else (None, the ``401``/``403`` that refuses it)."""
    _, caller = caller_of(request)
    if caller is None:
        return None, error(401, "a platform's token is needed (`guandan-dup event tokens DIR "
                           "--platform NAME`)")
    if isinstance(caller, Platform) or (director and isinstance(caller, Director | VenueDirector)):
        return caller, None
    if isinstance(caller, VenueDirector):
        return None, respond(venue_scope.refusal(caller, what))
    who = "a platform's token or the director's" if director else "a platform's token"
    return None, error(403, f"only {who} reaches {what}")


async def results(request: Request) -> Response:
    caller, refused = platform_only(request, "the results route")
    if refused is not None:
        return refused
    too_big = error(413, f"the body is over {pushes.MAX_BODY // 1024} KB; a batch is at most "
                    f"{pushes.MAX_ITEMS} results")
    if int(request.headers.get("content-length") or 0) > pushes.MAX_BODY:
        return too_big
    raw = await request.body()
    if len(raw) > pushes.MAX_BODY:
        return too_big
    try:
        body = jsontext.loads(raw)
    except (ValueError, UnicodeDecodeError) as failure:
        return error(400, f"the body is not JSON ({failure})")
    if not isinstance(body, dict) or not isinstance(body.get("results"), list):
        return error(400, "expected a JSON object {\"results\": [...]}, a list of results")
    if len(body["results"]) > pushes.MAX_ITEMS:
        return error(413, f"{len(body['results'])} results in one batch; a batch is at most "
                     f"{pushes.MAX_ITEMS}: send the rest in another")
    answer = await pushes.push(desk_of(request), caller.name, body["results"])
    return Response(jsontext.dumps(answer.body), answer.status, media_type="application/json")


async def feed_page(request: Request) -> JSONResponse:
    caller, refused = platform_only(request, "the feed", director=True)
    if refused is not None:
        return refused
    try:
        after = parse_cursor(request.query_params.get("after"))
        limit = parse_limit(request.query_params.get("limit"))
    except CursorError as failure:
        return error(400, str(failure))
    desk = desk_of(request)
    if isinstance(caller, VenueDirector):  # its venue's tables' events only
        return JSONResponse(venue_scope.feed_page(
            lambda a, n: desk.feed.page(a, n, desk.journal.committed), after, limit, caller))
    return JSONResponse(desk.feed.page(after, limit, desk.journal.committed))


async def openapi_json(request: Request) -> JSONResponse:
    return JSONResponse(openapi.document())


PREFIX = "/api/v1"
routes = [
    Route(f"{PREFIX}/health", health),
    Route(f"{PREFIX}/openapi.json", openapi_json),
    Route(f"{PREFIX}/results", results, methods=["POST"]),
    Route(f"{PREFIX}/feed", feed_page),
    Route(f"{PREFIX}/rounds/{{round:int}}/tables/{{table:int}}/entries", enter,
          methods=["POST"]),
    Route(f"{PREFIX}/rounds/{{round:int}}/tables/{{table:int}}/sets/{{set:int}}/verify",
          verify, methods=["POST"]),
    Route(f"{PREFIX}/rounds/{{round:int}}/tables/{{table:int}}/sets/{{set:int}}/dispute",
          dispute, methods=["POST"]),
    Route(f"{PREFIX}/rounds/{{round:int}}/tables/{{table:int}}/boards", boards),
    Route(f"{PREFIX}/rounds/{{round:int}}/tables/{{table:int}}", table_view),
    Route(f"{PREFIX}/rounds/{{round:int}}/progress", progress),
    Route(f"{PREFIX}/rounds/{{round:int}}/queue", queue),
    Route(f"{PREFIX}/rounds/{{round:int}}/standings", standings),
]
