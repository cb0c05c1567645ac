"""The server's live state of every round: what each table entered, verified or disputed.

``Desk`` is the library behind every route (house rule 17: a route parses, checks the
token and calls one method here), usable from Python alone::

    desk = Desk.open("cup")
    answer = asyncio.run(desk.enter(1, 3, {"id": "a1", "set": 1, "ns_level": "K",
                                           "ew_level": "5"}, Director()))
    desk.close()

Every change is a journal record (``live.journal``), applied to the state in the order it is
queued and answered only once committed; ``open`` replays the journal, so a restarted server
has the same state. Entries are checked in pure Python (``live.entries``) against facts
read once per round and read again when a file they come from changes (a ledger row added
from a second terminal, the next round seated): the files are looked at (``os.stat``) at
most every ``RECHECK`` seconds, so such a change counts within ``RECHECK`` seconds (at once
after ``recheck``, which the console calls after its own actions, and after each of the
store's writes). Not on every request: each stat lets the server's other threads take the
interpreter (the GIL), which cost a round-end burst more than checking the entries.
The files' reading and freshness live in ``live.round_files``; the read-only JSON the pages
and the console read (``table_view``, ``progress``, ``queue``) in ``live.views``; a set's
record and what keeps it from being verified in ``live.sets``; the version numbers the event
stream waits on in ``live.changes`` and a platform's batches (the seam ``live.pushes`` uses)
in ``live.platform_desk``, both mixed into ``Desk``: this module keeps what changes the
state (entering, verifying, disputing), the journal and the store.
Verified sets go to ``live.store``, which writes them into the round's results.parquet
through ``event ingest``'s own path.

States of a table's set (SPEC 11): ``missing``, ``entered`` (some or all of it),
``verified`` (both sides agreed; or the director stored it from a file, or the ledger
decided it: ``source`` says which), ``disputed`` (a side asked for the director). Before
verification a new entry replaces the earlier one of the same set or board; after it only
the director changes the set, with a reason that becomes a ``corrected`` ledger row.
"""

from __future__ import annotations

import asyncio
import os
from contextlib import suppress
from pathlib import Path

import pandas as pd

from ..errors import GuandanError
from ..event.folder import EventFolder
from ..event.plan import EventPlan
from . import views
from .changes import Changes
from .entries import (
    Entry,
    SetEntries,
    derive,
    parse_entry,
    problem,
    result_rows,
)
from .facts import RoundFacts
from .feed import Feed
from .journal import Journal, JournalError, Record
from .platform_desk import Platforms
from .reach import plays, refused
from .round_files import RoundFiles, Stored
from .sets import (
    Answer,
    Seen,
    SetRecord,
    canonical,
    correction_problems,
    entry_answer,
    fail,
    now_text,
    unfinished,
)
from .store import Key, Outcome, Pending, Store
from .tokens import Caller, directs, role


class Desk(Changes, Platforms):
    """The live state of the event folder at ``path`` (see the module docstring)."""

    def __init__(self, path: str | os.PathLike, journal: Journal, store_delay: float = 0.5):
        self.path = Path(path)
        self.journal = journal
        super().__init__()  # the version numbers (``live.changes``)
        self._sets: dict[Key, SetRecord] = {}
        self._seen: dict[tuple[int, int, str], Seen] = {}
        self._pushed: dict[tuple[str, str], Seen] = {}
        """(platform, id) -> the platform's result (``live.platform_desk``)."""
        self.feed = Feed()
        """Every verified set and every new standings, in journal order (``live.feed``)."""
        self.standings: dict[int, dict] = {}
        """Round -> its last ``standings`` record's data (``live.scorer``)."""
        self._seq = journal.last_seq
        self.files = RoundFiles(self.path)
        """The round's facts and stored sets, read again when their files change."""
        self.stored_seq: dict[Key, int] = {}
        """Set -> the journal record whose result the folder holds (the store's reports)."""
        self.store_notes: dict[Key, tuple[int, str]] = {}
        """Set -> (seq, why) it is not in the folder yet: refused, or waiting for the lock."""
        self._closed = False
        self.store = Store(self.path, self._on_stored, store_delay)

    # Opening and closing ------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike, store_delay: float = 0.5) -> Desk:
        """The desk of the folder at ``path``: its journal replayed, the store started
        and handed every verified set the folder does not hold yet."""
        EventFolder.open(path)  # not an event folder: refused before anything is made
        journal = Journal(path)
        try:
            desk = cls(path, journal, store_delay)
            for record in journal.records():
                desk._apply(record)
        except BaseException:
            journal.close()
            raise
        desk.store.start()
        desk._restore()
        current = desk.current_round()
        if current is not None:
            desk._facts_now(current)  # the first entry of the day need not wait for them
        return desk

    def close(self) -> None:
        """Store what is verified, then close the journal; idempotent."""
        if self._closed:
            return
        self._closed = True
        self.store.close()
        self.journal.close()

    def _restore(self) -> None:
        """Hand the store every verified set whose record entered.parquet does not show."""
        rounds = sorted({key[0] for key, rec in self._sets.items() if rec.verified})
        for round_no in rounds:
            facts = self._facts_now(round_no)
            stored = self._stored_now(round_no)
            for key, rec in self._sets.items():
                if key[0] != round_no or not rec.verified or facts is None:
                    continue
                mark = stored.entered.get(key[1:])
                if mark is not None and mark[:2] == (self.journal.id, rec.seq):
                    self.stored_seq[key] = rec.seq
                    continue
                since = mark[1] if mark is not None and mark[0] == self.journal.id else 0
                self._to_store(facts, key, rec, since)

    # Facts and the folder's files ---------------------------------------------------------

    def recheck(self) -> None:
        """Look at the folder's files again on the next request, however recent the last
        look (after a change this process made: a console action, a store write)."""
        self.files.recheck()

    def _facts_now(self, round_no: int) -> RoundFacts | None:
        return self.files.facts_now(round_no)

    async def facts(self, round_no: int) -> RoundFacts | None:
        """The round's facts, read again (in a thread) when a file they come from changed
        (``RoundFiles.facts``)."""
        return await self.files.facts(round_no)

    def _stored_now(self, round_no: int) -> Stored:
        return self.files.stored_now(round_no)
    # Who may do what ----------------------------------------------------------------------

    async def ready(self, round_no: int) -> Answer | None:
        """``None`` once the round's facts are read and current (the sync views then answer
        at once), else the answer that says why not (a round not seated, ...)."""
        facts = await self.round_facts(round_no)
        return facts if isinstance(facts, Answer) else None

    async def round_facts(self, round_no: int) -> RoundFacts | Answer:
        """The round's facts (``facts``), or the answer that says why there are none: not
        in the plan (``404``), not seated (``404``), unreadable (``503``)."""
        try:
            facts = await self.facts(round_no)
        except GuandanError as error:
            return fail(404 if "not in the plan" in str(error) else 503, str(error))
        if facts is None:
            return fail(404, f"round {round_no} is not seated yet: the director seats it "
                          f"(`guandan-dup event seat` of round {round_no})")
        return facts

    async def _acting(self, by: Caller | None, round_no: int, table: int
                      ) -> RoundFacts | Answer:
        """The round's facts once ``by`` may act on its ``table``, else the answer that says
        why not (``reach.refused``, then ``round_facts``)."""
        refusal = refused(by, round_no, table)
        if refusal is not None:
            return refusal
        return await self.round_facts(round_no)

    def _source(self, facts: RoundFacts, key: Key) -> str:
        """Who settled a set no record of this journal verified: the tables (an earlier
        journal), the director's results file, the ledger; ``""`` if nobody."""
        stored = self._stored_now(key[0])
        if key[1:] in stored.entered:
            return stored.entered[key[1:]][2]
        if key[1:] in stored.results:
            return "file"
        return "ledger" if key[1:] in facts.will_not_play else ""

    def state(self, facts: RoundFacts, key: Key) -> tuple[str, str]:
        """(state, source) of a table's set (see the module docstring)."""
        rec = self._sets.get(key)
        if rec is not None and rec.disputed:
            return "disputed", rec.by if rec.verified else ""
        if rec is not None and rec.verified:
            return "verified", rec.by
        source = self._source(facts, key)
        if source:
            return "verified", source
        if rec is not None and not rec.entered.empty:
            return "entered", ""
        return "missing", ""

    # Changing the state -------------------------------------------------------------------

    def _next_seq(self) -> int:
        self._seq += 1
        return self._seq

    def _apply(self, record: Record) -> None:
        """Apply one journal record: the one way the state changes, live and on replay."""
        data = record.data
        if record.kind in ("standings", "platforms"):  # records of no one set
            if record.kind == "standings":  # a round's standings anew (``live.scorer``)
                self.standings[int(data["round"])] = data
                self.feed.add_standings(record.seq, data)
            else:  # a platform's batch (``live.platform_desk``)
                self._apply_pushes(record)
            self._seq = max(self._seq, record.seq)
            return
        key = (int(data["round"]), int(data["table"]), int(data["set"]))
        rec = self._sets.setdefault(key, SetRecord())
        if record.kind == "entry":
            entry = Entry.from_dict(data["entry"])
            rec.entered.take(entry)
            if data.get("correction"):
                rec.verified, rec.by, rec.at, rec.seq = True, data["by"], data["at"], record.seq
                rec.corrections.append((record.seq, entry.reason or ""))
                rec.override = entry.override
                rec.disputed, rec.note = False, ""
                self.feed.add(record.seq, key, data["answer"].get("levels"), data["by"],
                              correction=True)
            self._seen[(key[0], key[1], str(entry.id))] = Seen(data["body"], data["answer"])
        elif record.kind == "verify":
            if not rec.verified:
                rec.verified, rec.by, rec.at, rec.seq = True, data["by"], data["at"], record.seq
                self.feed.add(record.seq, key, data.get("levels") or self._levels_now(key, rec),
                              rec.by)
            rec.disputed, rec.note = False, ""
        elif record.kind == "platform":  # one platform result a record (before batches)
            self._take_pushed(record.seq, data["platform"], data["at"], data,
                              Entry.from_dict(data["entry"]))
        elif record.kind == "dispute":
            rec.disputed, rec.note = True, data.get("note", "")
        elif record.kind == "settle":  # a dispute over a set the director's files settled
            rec.disputed, rec.note = False, ""
        self._seq = max(self._seq, record.seq)

    def _levels_now(self, key: Key, rec: SetRecord) -> dict | None:
        """A verified set's levels from its entries (a journal written before verify
        records carried them)."""
        with suppress(GuandanError, OSError, ValueError, KeyError):
            facts = self._facts_now(key[0])
            if facts is not None:
                return derive(facts, key[1], key[2], rec.entered).levels()
        return None

    async def _commit(self, kind: str, data: dict) -> tuple[Record, asyncio.Future]:
        """Apply a new record now and queue it: (the record, its durability)."""
        record = Record(self._next_seq(), kind, data)
        self._apply(record)
        durable = self.journal.submit_here(record)
        self._bump()
        return record, durable

    @staticmethod
    async def durable(durable: asyncio.Future) -> Answer | None:
        """``None`` once ``durable`` (a record's commit) is done, else the ``503`` that
        says the record was not saved (public: ``live.pushes`` answers only then too)."""
        try:
            if not durable.done():
                await asyncio.shield(durable)
            durable.result()
        except JournalError as error:
            return fail(503, f"not saved: {error}")
        return None

    def _to_store(self, facts: RoundFacts, key: Key, rec: SetRecord, since: int = 0) -> None:
        """Hand a verified set to the store, with the reasons of the corrections after the
        record the folder holds (``since``)."""
        derived = derive(facts, key[1], key[2], rec.entered)
        kind, rows = result_rows(facts, key[1], key[2], rec.entered, derived)
        reasons = [reason for seq, reason in rec.corrections if seq > since]
        mark = {"table": key[1], "set": key[2], "source": rec.by, "journal": self.journal.id,
                "seq": rec.seq, "verified_at": rec.at,
                "reason": "; ".join(reasons) if reasons else None}
        self.store.put(Pending(key, kind, rows, mark, rec.override and bool(reasons)))

    async def record_standings(self, data: dict) -> Answer | None:
        """Journal a round's new standings (``live.scorer.Watcher``: a ``standings``
        record, the feed's event); ``None`` once durable, else the ``503`` saying why not."""
        _, durable = await self._commit("standings", data)
        return await self.durable(durable)

    # The routes' methods ------------------------------------------------------------------

    async def enter(self, round_no: int, table: int, body, by: Caller | None) -> Answer:
        """``POST /api/v1/rounds/{R}/tables/{T}/entries`` (issue 22's pinned contract):
        ``201`` entered, ``200`` the same id and body again (the first answer), ``409`` the
        same id with another body or a set no longer the table's to change, ``422`` every
        problem with the body. The director may enter for any table, and correct a
        verified set with a ``reason`` (a ledger row; ``override`` past art. 48's
        deadline). Answered once the entry is in the journal."""
        facts = await self._acting(by, round_no, table)
        if isinstance(facts, Answer):
            return facts
        director = directs(by)
        entry_id = body.get("id") if isinstance(body, dict) else None
        if entry_id is not None:
            seen = self._seen.get((round_no, table, str(entry_id)))
            if seen is not None:
                if seen.body != canonical(body):
                    return fail(409, f"entry id {entry_id!r} was already used at table "
                                  f"{table} for another entry; a new entry needs a new id")
                failed = await self.durable(seen.durable) if seen.durable else None
                return failed or Answer(200, seen.answer)
        entry, problems = parse_entry(facts, table, body)
        if problems:
            return Answer(422, {"problems": problems})
        key = (round_no, table, entry.set)
        rec = self._sets.get(key) or SetRecord()
        state, source = self.state(facts, key)
        settled = rec.verified or (state == "verified")
        if not director:
            if entry.reason is not None or entry.override:
                return Answer(422, {"problems": [problem(
                    "reason", "only the director's correction of a verified set carries a "
                    "reason")]})
            if facts.final(pd.Timestamp.now(tz="UTC")):
                return fail(409, f"round {round_no} is final: its correction deadline "
                              f"(art. 48) passed at {facts.deadline:%H:%M} UTC; ask the "
                              "director to correct it")
            if settled:
                who = {"file": "the director's results file",
                       "ledger": "a decision in the director's ledger"}.get(
                    source, "both sides")
                return fail(409, f"table {table} set {entry.set} is verified (by {who}): "
                              "only the director can change it now", state=state)
        correction = director and settled
        if correction:
            refusal = correction_problems(facts, key, rec, entry, self._sets)
            if refusal is not None:
                return refusal
        trial = SetEntries(rec.entered.result, dict(rec.entered.boards), rec.entered.tiebreak)
        trial.take(entry)
        derived = derive(facts, table, entry.set, trial)
        answer = entry_answer(round_no, table, entry, derived,
                              "verified" if correction else "entered")
        data = {"round": round_no, "table": table, "set": entry.set,
                "by": role(by), "at": now_text(),
                "body": canonical(body), "entry": entry.to_dict(), "answer": answer}
        if correction:
            data["correction"] = True
        record, durable = await self._commit("entry", data)
        self._seen[(round_no, table, str(entry.id))].durable = durable
        failed = await self.durable(durable)
        if failed is not None:
            return failed
        if correction:
            self._to_store(facts, key, self._sets[key], self.stored_seq.get(key, 0))
        return Answer(201, answer)

    async def _set_facts(self, by: Caller | None, round_no: int, table: int,
                         set_no: int) -> RoundFacts | Answer:
        """The round's facts once ``by`` may act on the table's set and the table plays it,
        else the answer that says why not (verify's and dispute's shared checks)."""
        facts = await self._acting(by, round_no, table)
        if isinstance(facts, Answer):
            return facts
        wrong = plays(facts, table, set_no)
        return facts if wrong is None else wrong

    async def verify(self, round_no: int, table: int, set_no: int,
                     by: Caller | None) -> Answer:
        """``POST .../sets/{S}/verify``: ``200 {"state": "verified"}`` once durable (the
        set then reaches results.parquet within seconds); ``409`` while it is incomplete,
        with what is missing. A verified set again is ``200``; the director's verification
        of a disputed set settles the dispute."""
        facts = await self._set_facts(by, round_no, table, set_no)
        if isinstance(facts, Answer):
            return facts
        key = (round_no, table, set_no)
        rec = self._sets.get(key)
        done = {"state": "verified", "round": round_no, "table": table, "set": set_no}
        if rec is not None and rec.verified and not rec.disputed:
            return Answer(200, done)
        elsewhere = (rec is None or not rec.verified) and self._source(facts, key)
        if elsewhere:  # the director's file or ledger settled it: nothing to store
            if rec is not None and rec.disputed:
                _, durable = await self._commit("settle", {
                    "round": round_no, "table": table, "set": set_no, "at": now_text()})
                failed = await self.durable(durable)
                if failed is not None:
                    return failed
            return Answer(200, done | {"source": elsewhere})
        if not directs(by) and facts.final(pd.Timestamp.now(tz="UTC")):
            return fail(409, f"round {round_no} is final: its correction deadline (art. "
                          f"48) passed at {facts.deadline:%H:%M} UTC; ask the director")
        rec = rec or SetRecord()
        derived = derive(facts, table, set_no, rec.entered)
        if not rec.verified:
            found = unfinished(facts, key, rec.entered, derived, self._sets)
            if found:
                return fail(409, f"table {table} set {set_no} cannot be verified yet: "
                              + "; ".join(p["message"] for p in found), problems=found)
        was_verified = rec.verified
        _, durable = await self._commit("verify", {
            "round": round_no, "table": table, "set": set_no, "at": now_text(),
            "by": role(by),
            "levels": derived.levels()})
        failed = await self.durable(durable)
        if failed is not None:
            return failed
        if not was_verified:
            self._to_store(facts, key, self._sets[key])
        return Answer(200, done | {"levels": derived.levels()})

    async def dispute(self, round_no: int, table: int, set_no: int, by: Caller | None,
                      note: str = "") -> Answer:
        """``POST .../sets/{S}/dispute``: a side asks for the director; the set shows as
        ``disputed`` on the console until the director verifies or corrects it (or the
        table verifies it, the sides having agreed)."""
        facts = await self._set_facts(by, round_no, table, set_no)
        if isinstance(facts, Answer):
            return facts
        if not isinstance(note, str) or len(note) > 1000:
            return Answer(422, {"problems": [problem("note", "expected text of at most 1000 "
                                                     "characters")]})
        _, durable = await self._commit("dispute", {
            "round": round_no, "table": table, "set": set_no, "at": now_text(), "note": note,
            "by": role(by)})
        failed = await self.durable(durable)
        if failed is not None:
            return failed
        return Answer(200, {"state": "disputed", "round": round_no, "table": table,
                            "set": set_no})

    # What the routes show -----------------------------------------------------------------

    def record(self, key: Key) -> SetRecord:
        """The set as the journal made it (an empty one if nothing was recorded)."""
        return self._sets.get(key) or SetRecord()

    def table_view(self, round_no: int, table: int) -> dict:
        """``GET /api/v1/rounds/{R}/tables/{T}`` (``views.table_view``)."""
        return views.table_view(self, round_no, table)

    def progress(self, round_no: int) -> dict:
        """``GET /api/v1/rounds/{R}/progress`` (``views.progress``)."""
        return views.progress(self, round_no)

    def queue(self, round_no: int) -> list[dict]:
        """``GET /api/v1/rounds/{R}/queue`` (``views.queue``)."""
        return views.queue(self, round_no)

    def plan(self) -> EventPlan:
        """The event's plan, read again when event.toml changes."""
        return self.files.plan()
    def current_round(self) -> int | None:
        """The latest seated round (the console's and the board's default)."""
        seated = [r for r in range(1, self.plan().rounds + 1)
                  if (self.path / "rounds" / str(r) / "seating.parquet").exists()]
        return seated[-1] if seated else None

    # The store's reports ------------------------------------------------------------------

    def _on_stored(self, outcome: Outcome) -> None:
        """The store's report (from its thread): which sets the folder now holds."""
        for key, seq in outcome.stored.items():
            self.stored_seq[key] = max(seq, self.stored_seq.get(key, 0))
            self.store_notes.pop(key, None)
        for key, note in {**outcome.waiting, **outcome.refused}.items():
            self.store_notes[key] = note
        self.recheck()  # the folder's files changed: what is stored, the ledger's rows
        for round_no in sorted({key[0] for key in outcome.stored}):
            # read here, in the store's thread, not by the next request in the event loop (a
            # few ms of parquet each write); a file replaced meanwhile is read then instead
            with suppress(OSError, ValueError):
                self._stored_now(round_no)
        self._bump(board=bool(outcome.stored))


