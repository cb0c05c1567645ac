"""Atomic writes: a failed batch leaves every destination as it was, and what is written is
synced, renamed into place and its folder synced (issue 20: one way to write)."""

import errno
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from write_support import disk_full, inode, record_writes

from guandan_dup.atomic import staged_writes, sync_file, write_bytes, write_parquet, write_text
from guandan_dup.errors import GuandanError
from guandan_dup.event import transaction


def test_failed_batch_touches_nothing(tmp_path):
    keep = tmp_path / "a.txt"
    keep.write_text("old")
    with pytest.raises(RuntimeError), staged_writes() as stage:
        stage(keep).write_text("new")
        stage(tmp_path / "b.txt").write_text("new")
        raise RuntimeError("boom")
    assert keep.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]


def test_write_with_mode_is_private_from_the_start(tmp_path):
    write_bytes(tmp_path / "key", b"x", mode=0o600)
    assert os.stat(tmp_path / "key").st_mode & 0o777 == 0o600
    write_text(tmp_path / "t.txt", "中文")
    assert (tmp_path / "t.txt").read_text(encoding="utf-8") == "中文"


def test_failed_rename_names_the_destination_and_leaves_no_temp_file(tmp_path):
    with pytest.raises(OSError) as caught, staged_writes() as stage:
        stage(tmp_path / "out").write_text("new")
        (tmp_path / "out").mkdir()  # appears between staging and the rename
        (tmp_path / "out" / "inside").write_text("x")
    assert caught.value.filename == str(tmp_path / "out")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def _symlink(tmp_path):
    target = tmp_path / "target.txt"
    target.write_text("kept")
    (tmp_path / "link.txt").symlink_to(target)
    return tmp_path / "link.txt"


def _folder(tmp_path):
    (tmp_path / "out").mkdir()
    return tmp_path / "out"


@pytest.mark.parametrize(
    ("make", "what"),
    [
        (_symlink, "a symbolic link"),
        (_folder, "a folder"),
        (lambda tmp_path: Path("/dev/null"), "a device or special file"),
    ],
)
def test_issue9_item3_an_output_that_is_not_a_regular_file_is_refused(tmp_path, make, what):
    dest = make(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(GuandanError, match=f"it is {what}, not a regular file"):
        write_text(dest, "new")
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert dest.is_symlink() == (what == "a symbolic link")
    if what == "a symbolic link":
        assert (tmp_path / "target.txt").read_text() == "kept"


def test_issue20_write_syncs_the_file_renames_it_then_syncs_its_folder(tmp_path, monkeypatch):
    events = record_writes(monkeypatch)
    write_bytes(tmp_path / "out.bin", b"data")
    file = inode(tmp_path / "out.bin")
    assert events == [("sync file", file), ("replace", file, tmp_path / "out.bin"),
                      ("sync dir", inode(tmp_path))]


def test_issue20_a_missing_folder_is_made_and_synced_into_its_parent(tmp_path, monkeypatch):
    events = record_writes(monkeypatch)
    write_text(tmp_path / "a" / "b" / "out.txt", "x")
    syncs = [e for e in events if e[0] == "sync dir"]
    assert syncs == [("sync dir", inode(tmp_path)), ("sync dir", inode(tmp_path / "a")),
                     ("sync dir", inode(tmp_path / "a" / "b"))]


def test_issue20_staged_files_are_all_synced_before_any_rename(tmp_path, monkeypatch):
    events = record_writes(monkeypatch)
    (tmp_path / "sub").mkdir()
    with staged_writes() as stage:
        stage(tmp_path / "a.txt").write_text("a")
        stage(tmp_path / "sub" / "b.txt").write_text("b")
        stage(tmp_path / "c.txt").write_text("c")
    a, b, c = (inode(tmp_path / name) for name in ("a.txt", "sub/b.txt", "c.txt"))
    assert [e[:2] for e in events] == [
        ("sync file", a), ("sync file", b), ("sync file", c),
        ("replace", a), ("replace", b), ("replace", c),
        ("sync dir", inode(tmp_path)), ("sync dir", inode(tmp_path / "sub")),
    ]


def test_issue20_a_file_its_writer_syncs_is_not_synced_twice(tmp_path, monkeypatch):
    events = record_writes(monkeypatch)
    with staged_writes() as stage:
        tmp = stage(tmp_path / "a.txt", synced=True)
        tmp.write_text("a")
        sync_file(tmp)
    assert [e[0] for e in events] == ["sync file", "replace", "sync dir"]


def test_issue20_a_failed_sync_leaves_the_old_file_and_no_temporary_file(tmp_path, monkeypatch):
    keep = tmp_path / "a.txt"
    keep.write_text("old")
    disk_full(monkeypatch)
    with pytest.raises(OSError, match="No space left"):
        write_text(keep, "new")
    with pytest.raises(OSError, match="No space left"), staged_writes() as stage:
        stage(keep).write_text("new")
        stage(tmp_path / "b.txt").write_text("new")
    assert keep.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]


def test_issue20_a_write_failing_half_way_leaves_the_old_file_and_no_temporary_file(
    tmp_path, monkeypatch
):
    keep = tmp_path / "t.parquet"
    write_parquet(keep, pa.table({"x": [1, 2]}))
    before = keep.read_bytes()

    def half(table, where):
        Path(where).write_bytes(b"PAR1 half a file")
        raise OSError(errno.EIO, "I/O error")

    monkeypatch.setattr(pq, "write_table", half)
    with pytest.raises(OSError, match="I/O error"):
        write_parquet(keep, pa.table({"x": [3]}))
    assert keep.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.parquet"]


def test_issue20_the_folder_transaction_writes_with_the_same_pieces(tmp_path, monkeypatch):
    """A step's files and its journal: each synced before the journal's rename (the commit
    point), the folder synced after it and again after the files' renames."""
    root = tmp_path / "event"
    root.mkdir()
    events = record_writes(monkeypatch)
    with transaction.locked(root, "test"):
        transaction.commit(root, {root / "a.parquet": b"a", root / "key": b"k"},
                           frozenset({root / "key"}))
    kinds = [e[0] for e in events]
    assert kinds == ["sync file", "sync file", "sync file", "replace", "sync dir",
                     "replace", "replace", "sync dir", "sync dir"]
    assert events[3][2] == root / transaction.JOURNAL
    assert os.stat(root / "key").st_mode & 0o777 == 0o600
    assert os.stat(root / "a.parquet").st_mode & 0o777 == 0o644


def test_issue21_a_full_disk_names_the_file_being_written(tmp_path, monkeypatch):
    """"No space left on device" alone does not say which file failed: every way to write
    names the destination (not its temporary file), as the CLI prints it."""
    disk_full(monkeypatch)
    with pytest.raises(OSError) as whole:
        write_text(tmp_path / "standings.csv", "new")
    with pytest.raises(OSError) as staged, staged_writes() as stage:
        stage(tmp_path / "scores.parquet").write_text("new")
    for error, name in ((whole, "standings.csv"), (staged, "scores.parquet")):
        assert error.value.filename == str(tmp_path / name)
        assert "No space left" in error.value.strerror


def test_issue21_a_full_disk_in_a_folder_step_names_the_file(tmp_path, monkeypatch):
    (tmp_path / "event").mkdir()
    disk_full(monkeypatch)
    with transaction.locked(tmp_path / "event", "test", 0), pytest.raises(OSError) as error:
        transaction.commit(tmp_path / "event", {tmp_path / "event" / "results.parquet": b"x"},
                           frozenset())
    assert error.value.filename == str(tmp_path / "event" / "results.parquet")
