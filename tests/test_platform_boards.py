"""Issue 24 item 2: a round's boards released to platforms when it starts. ``event open DIR
--round R`` is a ledger row; before it ``GET /api/v1/rounds/R/tables/T/boards`` is refused,
after it a running server gives the table's boards (the sets it plays, cards as SPEC 2's
text, the same as the board set file); every release is recorded and shown by
``event status``."""

from __future__ import annotations

import json
import time

import httpx
import live_support
import pytest
from event_support import run
from live_support import tokens

from guandan_dup.cards import card_to_text
from guandan_dup.deals import boardset
from guandan_dup.event import EventFolder
from guandan_dup.event.opening import RELEASES, RoundNotOpenError, releases, table_boards
from guandan_dup.ledger import load
from guandan_dup.live.callers import DIRECTOR_COOKIE
from guandan_dup.live.tokens import RECHECK

template, event, base = live_support.template, live_support.event, live_support.base


def platform(event, name: str = "tencent") -> dict:
    token = run("event", "tokens", event, "--platform", name).split()[-1]
    return {"Authorization": f"Bearer {token}"}


def url(base: str, round_no: int, table: int) -> str:
    return f"{base}/api/v1/rounds/{round_no}/tables/{table}/boards"


def expected(event, round_no: int, table: int) -> list[dict]:
    """The table's boards straight from the board set file and the plan."""
    folder = EventFolder.open(event)
    sets = {s for t, s in folder.plan.planned_results(round_no) if t == table}
    file = boardset.load(folder.file(round_no, "boards"))
    hands = boardset.hands_of(file)
    out = []
    for i, row in enumerate(file.select(["board", "set", "leader"]).to_pylist()):
        if row["set"] in sets:
            out.append(row | {seat: [card_to_text(int(c)) for c in hands[i][n]]
                              for n, seat in enumerate(("north", "east", "south", "west"))})
    return out


def test_issue24_boards_refused_before_open_and_given_after_without_restart(base, event):
    header = platform(event)
    time.sleep(RECHECK + 0.1)
    before = httpx.get(url(base, 1, 3), headers=header)
    assert before.status_code == 403
    assert "round 1 is not open yet" in before.json()["error"]
    assert releases(event) == []
    run("event", "open", event, "--round", 1)
    after = httpx.get(url(base, 1, 3), headers=header)
    assert after.status_code == 200, after.text
    body = after.json()
    assert (body["round"], body["table"]) == (1, 3)
    assert body["boards"] == expected(event, 1, 3)


def test_issue24_boards_are_the_tables_sets_only_and_cards_are_spec2_text(base, event):
    header = platform(event)
    run("event", "open", event, "--round", 1)
    time.sleep(RECHECK + 0.1)
    folder = EventFolder.open(event)
    for table in (1, 2, 3, 4):
        body = httpx.get(url(base, 1, table), headers=header).json()
        sets = sorted({b["set"] for b in body["boards"]})
        assert sets == sorted({s for t, s in folder.plan.planned_results(1) if t == table})
        for board in body["boards"]:
            cards = [c for seat in ("north", "east", "south", "west") for c in board[seat]]
            assert len(cards) == 108 and all(len(c) == 2 for c in cards), board
        assert body["boards"][0]["leader"] == "E"


@pytest.mark.parametrize("round_no, table, status, message", [
    (1, 9, 404, "round 1 has no table 9 seated"),
    (7, 1, 404, "round 7 is not in the plan"),
    (2, 1, 404, "round 2 has no table 1 seated"),
])
def test_issue24_unknown_round_or_table_is_404(base, event, round_no, table, status, message):
    header = platform(event)
    run("event", "open", event, "--round", 1)
    time.sleep(RECHECK + 0.1)
    answer = httpx.get(url(base, round_no, table), headers=header)
    assert answer.status_code == status
    assert message in answer.json()["error"]


@pytest.mark.parametrize("who, status", [
    ("none", 401), ("unknown", 401), ("table", 403), ("director", 403),
])
def test_issue24_boards_need_a_platform_token(base, event, who, status):
    run("event", "open", event, "--round", 1)
    keys = tokens(event)
    header = {"none": {}, "unknown": {"Authorization": "Bearer nope"},
              "table": keys.table(1), "director": keys.boss}[who]
    answer = httpx.get(url(base, 1, 1), headers=header)
    assert answer.status_code == status
    assert "error" in answer.json()


def test_issue24_open_is_a_ledger_row(event):
    output = run("event", "open", event, "--round", 1)
    assert "round 1 is open" in output
    ledger = load(event / "ledger.parquet")
    row = ledger.iloc[-1]
    assert (row["kind"], int(row["round"]), row["reason"]) == ("open", 1, "the round starts")
    assert "event open" in row["command"] and not ledger["time"].isna().any()
    listed = run("event", "ledger", "list", event)
    assert "boards are released to platforms" in listed


@pytest.mark.parametrize("setup, round_no, message", [
    ([], 2, "round 2 is not dealt yet"),
    ([("event", "deal", "{dir}", "--round", 2, "--quiet")], 2, "round 2 is not seated yet"),
    ([("event", "open", "{dir}", "--round", 1)], 1, "round 1 is already open"),
    ([], 3, "round 3 is not in the plan"),
])
def test_issue24_event_open_refusals(event, setup, round_no, message):
    for args in setup:
        run(*[event if a == "{dir}" else a for a in args])
    output = run("event", "open", event, "--round", round_no, code=1)
    assert message in output


def test_issue24_ledger_add_refuses_open(event):
    output = run("event", "ledger", "add", event, "open", "--round", 1, "--reason", "x",
                 code=1)
    assert output.splitlines() == [
        f"Error: a round is opened by `guandan-dup event open {event} --round 1`, which checks "
        "it is dealt and seated first; nothing was written"]


def test_issue24_releases_recorded_and_shown_by_event_status(base, event):
    first, second = platform(event, "tencent"), platform(event, "qq")
    run("event", "open", event, "--round", 1)
    time.sleep(RECHECK + 0.1)
    for header, tables in ((first, (1, 2, 3)), (second, (4,))):
        for table in tables:
            assert httpx.get(url(base, 1, table), headers=header).status_code == 200
    found = releases(event)
    assert [(r.platform, r.round, r.table) for r in found] == [
        ("tencent", 1, 1), ("tencent", 1, 2), ("tencent", 1, 3), ("qq", 1, 4)]
    lines = (event / RELEASES).read_text(encoding="utf-8").splitlines()
    assert all(json.loads(line)["time"] for line in lines)
    status = run("event", "status", event)
    assert "Round 1 open since" in status
    assert "qq (1 of 4 tables), tencent (3 of 4 tables)" in status
    page = httpx.get(f"{base}/director", cookies={DIRECTOR_COOKIE: tokens(event).director})
    assert "qq (1 of 4 tables), tencent (3 of 4 tables)" in page.text


def test_issue24_a_torn_last_release_line_is_skipped(event):
    (event / RELEASES).write_text('{"platform": "a", "round": 1, "table": 1, "time": "t"}\n'
                                  '{"platform": "a", "rou', encoding="utf-8")
    assert [r.table for r in releases(event)] == [1]


def test_issue24_reveal_works_after_open(event):
    run("event", "open", event, "--round", 1)
    output = run("event", "reveal", event, "--abandoned", "a test")
    assert "Error" not in output


def test_issue24_opening_a_round_leaves_scored_rounds_up_to_date(event):
    folder = EventFolder.open(event)
    simulate = run("simulate", "--event", event, "--rounds", 1)
    assert "Error" not in simulate
    run("event", "deal", event, "--round", 2, "--quiet")
    run("event", "seat", event, "--round", 2)
    run("event", "open", event, "--round", 2)
    assert EventFolder.open(event).stale_rounds() == [] and folder.rounds_scored() == [1]


@pytest.mark.parametrize("make", [live_support.individual, live_support.teams,
                                  live_support.knockout], ids=["individual", "teams",
                                                               "knockout"])
def test_issue24_every_format_gives_each_seated_table_its_own_sets(tmp_path, make):
    directory = make(tmp_path)
    run("event", "open", directory, "--round", 1)
    folder = EventFolder.open(directory)
    seating = folder.read(1, "seating")
    for table in sorted({int(t) for t in seating["table"]}):
        body = table_boards(folder, 1, table)
        assert body["boards"] == expected(directory, 1, table), table
        assert body["boards"], f"table {table} has no boards"


def test_issue24_withdrawing_the_open_row_closes_the_round_again(event):
    run("event", "open", event, "--round", 1)
    assert table_boards(EventFolder.open(event), 1, 1)["boards"]
    row = int(load(event / "ledger.parquet")["id"].max())
    run("event", "ledger", "withdraw", event, row, "--reason", "opened too early")
    with pytest.raises(RoundNotOpenError, match="round 1 is not open yet"):
        table_boards(EventFolder.open(event), 1, 1)
    assert "round 1 is open" in run("event", "open", event, "--round", 1)
