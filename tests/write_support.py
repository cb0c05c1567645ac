"""Helpers of the tests that every writer writes the one way (``guandan_dup.atomic``): record
the syncs and renames it makes, make a sync fail as a full disk does, find what a failed write
left behind."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from guandan_dup.event.transaction import TEMP


def record_writes(monkeypatch) -> list[tuple]:
    """Record every ``os.fsync`` (``("sync file" | "sync dir", inode)``) and ``os.replace``
    (``("replace", inode, dest)``), in order; they still happen."""
    events: list[tuple] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        info = os.fstat(fd)
        events.append(("sync dir" if stat.S_ISDIR(info.st_mode) else "sync file", info.st_ino))
        return real_fsync(fd)

    def replace(src, dest):
        events.append(("replace", os.lstat(src).st_ino, Path(dest)))
        return real_replace(src, dest)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    return events


def disk_full(monkeypatch, after: int = 0) -> None:
    """Make the sync of a file fail with ENOSPC (a full disk) after ``after`` that succeed:
    the data was written but is not safe on disk."""
    real_fsync = os.fsync
    synced = 0

    def fsync(fd):
        nonlocal synced
        if stat.S_ISREG(os.fstat(fd).st_mode):
            if synced >= after:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            synced += 1
        return real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)


def leftovers(folder: Path) -> list[str]:
    """Temporary files (``.NAME.HEX.tmp``) anywhere in ``folder``."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if TEMP.match(p.name))


def inode(path: Path) -> int:
    return os.stat(path).st_ino
