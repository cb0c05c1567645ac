"""The folder transaction: one writer at a time, and every step whole or not at all.

Two people with two terminals, or a laptop that dies in the middle of ``event score``, must
never lose a result or leave new scores beside old standings. Everything that makes that so
lives here (STYLE rule 15):

- **The lock.** ``writing(path, command)`` holds an exclusive OS lock (``flock``) on the
  folder's ``.guandan-dup.lock`` while a step reads, computes and writes; a second writer
  waits up to ``wait`` seconds, told who holds the lock (command, process id, since when),
  then is refused with nothing changed. ``reading(path)`` holds a shared lock, so a reader
  never sees half a step. The kernel drops the lock of a process that dies, so a killed
  command never blocks the next one. Where there is no ``flock`` (Windows) the lock is the
  ``filelock`` library's and readers take it exclusively too (``Portable``); the tests run
  the lock tests through that path on Linux as well.
- **The journal.** ``commit`` (what ``EventFolder.replace_files`` calls) writes every file of
  a step to a hidden temporary file beside its destination and syncs it, then writes the
  list of renames (and of files the step deletes) to ``.guandan-dup.journal`` in one atomic
  rename: that is the commit point. Then it renames the files into place, deletes the
  others and removes the journal. The files are written, synced and renamed with the
  pieces of :mod:`guandan_dup.atomic`, the package's one way to write. The next ``writing`` or
  ``reading`` finishes the renames of a journal it finds (roll forward) and deletes temporary
  files that no journal names (a step killed before its commit point), so after a crash the
  folder is in the state before or after the whole step.

Library users run a step the same way the CLI does::

    with writing("cup", "my script") as folder:
        ingest(folder, "results.csv", round_no=2)

The step functions (``deal_round``, ``ingest``, ``score_round`` ...) take the lock themselves
when their caller does not hold it, and ``commit`` refuses to write without it.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING

from ..atomic import (
    FILE_MODE,
    check_regular_destination,
    make_folder,
    replace_synced,
    sync_dir,
    temp_beside,
    write_synced,
)
from ..errors import GuandanError

if TYPE_CHECKING:
    from .folder import EventFolder

LOCK_FILE = ".guandan-dup.lock"
JOURNAL = ".guandan-dup.journal"
TEMP = re.compile(r"^\..+\.[0-9a-f]{32}\.tmp$")
"""Hidden temporary files of a step and of every other writer (``atomic.temp_beside``)."""
POLL = 0.05
DEFAULT_WAIT = 30.0

_held: dict[Path, int] = {}  # folder -> the fd of its lock, for the folders this process holds
_guard = threading.RLock()  # threads of one process take turns for the whole step


def _forget_in_child() -> None:
    """A forked child shares its parent's lock: it must not think it may write."""
    global _guard
    for fd in _held.values():
        os.close(fd)
    _held.clear()
    _guard = threading.RLock()


class Flock:
    """POSIX: ``flock`` on the lock file, shared for readers, exclusive for a writer; the
    kernel drops it when the holder closes the file or dies."""

    shared_readers = True

    def try_lock(self, fd: int, shared: bool) -> bool:
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def unlock(self, fd: int) -> None:
        """Closing the file releases the lock."""

    def alive(self, pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass  # another user's live process
        return True


class Portable:
    """Anywhere (Windows): ``filelock``'s lock of the file's first byte (``LockFileEx`` on
    Windows, ``flock`` elsewhere), exclusive for readers and writers alike. Every holder,
    reader or writer, then writes the record, so the record names the live holder and no
    process is probed (``os.kill(pid, 0)`` would terminate it on Windows)."""

    shared_readers = False

    def try_lock(self, fd: int, shared: bool) -> bool:
        import filelock  # 70 ms to import: only where this lock is used

        return filelock.lock_descriptor(fd, blocking=False)

    def unlock(self, fd: int) -> None:
        import filelock

        filelock.unlock_descriptor(fd)

    def alive(self, pid: int) -> bool:
        return True


try:
    import fcntl
except ImportError:  # Windows
    fcntl = None
    backend: Flock | Portable = Portable()
else:
    backend = Flock()
    os.register_at_fork(after_in_child=_forget_in_child)
"""How this process locks folders: ``Flock`` where the system has it, else ``Portable``;
the tests set it to ``Portable()`` on Linux to run the lock tests through the Windows path."""


def holds_lock(path: str | os.PathLike) -> bool:
    """Whether this process holds the write lock of the event folder at ``path``."""
    return Path(path).resolve() in _held


def _holder(lock_path: Path) -> str:
    """Who holds the lock, as its holder recorded it; a dead writer or a reader that writes
    no record (``Flock``: readers share the lock) is vague.

    The record starts at the file's second byte: ``Portable`` locks the first, which another
    process cannot read on Windows.
    """
    try:
        with open(lock_path, "rb") as file:
            file.seek(1)
            info = json.loads(file.read().decode("utf-8") or "{}")
        alive = backend.alive(int(info["pid"]))
    except (OSError, ValueError, KeyError, TypeError, OverflowError):
        alive = False
    if not alive:
        return "another process (perhaps a reader such as `event status`)"
    if info.get("command") is None:
        return f"a reader such as `event status` (pid {info['pid']}) since {info['since']}"
    return f"`{info['command']}` (pid {info['pid']}) since {info['since']}"


def _acquire(fd: int, shared: bool, path: Path, wait: float, notify: Callable[[str], None]):
    deadline = time.monotonic() + wait
    told = False
    while not backend.try_lock(fd, shared):
        holder = _holder(path / LOCK_FILE)
        if time.monotonic() >= deadline:
            raise GuandanError(
                f"the event folder {str(path)!r} is locked by {holder}; waited {wait:g} s. "
                "Nothing was changed: run the command again when that one has finished "
                "(or give a longer --wait)"
            )
        if not told:
            notify(f"waiting up to {wait:g} s for the lock on {str(path)!r} held by {holder} ...")
            told = True
        time.sleep(POLL)


@contextmanager
def locked(
    path: str | os.PathLike,
    command: str,
    wait: float = DEFAULT_WAIT,
    notify: Callable[[str], None] = lambda message: None,
) -> Iterator[Path]:
    """Hold the exclusive lock of the folder ``path`` (created if missing); re-entrant.

    The lock file records ``command``, the process id and the time, never anything secret,
    and is emptied again on release.
    """
    path = Path(path)
    with _guard:
        resolved = path.resolve()
        if resolved in _held:  # held by this process already: a step inside a step
            yield path
            return
        make_folder(path)
        fd = _open_lock(path)
        try:
            _acquire(fd, False, path, wait, notify)
            _record(fd, command)
            _held[resolved] = fd
            try:
                recover(path)
                yield path
            finally:
                del _held[resolved]
                _record(fd, None, holding=False)
                backend.unlock(fd)
        finally:
            os.close(fd)  # closing releases the lock


def _open_lock(path: Path) -> int:
    return os.open(path / LOCK_FILE, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0),
                   0o644)


def _record(fd: int, command: str | None, holding: bool = True) -> None:
    """Write who holds the lock (``command``; ``None``: a reader), or empty the record once
    ``holding`` ends. The first byte is a newline, the record follows (``_holder``)."""
    text = ""
    if holding:
        since = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        text = "\n" + json.dumps({"command": command, "pid": os.getpid(), "since": since})
    os.ftruncate(fd, 0)
    os.lseek(fd, 0, os.SEEK_SET)
    os.write(fd, text.encode("utf-8"))


@contextmanager
def writing(
    path: str | os.PathLike,
    command: str,
    wait: float = DEFAULT_WAIT,
    notify: Callable[[str], None] = lambda message: None,
) -> Iterator[EventFolder]:
    """Hold the folder's write lock and yield it freshly opened (see the module docstring).

    ``notify`` is told once if the lock is busy; ``GuandanError`` after ``wait`` seconds.
    """
    from .folder import EventFolder  # folder.py imports this module

    EventFolder.open(path)  # not an event folder: refused before a lock file is made
    with locked(path, command, wait, notify):
        yield EventFolder.open(path)


@contextmanager
def reading(
    path: str | os.PathLike,
    wait: float = DEFAULT_WAIT,
    notify: Callable[[str], None] = lambda message: None,
) -> Iterator[EventFolder]:
    """Hold a shared lock (no writer meanwhile) and yield the folder freshly opened.

    A step interrupted by a crash is first finished (no writer can be running while the
    shared lock is held, and finishing is idempotent), so a reader never sees one half-done.
    A folder nobody may write (a read-only copy) is read without a lock. The OS lock
    belongs to the process, so a reader in one thread of a process whose other thread is
    in a step (a server's scoreboard beside its results writer) first waits for that
    step: readers of one process take turns with its writers, as its writers do.
    """
    from .folder import EventFolder

    path = Path(path)
    EventFolder.open(path)  # not an event folder: refused before a lock file is made
    guard = _guard  # the OS lock is the process's: a writer thread here holds this instead
    if not guard.acquire(timeout=wait):
        raise GuandanError(
            f"the event folder {str(path)!r} is being written by another thread of this "
            f"process (a server's); waited {wait:g} s. Nothing was read: try again")
    try:
        if holds_lock(path) or not os.access(path, os.W_OK):  # a step reading, or read-only
            yield EventFolder.open(path)
            return
        fd = _open_lock(path)
        try:
            _acquire(fd, True, path, wait, notify)
            try:
                if not backend.shared_readers:
                    _record(fd, None)
                recover(path)
                yield EventFolder.open(path)
            finally:
                if not backend.shared_readers:
                    _record(fd, None, holding=False)
                backend.unlock(fd)
        finally:
            os.close(fd)
    finally:
        guard.release()


def step(command: str) -> Callable:
    """Decorate a step ``fn(folder, ...)`` to run under the folder's write lock, on the
    folder reopened once the lock is held (a no-op re-open when the caller holds it); a
    dry run's folder (``EventFolder.dry_run``) stays one, so the step writes nothing."""

    def decorate(fn: Callable) -> Callable:
        @wraps(fn)
        def run(folder: EventFolder, *args, **kwargs):
            with writing(folder.path, command) as fresh:
                return fn(fresh.like(folder), *args, **kwargs)

        return run

    return decorate


def commit(
    root: Path,
    files: Mapping[Path, bytes],
    private: frozenset[Path],
    remove: Collection[Path] = (),
    moves: Mapping[Path, Path] | None = None,
) -> None:
    """Write ``files`` (destinations inside ``root``), delete ``remove`` and rename each
    file of ``moves`` to its new path (source -> destination, inside ``root``) as one
    crash-atomic step.

    Files in ``private`` are owner-only (0600). A deletion is a journal entry without a
    temporary file (``[null, dest]``), a move one whose first path is the file moved (a
    step's files set aside in history/ cost a rename, not a copy). Refused as a bug if this
    process does not hold ``root``'s write lock: every writer must go through ``writing``.
    """
    if not holds_lock(root):
        raise RuntimeError(
            f"bug: writing to {str(root)!r} without its lock; wrap the step in "
            "guandan_dup.event.transaction.writing(...)"
        )
    moves = dict(moves or {})
    for dest in [*files, *remove, *moves, *moves.values()]:
        check_regular_destination(dest)
    if set(moves) & (set(files) | set(remove) | set(moves.values())):
        # a recovery renames again what is still there: a source made anew would be moved
        raise RuntimeError("bug: a step moves a file that it also writes or deletes")
    renames: list[tuple[Path | None, Path]] = []
    try:
        for dest, data in files.items():
            make_folder(dest.parent)
            tmp = temp_beside(dest)
            renames.append((tmp, dest))
            write_synced(tmp, data, 0o600 if dest in private else FILE_MODE, dest)
        for dest in moves.values():
            make_folder(dest.parent)
        steps = [*renames, *moves.items(), *((None, dest) for dest in remove)]
        journal = [
            [None if t is None else str(t.relative_to(root)), str(d.relative_to(root))]
            for t, d in steps
        ]
        tmp = temp_beside(root / JOURNAL)
        write_synced(tmp, json.dumps(journal).encode("utf-8"), dest=root / JOURNAL)
        replace_synced(tmp, root / JOURNAL)  # the commit point
    except BaseException:
        for tmp, _ in renames:
            tmp.unlink(missing_ok=True)
        raise
    _roll_forward(root, steps)


def _roll_forward(root: Path, renames: list[tuple[Path | None, Path]]) -> None:
    """Rename every staged (or moved) file still there onto its destination (delete the
    destination of an entry without one), then drop the journal."""
    for tmp, dest in renames:
        with suppress(FileNotFoundError):  # renamed or deleted already (an earlier recovery)
            if tmp is None:
                os.unlink(dest)
            else:
                os.replace(tmp, dest)
    for folder in {dest.parent for _, dest in renames}:
        sync_dir(folder)
    for folder in {tmp.parent for tmp, _ in renames if tmp is not None} - {
            dest.parent for _, dest in renames}:
        if folder.is_dir():  # a moved file's folder: its name is gone from there
            sync_dir(folder)
    (root / JOURNAL).unlink(missing_ok=True)
    sync_dir(root)


def recover(root: Path) -> None:
    """Finish a step whose journal is committed; delete temporary files of killed runs.

    Run with the folder locked (shared or exclusive, so no step is running); two readers
    recovering at once do no harm, every action tolerating the other's.
    """
    pairs = _read_journal(root)
    if pairs is not None:
        _roll_forward(
            root, [(None if tmp is None else root / tmp, root / dest) for tmp, dest in pairs]
        )
    for dirpath, _, names in os.walk(root):
        for name in names:
            if TEMP.match(name):
                (Path(dirpath) / name).unlink(missing_ok=True)


def _read_journal(root: Path) -> list[tuple[str | None, str]] | None:
    """The journal's entries (``None`` if there is none), each a path inside ``root``.

    ``commit`` writes it whole or not at all, so a journal that cannot be read was damaged
    (a disk fault, a hand edit): refused rather than guessed at, since its step may be half
    in place.
    """
    path = root / JOURNAL
    try:
        pairs = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(pairs, list):
            raise ValueError("not a list of renames")
        for entry in pairs:
            if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], str)
                    and (entry[0] is None or isinstance(entry[0], str))):
                raise ValueError(f"entry {entry!r} is not [temporary file, destination]")
            for name in filter(None, entry):
                if Path(name).is_absolute() or ".." in Path(name).parts:
                    raise ValueError(f"path {name!r} is outside the event folder")
    except FileNotFoundError:
        return None
    except (ValueError, UnicodeDecodeError) as damage:
        raise GuandanError(
            f"the journal of an interrupted step, {str(path)!r}, is damaged ({damage}), so "
            "that step may be half in place. Nothing was changed. Restore the folder from a "
            "backup, or delete the journal to keep the folder as it now is (the next command "
            "then discards that step's files not yet in place)"
        ) from None
    return [(tmp, dest) for tmp, dest in pairs]
