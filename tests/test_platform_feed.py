"""Issue 24 item 4: the change feed (``GET /api/v1/feed``): every verified set once, whether
a platform pushed it or a table's phone entered and verified it, in cursor order, across
restarts; a platform that polls from the last ``next`` never misses or doubles one."""

from __future__ import annotations

import httpx
import pytest
from event_support import run
from live_support import individual, running, tokens
from platform_support import client_of, item, opened, platform, push

FEED = "/api/v1/feed"


def read_all(client, header, limit: int = 500) -> list[dict]:
    events, after = [], ""
    while True:
        answer = client.get(FEED, params={"after": after, "limit": limit}, headers=header)
        assert answer.status_code == 200, answer.text
        page = answer.json()
        events += page["events"]
        if not page["events"]:
            assert page["next"] == (after or "0")
            return events
        after = page["next"]


@pytest.fixture
def served(tmp_path):
    """The 17-player event with round 1 open, served: (folder, client, platform header)."""
    folder = individual(tmp_path)
    header = platform(folder)
    run("event", "open", folder, "--round", 1)
    with running(folder, store_delay=0.05) as base, httpx.Client(base_url=base) as client:
        yield folder, client, header


def test_issue24_a_phones_verified_entry_and_a_platforms_result_appear_once_each(served):
    event, client, header = served
    keys = tokens(event)
    client.post("/api/v1/rounds/1/tables/2/entries", headers=keys.table(2),
                json={"id": "t1", "set": 1, "ns_level": "4", "ew_level": "2"})
    assert read_all(client, header) == []  # entered, not verified yet
    push(client, header, [item("p1", 1), item("p1", 1)])
    verify = "/api/v1/rounds/1/tables/2/sets/1/verify"
    assert client.post(verify, headers=keys.table(2)).status_code == 200
    assert client.post(verify, headers=keys.table(2)).status_code == 200  # again: no event
    events = read_all(client, header)
    assert [{k: v for k, v in e.items() if k != "cursor"} for e in events] == [
        {"type": "result", "id": "p1", "round": 1, "table": 1, "set": 1, "ns_level": "5",
         "ew_level": "2", "source": "platform tencent"},
        {"type": "result", "id": None, "round": 1, "table": 2, "set": 1, "ns_level": "4",
         "ew_level": "2", "source": "table"}]
    assert read_all(client, keys.boss) == events  # the director reads it too


def test_issue24_cursor_paging_never_misses_or_doubles(served):
    event, client, header = served
    push(client, header, [item(f"i{t}.{s}", t, s) for t in (1, 2, 3, 4) for s in (1, 2)])
    events = read_all(client, header)
    cursors = [e["cursor"] for e in events]
    assert len(events) == 8 and len(set(cursors)) == 8
    assert sorted(cursors, key=int) == cursors
    assert read_all(client, header, limit=3) == events
    middle = client.get(FEED, params={"after": cursors[2], "limit": 2}, headers=header).json()
    assert middle == {"events": events[3:5], "next": cursors[4]}


@pytest.mark.parametrize("params, message", [
    ({"after": "x"}, "is not a cursor"), ({"after": "-1"}, "is not a cursor"),
    ({"limit": "0"}, "1-5000"), ({"limit": "5001"}, "1-5000"), ({"limit": "a"}, "1-5000"),
])
def test_issue24_a_bad_cursor_or_limit_is_400(served, params, message):
    _, client, header = served
    answer = client.get(FEED, params=params, headers=header)
    assert answer.status_code == 400 and message in answer.json()["error"]


@pytest.mark.parametrize("who, status", [("none", 401), ("table", 403)])
def test_issue24_the_feed_needs_a_platforms_or_the_directors_token(served, who, status):
    event, client, _ = served
    header = {"none": {}, "table": tokens(event).table(1)}[who]
    answer = client.get(FEED, headers=header)
    assert answer.status_code == status and "error" in answer.json()


def test_issue24_a_restart_keeps_the_feed_and_its_cursors(tmp_path):
    event, header = opened(tmp_path)
    with client_of(event) as client:
        push(client, header, [item("a", 1), item("b", 2)])
        before = read_all(client, header)
    with client_of(event) as client:
        assert read_all(client, header) == before
        push(client, header, [item("a", 1), item("c", 3)])  # "a" again: no second event
        after = read_all(client, header)
        since = client.get(FEED, params={"after": before[-1]["cursor"]},
                           headers=header).json()["events"]
    assert after[:2] == before and [e["id"] for e in after[2:]] == ["c"] == [
        e["id"] for e in since]
