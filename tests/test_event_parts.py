"""Issue 24 (scale): the server's batches appended to a round as parts (``event.parts``).

Every reader sees the parts as if each had been merged into the round's files when it was
written; compacting them writes the very bytes the whole writes made; a kill at any instant
leaves the round before or after the write, never torn."""

from __future__ import annotations

import importlib
import os
import shutil

import pandas as pd
import pyarrow as pa
import pytest
from event_support import board_results, seated_event, set_results, write
from kill_support import check_kill_anywhere

from guandan_dup.errors import InvalidResultsError
from guandan_dup.event import EventFolder, event_status, ingest, score_round
from guandan_dup.event.ingest import MARK_COLUMNS, read_entered, take_rows
from guandan_dup.event.ledger import effects
from guandan_dup.event.parts import MAX_PARTS, part_files, should_compact
from guandan_dup.event.publish import stored_rows
from guandan_dup.event.stored_rows import append_part, check_merged, merge_results
from guandan_dup.event.transaction import writing
from guandan_dup.live.round_files import RoundFiles

ingest_module = importlib.import_module("guandan_dup.event.ingest")  # not the function
AT = pd.Timestamp("2026-05-01 10:00", tz="UTC")
FILE = "the tables' entries with the results already in round 1"
ROUND_FILES = ("results.parquet", "entered.parquet", "scores.parquet", "standings.parquet",
               "travellers.parquet")


@pytest.fixture
def seated(tmp_path):
    """Round 1 of a 17-player event (4 tables, 2 sets), dealt and seated."""
    return EventFolder.open(seated_event(tmp_path, rounds=1))


def batches(folder: EventFolder) -> list[pd.DataFrame]:
    """Four batches of verified sets: set-level rows, board-level rows (a ``boards``
    column), and last a correction of one of the first with a ``tiebreak`` column (which
    the store's rows carry when a set has one)."""
    rows = set_results(folder, 1)
    first = rows[(rows["set"] == 1) & rows["table"].isin([1, 2])]
    fixed = first[first["table"] == 2].assign(ns_level=first["ew_level"],
                                             ew_level=first["ns_level"], tiebreak="NS")
    boards = board_results(folder, 1)
    return [first, rows[(rows["set"] == 1) & rows["table"].isin([3, 4])],
            boards[(boards["set"] == 2) & boards["table"].isin([1, 2])], fixed]


def store(path, batch: pd.DataFrame, seq: int) -> None:
    """``batch`` stored as the server's store stores verified sets (a mark a set)."""
    sets = batch[["table", "set"]].drop_duplicates()
    marks = pd.DataFrame({"table": sets["table"], "set": sets["set"], "source": "table",
                          "journal": "j1", "seq": range(seq, seq + len(sets)),
                          "verified_at": AT, "reason": None}, columns=list(MARK_COLUMNS))
    with writing(path, "test") as folder:
        take_rows(folder, 1, [pa.Table.from_pandas(batch, preserve_index=False)], marks)


def stored_as(tmp_path, seated, monkeypatch, parts: bool) -> EventFolder:
    """A copy of the seated event with every batch stored: as parts (the first batch is the
    file), or each written whole, as the store wrote before parts."""
    path = tmp_path / ("parts" if parts else "whole")
    shutil.copytree(seated.path, path)
    rule = (lambda round_dir: not (round_dir / "results.parquet").exists()) if parts \
        else (lambda round_dir: True)
    with monkeypatch.context() as patched:
        patched.setattr(ingest_module, "should_compact", rule)
        for i, batch in enumerate(batches(seated)):
            store(path, batch, 10 * i + 1)
    return EventFolder.open(path)


@pytest.fixture
def both(tmp_path, seated, monkeypatch):
    return (stored_as(tmp_path, seated, monkeypatch, parts=True),
            stored_as(tmp_path, seated, monkeypatch, parts=False))


def test_issue24_every_reader_sees_every_part(both):
    parted, whole = both
    assert len(part_files(parted.round_dir(1), "results")) == 3
    assert len(part_files(parted.round_dir(1), "entered")) == 3
    assert part_files(whole.round_dir(1)) == []
    pd.testing.assert_frame_equal(parted.read(1, "results"), whole.read(1, "results"))
    pd.testing.assert_frame_equal(read_entered(parted, 1), read_entered(whole, 1))
    assert parted.missing_results(1) == whole.missing_results(1) == [(3, 2), (4, 2)]
    assert stored_rows(parted, [1]) == stored_rows(whole, [1])
    assert event_status(parted).rounds[0].missing == event_status(whole).rounds[0].missing
    assert parted.results_digest(1) == whole.results_digest(1)
    seen, expected = RoundFiles(parted.path).stored_now(1), RoundFiles(whole.path).stored_now(1)
    assert (seen.results, seen.entered) == (expected.results, expected.entered)


def test_issue24_a_part_added_within_the_clock_tick_of_the_last_is_seen(seated, monkeypatch):
    """A folder's mtime may not move on a coarse clock (FAT's 2 s, ext4's ticks): the
    readers that keep what they read see a new part by the folder's names."""
    monkeypatch.setattr(ingest_module, "should_compact",
                        lambda round_dir: not (round_dir / "results.parquet").exists())
    first, second, *_ = batches(seated)
    store(seated.path, first, 1)
    store(seated.path, second.head(1), 11)  # a part
    parts = seated.round_dir(1) / "parts"
    before = parts.stat()
    files = RoundFiles(seated.path)
    assert len(seated.read(1, "results")) == 3 and len(files.stored_now(1).results) == 3
    store(seated.path, second.tail(1), 21)  # another part, in the same tick
    os.utime(parts, ns=(before.st_atime_ns, before.st_mtime_ns))
    files.recheck()
    assert len(seated.read(1, "results")) == len(files.stored_now(1).results) == 4


def test_issue24_compaction_writes_the_bytes_the_whole_writes_made(both, tmp_path):
    parted, whole = both
    for folder in (parted, whole):
        ingest(folder, write(set_results(folder, 1)[lambda r: r["set"] == 2],
                             tmp_path / f"{folder.path.name}.parquet"), 1)
    assert part_files(parted.round_dir(1)) == []
    for folder in (parted, whole):
        score_round(folder, 1)
    for name in ROUND_FILES:
        assert parted.file(1, name).read_bytes() == whole.file(1, name).read_bytes(), name
    kept = sorted(p.name.split(".")[0] for p in parted.history_dir.glob("rounds-1-parts-*"))
    assert kept == [f"rounds-1-parts-{kind}-00000{n}" for kind in ("entered", "results")
                    for n in (1, 2, 3)]  # the parts, moved to history/ as they were


def test_issue24_scoring_writes_the_round_whole_first(both, monkeypatch):
    parted, whole = both
    rest = set_results(parted, 1)[lambda r: r["set"] == 2].iloc[2:]
    with monkeypatch.context() as patched:
        patched.setattr(ingest_module, "should_compact", lambda round_dir: False)
        store(parted.path, rest, 100)
    store(whole.path, rest, 100)
    assert len(part_files(parted.round_dir(1), "results")) == 4
    for folder in (parted, whole):
        score_round(folder, 1)
    assert part_files(parted.round_dir(1)) == []
    for name in ROUND_FILES:
        assert parted.file(1, name).read_bytes() == whole.file(1, name).read_bytes(), name


def test_issue24_a_part_is_refused_word_for_word_as_the_whole_round_is(both):
    """Only the stored rows near the batch are checked with it; a problem there is said as
    the check of the whole merged round says it (``check_merged``)."""
    parted, _ = both
    stored = parted.read(1, "results")
    at = stored.index[(stored["table"] == 3) & (stored["set"] == 1)][0]
    new = stored.loc[[at]].assign(north=stored.loc[stored["table"] == 1, "east"].iloc[0])
    starts = effects(parted).start_levels
    merged, _ = merge_results(stored, new)
    with pytest.raises(InvalidResultsError) as whole:
        check_merged(merged, new, stored, FILE, starts)
    marks = pd.DataFrame({"table": [3], "set": [1], "source": "table", "journal": "j1",
                          "seq": [100], "verified_at": AT, "reason": None})
    with writing(parted.path, "test") as folder, pytest.raises(InvalidResultsError) as part:
        append_part(folder, 1, new, marks, starts, FILE)
    assert "also plays at table 3" in str(whole.value)
    assert str(part.value) == str(whole.value)


def test_issue24_a_part_write_killed_anywhere_leaves_before_or_after(both, monkeypatch):
    parted, _ = both
    last = set_results(parted, 1)[lambda r: r["set"] == 2].iloc[2:]
    monkeypatch.setattr(ingest_module, "should_compact", lambda round_dir: False)
    check_kill_anywhere(parted.path, lambda p: store(p, last, 100), samples=6)


def test_issue24_compaction_killed_anywhere_leaves_before_or_after(both):
    parted, _ = both
    check_kill_anywhere(parted.path, lambda p: score_round(EventFolder.open(p), 1), samples=8)


@pytest.mark.parametrize(("file", "parts", "compacts"), [
    (False, 0, True),  # the round's first batch is its file
    (True, 0, False),
    (True, MAX_PARTS - 1, False),
    (True, MAX_PARTS, True),  # as many parts as a round has: written whole
])
def test_issue24_the_store_writes_a_round_whole_at_its_first_batch_and_its_last_part(
        tmp_path, file, parts, compacts):
    round_dir = tmp_path / "rounds" / "1"
    (round_dir / "parts").mkdir(parents=True)
    frame = pd.DataFrame({"table": [1], "set": [1]})
    if file:
        write(frame, round_dir / "results.parquet")
    for n in range(1, parts + 1):
        write(frame, round_dir / "parts" / f"results-{n:06d}.parquet")
    assert should_compact(round_dir) is compacts
