"""``GET /api/v1/stream``: Server-Sent Events from a real uvicorn, read with httpx streaming.

The director's console gets the round's progress as tables enter and verify; anyone else
gets a ``board`` event when verified sets reach the folder; a ``ping`` keeps the
connection open when nothing happens."""

from __future__ import annotations

import json
import threading

import httpx
import pytest
from live_support import individual, running, tokens

TIMEOUT = httpx.Timeout(10.0)


@pytest.fixture
def served(tmp_path):
    event = individual(tmp_path)
    with running(event, store_delay=0.05, ping=0.5) as base:
        yield base, tokens(event)


def events(response):
    """The stream's events as (name, data) pairs, in order."""
    name, data = None, []
    for line in response.iter_lines():
        if line.startswith("event: "):
            name = line[len("event: "):]
        elif line.startswith("data: "):
            data.append(line[len("data: "):])
        elif line == "" and name is not None:
            yield name, json.loads("\n".join(data))
            name, data = None, []


def later(action, delay=0.3):
    timer = threading.Timer(delay, action)
    timer.start()
    return timer


def test_the_directors_stream_sends_progress_as_a_table_enters(served):
    base, keys = served

    def enter():
        httpx.post(f"{base}/api/v1/rounds/1/tables/2/entries", headers=keys.table(2),
                   json={"id": "e", "set": 1, "ns_level": "4", "ew_level": "2"})

    with httpx.stream("GET", f"{base}/api/v1/stream", headers=keys.boss,
                      timeout=TIMEOUT) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        stream = events(response)
        name, first = next(stream)
        assert name == "progress" and first["round"] == 1
        assert {s["state"] for s in first["sets"]} == {"missing"}
        timer = later(enter)
        data = next(data for name, data in stream if name == "progress")
        timer.join()
    states = {(s["table"], s["set"]): s["state"] for s in data["sets"]}
    assert states[(2, 1)] == "entered"


def test_the_public_stream_sends_board_events_once_a_verified_set_is_stored(served):
    base, keys = served

    def enter_and_verify():
        httpx.post(f"{base}/api/v1/rounds/1/tables/1/entries", headers=keys.table(1),
                   json={"id": "e", "set": 1, "ns_level": "4", "ew_level": "2"})
        httpx.post(f"{base}/api/v1/rounds/1/tables/1/sets/1/verify", headers=keys.table(1))

    with httpx.stream("GET", f"{base}/api/v1/stream", timeout=TIMEOUT) as response:
        stream = events(response)
        name, first = next(stream)
        assert (name, first) == ("board", {"round": 1, "version": 0})
        timer = later(enter_and_verify)
        seen = []
        for name, data in stream:  # noqa: B007 - the board event's data is checked below
            seen.append(name)
            if name == "board":
                break
        timer.join()
    assert data["round"] == 1 and data["version"] >= 1
    assert "progress" not in seen


def test_a_ping_keeps_a_quiet_stream_open(served):
    base, _ = served
    with httpx.stream("GET", f"{base}/api/v1/stream", timeout=TIMEOUT) as response:
        stream = events(response)
        next(stream)
        name, data = next(stream)
    assert name == "ping" and data == {"version": 0}


def test_an_unknown_token_is_401_on_the_stream_too(served):
    base, _ = served
    answer = httpx.get(f"{base}/api/v1/stream", params={"token": "guess"}, timeout=TIMEOUT)
    assert answer.status_code == 401 and answer.json()["error"]
