"""STYLE rule 18 and issue 22 item 4: an acknowledged entry survives anything.

The journal commits before the answer and in groups; replaying it gives the same desk; a
server killed with SIGKILL and started again has every entry it acknowledged, and every
set verified reaches results.parquet even when the kill came before the folder's write."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import threading

import httpx
import pytest
from live_support import individual, serve_process, tokens, wait_for

from guandan_dup.event import EventFolder
from guandan_dup.live.desk import Desk
from guandan_dup.live.journal import Journal, JournalError, Record
from guandan_dup.live.tokens import Director, Table


@pytest.fixture
def event(tmp_path):
    return individual(tmp_path)


def test_rule18_records_are_durable_in_order_and_queued_ones_share_a_commit(event):
    journal = Journal(event)
    futures = [journal.submit(Record(i, "entry", {"n": i})) for i in range(1, 301)]
    assert [f.result(10) for f in futures] == list(range(1, 301))
    assert journal.commits < 300  # group commit: far fewer syncs than records
    journal.close()
    again = Journal(event)
    assert [r.data["n"] for r in again.records()] == list(range(1, 301))
    assert again.last_seq == 300
    again.close()
    db = sqlite3.connect(event / "live" / "journal.sqlite")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()


def test_one_server_per_event_folder(event):
    journal = Journal(event)
    with pytest.raises(JournalError, match="another server is running"):
        Journal(event)
    journal.close()
    Journal(event).close()


def test_a_server_closed_on_another_thread_than_it_opened_on_frees_the_folder(event):
    """The app opens its desk on one of the event loop's worker threads and closes it on
    whichever is free: the lock goes with the journal, not with the thread."""
    opened = []
    thread = threading.Thread(target=lambda: opened.append(Journal(event)))
    thread.start()
    thread.join()
    opened[0].close()  # on this thread
    Journal(event).close()


def test_a_record_after_close_is_refused_not_lost_silently(event):
    journal = Journal(event)
    journal.close()
    with pytest.raises(JournalError):
        journal.submit(Record(1, "entry", {})).result(5)


def play(desk: Desk):
    async def run():
        table = Table(1, 1)
        answers = [await desk.enter(1, 1, {"id": f"b{i}", "set": 1, "board": i + 1,
                                           "finish": f}, table)
                   for i, f in enumerate(["NS", "NES", "ENW"])]
        answers.append(await desk.verify(1, 1, 1, table))
        answers.append(await desk.enter(1, 2, {"id": "s", "set": 2, "ns_level": "4",
                                               "ew_level": "2"}, Director()))
        answers.append(await desk.dispute(1, 3, 1, Table(1, 3), "who won board 2?"))
        return answers
    return asyncio.run(run())


def test_rule18_a_replayed_journal_gives_the_same_desk(event):
    desk = Desk.open(event, store_delay=0.05)
    answers = play(desk)
    assert [a.status for a in answers] == [201, 201, 201, 200, 201, 200]
    assert desk.store.flush()
    views = {t: desk.table_view(1, t) for t in (1, 2, 3)}
    progress = desk.progress(1)
    desk.close()
    again = Desk.open(event)
    assert {t: again.table_view(1, t) for t in (1, 2, 3)} == views
    assert again.progress(1) == progress
    resent = asyncio.run(again.enter(1, 1, {"id": "b0", "set": 1, "board": 1, "finish": "NS"},
                                     Table(1, 1)))
    assert (resent.status, resent.body) == (200, answers[0].body)
    again.close()


def test_a_verified_set_missing_from_the_folder_is_stored_again_on_start(event):
    desk = Desk.open(event, store_delay=0.05)
    play(desk)
    desk.close()
    folder = EventFolder.open(event)
    assert folder.read(1, "results")["table"].tolist() == [1]
    for name in ("results.parquet", "entered.parquet"):
        os.remove(folder.file(1, name))
    again = Desk.open(event, store_delay=0.05)
    try:
        stored = wait_for(lambda: EventFolder.open(event).read(1, "results"), timeout=5)
        assert stored["table"].tolist() == [1]
    finally:
        again.close()


def test_issue22_every_acknowledged_entry_survives_kill_9(event):
    keys = tokens(event)
    acknowledged, verified = [], []
    with serve_process(event) as (process, base):
        def table(t: int):
            with httpx.Client(base_url=base, headers=keys.table(t), timeout=10) as client:
                for set_no, first in ((1, 1), (2, 4)):
                    for i, finish in enumerate(["NS", "ENW", "NEW"]):
                        body = {"id": f"{t}.{set_no}.{i}", "set": set_no,
                                "board": first + i, "finish": finish}
                        answer = client.post(f"/api/v1/rounds/1/tables/{t}/entries", json=body)
                        if answer.status_code == 201:
                            acknowledged.append((t, body["id"]))
                    answer = client.post(f"/api/v1/rounds/1/tables/{t}/sets/{set_no}/verify")
                    if answer.status_code == 200:
                        verified.append((t, set_no))

        threads = [threading.Thread(target=table, args=(t,)) for t in (1, 2, 3, 4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
    assert len(acknowledged) == 24 and len(verified) == 8
    with serve_process(event) as (_, base):
        with httpx.Client(base_url=base, timeout=10) as client:
            for t in (1, 2, 3, 4):
                view = client.get(f"/api/v1/rounds/1/tables/{t}", headers=keys.table(t)).json()
                ids = {(t, e["id"]) for s in view["sets"] for e in s["entries"]}
                assert {a for a in acknowledged if a[0] == t} <= ids
                assert {s["state"] for s in view["sets"]} == {"verified"}
        results = wait_for(lambda: (r := EventFolder.open(event).read(1, "results")) is not None
                           and len(r) == 8 and r, timeout=10)
    assert sorted(zip(results["table"], results["set"], strict=True)) == sorted(verified)
