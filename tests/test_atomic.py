"""Atomic writes: a failed batch leaves every destination as it was."""

import os

import pytest

from guandan_dup.atomic import staged_writes, write_bytes, write_text


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
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "inside").write_text("x")
    with pytest.raises(OSError) as caught, staged_writes() as stage:
        stage(tmp_path / "out").write_text("new")
    assert caught.value.filename == str(tmp_path / "out")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
