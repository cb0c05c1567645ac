"""Who is calling: the token of a request, and the ``Caller`` it names (``tokens.Keys``).

A phone's page calls the API with its table's token as a Bearer header (the token is the
last segment of the table's link, ``/t/{token}``); a script does the same with any token.
The director's browser carries the director's token in an HttpOnly, SameSite=Strict cookie
(``DIRECTOR_COOKIE``, set by the console page), which a page of another site cannot send.
An EventSource cannot set a header, so the event stream also takes ``?token=``; the access
log redacts it (``live.server.Redact``). No token, or one the folder does not know (a
revoked one included), is nobody: ``None``.
"""

from __future__ import annotations

from starlette.requests import Request

from .tokens import Caller, Keys

DIRECTOR_COOKIE = "guandan_director"
"""The cookie holding the director's token in the console's browser."""


def token_of(request: Request, query: bool = False) -> str:
    """The token a request presents: its Bearer header, else the director's cookie, else
    (with ``query``, for the event stream) its ``token=`` query value; ``""`` if none."""
    header = request.headers.get("authorization", "")
    scheme, _, credential = header.partition(" ")
    if scheme.lower() == "bearer" and credential.strip():
        return credential.strip()
    cookie = request.cookies.get(DIRECTOR_COOKIE, "")
    if cookie:
        return cookie
    return request.query_params.get("token", "") if query else ""


def caller_of(request: Request, query: bool = False) -> tuple[str, Caller | None]:
    """(the token presented, the caller it names or ``None``) of ``request``, looked up in
    the app's ``Keys`` (``request.app.state.keys``)."""
    keys: Keys = request.app.state.keys
    token = token_of(request, query)
    return token, keys.who(token) if token else None
