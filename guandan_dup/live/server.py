"""Running the server: uvicorn, the console URL a director clicks, and an access log that
never holds a token.

``serve`` binds 127.0.0.1 unless told otherwise: only the laptop can reach it. With
``--host 0.0.0.0`` every device on the venue's Wi-Fi can, so it says so and prints the
address phones should use. Once listening it prints the director's console URL with the
token, as Jupyter does: a director clicks it and the console sets its cookie.

A token in a log is a token anyone with the log has: uvicorn's access log shows each
request's path and query, so ``Redact`` (a filter on the ``uvicorn.access`` logger) replaces
the path segment after ``/t/``, every ``token=`` value and a ``Bearer`` credential by ``…``
before any handler formats the line.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Mapping
from contextlib import suppress

import uvicorn

from ..errors import GuandanError
from ..event.access import base_url, director_token, lan_address

SECRETS = (
    (re.compile(r"(/t/)[^/?#\s\"]+"), r"\1…"),
    (re.compile(r"((?:^|[?&;\s])token=)[^&#\s\"]*"), r"\1…"),
    (re.compile(r"(Bearer\s+)[^\s\",]+", re.IGNORECASE), r"\1…"),
)
EVERYWHERE = ("0.0.0.0", "::", "")


def redact(text: str) -> str:
    """``text`` with every token replaced by ``…``.

    >>> redact('GET /t/Zq3x-9?lang=en HTTP/1.1')
    'GET /t/…?lang=en HTTP/1.1'
    >>> redact('/director?token=abc&x=1 Authorization: Bearer abc.def')
    '/director?token=…&x=1 Authorization: Bearer …'
    """
    for pattern, replacement in SECRETS:
        text = pattern.sub(replacement, text)
    return text


class Redact(logging.Filter):
    """Redacts tokens in a record's message and its arguments (``redact``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, Mapping):
            record.args = {k: _redacted(v) for k, v in record.args.items()}
        elif isinstance(record.args, tuple):
            record.args = tuple(_redacted(v) for v in record.args)
        return True


def _redacted(value: object) -> object:
    return redact(value) if isinstance(value, str) else value


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def startup_lines(path: str | os.PathLike, host: str, port: int, token: str) -> list[str]:
    """What ``serve`` prints once it listens: the console URL (the laptop's own address
    when listening everywhere), then where phones can reach it, and a warning when they
    can."""
    local = "127.0.0.1" if host in ("0.0.0.0", "") else "::1" if host == "::" else host
    lines = [f"Director's console: http://{_url_host(local)}:{port}/director?token={token}"]
    links = base_url(path)
    if host in EVERYWHERE:
        phones = f"http://{lan_address()}:{port}"
        lines += [
            f"Warning: listening on every network interface (--host {host or '0.0.0.0'}): "
            "anyone on the venue's Wi-Fi can reach this server. Keep DIR/director.token "
            "to yourself.",
            f"Phones use {phones} (PIN entry: {phones}/t).",
        ]
        if links != phones:
            lines.append(
                f"Note: the table cards' links start with {links}, not {phones}; if phones "
                "cannot open them, save this address with `guandan-dup event tokens DIR "
                f"--round R --base-url {phones}` and print the cards again.")
    elif host in ("127.0.0.1", "localhost", "::1"):
        lines.append("Only this laptop can reach the server; to let the tables' phones in, "
                     "start it with --host 0.0.0.0.")
    else:
        lines.append(f"Phones use http://{_url_host(host)}:{port} (PIN entry: "
                     f"http://{_url_host(host)}:{port}/t); the table cards' links start "
                     f"with {links}.")
    lines.append(f"Ready when http://{_url_host(local)}:{port}/api/v1/health answers; "
                 "stop with Ctrl+C.")
    return lines


class _Server(uvicorn.Server):
    """uvicorn's server, telling the director where it is once it listens."""

    def __init__(self, config: uvicorn.Config, announce: Callable[[int], None]) -> None:
        super().__init__(config)
        self.announce = announce

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets)
        if self.started:
            self.announce(self.servers[0].sockets[0].getsockname()[1])


def server_for(app, path: str | os.PathLike, host: str, port: int,
               echo: Callable[[str], None] = print) -> uvicorn.Server:
    """A uvicorn server of ``app`` for the folder at ``path`` with the access log redacted;
    once listening it prints ``startup_lines`` (port 0: the port the system chose).

    Run it with ``.run()`` (blocking) or ``await .serve()``; set ``should_exit`` to stop.
    """
    token = director_token(path)
    config = uvicorn.Config(app, host=host, port=port, log_level="info",
                            timeout_graceful_shutdown=5)
    access = logging.getLogger("uvicorn.access")  # configured by Config: filter it now
    if not any(isinstance(f, Redact) for f in access.filters):
        access.addFilter(Redact())

    def announce(actual: int) -> None:
        for line in startup_lines(path, host, actual, token):
            echo(line)

    return _Server(config, announce)


def serve(path: str | os.PathLike, host: str = "127.0.0.1", port: int = 8000, *,
          echo: Callable[[str], None] = print) -> None:
    """``guandan-dup serve DIR``: run the event's server until Ctrl+C (see the module
    docstring); a server that cannot start is a ``GuandanError`` naming the address."""
    director_token(path)  # not an event folder: refused before the routes are imported
    from .app import create_app  # the routes import the whole house: only when serving

    server = server_for(create_app(path), path, host, port, echo)
    with suppress(SystemExit):  # uvicorn's exit when it cannot listen or the app cannot start
        server.run()
    if not server.started:
        raise GuandanError(
            f"the server could not start on {_url_host(host)}:{port} (see the messages above: "
            "another server on that port? then give another --port)"
        )
