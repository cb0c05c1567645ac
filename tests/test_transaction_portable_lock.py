"""Issue 22 item 5: the folder lock where there is no flock (Windows) is the `filelock`
library's, readers included (``transaction.Portable``). CI runs Linux, so these tests force
that backend and run the lock tests of issue 9 through it, with the checks only it has: a
reader takes the lock alone and is named as a reader, and the record sits past the locked
first byte (which another process cannot read on Windows)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
import test_event_transaction as issue9
from test_event_transaction import seated  # noqa: F401 - the fixture of the tests reused

from guandan_dup.errors import GuandanError
from guandan_dup.event import transaction
from guandan_dup.event.transaction import LOCK_FILE, Flock, Portable, reading, writing


@pytest.fixture(autouse=True)
def portable(monkeypatch):
    """Every lock of these tests, in this process and its forked children, is Portable."""
    monkeypatch.setattr(transaction, "backend", Portable())


test_issue9_item1_concurrent_ingests_keep_every_result_with_the_portable_lock = (
    issue9.test_issue9_item1_concurrent_ingests_of_different_tables_keep_every_result)
test_issue9_item1_a_second_writer_waits_then_refuses_naming_the_holder_portable = (
    issue9.test_issue9_item1_a_second_writer_waits_then_refuses_naming_the_holder)
test_issue9_item1_the_cli_waits_then_says_who_holds_the_lock_portable = (
    issue9.test_issue9_item1_the_cli_waits_then_says_who_holds_the_lock)
test_issue9_item2_ingest_killed_anywhere_leaves_before_or_after_portable = (
    issue9.test_issue9_item2_ingest_killed_anywhere_leaves_before_or_after)
test_issue9_item1_writing_without_the_lock_is_a_bug_portable = (
    issue9.test_issue9_item1_writing_without_the_lock_is_a_bug)


def _reading_child(path):
    """A child holding the folder's read lock until killed; its pid once it holds it."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            with reading(path):
                os.write(write_end, b"x")
                time.sleep(30)
        finally:
            os._exit(0)
    assert os.read(read_end, 1) == b"x"
    os.close(read_end)
    os.close(write_end)
    return pid


def test_a_reader_holds_the_portable_lock_alone_and_is_named_as_a_reader(seated):  # noqa: F811
    pid = _reading_child(seated.path)
    try:
        with pytest.raises(GuandanError) as refused, writing(seated.path, "event score",
                                                             wait=0.2):
            pass
        with pytest.raises(GuandanError), reading(seated.path, wait=0.2):
            pass
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    assert f"is locked by a reader such as `event status` (pid {pid}) since" in str(
        refused.value)
    with writing(seated.path, "event score", wait=0):
        pass  # the killed reader's lock went with it


def test_the_record_follows_the_locked_first_byte_and_is_emptied_on_release(seated):  # noqa: F811
    lock = seated.path / LOCK_FILE
    with writing(seated.path, "event ingest"):
        data = lock.read_bytes()
        assert data[:1] == b"\n"
        record = json.loads(data[1:])
        assert (record["command"], record["pid"]) == ("event ingest", os.getpid())
    assert lock.read_bytes() == b""
    with reading(seated.path):
        assert json.loads(lock.read_bytes()[1:])["command"] is None
    assert lock.read_bytes() == b""


def test_a_killed_writer_never_blocks_the_portable_lock(seated):  # noqa: F811
    pid = issue9._holding_child(seated.path, "event score")
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    with writing(seated.path, "event ingest", wait=0) as folder:
        assert folder.plan == seated.plan


def test_posix_keeps_flock_and_never_imports_filelock():
    code = ("import sys\nfrom guandan_dup.event import transaction\n"
            "print(type(transaction.backend).__name__, 'filelock' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["Flock", "False"]
    assert Flock.shared_readers and not Portable.shared_readers
