"""A table's set as the desk keeps it, and what keeps it from being verified.

``SetRecord`` is what the journal's records made of a set (``live.desk`` applies them);
``Seen`` an entry id already answered; ``Answer`` what a route returns. The checks here are
pure functions of the round's facts and the sets recorded (``sets``: a team knockout's
match is decided over both rooms' tables), shared by the desk's entering and verifying and
by a platform's pushed results (``live.pushes``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pandas as pd

from . import jsontext
from .entries import Derived, Entry, SetEntries, derive, pairs_decided, problem
from .facts import RoundFacts
from .store import Key


@dataclass(frozen=True)
class Answer:
    """What a route returns: the HTTP ``status`` and the JSON ``body``."""

    status: int
    body: dict


def fail(status: int, message: str, **more) -> Answer:
    """An error answer: ``{"error": message, ...}`` with the HTTP ``status``."""
    return Answer(status, {"error": message, **more})


@dataclass
class SetRecord:
    """One table's set as the journal made it."""

    entered: SetEntries = field(default_factory=SetEntries)
    verified: bool = False
    by: str = ""  # who verified or last corrected it: "table" | "director"
    at: str = ""
    seq: int = 0  # the record that verified or last corrected it
    corrections: list[tuple[int, str]] = field(default_factory=list)  # (seq, reason)
    override: bool = False  # the last correction overrode a final round (art. 48)
    disputed: bool = False
    note: str = ""


@dataclass
class Seen:
    """An entry id already answered: its body, its answer and when it is durable."""

    body: str
    answer: dict
    durable: asyncio.Future | None = None


def now_text() -> str:
    """The time a record carries: UTC, ISO 8601."""
    return datetime.now(UTC).isoformat()


def canonical(body) -> str:
    """A body as comparable text: the same entry sent again is the same text
    (``jsontext.canonical``)."""
    return jsontext.canonical(body)


def correction_problems(facts: RoundFacts, key: Key, rec: SetRecord, entry: Entry,
                        sets: Mapping[Key, SetRecord]) -> Answer | None:
    """Why the director's change of a settled set is refused, if it is: no reason, a
    final round without override, or a set the change leaves incomplete."""
    if not (entry.reason or "").strip():
        return Answer(422, {"problems": [problem(
            "reason", f"table {key[1]} set {key[2]} is verified: a correction needs a "
            "reason, which the ledger records (SPEC 11)")]})
    if facts.final(pd.Timestamp.now(tz="UTC")) and not entry.override:
        return fail(409, f"round {key[0]} is final: its correction deadline (art. 48) "
                      f"passed at {facts.deadline:%Y-%m-%d %H:%M} UTC; correct it anyway "
                      "with \"override\": true (recorded in the ledger)")
    trial = SetEntries(rec.entered.result, dict(rec.entered.boards), rec.entered.tiebreak)
    trial.take(entry)
    derived = derive(facts, key[1], key[2], trial)
    found = unfinished(facts, key, trial, derived, sets)
    if found:
        return Answer(422, {"problems": [problem(None, "a correction must leave the set "
                                                 "complete; give its final levels"),
                                         *found]})
    return None

def entry_answer(round_no: int, table: int, entry: Entry, derived: Derived,
                 state: str) -> dict:
    """The answer to an entry: what was entered and what the set now comes to."""
    out = {"id": entry.id, "state": state, "round": round_no, "table": table,
           "set": entry.set}
    if entry.board is not None:
        out["board"] = entry.board
    if entry.tiebreak is not None:
        out["tiebreak"] = entry.tiebreak
    return out | {"levels": derived.levels(), "played": derived.played,
                  "complete": derived.complete}

def unfinished(facts: RoundFacts, key: Key, entered: SetEntries, derived: Derived,
               sets: Mapping[Key, SetRecord]) -> list[dict]:
    """What keeps a set from being verified: no entry, boards missing or after the end,
    a knockout match left undecided."""
    if entered.empty:
        return [problem("set", f"set {key[2]} has no entry yet")]
    found = list(derived.problems)
    if not derived.complete and not found:
        k = facts.boards_per_set
        found.append(problem("board", f"{derived.played} of {k} board"
                             f"{'s' if k != 1 else ''} entered and no side passed A: "
                             "enter every board of the set, or its final levels"))
    if found:
        return found
    tiebreak = entered.tiebreak.tiebreak if entered.tiebreak is not None else None
    if facts.knockout == "pairs":
        return pairs_decided(derived, tiebreak)
    if facts.knockout == "teams":
        return match_undecided(facts, key, derived, tiebreak, sets)
    return []

def match_undecided(facts: RoundFacts, key: Key, derived: Derived, tiebreak: str | None,
                    sets: Mapping[Key, SetRecord]) -> list[dict]:
    """A team knockout match level after both rooms (SPEC 8, 9: the home team's level
    difference over both rooms is 0) needs the extra boards' winner from either room."""
    room = facts.tables[key[1]].room
    if room is None or room.other is None:
        return []
    other = sets.get((key[0], room.other, key[2]))
    if other is None or not other.verified:
        return []
    there = derive(facts, room.other, key[2], other.entered)
    total = 0
    for table, levels in ((key[1], derived), (room.other, there)):
        ns_minus_ew = levels.ns_level - levels.ew_level
        total += ns_minus_ew if facts.tables[table].room.room == "closed" else -ns_minus_ew
    named = tiebreak or (other.entered.tiebreak.tiebreak
                         if other.entered.tiebreak is not None else None)
    if total == 0 and named is None:
        return [problem("tiebreak", f"the match at tables {key[1]} and {room.other} is "
                        "level over both rooms: a knockout match still level is decided "
                        "by extra boards (seed 000 art. 49.2); enter the side that won "
                        "them")]
    if total != 0 and tiebreak is not None:
        return [problem("tiebreak", f"the match at tables {key[1]} and {room.other} is "
                        "decided by its levels, so no extra boards were needed; enter "
                        "the set again without them")]
    return []
