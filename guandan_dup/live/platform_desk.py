"""The desk's side of a platform's results (issue 24 item 3): the seam ``live.pushes`` uses.

``live.pushes`` checks a platform's batch item by item, as a table's entries are checked;
what it needs of the desk's state is here, as public methods of ``Desk`` (a mixin of it,
so the state stays the desk's, and ``desk.py`` keeps to the phones' and the director's
side): the ids a platform already used, what keeps a set from being verified, a batch
taken and journalled as one record (``PushBatch``), and the verified sets handed to the
store. Phones' entries do not come through here.

A batch is one ``platforms`` journal record: ``{"platform", "at", "results": [{"round",
"table", "set", "id", "body", "entry", "verified", "levels"}, ...]}`` whose ``seq`` is its
last result's; result ``i`` of ``n`` has the number ``seq - n + 1 + i`` (the feed's cursor,
the set's record). Journals written before batches hold one ``platform`` record a result
with the same fields (and its ``answer``); both replay through ``_take_pushed``.
"""

from __future__ import annotations

import asyncio

from .entries import Derived, Entry, SetEntries
from .facts import RoundFacts
from .journal import Record
from .sets import Seen, SetRecord, unfinished
from .store import Key


class Platforms:
    """``Desk``'s methods for a platform's results (see the module docstring)."""

    def pushed(self, platform: str, entry_id: str) -> Seen | None:
        """The platform's result of id ``entry_id`` already taken (ids are idempotent per
        platform, across batches and restarts), or ``None``."""
        return self._pushed.get((platform, entry_id))

    def unfinished(self, facts: RoundFacts, key: Key, entered: SetEntries,
                   derived: Derived) -> list[dict]:
        """What keeps the set ``key`` with ``entered`` from being verified
        (``sets.unfinished`` against every set recorded: a team match spans two tables)."""
        return unfinished(facts, key, entered, derived, self._sets)

    def pushes(self, platform: str, at: str) -> PushBatch:
        """A batch of ``platform``'s results taken at ``at`` (ISO 8601; ``PushBatch``)."""
        return PushBatch(self, platform, at)

    def store_verified(self, facts: RoundFacts, key: Key) -> None:
        """Hand the verified set ``key`` to the store once its record is durable (the store
        then writes it into results.parquet; ``live.store``)."""
        self._to_store(facts, key, self._sets[key])

    def _take_pushed(self, seq: int, platform: str, at: str, result: dict,
                     entry: Entry) -> Seen:
        """Apply a platform's result of record number ``seq`` (live and on replay): its
        entry, its id, and its set verified when it is."""
        key = (int(result["round"]), int(result["table"]), int(result["set"]))
        rec = self._sets.setdefault(key, SetRecord())
        rec.entered.take(entry)
        state = "verified" if result["verified"] else "entered"
        seen = self._pushed[(platform, result["id"])] = Seen(
            result["body"], {"id": result["id"], "state": state})
        if result["verified"] and not rec.verified:
            by = f"platform {platform}"
            rec.verified, rec.by, rec.at, rec.seq = True, by, at, seq
            rec.disputed, rec.note = False, ""
            self.feed.add(seq, key, result["levels"], by, result["id"])
        return seen

    def _apply_pushes(self, record: Record) -> None:
        """Replay a ``platforms`` record: its results in order, under their numbers."""
        data = record.data
        first = record.seq - len(data["results"]) + 1
        for i, result in enumerate(data["results"]):
            self._take_pushed(first + i, data["platform"], data["at"], result,
                              Entry.from_dict(result["entry"]))


class PushBatch:
    """A platform's results taken one by one and journalled as one ``platforms`` record.

    ``take`` applies a checked result at once, under the desk's next record number, so the
    batch's later items see it (an id used twice, a set an earlier item verified);
    ``commit`` queues the batch as one record: one JSON encoding, one row and one future
    for the batch, not one a result (a record a result cost the server a third of its
    time a result). The numbers of a batch's results must follow each other (the record
    gives only its last), so nothing may take a number between two ``take``s: take a
    batch without awaiting, then commit it (``take`` refuses otherwise).
    """

    def __init__(self, desk: Platforms, platform: str, at: str) -> None:
        self.desk, self.platform, self.at = desk, platform, at
        self.results: list[dict] = []
        self.seen: list[Seen] = []
        self.verified: list[Key] = []
        self.last = 0

    def take(self, round_no: int, table: int, entry: Entry, body: str, verified: bool,
             levels: dict) -> None:
        """Apply one checked result (``body``: the item as ``sets.canonical`` text)."""
        seq = self.desk._next_seq()
        if self.results and seq != self.last + 1:
            raise RuntimeError(f"record {self.last + 1} was taken inside a platform's batch: "
                               "a batch is taken without awaiting")
        self.last = seq
        result = {"round": round_no, "table": table, "set": entry.set, "id": entry.id,
                  "body": body, "entry": entry.to_dict(), "verified": verified,
                  "levels": levels}
        self.results.append(result)
        self.seen.append(self.desk._take_pushed(seq, self.platform, self.at, result, entry))
        if verified:
            self.verified.append((round_no, table, entry.set))

    def commit(self) -> asyncio.Future | None:
        """Queue the batch's record: its durability (``None`` when nothing was taken)."""
        if not self.results:
            return None
        record = Record(self.last, "platforms", {"platform": self.platform, "at": self.at,
                                                 "results": self.results})
        durable = self.desk.journal.submit_here(record)
        for seen in self.seen:
            seen.durable = durable
        self.desk._bump()
        return durable
