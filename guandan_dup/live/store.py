"""Verified sets into the event folder: rounds/R/results.parquet, as `event ingest` stores them.

The journal is the truth; the folder's files are what every command reads (``event status``,
``event score``, ``event site`` from a second terminal while the server runs). A thread
gathers the sets verified (or corrected by the director) for up to ``delay`` seconds, then
writes each round's batch through ``event.ingest.take_rows``, the path a results file takes,
under the folder's lock (``event.transaction.writing``), held only while it writes; a batch
into a round with results is appended as a part (``event.parts``), so a write costs the
batch, not the round (a million players' round: 0.3 s a batch of 1,000, it was 7-10 s). A
busy lock (a command running) is waited for briefly and tried again, as often as needed; a
set the folder refuses (a ledger decision made since, say) is tried alone, and one refused
alone is reported (``on_stored``) and tried again every ``RETRY`` seconds, never dropped.
A restarted server hands its store every verified set that entered.parquet does not show
stored (``live.desk.Desk.open``), so a crash between the journal and the folder loses
nothing.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import pyarrow as pa

from ..errors import GuandanError
from ..event.ingest import MARK_COLUMNS, take_rows
from ..event.transaction import writing

log = logging.getLogger("guandan_dup.live")
COMMAND = "guandan-dup serve (results entered at the tables)"
LOCK_WAIT = 1.0
"""Seconds one attempt waits for the folder's lock before it lets the next attempt try."""
RETRY = 10.0
"""Seconds before a set the folder refused is tried again."""
BUSY_NOTICE = 5.0
"""Seconds of a busy lock after which the director is told why sets are not stored yet."""

Key = tuple[int, int, int]  # round, table, set


@dataclass(frozen=True)
class Pending:
    """One verified set to store: its results-file rows (``kind`` ``set`` or ``board``),
    its ``MARK_COLUMNS`` mark, and whether the director overrode a final round (art. 48)."""

    key: Key
    kind: str
    rows: list[dict]
    mark: dict
    override: bool = False

    @property
    def seq(self) -> int:
        return int(self.mark["seq"])


@dataclass
class Outcome:
    """What one write did: the sets stored (key -> seq), those the folder refused and
    those still waiting for its lock (key -> (seq, why))."""

    stored: dict[Key, int] = field(default_factory=dict)
    refused: dict[Key, tuple[int, str]] = field(default_factory=dict)
    waiting: dict[Key, tuple[int, str]] = field(default_factory=dict)


def tables_of(batch: list[Pending]) -> list[pa.Table]:
    """The batch's rows as one Arrow table per kind of results file (set or board)."""
    out = []
    for kind in ("set", "board"):
        rows = [row for p in batch if p.kind == kind for row in p.rows]
        if rows:
            if any("tiebreak" in row for row in rows):
                rows = [{"tiebreak": None} | row for row in rows]
            out.append(pa.Table.from_pylist(rows))
    return out


def marks_of(batch: list[Pending]) -> pd.DataFrame:
    frame = pd.DataFrame([p.mark for p in batch], columns=list(MARK_COLUMNS))
    frame["verified_at"] = pd.to_datetime(frame["verified_at"], utc=True)
    return frame


class Store:
    """The writer of verified sets into the folder at ``path`` (see the module docstring).

    ``on_stored(outcome)`` is called from the store's thread after each write or refusal.
    """

    def __init__(self, path: str | Path, on_stored: Callable[[Outcome], None],
                 delay: float = 0.5) -> None:
        self.path = Path(path)
        self.on_stored = on_stored
        self.delay = delay
        self._pending: dict[Key, Pending] = {}
        self._refused: dict[Key, tuple[Pending, float]] = {}
        self._wake = threading.Condition()
        self._stop = False
        self._busy = False
        self._thread = threading.Thread(target=self._run, name="results-store", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def put(self, pending: Pending) -> None:
        """Queue a verified set; a later one of the same set replaces it (the higher seq)."""
        with self._wake:
            known = self._pending.get(pending.key)
            if known is None or known.seq <= pending.seq:
                self._pending[pending.key] = pending
            self._refused.pop(pending.key, None)
            self._wake.notify()

    def waiting(self) -> int:
        """Sets queued or being written (refused ones aside)."""
        with self._wake:
            return len(self._pending) + int(self._busy)

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every queued set is written (or refused); whether it got there."""
        deadline = time.monotonic() + timeout
        while self.waiting():
            if time.monotonic() > deadline:
                return False
            with self._wake:
                self._wake.notify()
            time.sleep(0.02)
        return True

    def close(self, timeout: float = 10.0) -> None:
        """Write what is queued (within ``timeout``), then stop; idempotent."""
        if not self._thread.is_alive():
            return
        self.flush(timeout)
        with self._wake:
            self._stop = True
            self._wake.notify()
        self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._pending and not self._stop and not self._due():
                    self._wake.wait(timeout=1.0)
                if self._stop and not self._pending:
                    return
            if not self._stop:
                time.sleep(self.delay)  # let a burst's verifications share one write
            with self._wake:
                batch = list(self._pending.values())
                self._pending.clear()
                now = time.monotonic()
                due = [p for p, at in self._refused.values() if at <= now]
                for p in due:
                    del self._refused[p.key]
                batch += [p for p in due if p.key not in {b.key for b in batch}]
                self._busy = bool(batch)
            try:
                self._write_all(batch)
            finally:
                with self._wake:
                    self._busy = False

    def _due(self) -> bool:
        now = time.monotonic()
        return any(at <= now for _, at in self._refused.values())

    def _write_all(self, batch: list[Pending]) -> None:
        groups: dict[tuple[int, bool], list[Pending]] = {}
        for p in batch:
            groups.setdefault((p.key[0], p.override), []).append(p)
        for (round_no, override), group in sorted(groups.items()):
            self._write_group(round_no, override, group)

    def _write_group(self, round_no: int, override: bool, group: list[Pending]) -> None:
        since, told = time.monotonic(), False
        while True:
            outcome, busy = self._attempt(round_no, override, group)
            if busy is None:
                break
            if self._stop:  # closing with the folder still locked: the journal keeps them
                return
            if not told and time.monotonic() - since > BUSY_NOTICE:
                told = True  # the director sees why the sets wait; they are not dropped
                self.on_stored(Outcome(waiting={p.key: (p.seq, busy) for p in group}))
            time.sleep(0.2)  # a command holds the folder: try again in a moment
        if outcome is None:  # refused as a whole: each set alone, to find the one
            if len(group) > 1:
                for p in group:
                    self._write_group(round_no, override, [p])
            return
        self.on_stored(outcome)

    def _attempt(self, round_no: int, override: bool, group: list[Pending]):
        """(outcome, None) when written; (None, None) when refused (a set alone is then
        reported and set aside for ``RETRY``); (None, why) while the folder's lock is busy."""
        with ExitStack() as stack:
            try:
                folder = stack.enter_context(writing(self.path, COMMAND, wait=LOCK_WAIT))
            except GuandanError as busy:
                return None, str(busy)
            try:
                take_rows(folder, round_no, tables_of(group), marks_of(group),
                          override=override, command=COMMAND)
            except Exception as refusal:  # a bug too: reported, kept, tried again later
                if not isinstance(refusal, GuandanError):
                    log.exception("storing round %s's verified sets failed", round_no)
                if len(group) == 1:
                    p = group[0]
                    with self._wake:
                        if p.key not in self._pending:
                            self._refused[p.key] = (p, time.monotonic() + RETRY)
                    self.on_stored(Outcome(refused={p.key: (p.seq, str(refusal))}))
                return None, None
        return Outcome(stored={p.key: p.seq for p in group}), None
