"""A platform's results by the batch (issue 24 item 3): ``POST /api/v1/results``.

A platform deals and plays a table in its own software and confirms the result with both
sides there, so its result counts as verified: it takes the path of a table's verified
entry (the checks of ``live.entries``, a journal record, ``live.store`` into the round's
results.parquet), in one ``platform`` record per item. ``push`` answers every item in the
order given, ``{"id", "state": "verified"}`` (``"entered"`` for a board of a set whose
other boards have not come yet) or ``{"id", "problems": [...]}``, once every record of the
batch is committed.

Ids are the platform's own, idempotent per platform across batches and restarts (the
journal's ``platform`` records rebuild them): the same id with the same item answers as
before and stores nothing again; with another item it is a problem of that item.
"""

from __future__ import annotations

import asyncio

import pandas as pd

from .desk import Desk
from .entries import SetEntries, derive, parse_entry, problem
from .sets import Answer, SetRecord, canonical, unfinished

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
    docstring), once the batch's records are durable; ``503`` when the journal failed."""
    answers: list[dict | None] = []
    waiting: list[asyncio.Future] = []
    stores: list[tuple] = []
    rounds: dict[int, object] = {}
    now = pd.Timestamp.now(tz="UTC")  # once a batch: the time of its records
    for item in items:
        answer, durable, store = await _one(desk, platform, item, rounds, now)
        answers.append(answer)
        if durable is not None:
            waiting.append(durable)
        if store is not None:
            stores.append(store)
    for durable in waiting:
        failed = await Desk._durable(durable)
        if failed is not None:
            return failed
    for facts, key in stores:
        desk._to_store(facts, key, desk._sets[key])
    return Answer(200, {"results": answers})


async def _one(desk: Desk, platform: str, item, rounds: dict, now: pd.Timestamp):
    """(answer, durability to wait for or None, (facts, key) to store or None)."""
    if not isinstance(item, dict):
        return _refused(None, problem(None, "expected a JSON object: {\"id\", \"round\", "
                                      "\"table\", \"set\", \"ns_level\", \"ew_level\"} or "
                                      "{\"id\", \"round\", \"table\", \"board\", "
                                      "\"finish\"}")), None, None
    entry_id = item.get("id")
    if not isinstance(entry_id, str) or not 1 <= len(entry_id) <= MAX_PLATFORM_ID:
        shown = entry_id if isinstance(entry_id, str | int) else None
        return _refused(shown if not isinstance(shown, bool) else None, problem(
            "id", f"expected the platform's id, text of 1-{MAX_PLATFORM_ID} characters, "
            f"not {entry_id!r}")), None, None
    seen = desk._pushed.get((platform, entry_id))
    if seen is not None:
        if seen.body != canonical(item):
            return _refused(entry_id, problem(
                "id", f"id {entry_id!r} was already used for another result; a new result "
                "needs a new id")), None, None
        return seen.answer, seen.durable, None
    found = [problem(k, f"is not a field of a platform's result; expected "
                     f"{', '.join(sorted(ITEM_FIELDS))}")
             for k in sorted(item.keys() - ITEM_FIELDS)]
    for name in ("round", "table"):
        if not _whole(item.get(name)):
            found.append(problem(name, f"expected a {name} number, not {item.get(name)!r}"))
    if found:
        return _refused(entry_id, *found), None, None
    round_no, table = item["round"], item["table"]
    facts = rounds.get(round_no)
    if facts is None:
        facts = rounds[round_no] = await desk._round(round_no)
    if isinstance(facts, Answer):
        return _refused(entry_id, problem("round", facts.body["error"])), None, None
    if facts.opened is None:  # opened a moment ago? the files are looked at again
        desk.recheck()
        facts = rounds[round_no] = await desk._round(round_no)
    if isinstance(facts, Answer) or facts.opened is None:
        return _refused(entry_id, problem(
            "round", f"round {round_no} is not open: platforms push results of a round the "
            f"director opened (`guandan-dup event open DIR --round {round_no}`)")), None, None
    body = {k: v for k, v in item.items() if k not in ("round", "table")}
    if "board" in body and "set" not in body and _whole(body["board"]):
        body["set"] = (body["board"] - 1) // facts.boards_per_set + 1
    entry, found = parse_entry(facts, table, body)
    if found:
        return _refused(entry_id, *found), None, None
    key = (round_no, table, entry.set)
    rec = desk._sets.get(key) or SetRecord()
    state, source = desk.state(facts, key)
    if rec.verified or state == "verified":
        who = rec.by or {"file": "the director's results file",
                         "ledger": "a decision in the director's ledger"}.get(source, source)
        return _refused(entry_id, problem(
            "set", f"round {round_no} table {table} set {entry.set} is already verified "
            f"(by {who}); only the director can change it now")), None, None
    if facts.final(now):
        return _refused(entry_id, problem(
            "round", f"round {round_no} is final: its correction deadline (art. 48) passed "
            f"at {facts.deadline:%H:%M} UTC; ask the director")), None, None
    trial = SetEntries(rec.entered.result, dict(rec.entered.boards), rec.entered.tiebreak)
    trial.take(entry)
    derived = derive(facts, table, entry.set, trial)
    missing = unfinished(facts, key, trial, derived, desk._sets)
    board_waiting = (entry.board is not None and not derived.complete
                     and not derived.problems)
    if missing and not board_waiting:
        return _refused(entry_id, *missing), None, None
    verified = not missing
    answer = {"id": entry_id, "state": "verified" if verified else "entered"}
    data = {"round": round_no, "table": table, "set": entry.set, "platform": platform,
            "id": entry_id, "at": now.isoformat(), "body": canonical(item),
            "entry": entry.to_dict(), "answer": answer, "verified": verified,
            "levels": derived.levels()}
    _, durable = await desk._commit("platform", data)
    desk._pushed[(platform, entry_id)].durable = durable
    return answer, durable, (facts, key) if verified else None

