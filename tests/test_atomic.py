"""Atomic writes: a failed batch leaves every destination as it was."""

import os
from pathlib import Path

import pytest

from guandan_dup.atomic import staged_writes, write_bytes, write_text
from guandan_dup.errors import GuandanError


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
