"""Issue 22 item 5: the folder lock where there is no flock (Windows) is the `filelock`
library's, readers included (``transaction.Portable``). CI runs Linux, so these tests force
that backend (issue 9's lock tests run through it too: their ``lock_backend`` fixture in
test_event_transaction.py), checking what only it does: a reader takes the lock alone and is
named as a reader, and the record sits past the locked first byte (which another process
cannot read on Windows)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from event_support import holding_child, killed, seated_event

from guandan_dup.errors import GuandanError
from guandan_dup.event import transaction
from guandan_dup.event.transaction import LOCK_FILE, Flock, Portable, reading, writing


@pytest.fixture(autouse=True)
def portable(monkeypatch):
    """Every lock of these tests, in this process and its forked children, is Portable."""
    monkeypatch.setattr(transaction, "backend", Portable())


@pytest.fixture
def event(tmp_path):
    return seated_event(tmp_path, rounds=1)


def test_a_reader_holds_the_portable_lock_alone_and_is_named_as_a_reader(event):
    pid = holding_child(lambda: reading(event))
    try:
        with pytest.raises(GuandanError) as refused, writing(event, "event score", wait=0.2):
            pass
        with pytest.raises(GuandanError), reading(event, wait=0.2):
            pass
    finally:
        killed(pid)
    assert f"is locked by a reader such as `event status` (pid {pid}) since" in str(
        refused.value)
    with writing(event, "event score", wait=0):
        pass  # the killed reader's lock went with it


def test_a_killed_writer_never_blocks_the_portable_lock(event):
    pid = holding_child(lambda: writing(event, "event score"))
    killed(pid)
    with writing(event, "event ingest", wait=0):
        pass


def test_the_record_follows_the_locked_first_byte_and_is_emptied_on_release(event):
    lock = event / LOCK_FILE
    with writing(event, "event ingest"):
        data = lock.read_bytes()
        assert data[:1] == b"\n"
        record = json.loads(data[1:])
        assert (record["command"], record["pid"]) == ("event ingest", os.getpid())
    assert lock.read_bytes() == b""
    with reading(event):
        assert json.loads(lock.read_bytes()[1:])["command"] is None
    assert lock.read_bytes() == b""


def test_posix_keeps_flock_and_never_imports_filelock():
    code = ("import sys\nfrom guandan_dup.event import transaction\n"
            "print(type(transaction.backend).__name__, 'filelock' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["Flock", "False"]
    assert Flock.shared_readers and not Portable.shared_readers
