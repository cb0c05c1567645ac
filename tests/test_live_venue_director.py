"""Issue 24 item 1, last sentence: a venue's director token (``event tokens DIR --venue V``)
acts on its venue's tables only. The CLI makes and revokes it (hash only, owner-only); the
server knows it without a restart; every route, called with it on its own venue's table, on
another venue's table and for something event-wide, answers as the table below says, a
refusal in JSON saying whose token it is and what it reaches; the feed, the progress, the
queue and the console show its tables only; a correction's ledger row says who made it."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import time
from pathlib import Path

import httpx
import pytest
from event_support import run
from live_support import running, tokens, wait_for
from venue_support import venue_event

from guandan_dup.event import EventFolder
from guandan_dup.event.access import folder_secret
from guandan_dup.event.folder import VENUE_TOKENS
from guandan_dup.event.ledger import read_ledger
from guandan_dup.event.transaction import reading
from guandan_dup.event.venue_tokens import venue_hashes
from guandan_dup.live.callers import DIRECTOR_COOKIE
from guandan_dup.live.guard import csrf_token
from guandan_dup.live.tokens import RECHECK, Keys, VenueDirector

OWN, OTHER = "南京", "淮安"
"""``venue_support.VENUES`` in the plan's order: 南京's 14 players at tables 1-3, 淮安's 9 at
tables 4-5."""
MINE, THEIRS = 2, 4  # a table of each


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """The two-venue event, round 1 dealt and seated, made once a module."""
    tmp = tmp_path_factory.mktemp("venues")
    directory = venue_event(tmp, rounds=2)
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1)
    return directory


@pytest.fixture
def event(template, tmp_path) -> Path:
    return Path(shutil.copytree(template, tmp_path / "event"))


def make(event, venue: str = OWN) -> str:
    return run("event", "tokens", event, "--venue", venue).split()[-1]


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


# ---- the command ----


def test_issue24_venue_token_is_the_last_word_and_only_its_hash_is_kept(event):
    output = run("event", "tokens", event, "--venue", OWN)
    token = output.split()[-1]
    assert f"Token of the director of venue {OWN} (shown once, only its hash is kept)" in output
    assert len(token) >= 43
    file = event / VENUE_TOKENS
    assert stat.S_IMODE(os.stat(file).st_mode) == 0o600
    assert token not in file.read_text(encoding="utf-8")
    assert venue_hashes(event) == {OWN: hashlib.sha256(token.encode()).hexdigest()}
    who = Keys.load(event).who(token)
    assert who == VenueDirector(OWN) and who.tables == range(1, 4)


def test_issue24_a_new_venue_token_replaces_the_old_and_revoke_removes_it(event):
    first = make(event)
    output = run("event", "tokens", event, "--venue", OWN)
    second = output.split()[-1]
    assert f"Replaced the token of the director of venue {OWN}" in output
    keys = Keys.load(event)
    assert keys.who(first) is None and keys.who(second) == VenueDirector(OWN)
    said = run("event", "tokens", event, "--revoke-venue", OWN)
    assert f"Revoked the token of the director of venue {OWN}: it no longer works" in said
    assert Keys.load(event).who(second) is None
    assert venue_hashes(event) == {}
    for history in (event / "history").glob("live-venue-directors.*"):
        assert stat.S_IMODE(os.stat(history).st_mode) == 0o600


@pytest.mark.parametrize("args, message", [
    (["--venue", "上海"], "Error: venue '上海' is not a venue of this event; its venues are "
                         "南京, 淮安"),
    (["--revoke-venue", OWN], f"Error: no venue {OWN!r} has a token (venues with tokens: "
                              "none yet); nothing was revoked"),
    (["--venue", ""], "Error: venue '': expected a venue's name"),
    (["--venue", OWN, "--round", "1"], "Error: --venue goes alone"),
    (["--venue", OWN, "--platform", "tencent"], "Error: --platform and --venue go alone"),
])
def test_issue24_venue_token_refusals(event, args, message):
    assert message in run("event", "tokens", event, *args, code=1)
    assert not (event / VENUE_TOKENS).exists()


def test_issue24_an_event_without_venues_has_no_venue_directors(tmp_path):
    from event_support import seated_event

    directory = seated_event(tmp_path)
    output = run("event", "tokens", directory, "--venue", "A", code=1)
    assert ("Error: this event has no venues (its players file had no venue column), so "
            "there is no venue 'A' to give a director") in output
    assert not (directory / VENUE_TOKENS).exists()


def test_issue24_event_status_names_the_venue_directors_never_their_tokens(event):
    token = make(event)
    run("event", "tokens", event, "--platform", "tencent")
    output = run("event", "status", event)
    assert f"Venue directors with tokens: {OWN}" in output
    assert "Platforms with tokens: tencent" in output
    assert token not in output


# ---- the routes, table-driven ----

ENTRY = {"set": 1, "ns_level": "5", "ew_level": "2"}
ROUTES = [
    # (name, method, path with {t}, body, status on my table, on theirs)
    ("enter", "post", "/api/v1/rounds/1/tables/{t}/entries", ENTRY, 201, 403),
    ("verify", "post", "/api/v1/rounds/1/tables/{t}/sets/1/verify", None, 200, 403),
    ("dispute", "post", "/api/v1/rounds/1/tables/{t}/sets/2/dispute", {"note": "x"}, 200,
     403),
    ("table view", "get", "/api/v1/rounds/1/tables/{t}", None, 200, 403),
    ("boards", "get", "/api/v1/rounds/1/tables/{t}/boards", None, 403, 403),
]
EVENT_WIDE = [
    # (name, method, path, body, status)
    ("progress (its tables)", "get", "/api/v1/rounds/1/progress", None, 200),
    ("queue (its tables)", "get", "/api/v1/rounds/1/queue", None, 200),
    ("feed (its tables)", "get", "/api/v1/feed", None, 200),
    ("results push", "post", "/api/v1/results", {"results": []}, 403),
    ("standings (public)", "get", "/api/v1/rounds/1/standings", None, 200),
]


def call(client, method, path, body, header):
    if method == "get":
        return client.get(path, headers=header)
    return client.post(path, headers=header, json=body if body is not None else {})


def test_issue24_venue_director_reaches_its_venues_tables_only(event):
    token = make(event)
    header = bearer(token)
    wrong = []
    with running(event, store_delay=0.05) as base, httpx.Client(base_url=base) as client:
        for name, method, path, body, mine, theirs in ROUTES:
            for table, expected in ((MINE, mine), (THEIRS, theirs)):
                body_now = body | {"id": f"{name}-{table}"} if name == "enter" else body
                answer = call(client, method, path.format(t=table), body_now, header)
                if answer.status_code != expected:
                    wrong.append(f"{name} table {table}: {answer.status_code} "
                                 f"{answer.text[:200]}, expected {expected}")
                elif expected == 403:
                    refused = answer.json()
                    if (refused.get("caller"), refused.get("venue"), refused.get("tables")) \
                            != (f"director of venue {OWN}", OWN, {"first": 1, "last": 3}):
                        wrong.append(f"{name} table {table}: refusal body {refused}")
        for name, method, path, body, expected in EVENT_WIDE:
            answer = call(client, method, path, body, header)
            if answer.status_code != expected:
                wrong.append(f"{name}: {answer.status_code} {answer.text[:200]}, "
                             f"expected {expected}")
    assert wrong == [], "\n".join(wrong)


def test_issue24_refusal_says_whose_token_and_what_it_reaches(event):
    token = make(event)
    with running(event) as base:
        answer = httpx.post(f"{base}/api/v1/rounds/1/tables/{THEIRS}/entries",
                            headers=bearer(token), json=ENTRY | {"id": "a"})
    assert answer.status_code == 403
    assert answer.json() == {
        "error": f"this is the token of the director of venue {OWN} (tables 1-3): it reaches "
                 f"its venue's tables only, not table {THEIRS}; ask the event's director",
        "caller": f"director of venue {OWN}", "venue": OWN, "tables": {"first": 1, "last": 3}}


def play(client, header, table, set_no=1, entry_id=None):
    """Enter and verify ``table``'s set with ``header``'s token (the director's powers)."""
    answer = client.post(f"/api/v1/rounds/1/tables/{table}/entries", headers=header,
                         json=ENTRY | {"set": set_no, "id": entry_id or f"e{table}{set_no}"})
    assert answer.status_code == 201, answer.text
    answer = client.post(f"/api/v1/rounds/1/tables/{table}/sets/{set_no}/verify",
                         headers=header)
    assert answer.status_code == 200, answer.text


def test_issue24_progress_queue_and_feed_show_its_tables_only(event):
    venue, boss = bearer(make(event)), tokens(event).boss
    with running(event, store_delay=0.05) as base, httpx.Client(base_url=base) as client:
        play(client, venue, MINE)
        play(client, boss, THEIRS)
        play(client, boss, 1)
        progress = client.get("/api/v1/rounds/1/progress", headers=venue).json()
        queue_item = client.post(f"/api/v1/rounds/1/tables/{MINE}/sets/2/dispute",
                                 headers=venue, json={"note": "n"})
        assert queue_item.status_code == 200
        client.post(f"/api/v1/rounds/1/tables/{THEIRS}/sets/2/dispute", headers=boss,
                    json={"note": "n"})
        queue = client.get("/api/v1/rounds/1/queue", headers=venue).json()
        mine = client.get("/api/v1/feed", headers=venue).json()
        everyone = client.get("/api/v1/feed", headers=boss).json()
        small = client.get("/api/v1/feed", params={"limit": 1}, headers=venue).json()
        rest = client.get("/api/v1/feed", params={"after": small["next"]}, headers=venue).json()
    assert {s["table"] for s in progress["sets"]} == {1, 2, 3} and progress["venue"] == OWN
    assert [(s["table"], s["set"]) for s in queue["sets"]] == [(MINE, 2)]
    assert [(e["table"], e["source"]) for e in mine["events"]] == [
        (MINE, f"director of venue {OWN}"), (1, "director")]
    assert sorted(e["table"] for e in everyone["events"]) == [1, MINE, THEIRS]
    assert [e["table"] for e in small["events"]] == [MINE]
    assert [e["table"] for e in rest["events"]] == [1]  # nothing missed, nothing twice
    assert mine["next"] == everyone["next"]


def test_issue24_venue_directors_correction_is_a_ledger_row_saying_who(event):
    venue = bearer(make(event))
    with running(event, store_delay=0.05) as base, httpx.Client(base_url=base) as client:
        play(client, venue, MINE)
        answer = client.post(f"/api/v1/rounds/1/tables/{MINE}/entries", headers=venue,
                             json={"id": "fix", "set": 1, "ns_level": "6", "ew_level": "2",
                                   "reason": "both sides agree: 6 not 5"})
        assert answer.status_code == 201, answer.text

        def corrected():
            with reading(event) as folder:
                rows = read_ledger(folder)
            rows = rows[rows["kind"] == "corrected"]
            return rows.to_dict("records") or None

        [row] = wait_for(corrected)
    assert int(row["table"]) == MINE and row["reason"] == "both sides agree: 6 not 5"
    assert row["command"].endswith(f"corrected by the director of venue {OWN}")


def test_issue24_running_server_sees_new_and_revoked_venue_tokens(event):
    with running(event) as base:
        url = f"{base}/api/v1/rounds/1/progress"
        token = make(event)
        time.sleep(RECHECK + 0.1)
        assert httpx.get(url, headers=bearer(token)).status_code == 200
        run("event", "tokens", event, "--revoke-venue", OWN)
        time.sleep(RECHECK + 0.1)
        assert httpx.get(url, headers=bearer(token)).status_code == 401


# ---- the console ----


def test_issue24_console_of_a_venue_director_shows_its_tables_and_refuses_the_rest(event):
    token = make(event)
    cookies = {DIRECTOR_COOKIE: token}
    csrf = csrf_token(folder_secret(event), token)
    with running(event, store_delay=0.05) as base:
        way_in = httpx.get(f"{base}/director", params={"token": token})
        assert way_in.status_code == 303
        page = httpx.get(f"{base}/director", cookies=cookies)
        assert page.status_code == 200
        assert 'id="venue-scope"' in page.text and OWN in page.text
        assert 'id="loop"' not in page.text and 'id="ledger-section"' not in page.text
        shown = {int(t) for t in re.findall(r'<tr data-table="(\d+)"', page.text)}
        assert shown == {1, 2, 3}
        data = json.loads(re.search(r'id="console-data">(.*?)</script>', page.text).group(1))
        assert {s["table"] for s in data["progress"]["sets"]} == {1, 2, 3}

        def post(action, **form):
            answer = httpx.post(f"{base}/director/{action}", cookies=cookies,
                                data={"csrf": csrf, "round": "1", **form})
            assert answer.status_code == 303, answer.text
            return httpx.get(f"{base}{answer.headers['location']}", cookies=cookies).text

        scored = post("score")
        assert "it reaches its venue&#39;s tables only" in scored and "the score button" in scored
        theirs = post("correct", table=str(THEIRS), set="1", ns_level="5", ew_level="2",
                      reason="r")
        assert f"not table {THEIRS}" in theirs
        revoked = post("revoke", table=str(THEIRS))
        assert f"cannot replace table {THEIRS}&#39;s link" in revoked
        mine = post("correct", table=str(MINE), set="1", ns_level="5", ew_level="2",
                    reason="paper scoresheet")
        assert f"entered by the director of venue {OWN}" in mine
    folder = EventFolder.open(event)
    assert folder.plan.venue_of_table(MINE) == OWN


# ---- the links file Excel keeps ----


def test_issue24_links_workbook_keeps_the_pins_leading_zeros(event, tmp_path):
    from openpyxl import load_workbook

    printed = run("event", "tokens", event, "--round", 1).splitlines()[1:]
    out = tmp_path / "links.xlsx"
    run("event", "tokens", event, "--round", 1, "--out", out)
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600
    sheet = load_workbook(out).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0] == ("table", "pin", "url")
    assert [f"{t},{p},{u}" for t, p, u in rows[1:]] == printed
    for cell in sheet["B"][1:]:
        assert isinstance(cell.value, str) and len(cell.value) == 6 and cell.number_format == "@"


# ---- the event stream and the feed's pages ----


def test_issue24_venue_directors_stream_sends_its_tables_progress(event):
    token = make(event)
    with running(event) as base, httpx.stream(
            "GET", f"{base}/api/v1/stream", params={"round": 1}, headers=bearer(token),
            timeout=10) as response:
        lines = response.iter_lines()
        assert next(lines) == "retry: 3000"
        assert next(lines) == "event: progress"
        next(lines)  # id
        data = json.loads(next(lines)[len("data: "):])
    assert {s["table"] for s in data["sets"]} == {1, 2, 3} and data["venue"] == OWN


def feed_of(tables: list[int | None]) -> list[dict]:
    """Feed events, cursors 1.., one per table (``None``: an event of no table)."""
    return [{"cursor": str(i), "type": "result" if t is not None else "standings",
             **({"table": t} if t is not None else {})} for i, t in enumerate(tables, 1)]


@pytest.mark.parametrize("tables, after, limit, shown, next_cursor", [
    ([1, 4, 2, 5, 3], 0, 10, [1, 2, 3], "5"),
    ([1, 4, 2, 5, 3], 0, 2, [1, 2], "3"),
    ([1, 4, 2, 5, 3], 3, 2, [3], "5"),
    ([4, None, 5], 0, 10, [None], "3"),  # a standings event is every venue's
    ([4] * 100 + [1], 0, 2, [], "40"),  # looked at 20 x limit: read on from next
    ([], 0, 5, [], "0"),
])
def test_issue24_venue_feed_pages_skip_other_venues_and_never_miss(tables, after, limit,
                                                                   shown, next_cursor):
    from guandan_dup.live.feed import Feed
    from guandan_dup.live.venue_scope import feed_page

    feed = Feed(list(range(1, len(tables) + 1)), feed_of(tables))
    page = feed_page(lambda a, n: feed.page(a, n, len(tables)), after, limit,
                     VenueDirector(OWN, range(1, 4)))
    assert [e.get("table") for e in page["events"]] == shown
    assert page["next"] == next_cursor
