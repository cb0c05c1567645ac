"""The server's application: its routes, its error pages, the desk it opens and closes.

``create_app(path)`` is what ``guandan-dup serve`` runs (``live.server``) and what tests run
in a real uvicorn: opening it replays the journal (``Desk.open``), closing it stores what is
verified and closes the journal. Every error is JSON, ``{"error": message}`` (or
``{"problems": [...]}`` from a route), never a traceback: a phone shows the message, and a
director reads it.
"""

from __future__ import annotations

import asyncio
import logging
import os
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse

from ..errors import GuandanError
from . import api, console, pages, stream
from .boards import TableBoards
from .desk import Desk
from .scorer import Watcher
from .server import redact
from .tokens import Keys

log = logging.getLogger("guandan_dup.live")


async def _http_error(request: Request, exc: HTTPException) -> JSONResponse:
    message = {404: f"no such page or API route: {request.url.path}",
               405: f"{request.method} is not allowed on {request.url.path}"}.get(
        exc.status_code, exc.detail)
    return JSONResponse({"error": message}, exc.status_code, headers=exc.headers)


async def _domain_error(request: Request, exc: GuandanError) -> JSONResponse:
    return JSONResponse({"error": str(exc)}, 409)


async def _bug(request: Request, exc: Exception) -> JSONResponse:
    # A table's page has its token in the path: the log gets the path without it.
    log.exception("error in %s %s", request.method, redact(request.url.path))
    return JSONResponse({"error": f"the server failed ({type(exc).__name__}); the entry, if "
                                  "any, was not taken: try again, and tell the director"}, 500)


def create_app(path: str | os.PathLike, *, desk: Desk | None = None,
               ping: float = stream.PING, store_delay: float = 0.5,
               auto_score: bool = False) -> Starlette:
    """The Starlette app of the event folder at ``path``; ``desk`` (one the caller opened
    and closes) or one of its own, opened when the app starts. ``ping``: seconds between
    the event stream's pings; ``store_delay``: seconds the store gathers verified sets;
    ``auto_score``: score a round once every set of it is stored (``live.scorer``; the
    standings events of the feed are journalled either way)."""

    @asynccontextmanager
    async def lifespan(app: Starlette):
        own = desk is None
        app.state.desk = (await asyncio.to_thread(Desk.open, path, store_delay)
                          if own else desk)
        app.state.keys = Keys.load(path)
        app.state.boards = TableBoards(path)
        app.state.ping = ping
        app.state.watcher = Watcher(app.state.desk, auto_score)
        app.state.watcher.start()
        try:
            yield
        finally:
            await app.state.watcher.stop()
            if own:
                await asyncio.to_thread(app.state.desk.close)

    routes = [*api.routes, *stream.routes, *pages.routes(), *console.routes()]
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers={
        HTTPException: _http_error, GuandanError: _domain_error, Exception: _bug})
