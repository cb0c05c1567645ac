"""The OpenAPI 3.1 description of the JSON API (issue 24 item 6): ``/api/v1/openapi.json``.

Made from ``OPERATIONS``, one row per route and method: the path (OpenAPI's ``{name}``
form), a summary, who may call it and the answers it gives. The shapes of the bodies are
described in words in docs/api.md and docs/live.md; a test holds this table and the app's
routes equal (every route described, every described path served).
"""

from __future__ import annotations

from .. import __version__

PREFIX = "/api/v1"
ERROR = {"$ref": "#/components/schemas/Error"}

# (method, path, summary, who: "public" | "platform" | "director or venue director" |
#  "platform, director or venue director" | "table, director or venue director",
#  {status: description}); a venue director's token reaches its venue's tables only
OPERATIONS: tuple[tuple[str, str, str, str, dict[int, str]], ...] = (
    ("get", "/health", "The server is up and can take entries", "public",
     {200: "ok", 503: "the journal failed"}),
    ("get", "/openapi.json", "This description", "public", {200: "the OpenAPI document"}),
    ("post", "/results", "A platform's results by the batch (up to 1,000), each verified",
     "platform", {200: "every item answered in order: {id, state} or {id, problems}",
                  400: "not a JSON object with a list results", 401: "no token",
                  403: "not a platform's token", 413: "over 1,000 items or 512 KB"}),
    ("get", "/feed", "Every verified set once, in cursor order (after=, limit=)",
     "platform, director or venue director", {
         200: "{events, next} (a venue director's: its tables' events)",
         400: "a bad cursor or limit", 401: "no token", 403: "a table's token"}),
    ("post", "/rounds/{round}/tables/{table}/entries", "A table's entry (a set's levels or "
     "a board's finish)", "table, director or venue director",
     {201: "entered", 200: "the same id and body again", 409: "the id used for another "
      "entry, or the set settled", 422: "every problem with the entry"}),
    ("post", "/rounds/{round}/tables/{table}/sets/{set}/verify", "Both sides agree: the set "
     "is verified and stored", "table, director or venue director",
     {200: "verified", 409: "the set is incomplete"}),
    ("post", "/rounds/{round}/tables/{table}/sets/{set}/dispute", "A side asks for the "
     "director", "table, director or venue director", {200: "disputed"}),
    ("get", "/rounds/{round}/tables/{table}/boards", "A table's boards once the round is "
     "open", "platform", {200: "the boards", 403: "the round is not open, or not a "
                          "platform's token", 404: "no such round or table"}),
    ("get", "/rounds/{round}/tables/{table}", "The table's view: seats, sets, entries",
     "table, director or venue director", {200: "the table's view", 404: "no such table"}),
    ("get", "/rounds/{round}/progress", "Every table's sets, for the director",
     "director or venue director", {200: "the round's progress (a venue's tables only for "
                                         "its director)"}),
    ("get", "/rounds/{round}/queue", "The sets waiting for the director",
     "director or venue director", {200: "the director's queue"}),
    ("get", "/rounds/{round}/standings", "The round's standings (the public board)",
     "public", {200: "the standings", 404: "a round not in the plan"}),
    ("get", "/stream", "Server-sent events: the state changed (token= for a browser)",
     "table, director or venue director", {200: "text/event-stream"}),
)


def _parameters(path: str) -> list[dict]:
    names = [part[1:-1] for part in path.split("/") if part.startswith("{")]
    return [{"name": name, "in": "path", "required": True,
             "schema": {"type": "integer", "minimum": 1}} for name in names]


def document() -> dict:
    """The OpenAPI 3.1 document of every ``/api/v1`` route."""
    paths: dict[str, dict] = {}
    for method, path, summary, who, answers in OPERATIONS:
        operation = {"summary": summary, "description": f"Who may call: {who}.",
                     "parameters": _parameters(path),
                     "responses": {str(status): {"description": text, "content": {
                         "application/json": {"schema": ERROR if status >= 400 else {
                             "type": "object"}}}} for status, text in answers.items()}}
        operation["security"] = [] if who == "public" else [{"bearer": []}]
        paths.setdefault(PREFIX + path, {})[method] = operation
    return {
        "openapi": "3.1.0",
        "info": {"title": "guandan-dup venue server", "version": __version__,
                 "description": "The JSON API of `guandan-dup serve` (docs/api.md, "
                                "docs/live.md). Every error is {\"error\"} or "
                                "{\"problems\": [{\"field\", \"message\"}]}."},
        "paths": paths,
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer",
                                           "description": "the director's, a venue "
                                                          "director's, a table's or a "
                                                          "platform's token"}},
            "schemas": {"Error": {"type": "object", "properties": {
                "error": {"type": "string"},
                "problems": {"type": "array", "items": {"type": "object", "properties": {
                    "field": {"type": ["string", "null"]},
                    "message": {"type": "string"}}}}}}},
        },
    }
