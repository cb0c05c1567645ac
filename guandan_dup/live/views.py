"""The read-only views of the desk: the JSON a table's phone, the console's progress and its
queue read (``GET`` routes).

Split from ``live.desk`` because they only read: every function here takes the desk and
looks at its sets, the round's facts and the store's reports, and changes nothing, so the
desk keeps what changes the state (entering, verifying, disputing, the journal, the store)
and its ``table_view``, ``progress`` and ``queue`` are one-line calls into this module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from ..errors import GuandanError
from ..levels import LEVEL_NAMES
from ..seats import SEAT_COLUMNS
from .entries import derive
from .facts import RoundFacts
from .reach import plays
from .store import Key

if TYPE_CHECKING:
    from .desk import Desk

_SIDES = ("ns", "ew")


def _facts(desk: Desk, round_no: int) -> RoundFacts:
    facts = desk.files.facts_now(round_no)
    if facts is None:
        raise GuandanError(f"round {round_no} is not seated yet")
    return facts


def _seats(facts: RoundFacts, table: int, set_no: int) -> dict:
    out = {}
    for column, player in zip(SEAT_COLUMNS, facts.tables[table].seats[set_no],
                              strict=True):
        seat = {"player": player, "name": facts.names.get(player, player)}
        if player in facts.substitutes:
            sub = facts.substitutes[player]
            seat["substitute"] = {"player": sub, "name": facts.names.get(sub, sub)}
        out[column] = seat
    return out


def table_view(desk: Desk, round_no: int, table: int) -> dict:
    """``GET /api/v1/rounds/{R}/tables/{T}``: what the table's phone shows (SPEC 11:
    its own seating, sets, boards, start levels, entries and the levels derived from
    them; nothing of another table)."""
    facts = _facts(desk, round_no)
    wrong = plays(facts, table)
    if wrong is not None:
        raise GuandanError(wrong.body["error"])
    here = facts.tables[table]
    sets = [_set_view(desk, facts, (round_no, table, s)) for s in here.sets]
    out = {"round": round_no, "table": table, "group": here.group,
           "seats": sets[0]["seats"] if sets else {}, "sets": sets,
           "knockout": facts.knockout or None,
           "final": facts.final(pd.Timestamp.now(tz="UTC")),
           "deadline": None if facts.deadline is None else facts.deadline.isoformat()}
    if here.room is not None:
        room = here.room
        out["match"] = {"match": room.match, "room": room.room, "other_table": room.other,
                        "home": {"team": room.home, "name": room.names[0]},
                        "away": {"team": room.away, "name": room.names[1]},
                        "ns_team": room.ns_team, "ew_team": room.ew_team}
    return out


def _set_view(desk: Desk, facts: RoundFacts, key: Key) -> dict:
    _, table, set_no = key
    rec = desk.record(key)
    derived = derive(facts, table, set_no, rec.entered)
    state, source = desk.state(facts, key)
    start = facts.start(table, set_no)
    entries = []
    for entry in rec.entered.entries():
        item = {"id": entry.id}
        if entry.board is not None:
            item |= {"board": entry.board, "finish": entry.finish}
        else:
            item |= {"ns_level": LEVEL_NAMES[entry.ns_level],
                     "ew_level": LEVEL_NAMES[entry.ew_level]}
        entries.append(item)
    levels = dict(zip(_SIDES, (LEVEL_NAMES[i] for i in start), strict=True))
    for item, after in zip((e for e in entries if "board" in e), derived.after,
                           strict=False):
        item["levels"] = after
    view = {"set": set_no, "boards": list(facts.boards(set_no)),
            "start": levels, "seats": _seats(facts, table, set_no),
            "state": state, "entries": entries,
            "levels": derived.levels() if not rec.entered.empty else None,
            "played": derived.played, "complete": derived.complete,
            "problems": list(derived.problems)}
    if source:
        view["source"] = source
    if rec.entered.tiebreak is not None:
        view["tiebreak"] = rec.entered.tiebreak.tiebreak
    if rec.disputed:
        view["note"] = rec.note
    return view


def progress(desk: Desk, round_no: int) -> dict:
    """``GET /api/v1/rounds/{R}/progress`` (pinned): ``{"round", "sets": [{"table",
    "set", "state"}]}`` for every table's set the round expects, set by set; a set
    also says its ``source`` when settled otherwise than by both sides, and ``stored:
    false`` (with the ``problem``, if any) while it is verified but not yet in
    results.parquet."""
    facts = _facts(desk, round_no)
    return {"round": round_no, "sets": [progress_item(desk, facts, (round_no, t, s))
                                        for t, s in facts.planned]}


def progress_item(desk: Desk, facts: RoundFacts, key: Key) -> dict:
    state, source = desk.state(facts, key)
    item = {"table": key[1], "set": key[2], "state": state}
    if source:
        item["source"] = source
    rec = desk.record(key)
    if rec.verified and desk.stored_seq.get(key) != rec.seq:
        item["stored"] = False
        note = desk.store_notes.get(key)
        if note is not None and note[0] == rec.seq:
            item["problem"] = note[1]
    return item


def queue(desk: Desk, round_no: int) -> list[dict]:
    """``GET /api/v1/rounds/{R}/queue``: the sets waiting for someone, disputed first:
    disputed, verified but kept out of the folder (``problem`` says why), entered but
    not verified."""
    facts = _facts(desk, round_no)
    out = []
    for t, s in facts.planned:
        key = (round_no, t, s)
        item = progress_item(desk, facts, key)
        if item["state"] not in ("entered", "disputed") and "problem" not in item:
            continue
        rec = desk.record(key)
        derived = derive(facts, t, s, rec.entered)
        item |= {"levels": derived.levels() if not rec.entered.empty else None,
                 "played": derived.played, "complete": derived.complete,
                 "entries": len(rec.entered.entries())}
        if rec.disputed:
            item["note"] = rec.note
        out.append(item)
    order = {"disputed": 0, "verified": 1, "entered": 2}
    return sorted(out, key=lambda i: (order.get(i["state"], 3), i["set"], i["table"]))
