"""The round's files and whether they changed: the facts a round's entries are checked
against, and what its results.parquet and entered.parquet say is stored.

Split from ``live.desk`` because it is one concern with one rule of its own (freshness): the
files are looked at (``os.stat``) at most every ``RECHECK`` seconds, and read again only when
their stamps change, so the desk's entering, verifying and disputing never think about when
a file was last read. ``RoundFiles`` holds nothing a journal record changes; the desk owns
one and asks it.
"""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow.parquet as pq

from ..errors import GuandanError
from ..event.folder import EventFolder
from ..event.parts import ENTERED, PARTS, file_stamp, part_files
from ..event.plan import EventPlan
from ..event.transaction import reading
from .facts import RoundFacts, load_facts, watched

FACTS_WAIT = 5.0
"""Seconds a first read of a round's facts waits for a command holding the folder."""
STALE_WAIT = 0.2
"""Seconds a new read of a round's facts waits for a command holding the folder before the
facts at hand serve (the next request tries again)."""
RECHECK = 0.5
"""Seconds the stamps of the folder's files are trusted after a look (see the module
docstring): the bound on how late a change from a second terminal counts."""


@dataclass
class Stored:
    """What a round's files say is stored: (table, set) in results.parquet, and those of
    entered.parquet with (journal, seq, source)."""

    results: frozenset[tuple[int, int]] = frozenset()
    entered: dict[tuple[int, int], tuple[str, int, str]] = field(default_factory=dict)


def file_stamps(paths) -> tuple:
    """Each path's ``event.parts.file_stamp``: what changes when a file is replaced."""
    return tuple(file_stamp(path) for path in paths)


class RoundFiles:
    """The files of the event folder at ``path`` as the desk reads them (see the module
    docstring)."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self._facts: dict[int, tuple[tuple, RoundFacts | None]] = {}
        self._stored: dict[int, tuple[tuple, Stored]] = {}
        self._read_parts: dict[int, tuple[tuple, list[Path]]] = {}
        """Round -> (the stamps of its two files, the parts) when ``_stored`` was read."""
        self._watched: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {}
        self._looked: dict[tuple[str, ...], tuple[float, tuple]] = {}
        """Files -> (time.monotonic() of the last look, their stamps then)."""
        self._loading: dict[int, tuple[asyncio.AbstractEventLoop, asyncio.Task]] = {}
        self._plan: tuple[tuple, EventPlan] | None = None
        self._toml = str(self.path / "event.toml")

    def recheck(self) -> None:
        """Look at the folder's files again on the next request, however recent the last
        look (after a change this process made: a console action, a store write)."""
        self._looked = {}

    def stamp_of(self, paths: tuple[str, ...]) -> tuple:
        """The stamps of ``paths``, taken again only when the last look is ``RECHECK``
        seconds old (or ``recheck`` was called)."""
        now = time.monotonic()
        looked = self._looked.get(paths)
        if looked is not None and now - looked[0] < RECHECK:
            return looked[1]
        stamp = file_stamps(paths)
        self._looked[paths] = (now, stamp)
        return stamp

    def paths(self, round_no: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The files a round's facts come from (``watched``) and those saying what is
        stored (results.parquet, entered.parquet and the parts folder), as text made once:
        every entry stats them, and building paths cost more than the stats."""
        known = self._watched.get(round_no)
        if known is None:
            folder_round = self.path / "rounds" / str(round_no)
            known = (tuple(str(p) for p in watched(self.path, round_no)),
                     (str(folder_round / "results.parquet"), str(folder_round / ENTERED),
                      str(folder_round / PARTS)))
            self._watched[round_no] = known
        return known

    def facts_now(self, round_no: int) -> RoundFacts | None:
        """The round's facts, read again (here, now) when a file they come from changed."""
        stamp = self.stamp_of(self.paths(round_no)[0])
        cached = self._facts.get(round_no)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        try:  # with facts at hand, a command's lock is waited for briefly only
            with reading(self.path, wait=FACTS_WAIT if cached is None else STALE_WAIT) as folder:
                facts = load_facts(folder, round_no)
        except GuandanError:
            if cached is not None:  # a command holds the folder: the facts before it
                return cached[1]
            raise
        self._facts[round_no] = (stamp, facts)
        return facts

    async def facts(self, round_no: int) -> RoundFacts | None:
        """``facts_now`` without blocking the event loop: a stale round is read in a
        thread, once however many requests wait for it."""
        stamp = self.stamp_of(self.paths(round_no)[0])
        cached = self._facts.get(round_no)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        loop = asyncio.get_running_loop()
        inflight = self._loading.get(round_no)
        if inflight is None or inflight[0] is not loop or inflight[1].done():
            task = loop.create_task(asyncio.to_thread(self.facts_now, round_no))
            self._loading[round_no] = inflight = (loop, task)
        return await asyncio.shield(inflight[1])

    def stored_now(self, round_no: int) -> Stored:
        """Which sets the round's results and entered rows hold (the files and their parts,
        ``event.parts``). A part is only ever added, so when the files are as before and
        parts were added, only those are read: the store's every write adds one."""
        paths = self.paths(round_no)[1]
        stamp = self.stamp_of(paths)
        cached = self._stored.get(round_no)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        round_dir = self.path / "rounds" / str(round_no)
        try:
            parts = part_files(round_dir)
            known = self._read_parts.get(round_no)
            if (known is not None and cached is not None and known[0] == stamp[:2]
                    and parts[:len(known[1])] == known[1]):
                stored, files = cached[1], parts[len(known[1]):]
            else:
                stored, files = Stored(), [Path(p) for p in paths[:2] if os.path.exists(p)]
                files += parts
            stored = _with_files(stored, files)
        except OSError:  # replaced while read: read again next time
            return cached[1] if cached is not None else Stored()
        self._stored[round_no] = (stamp, stored)
        self._read_parts[round_no] = (stamp[:2], parts)
        return stored

    def plan(self) -> EventPlan:
        """The event's plan, read again when event.toml changes."""
        stamp = self.stamp_of((self._toml,))
        if self._plan is None or self._plan[0] != stamp:
            self._plan = (stamp, EventFolder.open(self.path).plan)
        return self._plan[1]


def _with_files(stored: Stored, files: list[Path]) -> Stored:
    """``stored`` and what ``files`` (results or entered rows: whole files or parts, in
    order) say is stored; a later file's entered row of a set replaces an earlier one."""
    results, entered = set(stored.results), dict(stored.entered)
    for path in files:
        if path.name.startswith("results"):
            table = pq.read_table(path, columns=["table", "set"]).to_pydict()
            results.update(zip(table["table"], table["set"], strict=True))
        else:
            table = pq.read_table(path, columns=["table", "set", "journal", "seq", "source"])
            entered.update(zip(zip(*table.select(["table", "set"]).to_pydict().values(),
                                   strict=True),
                               zip(*table.select(["journal", "seq", "source"]).to_pydict()
                                   .values(), strict=True), strict=True))
    return Stored(frozenset(results), entered)
