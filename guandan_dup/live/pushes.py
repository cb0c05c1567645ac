"""A platform's results by the batch (issue 24 item 3): ``POST /api/v1/results``.

A platform deals and plays a table in its own software and confirms the result with both
sides there, so its result counts as verified: it takes the path of a table's verified
entry (the checks of ``live.entries``, a journal record, ``live.store`` into the round's
results.parquet), the batch in one ``platforms`` journal record (``live.platform_desk``).
``push`` answers every item in the order given, ``{"id", "state": "verified"}``
(``"entered"`` for a board of a set whose other boards have not come yet) or ``{"id",
"problems": [...]}``, once the batch's record is committed (and the records of earlier
batches its resent items were taken in).

Ids are the platform's own, idempotent per platform across batches and restarts (the
journal's records rebuild them): the same id with the same item answers as
before and stores nothing again; with another item it is a problem of that item.
"""

from __future__ import annotations

import pandas as pd

from .desk import Desk
from .entries import SetEntries, derive, parse_entry, problem
from .facts import RoundFacts
from .platform_desk import PushBatch
from .sets import Answer, canonical

MAX_ITEMS = 1000
"""Items one batch may carry."""
MAX_BODY = 512 * 1024
"""A batch of ``MAX_ITEMS`` items of a few hundred bytes each, with room to spare."""
MAX_PLATFORM_ID = 64
ITEM_FIELDS = frozenset({"id", "round", "table", "set", "ns_level", "ew_level", "board",
                         "finish", "tiebreak"})


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _id_of(item) -> str | None:
    entry_id = item.get("id") if isinstance(item, dict) else None
    return entry_id if isinstance(entry_id, str) else None


def _refused(entry_id, *problems: dict) -> dict:
    return {"id": entry_id, "problems": list(problems)}


async def push(desk: Desk, platform: str, items: list) -> Answer:
    """``200 {"results": [...]}``: every item of ``items`` answered in order (see the module
    docstring), once the batch's record is durable; ``503`` when the journal failed.

    The rounds' facts are read first (the one wait); the items are then checked and taken
    without awaiting (``Desk.pushes``: one journal record a batch)."""
    now = pd.Timestamp.now(tz="UTC")  # once a batch: the time of its records
    rounds = await _rounds(desk, items)
    batch = desk.pushes(platform, now.isoformat())
    answers, waiting = [], []
    for item in items:
        answer, durable = _one(desk, batch, item, rounds, now)
        answers.append(answer)
        if durable is not None:
            waiting.append(durable)
    durable = batch.commit()
    if durable is not None:
        waiting.append(durable)
    for durable in dict.fromkeys(waiting):  # a batch's record once, however many items
        failed = await Desk.durable(durable)
        if failed is not None:
            return failed
    for key in batch.verified:
        desk.store_verified(rounds[key[0]], key)
    return Answer(200, {"results": answers})


async def _rounds(desk: Desk, items: list) -> dict[int, RoundFacts | str]:
    """The facts of every round the batch names, or why a round takes no results."""
    out: dict[int, RoundFacts | str] = {}
    named = (item.get("round") for item in items if isinstance(item, dict))
    for round_no in dict.fromkeys(r for r in named if _whole(r)):
        facts = await desk.round_facts(round_no)
        if not isinstance(facts, Answer) and facts.opened is None:
            desk.recheck()  # opened a moment ago? the files are looked at again
            facts = await desk.round_facts(round_no)
        if isinstance(facts, Answer):
            out[round_no] = facts.body["error"]
        elif facts.opened is None:
            out[round_no] = (f"round {round_no} is not open: platforms push results of a "
                             "round the director opened (`guandan-dup event open` of "
                             f"round {round_no})")
        else:
            out[round_no] = facts
    return out


def _one(desk: Desk, batch: PushBatch, item, rounds: dict, now: pd.Timestamp):
    """(answer, the durability of an earlier batch to wait for, or None)."""
    if not isinstance(item, dict):
        return _refused(None, problem(None, "expected a JSON object: {\"id\", \"round\", "
                                      "\"table\", \"set\", \"ns_level\", \"ew_level\"} or "
                                      "{\"id\", \"round\", \"table\", \"board\", "
                                      "\"finish\"}")), None
    entry_id = item.get("id")
    if not isinstance(entry_id, str) or not 1 <= len(entry_id) <= MAX_PLATFORM_ID:
        shown = entry_id if isinstance(entry_id, str | int) else None
        return _refused(shown if not isinstance(shown, bool) else None, problem(
            "id", f"expected the platform's id, text of 1-{MAX_PLATFORM_ID} characters, "
            f"not {entry_id!r}")), None
    body = canonical(item)
    seen = desk.pushed(batch.platform, entry_id)
    if seen is not None:
        if seen.body != body:
            return _refused(entry_id, problem(
                "id", f"id {entry_id!r} was already used for another result; a new result "
                "needs a new id")), None
        return seen.answer, seen.durable
    found = [problem(k, f"is not a field of a platform's result; expected "
                     f"{', '.join(sorted(ITEM_FIELDS))}")
             for k in sorted(item.keys() - ITEM_FIELDS)]
    for name in ("round", "table"):
        if not _whole(item.get(name)):
            found.append(problem(name, f"expected a {name} number, not {item.get(name)!r}"))
    if found:
        return _refused(entry_id, *found), None
    round_no, table = item["round"], item["table"]
    facts = rounds[round_no]
    if isinstance(facts, str):
        return _refused(entry_id, problem("round", facts)), None
    fields = {k: v for k, v in item.items() if k not in ("round", "table")}
    if "board" in fields and "set" not in fields and _whole(fields["board"]):
        fields["set"] = (fields["board"] - 1) // facts.boards_per_set + 1
    entry, found = parse_entry(facts, table, fields)
    if found:
        return _refused(entry_id, *found), None
    key = (round_no, table, entry.set)
    rec = desk.record(key)
    state, source = desk.state(facts, key)
    if rec.verified or state == "verified":
        who = rec.by or {"file": "the director's results file",
                         "ledger": "a decision in the director's ledger"}.get(source, source)
        return _refused(entry_id, problem(
            "set", f"round {round_no} table {table} set {entry.set} is already verified "
            f"(by {who}); only the director can change it now")), None
    if facts.final(now):
        return _refused(entry_id, problem(
            "round", f"round {round_no} is final: its correction deadline (art. 48) passed "
            f"at {facts.deadline:%H:%M} UTC; ask the director")), None
    trial = SetEntries(rec.entered.result, dict(rec.entered.boards), rec.entered.tiebreak)
    trial.take(entry)
    derived = derive(facts, table, entry.set, trial)
    missing = desk.unfinished(facts, key, trial, derived)
    board_waiting = (entry.board is not None and not derived.complete
                     and not derived.problems)
    if missing and not board_waiting:
        return _refused(entry_id, *missing), None
    verified = not missing
    batch.take(round_no, table, entry, body, verified, derived.levels())
    return {"id": entry_id, "state": "verified" if verified else "entered"}, None
