"""Issue 22, security: `serve` binds 127.0.0.1 by default, warns when it listens on every
interface, prints the console URL with the director's token once it listens, and its
access log never holds a token."""

from __future__ import annotations

import logging
import socket
import sys
import threading
import time
import types

import httpx
import pytest
from event_support import run, seated_event
from starlette.applications import Starlette
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Route

from guandan_dup.errors import GuandanError
from guandan_dup.event.access import DIRECTOR_TOKEN
from guandan_dup.live import server as live_server
from guandan_dup.live import tokens
from guandan_dup.live.server import Redact, redact, server_for, startup_lines


@pytest.fixture
def event(tmp_path):
    return seated_event(tmp_path, rounds=1)


def tiny_app() -> Starlette:
    """Stands in for ``live.app.create_app``: the health route and a page under /t/."""

    async def health(request):
        return JSONResponse({"ok": True})

    async def page(request):
        return PlainTextResponse("table page")

    return Starlette(routes=[Route("/api/v1/health", health), Route("/t/{token}", page),
                             Route("/director", page)])


class Lines(logging.Handler):
    """Collects the messages of a logger as its handlers receive them (after its filters)."""

    def __init__(self):
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record):
        self.lines.append(record.getMessage())


@pytest.fixture
def running(event):
    """The tiny app under ``server_for`` on 127.0.0.1 and a free port, in a thread; yields
    (base url, printed lines, access log lines) and stops it."""
    printed: list[str] = []
    server = server_for(tiny_app(), event, "127.0.0.1", 0, echo=printed.append)
    log = Lines()
    access = logging.getLogger("uvicorn.access")
    access.addHandler(log)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}", printed, log.lines
    finally:
        server.should_exit = True
        thread.join(10)
        access.removeHandler(log)


def test_serve_prints_the_console_url_with_the_token_once_listening(running, event):
    base, printed, _ = running
    token = (event / DIRECTOR_TOKEN).read_text().strip()
    assert printed[0] == f"Director's console: {base}/director?token={token}"
    assert httpx.get(f"{base}/api/v1/health").status_code == 200
    assert "--host 0.0.0.0" in printed[1], "says phones cannot reach 127.0.0.1"
    assert not any("Warning" in line for line in printed)


def test_the_access_log_never_holds_a_token(running, event):
    base, _, logged = running
    table = tokens.table_links(event, 1)[0].token
    director = tokens.director_token(event)
    httpx.get(f"{base}/t/{table}?lang=en", headers={"Authorization": f"Bearer {table}"})
    httpx.get(f"{base}/director?token={director}")
    httpx.get(f"{base}/api/v1/health")
    deadline = time.monotonic() + 5
    while len(logged) < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    text = "\n".join(logged)
    assert "/t/…?lang=en" in text and "/director?token=…" in text, text
    assert table not in text and director not in text
    assert "/api/v1/health" in text


@pytest.mark.parametrize("line, expected", [
    ("GET /t/AbC-_123 HTTP/1.1", "GET /t/… HTTP/1.1"),
    ("/t/AbC/recap", "/t/…/recap"),
    ("/director?token=AbC", "/director?token=…"),
    ("/x?lang=en&token=AbC&y=2", "/x?lang=en&token=…&y=2"),
    ("Authorization: Bearer AbC.d-e", "Authorization: Bearer …"),
    ("authorization: bearer AbC", "authorization: bearer …"),
    ("/api/v1/rounds/1/tables/2/entries", "/api/v1/rounds/1/tables/2/entries"),
    ("/board?page=2", "/board?page=2"),
])
def test_redaction_replaces_every_kind_of_token(line, expected):
    assert redact(line) == expected


def test_the_filter_redacts_uvicorns_access_record_arguments():
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                               '%s - "%s %s HTTP/%s" %d',
                               ("10.0.0.3:5012", "GET", "/t/SeCrEt?x=1", "1.1", 200), None)
    assert Redact().filter(record)
    assert record.getMessage() == '10.0.0.3:5012 - "GET /t/…?x=1 HTTP/1.1" 200'


def test_listening_everywhere_warns_and_names_the_address_phones_use(event, monkeypatch):
    monkeypatch.setattr("guandan_dup.live.server.lan_address", lambda: "192.168.7.9")
    monkeypatch.setattr("guandan_dup.event.access.lan_address", lambda: "192.168.7.9")
    lines = startup_lines(event, "0.0.0.0", 8000, "TOKEN")
    assert lines[0] == "Director's console: http://127.0.0.1:8000/director?token=TOKEN"
    assert lines[1].startswith("Warning: listening on every network interface")
    assert "venue's Wi-Fi" in lines[1]
    assert lines[2] == "Phones use http://192.168.7.9:8000 (PIN entry: http://192.168.7.9:8000/t)."
    assert not any(line.startswith("Note:") for line in lines), "the default links match"


def test_a_saved_base_url_other_than_the_phones_address_is_pointed_out(event, monkeypatch):
    monkeypatch.setattr("guandan_dup.live.server.lan_address", lambda: "192.168.7.9")
    tokens.save_base_url(event, "http://10.0.0.2:8000")
    lines = startup_lines(event, "0.0.0.0", 9000, "TOKEN")
    note = [line for line in lines if line.startswith("Note:")]
    assert note and "http://10.0.0.2:8000" in note[0] and "--base-url" in note[0]


def test_serve_makes_the_directors_token_when_missing(event):
    assert not (event / DIRECTOR_TOKEN).exists()
    server_for(tiny_app(), event, "127.0.0.1", 0, echo=lambda line: None)
    assert (event / DIRECTOR_TOKEN).stat().st_mode & 0o777 == 0o600


def test_a_port_in_use_is_refused_in_words(event, monkeypatch):
    app_module = types.ModuleType("guandan_dup.live.app")
    app_module.create_app = lambda path, **options: tiny_app()
    monkeypatch.setitem(sys.modules, "guandan_dup.live.app", app_module)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(GuandanError, match=f"could not start on 127.0.0.1:{port}"):
            live_server.serve(event, "127.0.0.1", port, echo=lambda line: None)


def test_serve_on_a_folder_that_is_not_an_event_is_an_error_not_a_traceback(tmp_path):
    result = run("serve", tmp_path, code=1)
    assert "Error:" in result and "not an event folder" in result
    assert "Traceback" not in result


def test_event_tokens_prints_the_csv_and_writes_an_owner_only_file(event, tmp_path):
    printed = run("event", "tokens", event, "--round", 1, "--base-url", "http://10.9.8.7:8000")
    lines = printed.splitlines()
    assert lines[0] == "table,pin,url" and len(lines) == 5
    assert all(line.split(",")[2].startswith("http://10.9.8.7:8000/t/") for line in lines[1:])
    assert (event / DIRECTOR_TOKEN).stat().st_mode & 0o777 == 0o600
    out = tmp_path / "links.csv"
    run("event", "tokens", event, "--round", 1, "--out", out)
    assert out.read_text().splitlines() == lines, "the saved base URL is kept"
    assert out.stat().st_mode & 0o777 == 0o600


def test_event_tokens_revoke_prints_the_new_link(event):
    before = run("event", "tokens", event, "--round", 1).splitlines()
    after = run("event", "tokens", event, "--round", 1, "--revoke", 2).splitlines()
    assert after[1] == before[1] and after[3:] == before[3:]
    assert after[2] != before[2] and after[2].startswith("2,")


@pytest.mark.parametrize("args, message", [
    (["--round", 5], "round 5 is not in the plan"),
    (["--round", 0], "round 0 is not in the plan"),
    (["--round", 1, "--revoke", 12], "round 1 has no table 12"),
    (["--round", 1, "--base-url", "192.168.1.2"],
     "--base-url: '192.168.1.2' is not an address phones can open"),
])
def test_event_tokens_refuses_in_words(event, args, message):
    result = run("event", "tokens", event, *args, code=1)
    assert f"Error: {message}" in result and "Traceback" not in result


def test_event_tokens_for_a_round_not_seated_saves_nothing(tmp_path):
    event = seated_event(tmp_path, rounds=2)
    result = run("event", "tokens", event, "--round", 2, "--base-url", "http://h:1", code=1)
    assert "Error: round 2 is not seated yet" in result
    assert not (event / "live" / "base-url.txt").exists()
