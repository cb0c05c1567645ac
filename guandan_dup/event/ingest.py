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

from ..errors import GuandanError, InvalidResultsError, Problem
from ..ledger.apply import substituted
from ..results import load_results, validate_sets
from ..results.load import load_table, read_table
from ..seats import SEAT_COLUMNS
from .folder import EventFolder, parquet_bytes
from .ledger import effects, guard_final
from .plan import EventPlan
from .transaction import step


@dataclass(frozen=True)
class IngestReport:
    """What an ingest did: set results taken, earlier ones replaced, what is still missing;
    ``changed`` is false when the file only repeated results already stored."""

    round: int
    taken: int
    replaced: int
    missing: list[tuple[int, int]]
    warnings: list[str]
    changed: bool


def planned_pairs(plan: EventPlan, round_no: int) -> pd.DataFrame:
    """Every (table, set) the plan expects a result for in ``round_no``, with its group."""
    rows = [(plan.group_of_table(t), t, s) for t, s in plan.planned_results(round_no)]
    return pd.DataFrame(rows, columns=["planned_group", "table", "set"], dtype="int64")


def file_rows(raw: pd.DataFrame, sets: pd.DataFrame) -> pd.Series:
    """The row of the file (from 1) each result of ``sets`` starts on (its first board).

    ``raw`` is the file as ``results.load`` read it (``_row`` numbers its rows). The
    normalised table has one row per (round, table, set); problems found against the plan are
    reported on the director's own row numbers so they can be found in the file.
    """
    keys = ["round", "table", "set"]
    first = raw[[*keys, "_row"]].astype("int64").groupby(keys)["_row"].min()
    merged = sets[keys].merge(first.reset_index(), on=keys, how="left")
    return merged["_row"].astype(int)


def plan_problems(
    plan: EventPlan,
    seating: pd.DataFrame,
    sets: pd.DataFrame,
    round_no: int,
    file: str,
    group_given: bool,
) -> list[Problem]:
    """Everything in ``sets`` (with its ``file_row``) that the plan or the seating contradicts."""
    expected_round = f"this is round {round_no} (--round {round_no})"
    problems = [
        Problem(file, r.file_row, "round", r.round, expected_round)
        for r in sets[sets["round"] != round_no].itertuples()
    ]
    tables = set(seating["table"])
    problems += [
        Problem(file, r.file_row, "table", r.table,
                f"round {round_no} has tables {min(tables)}..{max(tables)}")
        for r in sets[~sets["table"].isin(tables)].itertuples()
    ]
    known = sets[sets["table"].isin(tables)]
    checked = known.merge(planned_pairs(plan, round_no), on=["table", "set"], how="left")
    for row in checked[checked["planned_group"].isna()].itertuples():
        group = plan.group_of_table(row.table)
        playing = ", ".join(map(str, plan.sets_of_group(round_no, group)))
        rule = f"table {row.table} (group {group}) plays sets {playing} in round {round_no}"
        problems.append(Problem(file, row.file_row, "set", row.set, rule))
    if group_given:
        wrong = checked[
            checked["planned_group"].notna() & (checked["group"] != checked["planned_group"])
        ]
        problems += [
            Problem(file, r.file_row, "group", r.group,
                    f"table {r.table} is in group {r.planned_group:.0f}")
            for r in wrong.itertuples()
        ]
    on = ["table", "set"] if "set" in seating.columns else ["table"]
    seated = known.merge(seating, on=on, how="inner", suffixes=("", "_seated"))
    for seat in SEAT_COLUMNS:
        moved = seated[seated[seat] != seated[f"{seat}_seated"]]
        problems += [
            Problem(
                file,
                r.file_row,
                seat,
                getattr(r, seat),
                f"table {r.table} set {r.set}: the seating has {getattr(r, seat + '_seated')!r}",
            )
            for r in moved.itertuples()
        ]
    return sorted(problems, key=lambda p: p.row)


def unseated(problems: list[Problem], seating: pd.DataFrame, round_no: int) -> list[Problem]:
    """``problems`` with "also plays at table ..." said as what it is when the id is no
    player of the round's seating: a seat or table number typed where the id goes (a
    column of 1s is at every table, which the file alone takes for one player twice)."""
    seated = {str(p) for column in SEAT_COLUMNS for p in seating[column]}
    example = next(iter(sorted(seated)), "")
    return [
        Problem(p.file, p.row, p.column, p.value,
                f"is not seated in round {round_no}: the seat columns take the ids of the "
                f"round's seating (such as {example!r}), not seat or table numbers")
        if p.column in SEAT_COLUMNS and p.rule.startswith("also plays at table")
        and str(p.value) not in seated else p
        for p in problems
    ]


def merge_results(earlier: pd.DataFrame | None, new: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """Earlier results with those of the same (table, set) replaced; and how many were."""
    if earlier is None:
        return new.sort_values(["round", "set", "table"], ignore_index=True), 0
    same = earlier.set_index(["table", "set"]).index.isin(new.set_index(["table", "set"]).index)
    merged = pd.concat([earlier[~same], new], ignore_index=True)
    return merged.sort_values(["round", "set", "table"], ignore_index=True), int(same.sum())


@step("event ingest")
def ingest(
    folder: EventFolder, file: str | os.PathLike, round_no: int, override: bool = False,
    command: str = "",
) -> IngestReport:
    """Validate ``file`` and store its results in rounds/R/results.parquet.

    The ledger's start levels (art. 32) are used to check late tables' levels, and a
    substitute may sit in the seat of the player they replace. A final round (art. 48) takes
    results only with ``override``, which is recorded in the ledger. On a dry run's folder
    (``EventFolder.dry_run``) everything is checked and reported and nothing is stored.
    """
    plan = folder.plan
    plan.check_round(round_no)
    decided = effects(folder)
    start_levels = decided.start_levels[decided.start_levels["round"] == round_no]
    seating = folder.read(round_no, "seating")
    if seating is None:
        raise GuandanError(
            f"round {round_no} is not seated yet: run `guandan-dup event seat DIR --round "
            f"{round_no}` before ingesting its results"
        )
    name = Path(file).name
    try:
        ingested = load_results(
            [file],
            boards_per_set=plan.boards_per_set,
            three_failures_reset=plan.three_failures_reset,
            start_levels=start_levels,
        )
    except InvalidResultsError as error:
        raise InvalidResultsError(unseated(error.problems, seating, round_no)) from None
    raw = read_table(load_table(file), name)  # read as load_results read it: no problems
    group_given = "group" in raw.present
    sets = ingested.sets
    located = sets.assign(file_row=file_rows(raw.frame, sets).to_numpy())
    seated_as = substituted(located, decided.substitutes)
    problems = plan_problems(plan, seating, seated_as, round_no, name, group_given)
    problems += plan.event_format.result_problems(folder, located, round_no, name)
    if problems:
        problems.sort(key=lambda p: p.row or 0)
        raise InvalidResultsError(problems)
    sets = sets.assign(group=sets["table"].map(plan.group_of_table).astype("int64"))
    earlier = folder.read(round_no, "results")
    merged, replaced = merge_results(earlier, sets)
    validate_sets(merged, file=f"{name} with the results already in round {round_no}",
                  start_levels=start_levels)
    changed = earlier is None or not merged.equals(earlier)
    files = {folder.file(round_no, "results"): parquet_bytes(merged)}
    if changed and earlier is not None:
        files |= guard_final(folder, round_no, override, command, "ingest results into it")
    folder.replace_files(files)
    warnings = list(ingested.warnings)
    scored = [r for r in folder.rounds_scored() if r >= round_no]
    if changed and scored:
        warnings.append(
            f"round(s) {scored} were scored before these results: their standings are out of "
            f"date until you score again (`guandan-dup event score DIR --round {round_no}`"
            + (", with --force, then every later round)" if scored != [round_no] else ")")
        )
    return IngestReport(
        round_no, len(sets), replaced, folder.missing_results(round_no, merged), warnings,
        changed
    )
