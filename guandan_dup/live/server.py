"""Running the server: uvicorn, the console URL a director clicks, and an access log that
never holds a token.

``serve`` binds 127.0.0.1 unless told otherwise: only the laptop can reach it. With
``--host 0.0.0.0`` every device on the venue's Wi-Fi can, so it says so and prints the
address phones should use. Once listening it prints the director's console URL with the
token, as Jupyter does: a director clicks it and the console sets its cookie.

A token in a log is a token anyone with the log has: uvicorn's access log shows each
request's path and query, so ``Redact`` (a filter on the ``uvicorn.access`` logger) replaces
the path segment after ``/t/``, every ``token=`` value and a ``Bearer`` credential by ``…``
before any handler formats the line. The lines are written in batches (``Batched``), at most
``FLUSH`` seconds after their request, so that a request does not wait for a write of its own.
While serving, the garbage collector runs less often and leaves alone what the server holds
once it listens (``GC_THRESHOLDS``).
"""

from __future__ import annotations

import gc
import logging
import os
import queue
import re
import threading
import time
from collections.abc import Callable, Mapping
from contextlib import suppress
from pathlib import Path

import uvicorn

from ..errors import GuandanError
from ..event.access import base_url, director_token, lan_address
from ..wording import pasteable

SECRETS = (
    (re.compile(r"(/t/)[^/?#\s\"]+"), r"\1…"),
    (re.compile(r"((?:^|[?&;\s])token=)[^&#\s\"]*"), r"\1…"),
    (re.compile(r"(Bearer\s+)[^\s\",]+", re.IGNORECASE), r"\1…"),
)
MARKS = ("/t/", "token=", "bearer")
"""What a text holds (lowered) before a pattern of ``SECRETS`` can match it."""
EVERYWHERE = ("0.0.0.0", "::", "")
FLUSH = 0.2
"""Seconds an access log line waits at most before it is written (``Batched``)."""
GC_THRESHOLDS = (10_000, 20, 100)
"""The cyclic garbage collector's thresholds while serving (Python's: 700, 10, 10).

The desk's state only grows (every set, entry and platform id of the day, the feed) and
lives as long as the server; the collector went over all of it again and again, a full
pass of a tenth of a second several times a minute under a platform's batches and a
third of the time of 20,000 results pushed. Collected less often, and with what the
server holds once it listens frozen out of the collector (``gc.freeze``), the passes
are fewer and shorter; nothing the server keeps is a cycle that must be freed soon."""


def redact(text: str) -> str:
    """``text`` with every token replaced by ``…``.

    >>> redact('GET /t/Zq3x-9?lang=en HTTP/1.1')
    'GET /t/…?lang=en HTTP/1.1'
    >>> redact('/director?token=abc&x=1 Authorization: Bearer abc.def')
    '/director?token=…&x=1 Authorization: Bearer …'
    """
    lowered = text.lower()
    if not any(mark in lowered for mark in MARKS):  # most lines: no pattern can match
        return text
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


class Batched(logging.Handler):
    """A stream handler's lines, formatted at once but written by a thread of its own in one
    write per ``every`` seconds (with all lines of a ``close`` written before it returns).

    A write per line made every request of a burst wait for a system call, and on its way
    back for the interpreter (the GIL) the journal's and the store's threads had taken
    meanwhile: about a third of the event loop's time at 64 phones at once. The lines keep
    their order; a crash loses at most the last ``every`` seconds of the access log, never
    an entry (the journal has those).
    """

    def __init__(self, inner: logging.StreamHandler, every: float = FLUSH) -> None:
        super().__init__(inner.level)
        self.setFormatter(inner.formatter)
        for f in inner.filters:
            self.addFilter(f)
        self.inner = inner
        self.every = every
        self._lines: queue.SimpleQueue = queue.SimpleQueue()
        self._writing = threading.Lock()
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="access-log", daemon=True)
        self._thread.start()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self._lines.put(self.format(record))
        except Exception:  # as logging's own handlers: a bad record never fails the request
            self.handleError(record)

    def _run(self) -> None:
        while not self._stopped:
            first = self._lines.get()  # idle until a line comes, then gather for a while
            if first is not None:
                time.sleep(self.every)
                self._write([first])

    def _write(self, lines: list[str]) -> None:
        with self._writing:
            while True:
                try:
                    line = self._lines.get_nowait()
                except queue.Empty:
                    break
                if line is not None:
                    lines.append(line)
            if not lines:
                return
            try:
                self.inner.stream.write("".join(line + self.inner.terminator
                                                for line in lines))
                self.inner.flush()
            except Exception:  # a closed terminal: the lines are lost, the server goes on
                pass

    def flush(self) -> None:
        """Write every line queued, now."""
        self._write([])

    def close(self) -> None:
        """Write what is queued and stop the thread (logging calls this at exit)."""
        self._stopped = True
        self.flush()
        self._lines.put(None)  # wakes the thread if it waits for a line: it stops
        super().close()


def _batch_access_log(access: logging.Logger) -> None:
    """Put uvicorn's access log stream handlers behind ``Batched`` (once)."""
    for handler in list(access.handlers):
        if isinstance(handler, logging.StreamHandler) and not isinstance(handler, Batched):
            access.removeHandler(handler)
            access.addHandler(Batched(handler))


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _latest_seated(path: str | os.PathLike) -> int:
    """The last round seated so far (1 before any): whose cards to print again."""
    seated = [int(p.parent.name) for p in Path(path).glob("rounds/*/seating.parquet")
              if p.parent.name.isdigit()]
    return max(seated, default=1)


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
            "anyone on the venue's Wi-Fi can reach this server. Keep "
            f"{Path(path) / 'director.token'} to yourself.",
            f"Phones use {phones} (PIN entry: {phones}/t).",
        ]
        if links != phones:
            lines.append(
                f"Note: the table cards' links start with {links}, not {phones}; if phones "
                "cannot open them, save this address with `guandan-dup event tokens "
                f"{pasteable(path)} --round {_latest_seated(path)} --base-url {phones}` and "
                "print the cards again.")
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
        self.freeze = False
        """``gc.freeze`` once listening (``serve``: the process is the server's alone)."""

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets)
        if self.started:
            if self.freeze:  # the desk is open: what it holds lives as long as the server
                gc.freeze()
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
    _batch_access_log(access)

    def announce(actual: int) -> None:
        for line in startup_lines(path, host, actual, token):
            echo(line)

    return _Server(config, announce)


def _console_log() -> None:
    """The server's own messages (``guandan_dup.live``: a round scored, a scoring refused,
    a set the folder refused) on the console beside uvicorn's, in its style."""
    logger = logging.getLogger("guandan_dup.live")
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)s:     %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False


def serve(path: str | os.PathLike, host: str = "127.0.0.1", port: int = 8000, *,
          echo: Callable[[str], None] = print, auto_score: bool = False) -> None:
    """``guandan-dup serve DIR``: run the event's server until Ctrl+C (see the module
    docstring); a server that cannot start is a ``GuandanError`` naming the address.
    ``auto_score``: score each round once every set of it is stored (``live.scorer``)."""
    director_token(path)  # not an event folder: refused before the routes are imported
    from .app import create_app  # the routes import the whole house: only when serving

    server = server_for(create_app(path, auto_score=auto_score), path, host, port, echo)
    gc.set_threshold(*GC_THRESHOLDS)
    server.freeze = True
    _console_log()
    if auto_score:
        echo("Scoring each round as soon as every set of it is stored (--auto-score); "
             "the first scoring of a round starts its correction period (art. 48).")
    with suppress(SystemExit):  # uvicorn's exit when it cannot listen or the app cannot start
        server.run()
    if not server.started:
        raise GuandanError(
            f"the server could not start on {_url_host(host)}:{port} (see the messages above: "
            "another server on that port? then give another --port)"
        )
