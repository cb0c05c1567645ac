"""Issue 24 item 4's standings events and the server's own scoring (``live.scorer``):
``{"type": "standings", "round": R, ...}`` in the feed once per new standings, whether the
server scored the round (``--auto-score``) or ``event score`` ran from another terminal, in
cursor order with the results, the same across restarts; a failed scoring is logged and the
server goes on."""

from __future__ import annotations

import logging
import time
from contextlib import contextmanager
from datetime import datetime, timedelta

import httpx
import pytest
from event_support import run
from live_support import running, tokens
from platform_support import item, opened, push

from guandan_dup.errors import GuandanError
from guandan_dup.event import EventFolder
from guandan_dup.event import score as event_score
from guandan_dup.live import scorer

FEED = "/api/v1/feed"
ALL = [item(f"r{t}.{s}", t, s) for t in (1, 2, 3, 4) for s in (1, 2)]


@contextmanager
def client_of(folder, **options):
    """An ``httpx`` client of ``folder`` served by a real uvicorn, ``create_app``'s
    ``options`` (``auto_score``)."""
    with running(folder, store_delay=0.05, **options) as base, \
            httpx.Client(base_url=base) as client:
        yield client


def read_all(client, header) -> list[dict]:
    events, after = [], ""
    while True:
        page = client.get(FEED, params={"after": after}, headers=header).json()
        if not page["events"]:
            return events
        events += page["events"]
        after = page["next"]


def standings_events(client, header, count: int, timeout: float = 20.0) -> list[dict]:
    """The feed's standings events once there are ``count`` of them (a failure after
    ``timeout`` seconds, with what the feed held)."""
    deadline = time.monotonic() + timeout
    while True:
        events = read_all(client, header)
        found = [e for e in events if e["type"] == "standings"]
        if len(found) >= count or time.monotonic() > deadline:
            assert len(found) == count, f"expected {count} standings events, feed: {events}"
            return found
        time.sleep(0.1)


def correct(client, event, table: int = 1, ns: str = "9") -> None:
    body = {"id": f"fix{table}{ns}", "set": 1, "ns_level": ns, "ew_level": "2",
            "reason": "the scorecard said 9"}
    answer = client.post(f"/api/v1/rounds/1/tables/{table}/entries", json=body,
                         headers=tokens(event).boss)
    assert answer.status_code == 201, answer.text


def test_issue24_auto_score_scores_after_the_last_set_and_again_after_a_correction(tmp_path):
    event, header = opened(tmp_path)
    with client_of(event, auto_score=True) as client:
        push(client, header, ALL[:-1])
        time.sleep(scorer.DEBOUNCE + 1.5)  # one set missing: nothing is scored
        assert not (event / "rounds/1/standings.parquet").exists()
        assert standings_events(client, header, 0) == []
        push(client, header, ALL[-1:])
        first, = standings_events(client, header, 1)
        assert first == {
            "cursor": first["cursor"], "type": "standings", "round": 1, "at": first["at"],
            "digest": first["digest"], "players": 17, "teams": None, "expected": 8,
            "counted": 8, "complete": True, "up_to_date": True, "provisional": True,
            "final_at": first["final_at"], "by": "server", "url": "/api/v1/rounds/1/standings"}
        assert first["final_at"] is not None  # the first scoring ended the round (art. 48)
        events = read_all(client, header)
        assert events[-1] == first and [e["type"] for e in events[:-1]] == ["result"] * 8
        assert sorted(events, key=lambda e: int(e["cursor"])) == events
        correct(client, event)
        second = standings_events(client, header, 2)[1]
        assert second["digest"] != first["digest"] and second["by"] == "server"
        events = read_all(client, header)
        assert [e["type"] for e in events[-2:]] == ["result", "standings"]
        assert events[-2]["correction"] is True
        assert run("event", "status", event)  # the folder reads as any scored round's
        time.sleep(scorer.DEBOUNCE + 1.5)
        assert len(standings_events(client, header, 2)) == 2  # unchanged: not scored again


def test_issue24_event_score_from_another_terminal_is_one_event_across_restarts(tmp_path):
    event, header = opened(tmp_path)
    with client_of(event) as client:  # no --auto-score: the director scores
        push(client, header, ALL)
        time.sleep(1.0)  # stored
        run("event", "score", event, "--round", 1)
        first, = standings_events(client, header, 1, timeout=5)
        assert first["by"] == "event score" and first["complete"] is True
        before = read_all(client, header)
    with client_of(event) as client:
        time.sleep(2 * scorer.POLL + 0.5)
        assert read_all(client, header) == before  # restarted: the same feed, no new event
        correct(client, event, table=2)
        time.sleep(1.0)
    run("event", "score", event, "--round", 1)  # while no server runs
    with client_of(event) as client:
        events = standings_events(client, header, 2, timeout=5)
        assert events[0] == first and events[1]["digest"] != first["digest"]
        whole = read_all(client, header)
    assert whole[:len(before)] == before
    assert [e["type"] for e in whole[len(before):]] == ["result", "standings"]


def test_issue24_standings_that_are_not_complete_say_so(tmp_path):
    event, header = opened(tmp_path)
    with client_of(event) as client:
        push(client, header, ALL[:6])
        time.sleep(1.0)
        run("event", "score", event, "--round", 1)  # Neuberg-adjusted: 2 sets missing
        found, = standings_events(client, header, 1, timeout=5)
    assert (found["complete"], found["counted"], found["expected"]) == (False, 6, 8)
    assert found["provisional"] is True


@pytest.mark.parametrize("failure, told", [
    (RuntimeError("disk on fire"),
     "round 1's automatic scoring failed (RuntimeError: disk on fire)"),
    (GuandanError("disk on fire"), "round 1 was not scored automatically: disk on fire"),
])
def test_issue24_a_failed_scoring_is_logged_once_and_the_server_goes_on(
        tmp_path, monkeypatch, caplog, failure, told):
    event, header = opened(tmp_path)

    def broken(*args, **kwargs):
        raise failure

    monkeypatch.setattr(event_score, "score_round", broken)
    with caplog.at_level(logging.INFO, "guandan_dup.live"), \
            client_of(event, auto_score=True) as client:
        push(client, header, ALL)
        deadline = time.monotonic() + 10
        while "disk on fire" not in caplog.text and time.monotonic() < deadline:
            time.sleep(0.1)
        assert told in caplog.text
        time.sleep(scorer.DEBOUNCE + 1.0)
        assert client.get("/api/v1/health").status_code == 200
        assert standings_events(client, header, 0) == []
        monkeypatch.undo()  # fixed: the next change scores the round
        correct(client, event)
        found, = standings_events(client, header, 1)
        assert found["by"] == "server" and found["complete"] is True
    told_times = [r for r in caplog.records if "disk on fire" in r.getMessage()]
    assert len(told_times) == 1  # told once, not at every look


def test_issue24_a_refused_scoring_is_logged_with_the_command_to_run(tmp_path, caplog):
    event, header = opened(tmp_path)
    with caplog.at_level(logging.INFO, "guandan_dup.live"), \
            client_of(event, auto_score=True) as client:
        push(client, header, ALL)
        standings_events(client, header, 1)
        run("event", "deal", event, "--round", 2, "--quiet")
        run("event", "seat", event, "--round", 2)
        run("event", "open", event, "--round", 2)
        second = [item(f"q{t}.{s}", t, s, round=2)
                  for t, s in EventFolder.open(event).plan.planned_results(2)]
        push(client, header, second)
        assert [e["round"] for e in standings_events(client, header, 2)] == [1, 2]
        correct(client, event)  # round 1 changes under round 2's standings: refused
        deadline = time.monotonic() + 10
        while "--force" not in caplog.text and time.monotonic() < deadline:
            time.sleep(0.1)
        # round 2's standings count round 1's results: scored again, as `event score
        # --round 2` would be
        assert [e["round"] for e in standings_events(client, header, 3)] == [1, 2, 2]
        time.sleep(scorer.DEBOUNCE + 1.0)
        assert client.get("/api/v1/health").status_code == 200
        assert len(standings_events(client, header, 3)) == 3
    refused = [r for r in caplog.records if "round 1 was not scored" in r.getMessage()]
    assert len(refused) == 1 and refused[0].levelno == logging.WARNING
    assert "round 2 is already scored from round 1's standings" in refused[0].getMessage()


@pytest.mark.parametrize("now_final", [False, True])
def test_issue24_standings_facts_say_whether_the_round_is_final(tmp_path, now_final):
    event, header = opened(tmp_path)
    with client_of(event) as client:
        push(client, header, ALL)
        time.sleep(1.0)
    run("event", "score", event, "--round", 1)
    facts = scorer.standings_facts(event, 1)
    deadline = datetime.fromisoformat(facts["final_at"])
    later = scorer.standings_facts(event, 1, now=deadline + timedelta(
        seconds=1 if now_final else -1))
    assert later["provisional"] is (not now_final)
    assert later["digest"] == facts["digest"]
