"""Stored results that the ledger's late starts (art. 32) no longer allow.

A late row raises the start of a table's set; ingestion checks a result against the start
in force, and ``event ledger add`` refuses a late row that the stored set-level result of
its table contradicts (``ledger.check_stored_results``). A result ingested from a
board-level file is different: its levels were replayed from its boards, from the start in
force then, and the finishing orders are not stored, so a late row added afterwards is
accepted and the boards are to be ingested again, to be replayed from the new start. Until
they are, the stored levels contradict the ledger: ``event status`` says which tables are
to be ingested again and ``event score`` refuses the round, so the two orders of the
commands end with the same levels.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..errors import GuandanError, InvalidResultsError
from ..levels import LEVEL_NAMES
from ..results import validate_sets
from .folder import EventFolder


@dataclass(frozen=True)
class StartConflict:
    """A stored result of round ``round`` table ``table`` set ``set`` that the start the
    ledger gives (``start``, NS/EW) cannot produce; ``from_boards`` when it was replayed
    from a board-level file (ingesting the boards again mends it)."""

    round: int
    table: int
    set: int
    levels: str
    start: str
    from_boards: bool
    why: str

    def where(self) -> str:
        return f"round {self.round} table {self.table} set {self.set}"


def start_conflicts(folder: EventFolder, round_no: int, start_levels: pd.DataFrame,
                    tables: set[tuple[int, int]] | None = None) -> list[StartConflict]:
    """The stored results of ``round_no`` (only the (table, set) of ``tables`` if given)
    that the late starts ``start_levels`` (the ledger's ``Effects.start_levels``) cannot
    produce, checked as ingestion checks them (``validate_sets``)."""
    starts = start_levels[start_levels["round"] == round_no]
    if starts.empty:  # as almost always: no round's results read for nothing
        return []
    results = folder.read(round_no, "results")
    if results is None:
        return []
    plan, out = folder.plan, []
    for start in starts.itertuples():
        if tables is not None and (start.table, start.set) not in tables:
            continue
        stored = results[(results["table"] == start.table) & (results["set"] == start.set)]
        if stored.empty or stored["ns_level"].isna().all():
            continue  # no result yet, or an artificial one
        try:
            validate_sets(stored, file=str(folder.file(round_no, "results")),
                          boards_per_set=plan.boards_per_set,
                          three_failures_reset=plan.three_failures_reset,
                          start_levels=starts)
        except InvalidResultsError as error:
            first = stored.iloc[0]
            out.append(StartConflict(
                round_no, int(start.table), int(start.set),
                "/".join(LEVEL_NAMES[int(first[c])] for c in ("ns_level", "ew_level")),
                f"{LEVEL_NAMES[int(start.ns_start)]}/{LEVEL_NAMES[int(start.ew_start)]}",
                bool(stored["boards"].notna().any()) if "boards" in stored else False,
                "; ".join(p.rule for p in error.problems)))
    return out


def replay_note(conflicts: list[StartConflict]) -> str:
    """What a director does about board-level results a late row made stale."""
    where = ", ".join(c.where() for c in conflicts)
    return (f"{where}: its levels were replayed from its boards before this start; ingest "
            "the boards file again so they are replayed from it (`event score` refuses the "
            "round until then)")


def refuse_start_conflicts(folder: EventFolder, round_no: int,
                           start_levels: pd.DataFrame) -> None:
    """Refuse scoring rounds 1..``round_no`` while a stored result contradicts a late
    start of the ledger (``start_conflicts``), naming each and what to ingest again."""
    found = [c for r in range(1, round_no + 1)
             for c in start_conflicts(folder, r, start_levels)]
    if not found:
        return
    lines = "; ".join(
        f"{c.where()} is {c.levels}, which the late start {c.start} cannot produce"
        + (" (replayed from its boards before the late row: ingest the boards file again)"
           if c.from_boards else " (correct the result, or withdraw the late row)")
        for c in found)
    raise GuandanError(f"stored results contradict the ledger: {lines}. Nothing was scored")
