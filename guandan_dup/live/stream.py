"""``GET /api/v1/stream``: Server-Sent Events, so the console and the board need not poll.

The director's token (header, cookie or ``?token=``) gets ``progress`` events: the round's
``Desk.progress`` whenever a table enters, verifies or disputes, at most every
``MIN_INTERVAL`` seconds (a round-end burst of thousands of entries is a few events); a
venue director's token the same, of its venue's tables only (``venue_scope``). Anyone
else gets ``board`` events, ``{"round", "version"}``, when verified sets reach the folder:
the board then asks for the standings again. ``?round=R`` picks the round (default: the
latest seated). Every event carries the version as its ``id``; a ``ping`` event goes out
after ``ping`` seconds without one (15 s by default), which keeps proxies and phones'
connections open and tells a client the server is alive. A token given but unknown is
``401``, as everywhere.
"""

from __future__ import annotations

import asyncio
import json

from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

from . import venue_scope
from .callers import caller_of
from .desk import Desk
from .tokens import Director, VenueDirector

PING = 15.0
MIN_INTERVAL = 0.5


def event(name: str, version: int, data: dict) -> str:
    """One Server-Sent Event."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"event: {name}\nid: {version}\ndata: {text}\n\n"


async def stream(request: Request):
    token, caller = caller_of(request, query=True)
    if token and caller is None:
        return JSONResponse({"error": "unknown token (revoked?)"}, 401)
    desk: Desk = request.app.state.desk
    ping = getattr(request.app.state, "ping", PING)
    director = isinstance(caller, Director | VenueDirector)
    text = request.query_params.get("round")
    round_no = int(text) if text and text.isdigit() else desk.current_round()
    if round_no is None:
        return JSONResponse({"error": "no round is seated yet"}, 404)
    if director:
        ready = await desk.ready(round_no)
        if ready is not None:
            return JSONResponse(ready.body, ready.status)

    def now() -> tuple[int, str]:
        if director:
            progress = desk.progress(round_no)
            if isinstance(caller, VenueDirector):
                progress = venue_scope.only_tables(progress, caller)
            return desk.version, event("progress", desk.version, progress)
        version = desk.board_version
        return version, event("board", version, {"round": round_no, "version": version})

    async def events():
        since, first = now()
        yield "retry: 3000\n" + first
        while True:
            version = await desk.changed(since, timeout=ping, board=not director)
            if version > since:
                if director:
                    await desk.ready(round_no)
                since, text = now()
                yield text
                await asyncio.sleep(MIN_INTERVAL)
            else:
                yield event("ping", since, {"version": since})

    return StreamingResponse(events(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


routes = [Route("/api/v1/stream", stream)]
