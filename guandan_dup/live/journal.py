"""The server's journal: every entry, verification and dispute, durable before it is answered.

An acknowledgement is a promise (STYLE rule 18): a phone that got ``201`` forgets its entry,
so the entry must survive a kill -9 of the server and a power cut of the laptop. Every
change the server accepts is one record of ``DIR/live/journal.sqlite``, an SQLite database
in WAL mode with ``synchronous=FULL`` (a commit is on the disk when it returns, on Windows as
on Linux and macOS), and the answer goes out only after the record's transaction committed.
Replaying the records in order on start is the one way back after a crash
(``live.desk.Desk.open``).

One writer thread owns the database and commits in groups: every record queued while a
commit runs goes into the next transaction, so 500 tables entering at once cost a few
syncs, not 500. A record's sequence number is given by the caller (the desk, which applies
records in the same order it queues them), so a replayed journal rebuilds the same state.

A server holds ``DIR/live/server.lock`` (``filelock``, portable) while its journal is open:
a second server on the same folder would keep a second, diverging copy of the day.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import queue
import sqlite3
import threading
import uuid
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock, Timeout

from ..atomic import make_folder, sync_dir
from ..errors import GuandanError
from . import jsontext

LIVE = "live"
"""DIR/live/: the server's own files (the journal, its lock; the tokens' secret)."""
JOURNAL = "journal.sqlite"
SERVER_LOCK = "server.lock"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    seq INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    body TEXT NOT NULL
);
"""


class JournalError(GuandanError):
    """The journal could not be opened or written: nothing more is acknowledged."""


@dataclass(frozen=True)
class Record:
    """One change the server accepted: ``seq`` (increasing in the order applied), ``kind``
    (``entry``, ``verify``, ``dispute``, ``settle``: ``live.desk``; ``platforms``, a
    platform's batch whose results take the numbers up to ``seq``: ``live.platform_desk``;
    ``standings``, a round's standings written anew: ``live.scorer``) and its ``data``
    (JSON, written and read by ``live.jsontext``)."""

    seq: int
    kind: str
    data: dict


class Journal:
    """DIR/live/journal.sqlite, opened by one server (see the module docstring)."""

    def __init__(self, folder: str | os.PathLike) -> None:
        self.path = Path(folder) / LIVE / JOURNAL
        make_folder(self.path.parent)
        # Not thread-local (filelock's default): the lock is taken on the thread that opens
        # the desk and released on the one that closes it, both the event loop's workers.
        self._lock = FileLock(str(self.path.parent / SERVER_LOCK), thread_local=False)
        try:
            self._lock.acquire(timeout=0)
        except Timeout:
            raise JournalError(
                f"another server is running on the event folder {str(folder)!r} (it holds "
                f"{str(self.path.parent / SERVER_LOCK)!r}): stop it first, one server per "
                "event folder") from None
        try:
            new = not self.path.exists()
            db = self._connect()
            if new:
                sync_dir(self.path.parent)
            found = db.execute("SELECT value FROM meta WHERE key = 'id'").fetchone()
            if found is None:
                db.execute("INSERT INTO meta VALUES ('id', ?)", (uuid.uuid4().hex,))
                found = db.execute("SELECT value FROM meta WHERE key = 'id'").fetchone()
            self.id: str = found[0]
            self.last_seq: int = db.execute("SELECT COALESCE(MAX(seq), 0) FROM records"
                                            ).fetchone()[0]
            db.close()
        except (sqlite3.Error, OSError) as error:
            self._lock.release()
            raise JournalError(f"cannot open the journal {str(self.path)!r}: {error}") from None
        self.failed: str | None = None
        self.committed: int = self.last_seq
        """The last record committed (records commit in order; ``live.feed``)."""
        self.commits = 0
        """Transactions committed since opening (group commit: far fewer than records)."""
        self.written = 0
        """Records committed since opening."""
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._write, name="journal-writer", daemon=True)
        self._thread.start()
        self._closed = False

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.executescript(_SCHEMA)
        return db

    def records(self) -> Iterator[Record]:
        """Every record, in order (a connection of its own: the writer keeps writing)."""
        db = sqlite3.connect(self.path)
        try:
            for seq, kind, body in db.execute("SELECT seq, kind, body FROM records ORDER BY seq"):
                yield Record(seq, kind, jsontext.loads(body))
        finally:
            db.close()

    def submit(self, record: Record) -> concurrent.futures.Future:
        """Queue ``record``; the future is done when its transaction committed (its
        ``seq``), or fails with ``JournalError``. Thread-safe."""
        return self._queued(record, concurrent.futures.Future())

    def submit_here(self, record: Record) -> asyncio.Future:
        """``submit`` from the running event loop: a future of that loop, done (its ``seq``,
        or ``JournalError``) once the record's transaction committed.

        The writer settles all of a committed group's futures of a loop with one call into
        it, not one per record: each such call wakes the loop and takes the interpreter's
        lock from it, which per record cost the event loop a tenth of its time in a burst.
        """
        return self._queued(record, asyncio.get_running_loop().create_future())

    def _queued(self, record: Record, future):
        """``future`` with ``record`` queued for the writer, or failed at once when the
        journal cannot take it (failed or closed)."""
        if self.failed is not None or self._closed:
            future.set_exception(JournalError(self.failed or "the journal is closed"))
            return future
        text = jsontext.dumps(record.data).decode("utf-8", "surrogatepass")
        self._queue.put((record.seq, record.kind, text, future))
        return future

    async def append(self, record: Record) -> int:
        """``submit`` for a coroutine: returns once ``record`` is durable."""
        return await self.submit_here(record)

    def _write(self) -> None:
        try:
            db = self._connect()
        except (sqlite3.Error, OSError) as error:
            self.failed = f"cannot write the journal {str(self.path)!r}: {error}"
            db = None
        stop = False
        while not stop:
            batch = [self._queue.get()]
            while True:  # everything queued while the last commit ran
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            if None in batch:
                stop = True
                batch = [item for item in batch if item is not None]
            if not batch:
                continue
            if db is None or self.failed is not None:
                _settle(batch, self.failed)
                continue
            try:
                db.execute("BEGIN IMMEDIATE")
                db.executemany("INSERT INTO records (seq, kind, body) VALUES (?, ?, ?)",
                               [item[:3] for item in batch])
                db.execute("COMMIT")
                self.committed = max(self.committed, batch[-1][0])
                self.commits += 1
                self.written += len(batch)
            except (sqlite3.Error, OSError) as error:
                self.failed = (f"the journal {str(self.path)!r} could not be written "
                               f"({error}); nothing since was saved: restart the server")
                _settle(batch, self.failed)
                continue
            _settle(batch, None)
        if db is not None:
            db.close()

    def close(self) -> None:
        """Commit what is queued, stop the writer, release the server's lock; idempotent."""
        if self._closed:
            return
        self._closed = True
        self._queue.put(None)
        self._thread.join()
        self._lock.release()


def _settle(batch: list[tuple], failed: str | None) -> None:
    """Settle a group's futures: ``submit``'s here, ``submit_here``'s with one call into each
    loop (see ``Journal.submit_here``); ``failed``: the reason none was saved."""
    loops: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future, int]]] = {}
    for seq, *_, future in batch:
        if isinstance(future, asyncio.Future):
            loops.setdefault(future.get_loop(), []).append((future, seq))
        elif failed is None:
            future.set_result(seq)
        else:
            future.set_exception(JournalError(failed))
    for loop, futures in loops.items():
        with suppress(RuntimeError):  # the loop is closed: nobody waits for these
            loop.call_soon_threadsafe(_settle_here, futures, failed)


def _settle_here(futures: list[tuple[asyncio.Future, int]], failed: str | None) -> None:
    for future, seq in futures:
        if future.done():  # cancelled meanwhile
            continue
        if failed is None:
            future.set_result(seq)
        else:
            future.set_exception(JournalError(failed))
