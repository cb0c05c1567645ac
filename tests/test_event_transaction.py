"""Issue 9 items 1-2: one writer at a time, and a step killed at any instant leaves the folder
as it was before or after the whole step.

Writers run in forked processes (several processes, as two terminals would be); a "kill -9"
is the child sending itself SIGKILL just before its n-th ``os.replace`` or ``os.fsync``,
which are the instants between which a step's files change. The tests taking
``lock_backend`` run twice: with the system's lock and with the portable one forced
(issue 22 item 5: Windows' lock, tested on Linux; see test_transaction_portable_lock.py).
"""

import os
import re
import signal
import time
import traceback

import pytest
from event_support import KEY, holding_child, killed, players_csv, set_results, write
from kill_support import check_kill_anywhere, in_child, state
from typer.testing import CliRunner

from guandan_dup.cli import app
from guandan_dup.errors import GuandanError
from guandan_dup.event import (
    EventFolder,
    create_event,
    deal_round,
    ingest,
    score_round,
    seat_event_round,
    transaction,
)
from guandan_dup.event.entrants import demo_players
from guandan_dup.event.publish import build_event_site
from guandan_dup.event.transaction import JOURNAL, LOCK_FILE, Portable, reading, writing
from guandan_dup.reports.site import build as site_build


def in_child_async(work) -> int:
    """Start ``work()`` in a forked process (exit 0 when it returns, 1 if it raises); its pid."""
    pid = os.fork()
    if pid == 0:
        try:
            work()
            os._exit(0)
        except BaseException:
            traceback.print_exc()
            os._exit(1)
    return pid


@pytest.fixture(params=["system", "portable"])
def lock_backend(request, monkeypatch):
    """The folder lock of this process and its forked children: the system's, or the
    portable one (``filelock``'s, Windows' path) forced."""
    if request.param == "portable":
        monkeypatch.setattr(transaction, "backend", Portable())
    return request.param


@pytest.fixture
def seated(tmp_path):
    """Round 1 of a 24-player event (6 tables, 2 sets), dealt and seated."""
    csv = players_csv(tmp_path / "players.csv", 24)
    folder = create_event(tmp_path / "event", csv, 3, 2, 2, 2, key=KEY)
    deal_round(folder, 1)
    seat_event_round(folder, 1)
    return folder


def test_issue9_item1_concurrent_ingests_of_different_tables_keep_every_result(
    seated, tmp_path, lock_backend
):
    results = set_results(seated, 1)
    batches = ([1], [2], [3, 4], [5, 6])  # four helpers, each with their own tables' slips
    files = [
        write(results[results["table"].isin(tables)], tmp_path / f"tables-{tables[0]}.parquet")
        for tables in batches
    ]
    pids = [in_child_async(lambda f=file: ingest(EventFolder.open(seated.path), f, 1))
            for file in files]
    codes = [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in pids]
    assert codes == [0] * len(files)
    stored = seated.read(1, "results")
    assert len(stored) == len(results) and seated.missing_results(1) == []


def test_issue9_item1_a_second_writer_waits_then_refuses_naming_the_holder(seated, lock_backend):
    pid = holding_child(lambda: writing(seated.path, "event score"))
    told = []
    before = state(seated.path)
    try:
        started = time.monotonic()
        with pytest.raises(GuandanError) as refused, writing(
            seated.path, "event ingest", wait=0.3, notify=told.append
        ):
            pass
        assert time.monotonic() - started >= 0.3
    finally:
        killed(pid)
    holder = rf"`event score` \(pid {pid}\) since \d{{4}}-\d\d-\d\d \d\d:\d\d:\d\d UTC"
    assert re.fullmatch(rf"waiting up to 0.3 s for the lock on '.*' held by {holder} \.\.\.",
                        told[0])
    message = str(refused.value)
    assert re.search(rf"is locked by {holder}; waited 0.3 s. Nothing was changed", message)
    assert state(seated.path) == before


def test_issue9_item1_a_killed_holder_never_blocks_and_is_not_named_afterwards(seated):
    pid = holding_child(lambda: writing(seated.path, "event score"))
    killed(pid)
    with writing(seated.path, "event ingest", wait=0) as folder:
        assert folder.plan == seated.plan
    # The dead writer's record must not be reported when a reader holds the lock later.
    (seated.path / LOCK_FILE).write_text(f'{{"command": "event score", "pid": {pid}, '
                                         '"since": "then"}', encoding="utf-8")
    with reading(seated.path), pytest.raises(GuandanError) as refused, writing(
        seated.path, "event ingest", wait=0
    ):
        pass
    assert "locked by another process (perhaps a reader such as `event status`)" in str(
        refused.value
    )


def test_issue9_item1_writing_without_the_lock_is_a_bug(seated):
    with pytest.raises(RuntimeError, match="without its lock"):
        seated.replace_files({seated.path / "x.txt": b"x"})
    assert not (seated.path / "x.txt").exists()


def test_issue9_item2_ingest_killed_anywhere_leaves_before_or_after(seated, tmp_path, lock_backend):
    results = set_results(seated, 1)
    ingest(seated, write(results, tmp_path / "all.parquet"), 1)
    fix = write(results[results["table"] == 2].assign(ns_level="5", ew_level="2"),
                tmp_path / "fix.parquet")
    check_kill_anywhere(seated.path, lambda p: ingest(EventFolder.open(p), fix, 1), samples=5)


def test_issue9_item2_score_killed_anywhere_leaves_before_or_after(seated, tmp_path):
    ingest(seated, write(set_results(seated, 1), tmp_path / "all.parquet"), 1)
    check_kill_anywhere(seated.path, lambda p: score_round(EventFolder.open(p), 1), samples=8)


def test_issue9_item1_the_cli_waits_then_says_who_holds_the_lock(seated, tmp_path, lock_backend):
    results = write(set_results(seated, 1), tmp_path / "all.parquet")
    pid = holding_child(lambda: writing(seated.path, "event seat"))
    try:
        result = CliRunner().invoke(app, ["event", "ingest", str(seated.path), str(results),
                                          "--round", "1", "--wait", "0.2"])
    finally:
        killed(pid)
    assert result.exit_code == 1
    assert f"held by `event seat` (pid {pid})" in result.output
    assert "Error: the event folder" in result.output and "waited 0.2 s" in result.output
    assert seated.read(1, "results") is None


@pytest.mark.parametrize("kill_at", [1, 2])  # the two renames of the swap: before, between
def test_issue9_item2_a_killed_site_build_leaves_nothing_after_the_next_build(
    seated, tmp_path, kill_at, monkeypatch
):
    """The fallback swap (two renames, where the folders cannot be exchanged in one step)."""
    monkeypatch.setattr(site_build, "exchange", lambda first, second: False)
    ingest(seated, write(set_results(seated, 1), tmp_path / "all.parquet"), 1)
    score_round(seated, 1)
    build_event_site(seated)
    published = state(seated.path / "site")
    assert in_child(lambda: build_event_site(seated), kill_at, ("replace",)) == -signal.SIGKILL
    left = sorted(p.name.split("-")[0] for p in seated.path.glob(".site.*"))
    assert left == [".site.new"] if kill_at == 1 else [".site.new", ".site.old"]
    site_build.clean_leftovers(seated.path / "site")  # what the next build does first
    assert state(seated.path / "site") == published  # a site set aside is put back
    build_event_site(seated)
    assert not list(seated.path.glob(".site.*"))
    assert (seated.path / "site" / "index.html").is_file()


def test_issue21_item16_a_site_build_killed_anywhere_in_the_swap_leaves_a_whole_site(
    seated, tmp_path
):
    """Killed just before each of the build's last syncs and renames (the built folder's
    syncs, the swap, the sync of the folder holding the site), the site folder is always
    there, holding the old site or the whole new one; the next build leaves nothing beside."""
    ingest(seated, write(set_results(seated, 1), tmp_path / "all.parquet"), 1)
    score_round(seated, 1)
    site = seated.path / "site"
    build_event_site(seated, lang="en")
    old = state(site)
    calls = in_child(lambda: build_event_site(seated, lang="zh"))
    new = state(site)
    assert new != old
    build_event_site(seated, lang="en")
    for n in range(calls - 4, calls + 1):
        assert in_child(lambda: build_event_site(seated, lang="zh"), n) == -signal.SIGKILL, n
        assert site.is_dir(), f"no site folder after a kill at call {n} of {calls}"
        assert state(site) in (old, new), f"torn site after a kill at call {n}"
        build_event_site(seated, lang="en")
        assert not list(seated.path.glob(".site.*"))
        assert state(site) == old


def test_issue9_item2_a_step_deleting_a_file_killed_anywhere_leaves_before_or_after(seated):
    def work(path):
        with writing(path, "test") as folder:
            cards = folder.file(1, "table-cards.html")
            folder.replace_files({path / "exports" / "x.csv": b"x"}, remove=[cards])

    check_kill_anywhere(seated.path, work, samples=6)


@pytest.fixture
def team_dealt(tmp_path):
    """Round 1 of a round robin of four teams, dealt (team steps write like any other)."""
    csv = tmp_path / "players.csv"
    labels = [f"T{t}" for t in range(1, 5) for _ in range(4)]
    demo_players(16).assign(team=labels).to_csv(csv, index=False)
    folder = create_event(tmp_path / "cup", csv, None, None, 2, 3, kind="teams",
                          fmt="round-robin", key=KEY)
    deal_round(folder, 1)
    return folder


def test_issue9_item2_team_seat_killed_anywhere_leaves_before_or_after(team_dealt):
    check_kill_anywhere(team_dealt.path, lambda p: seat_event_round(EventFolder.open(p), 1),
                         samples=5)


def test_issue9_item2_team_score_killed_anywhere_leaves_before_or_after(team_dealt, tmp_path):
    seat_event_round(team_dealt, 1)
    ingest(team_dealt, write(set_results(team_dealt, 1), tmp_path / "all.parquet"), 1)
    check_kill_anywhere(team_dealt.path, lambda p: score_round(EventFolder.open(p), 1),
                         samples=5)


def test_issue9_item1_concurrent_team_ingests_keep_every_room(team_dealt, tmp_path):
    seat_event_round(team_dealt, 1)
    results = set_results(team_dealt, 1)
    files = [write(results[results["table"] == t], tmp_path / f"t{t}.parquet")
             for t in (1, 2, 3, 4)]
    pids = [in_child_async(lambda f=file: ingest(EventFolder.open(team_dealt.path), f, 1))
            for file in files]
    assert [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in pids] == [0] * 4
    assert team_dealt.missing_results(1) == []


@pytest.mark.parametrize(
    "journal", ["{bad", '{"a": 1}', '[["x"]]', '[[null, "../outside.txt"]]', '[["/tmp/x", "y"]]']
)
def test_issue9_item2_a_damaged_journal_is_refused_and_left_alone(seated, journal):
    (seated.path / JOURNAL).write_text(journal, encoding="utf-8")
    (seated.path.parent / "outside.txt").write_text("kept", encoding="utf-8")
    before = state(seated.path)
    result = CliRunner().invoke(app, ["event", "status", str(seated.path)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert "Error: the journal of an interrupted step" in result.output
    assert "is damaged" in " ".join(result.output.split())
    assert state(seated.path) == before
    assert (seated.path.parent / "outside.txt").read_text(encoding="utf-8") == "kept"
