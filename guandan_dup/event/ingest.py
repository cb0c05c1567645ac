"""``event ingest``: take a results file into a round, checked against the plan and seating.

``results.load_results`` checks the file on its own (columns, levels, finishing orders,
boards within their set). This module adds what only the event knows: the round being
ingested, the tables that round had, the sets each group plays and who sat where (per set
when partners rotate). Every problem is listed at once and nothing is written.

A file may hold some tables or sets only: its (table, set) results replace earlier ones of
the same (table, set), everything else stays, and the previous results.parquet is kept in
``history/`` before it is replaced.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

from ..errors import GuandanError, InvalidResultsError, Problem
from ..results import load_results, validate_sets
from ..seats import SEAT_COLUMNS
from .folder import EventFolder, parquet_bytes
from .plan import EventPlan


@dataclass(frozen=True)
class IngestReport:
    """What an ingest did: set results taken, earlier ones replaced, what is still missing."""

    round: int
    taken: int
    replaced: int
    missing: list[tuple[int, int]]
    warnings: list[str]


def planned_pairs(plan: EventPlan, round_no: int) -> pd.DataFrame:
    """Every (table, set) the plan expects a result for in ``round_no``, with its group."""
    rows = [
        (plan.group_of_table(t), t, s)
        for s in plan.sets_of_round(round_no)
        for t in plan.tables_of_set(round_no, s)
    ]
    return pd.DataFrame(rows, columns=["planned_group", "table", "set"], dtype="int64")


def plan_problems(
    plan: EventPlan,
    seating: pd.DataFrame,
    sets: pd.DataFrame,
    round_no: int,
    file: str,
    group_given: bool,
) -> list[Problem]:
    """Everything in ``sets`` that the plan or the round's seating contradicts."""
    problems = [
        Problem(file, None, "round", r, f"this is round {round_no} (--round {round_no})")
        for r in sorted(set(sets["round"]) - {round_no})
    ]
    tables = set(seating["table"])
    problems += [
        Problem(file, None, "table", t, f"round {round_no} has tables {min(tables)}..{max(tables)}")
        for t in sorted(set(sets["table"]) - tables)
    ]
    known = sets[sets["table"].isin(tables)]
    checked = known.merge(planned_pairs(plan, round_no), on=["table", "set"], how="left")
    for row in checked[checked["planned_group"].isna()].itertuples():
        group = plan.group_of_table(row.table)
        playing = ", ".join(map(str, plan.sets_of_group(round_no, group)))
        rule = f"table {row.table} (group {group}) plays sets {playing} in round {round_no}"
        problems.append(Problem(file, None, "set", row.set, rule))
    if group_given:
        wrong = checked[
            checked["planned_group"].notna() & (checked["group"] != checked["planned_group"])
        ]
        problems += [
            Problem(
                file, None, "group", r.group, f"table {r.table} is in group {r.planned_group:.0f}"
            )
            for r in wrong.itertuples()
        ]
    on = ["table", "set"] if "set" in seating.columns else ["table"]
    seated = known.merge(seating, on=on, how="inner", suffixes=("", "_seated"))
    for seat in SEAT_COLUMNS:
        moved = seated[seated[seat] != seated[f"{seat}_seated"]]
        problems += [
            Problem(
                file,
                None,
                seat,
                getattr(r, seat),
                f"table {r.table} set {r.set}: the seating has {getattr(r, seat + '_seated')!r}",
            )
            for r in moved.itertuples()
        ]
    return problems


def merge_results(earlier: pd.DataFrame | None, new: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """Earlier results with those of the same (table, set) replaced; and how many were."""
    if earlier is None:
        return new.sort_values(["round", "set", "table"], ignore_index=True), 0
    same = earlier.set_index(["table", "set"]).index.isin(new.set_index(["table", "set"]).index)
    merged = pd.concat([earlier[~same], new], ignore_index=True)
    return merged.sort_values(["round", "set", "table"], ignore_index=True), int(same.sum())


def ingest(folder: EventFolder, file: str | os.PathLike, round_no: int) -> IngestReport:
    """Validate ``file`` and store its results in rounds/R/results.parquet."""
    plan = folder.plan
    plan.check_round(round_no)
    seating = folder.read(round_no, "seating")
    if seating is None:
        raise GuandanError(
            f"round {round_no} is not seated yet: run `guandan-dup event seat DIR --round "
            f"{round_no}` before ingesting its results"
        )
    name = Path(file).name
    ingested = load_results(
        [file],
        boards_per_set=plan.boards_per_set,
        three_failures_reset=plan.three_failures_reset,
    )
    group_given = "group" in pq.read_schema(file).names
    sets = ingested.sets
    problems = plan_problems(plan, seating, sets, round_no, name, group_given)
    if problems:
        raise InvalidResultsError(problems)
    sets = sets.assign(group=sets["table"].map(plan.group_of_table).astype("int64"))
    merged, replaced = merge_results(folder.read(round_no, "results"), sets)
    validate_sets(merged, file=f"{name} with the results already in round {round_no}")
    folder.replace_files({folder.file(round_no, "results"): parquet_bytes(merged)})
    done = set(zip(merged["table"], merged["set"], strict=True))
    missing = [
        (t, s)
        for t, s in planned_pairs(plan, round_no)[["table", "set"]].itertuples(index=False)
        if (t, s) not in done
    ]
    return IngestReport(round_no, len(sets), replaced, missing, ingested.warnings)
