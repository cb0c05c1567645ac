"""Issue 24 item 3 at speed: a platform's batch is one journal record (``platforms``), each
result under its own number; replaying it after a restart gives the same state, answers and
feed, and journals written with one ``platform`` record a result replay as before."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest
from event_support import run
from live_support import individual

from guandan_dup.errors import GuandanError
from guandan_dup.live import pushes
from guandan_dup.live.desk import Desk
from guandan_dup.live.entries import Entry
from guandan_dup.live.journal import Journal, Record
from guandan_dup.live.sets import canonical


def item(i: str, table: int, set_no: int = 1, ns: str = "5", ew: str = "2") -> dict:
    return {"id": i, "round": 1, "table": table, "set": set_no, "ns_level": ns,
            "ew_level": ew}


BATCH = [item("a", 1), {"id": "b", "round": 1, "table": 2, "board": 1, "finish": "NSEW"},
         item("a", 1), item("c", 1, ns="4"), item("d", 9), {"id": "r", "round": [1]},
         item("e", 3, 2, "3", "4")]
ANSWERS = [{"id": "a", "state": "verified"}, {"id": "b", "state": "entered"},
           {"id": "a", "state": "verified"}, "already verified", "table", "round",
           {"id": "e", "state": "verified"}]


def answered(answers: list[dict]) -> list:
    """Answers as ``ANSWERS`` writes them: a problem by its field or a word of it."""
    out = []
    for answer in answers:
        if "problems" not in answer:
            out.append(answer)
        else:
            found = answer["problems"][0]
            out.append("already verified" if "already verified" in found["message"]
                       else found["field"])
    return out


def pushed(desk: Desk, items: list, platform: str = "tencent") -> list:
    answer = asyncio.run(pushes.push(desk, platform, items))
    assert answer.status == 200, answer.body
    return answer.body["results"]


def records(folder) -> list[tuple[int, str]]:
    db = sqlite3.connect(folder / "live" / "journal.sqlite")
    try:
        return db.execute("SELECT seq, kind FROM records ORDER BY seq").fetchall()
    finally:
        db.close()


@pytest.fixture
def event(tmp_path):
    folder = individual(tmp_path)
    run("event", "open", folder, "--round", 1)
    return folder


def test_issue24_a_batch_is_one_record_and_a_restart_gives_the_same_answers(event):
    desk = Desk.open(event, store_delay=0.01)
    try:
        first = pushed(desk, BATCH)
        feed = desk.feed.page(0, 100, desk.journal.committed)
    finally:
        desk.close()
    assert answered(first) == ANSWERS
    assert records(event) == [(3, "platforms")]  # a, b, e: results 1, 2 and 3
    assert [(e["id"], e["cursor"], e["table"]) for e in feed["events"]] == [
        ("a", "1", 1), ("e", "3", 3)]
    again = Desk.open(event, store_delay=0.01)
    try:
        assert again.feed.page(0, 100, again.journal.committed) == feed
        assert again.record((1, 2, 1)).entered.boards[1].finish == "NSEW"
        assert answered(pushed(again, BATCH)) == ANSWERS  # ids idempotent: nothing new
        assert records(event) == [(3, "platforms")]
        changed = pushed(again, [item("e", 3, 2, "4", "4"), item("f", 4)])
        assert "already used" in changed[0]["problems"][0]["message"]
        assert changed[1] == {"id": "f", "state": "verified"}
        assert records(event) == [(3, "platforms"), (4, "platforms")]
        assert again.store.flush()
    finally:
        again.close()


def test_issue24_a_journal_of_one_record_a_result_replays_as_before(event):
    old = item("old", 2)
    journal = Journal(event)  # as the server wrote a platform's result before batches
    journal.submit(Record(1, "platform", {
        "round": 1, "table": 2, "set": 1, "platform": "tencent", "id": "old",
        "at": "2026-12-03T10:00:00+00:00", "body": canonical(old),
        "entry": Entry("old", 1, 3, 0).to_dict(), "answer": {"id": "old", "state":
                                                             "verified"},
        "verified": True, "levels": {"ns": "5", "ew": "2"}})).result(10)
    journal.close()
    desk = Desk.open(event, store_delay=0.01)
    try:
        assert desk.record((1, 2, 1)).by == "platform tencent"
        answers = pushed(desk, [old, item("old", 2, ns="6"), item("new", 1)])
        assert answers[0] == {"id": "old", "state": "verified"}
        assert "already used" in answers[1]["problems"][0]["message"]
        assert answers[2] == {"id": "new", "state": "verified"}
        events = desk.feed.page(0, 10, desk.journal.committed)["events"]
        assert [(e["id"], e["cursor"]) for e in events] == [("old", "1"), ("new", "2")]
    finally:
        desk.close()


def test_issue24_nothing_takes_a_number_inside_a_batch(event):
    desk = Desk.open(event, store_delay=0.01)
    try:
        one, other = desk.pushes("a", "t"), desk.pushes("b", "t")
        one.take(1, 1, Entry("x", 1, 3, 0), "{}", True, {"ns": "5", "ew": "2"})
        other.take(1, 2, Entry("y", 1, 3, 0), "{}", True, {"ns": "5", "ew": "2"})
        with pytest.raises(RuntimeError, match="inside a platform's batch"):
            one.take(1, 3, Entry("z", 1, 3, 0), "{}", True, {"ns": "5", "ew": "2"})
    finally:
        desk.close()


def test_issue24_serve_collects_garbage_less_often_and_freezes_the_open_desk(event,
                                                                             monkeypatch):
    import gc

    from guandan_dup.live import server

    made = []

    def run(self):  # in place of uvicorn's loop: what serve set up, seen from inside
        made.append((gc.get_threshold(), self.freeze))

    monkeypatch.setattr(server._Server, "run", run)
    before = gc.get_threshold()
    try:
        with pytest.raises(GuandanError, match="could not start"):
            server.serve(event, port=0, echo=lambda line: None)
    finally:
        gc.set_threshold(*before)
    assert made == [(server.GC_THRESHOLDS, True)]
