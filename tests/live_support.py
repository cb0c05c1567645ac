"""Helpers for the server's tests: seated event folders with their tokens, and real servers.

``running(path)`` starts the app in a real uvicorn on 127.0.0.1 (a free port, or the one
given: the outbox test brings the server back where the page left it), in a thread, ready
once ``GET /api/v1/health`` answers 200, and stops it on leaving; ``serve_process`` starts
``guandan-dup serve`` as a process of its own (the kill -9 test). The folders are
``event_support``'s: the 17-player event, the Swiss cup, the pairs knockout.

The fixtures ``template``, ``event`` and ``base`` (a test module takes them as
``template, event, base = live_support.template, live_support.event, live_support.base``):
the 17-player event made once a module, a fresh copy of it for each test, and that copy
served by ``running``.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import uvicorn
from event_support import pairs_knockout, run, seated_event, swiss_cup

from guandan_dup.event import EventFolder
from guandan_dup.live.app import create_app
from guandan_dup.live.tokens import director_token, table_links

ROOT = Path(__file__).resolve().parent.parent
READY = 20.0


@dataclass(frozen=True)
class Tokens:
    """The director's token and each table's token of one round."""

    director: str
    tables: dict[int, str]

    def table(self, table: int) -> dict:
        return {"Authorization": f"Bearer {self.tables[table]}"}

    @property
    def boss(self) -> dict:
        return {"Authorization": f"Bearer {self.director}"}


def tokens(path: Path, round_no: int = 1) -> Tokens:
    links = table_links(path, round_no, "http://127.0.0.1:8000")
    return Tokens(director_token(path), {link.table: link.token for link in links})


def individual(tmp_path: Path) -> Path:
    """The 17-player event (4 tables, 2 sets of 3 boards a round), round 1 seated."""
    return seated_event(tmp_path)


def teams(tmp_path: Path) -> Path:
    """A Swiss of four teams (two matches: tables 1-4), one set of 3 boards, round 1
    seated."""
    directory, _ = swiss_cup(tmp_path, [4, 4, 4, 4], 3, dealt=(1,))
    return directory


def knockout(tmp_path: Path) -> Path:
    """A pairs knockout of 8 pairs (4 tables, one set of 3 boards), round 1 seated."""
    directory = pairs_knockout(tmp_path, 8)
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1)
    return directory


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_ready(base: str, process: subprocess.Popen | None = None,
               log: Path | None = None) -> None:
    """Until ``GET /api/v1/health`` answers 200 (a failure if it never does)."""
    deadline = time.monotonic() + READY
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            said = log.read_text(encoding="utf-8") if log is not None else ""
            raise AssertionError(f"the server exited: {said}")
        try:
            if httpx.get(f"{base}/api/v1/health", timeout=1.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"{base} did not answer /api/v1/health in {READY:g} s")


@contextmanager
def running(path: Path, port: int | None = None, **options):
    """A real uvicorn serving ``create_app(path, **options)`` on 127.0.0.1:``port`` (a free
    one when ``None``); yields its base URL and stops it (and its desk) on leaving."""
    port = free_port() if port is None else port
    config = uvicorn.Config(create_app(path, **options), host="127.0.0.1", port=port,
                            log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base)
        yield base
    finally:
        server.should_exit = True
        thread.join(30)
        assert not thread.is_alive(), "the server did not stop"


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """The 17-player event (``individual``), made once a module."""
    return individual(tmp_path_factory.mktemp("event"))


@pytest.fixture
def event(template, tmp_path) -> Path:
    """A fresh copy of ``template`` for each test (the board's cache is by folder)."""
    return Path(shutil.copytree(template, tmp_path / "event"))


@pytest.fixture
def base(event):
    """``event`` served by ``running``: its base URL."""
    with running(event) as url:
        yield url


@contextmanager
def serve_process(path: Path):
    """``guandan-dup serve DIR`` as a process of its own; yields (process, base URL) and
    kills it on leaving if it still runs."""
    port = free_port()
    env = os.environ | {"PYTHONPATH": os.pathsep.join([str(ROOT), env_path()])}
    log = path.parent / f"serve-{port}.log"  # a file: a full pipe would stop the server
    with open(log, "w", encoding="utf-8") as out:
        process = subprocess.Popen(
            [sys.executable, "-c", "from guandan_dup.cli import main; main()", "serve",
             str(path), "--port", str(port)],
            env=env, stdout=out, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, process, log)
        yield process, base
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(30)


def env_path() -> str:
    return os.environ.get("PYTHONPATH", "")


def seats(path: Path, round_no: int, table: int) -> dict:
    """The seating's N E S W of ``table`` in ``round_no``."""
    seating = EventFolder.open(path).read(round_no, "seating")
    row = seating[seating["table"] == table].iloc[0]
    return {c: row[c] for c in ("north", "east", "south", "west")}


def wait_for(predicate, timeout: float = 10.0, step: float = 0.05):
    """``predicate()``'s value once it is neither ``None`` nor ``False``, or a failure
    after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value is not None and value is not False:
            return value
        time.sleep(step)
    raise AssertionError(f"not true within {timeout:g} s: {predicate}")
