"""``event ingest``: take a results file into a round, checked against the plan and seating.

``results.load_results`` checks the file on its own (columns, levels, finishing orders,
boards within their set). This module adds what only the event knows: the round being
ingested, the tables that round had, the sets each group plays and who sat where (per set
when partners rotate). Every problem is listed at once and nothing is written.

A file may hold some tables or sets only: its (table, set) results replace earlier ones of
the same (table, set), everything else stays, and the previous results.parquet is kept in
``history/`` before it is replaced.

A file may leave out the seat columns (north, east, south, west): the round, table and set
already say who sat there, so ``seated_from`` takes them from the seating (``seats_by_set``:
per set when partners rotate, a substitute in the seat of the player replaced), as if the
file had named them. A seat column the file has is checked against the seating as before.

Results entered at the tables (the server, ``guandan_dup.live``) come in by the same path:
``take_rows`` takes the verified sets as a table of rows, checks them as a file's and stores
them as a file's, and records in rounds/R/entered.parquet which (table, set) came from the
tables (``ENTERED``). A results file may not then change such a set: a (table, set) both
sides verified at the table is refused unless the file gives the same result, with a word
to correct it at the director's console, where the correction becomes a ledger row with its
reason (SPEC 11: after verification only the director changes a result, and says why).
The server's batches are appended to the round as parts (``event.parts``,
``stored_rows.append_part``) and a file's ingest writes the round whole again, its parts
retired to history/.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from functools import cache, partial
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from ..errors import GuandanError, InvalidResultsError, Problem
from ..ledger import LEDGER_FILE, Effects, add, dump, load_bytes
from ..ledger.apply import substituted
from ..levels import LEVEL_NAMES
from ..results.ingest import load_raws
from ..results.load import RawFile, read_file, read_table
from ..seats import SEAT_COLUMNS
from ..wording import event_command, numbered, plural
from .commands import ingest_command
from .finality import guard_final, now_utc
from .folder import EventFolder, parquet_bytes
from .ledger import effects, event_context, read_ledger
from .parts import read_rows, should_compact
from .people import people_of
from .plan import EventPlan
from .seat_names import Names, read_names
from .stored_rows import (
    append_part,
    check_merged,
    compacting,
    merge_results,
    merged_entered,
)
from .transaction import step

MARK_COLUMNS = ("table", "set", "source", "journal", "seq", "verified_at", "reason")
"""What ``take_rows`` is told of each (table, set) it stores: where it came from, and for
the director's correction of a verified set, the ``reason`` its ledger row records."""
_COMPARED = ("ns_level", "ew_level", "adjusted", "tiebreak")


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

    def next_step(self, directory, file) -> str:
        """While tables are missing, the command that takes their rows once they have
        played: the same ``file`` into the same ``directory`` and round, ready to paste."""
        tables = sorted({table for table, _ in self.missing})
        return (f"once {numbered('table', tables)} {plural('has', len(tables), 'have')} "
                f"played, fill in {plural('its', len(tables), 'their')} results and run "
                f"`{ingest_command(directory, self.round, file)}` again")


def planned_pairs(plan: EventPlan, round_no: int, tables: set[int] | None = None
                  ) -> pd.DataFrame:
    """Every (table, set) the plan expects a result for in ``round_no``, with its group;
    only those of ``tables`` if given (a batch of the live server's: 1.4 s for a million
    players' every table)."""
    pairs = plan.planned_array(round_no)
    if tables is not None:  # by whole columns: the plan's 500,000 pairs for a batch's few
        pairs = pairs[np.isin(pairs[:, 0], np.fromiter(tables, np.int64, len(tables)))]
    groups = [plan.group_of_table(t) for t in pairs[:, 0].tolist()]
    return pd.DataFrame({"planned_group": groups, "table": pairs[:, 0], "set": pairs[:, 1]},
                        dtype="int64")


def file_rows(raw: pd.DataFrame, sets: pd.DataFrame) -> pd.Series:
    """The row of the file (from 1) each result of ``sets`` starts on (its first board).

    ``raw`` is the input as ``results.load`` read it (``_row`` numbers its rows; several
    inputs stacked, a (table, set) being in one of them only). The
    normalised table has one row per (round, table, set); problems found against the plan are
    reported on the director's own row numbers so they can be found in the file.
    """
    keys = ["round", "table", "set"]
    first = raw[[*keys, "_row"]].astype("int64").groupby(keys)["_row"].min()
    merged = sets[keys].merge(first.reset_index(), on=keys, how="left")
    return merged["_row"].astype(int)


def seats_by_set(
    plan: EventPlan, seating: pd.DataFrame, substitutes: pd.DataFrame, round_no: int
) -> pd.DataFrame:
    """Who sits where at each (table, set) of ``round_no`` the seating has, a row each
    (group, table, set, the seats), set by set as results come in.

    With partner rotation the seating says it per set, else per table for every set of the
    table's group. A substitute (the ledger's ``substitutes``) sits in the seat of the player
    they replace, as a results file names them.
    """
    on = ["table", "set"] if "set" in seating.columns else ["table"]
    rows = planned_pairs(plan, round_no)[["table", "set"]].merge(
        seating[[*on, "group", *SEAT_COLUMNS]], on=on)
    mine = substitutes[substitutes["round"] == round_no]
    sitting = dict(zip(mine["for_player"], mine["player"], strict=True))
    if sitting:
        rows = rows.assign(**{seat: rows[seat].replace(sitting) for seat in SEAT_COLUMNS})
    return rows[["group", "table", "set", *SEAT_COLUMNS]].sort_values(
        ["set", "table"], ignore_index=True)


def seated_from(raw: RawFile, seats: pd.DataFrame) -> RawFile:
    """``raw`` with each seat column it leaves out taken from ``seats`` (``seats_by_set``)
    by table and set, as if the file had named them. A row of a table or set the round
    does not have gets no players: ``plan_problems`` says what is wrong with it."""
    absent = [seat for seat in SEAT_COLUMNS if seat not in raw.present]
    if raw.kind is None or not absent:
        return raw
    found = raw.frame[["table", "set"]].merge(seats, on=["table", "set"], how="left")
    frame = raw.frame.assign(
        **{seat: found[seat].astype(raw.frame[seat].dtype).to_numpy() for seat in absent})
    return replace(raw, frame=frame, present=raw.present | set(absent))


def plan_problems(
    plan: EventPlan,
    seating: pd.DataFrame,
    sets: pd.DataFrame,
    round_no: int,
    file: str,
    group_given: bool,
    player=repr,
) -> list[Problem]:
    """Everything in ``sets`` (with its ``file_row``) that the plan or the seating contradicts
    (``player``: how a seated id is named, "P015 胡涛")."""
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
    checked = known.merge(planned_pairs(plan, round_no, set(known["table"].tolist())),
                          on=["table", "set"], how="left")
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
                f"table {r.table} set {r.set}: the seating has "
                f"{player(getattr(r, seat + '_seated'))}",
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


def read_entered(folder: EventFolder, round_no: int) -> pd.DataFrame | None:
    """rounds/R/entered.parquet (``ENTERED``) with its parts (``event.parts``), or ``None``
    while no table's result is in."""
    return read_rows(folder.round_dir(round_no), "entered")


def round_seating(
    folder: EventFolder, round_no: int, doing: str = "ingesting its results"
) -> tuple[Effects, pd.DataFrame]:
    """The ledger's effects and the seating of a round ready for results, or why not
    (``doing``: what waits for the seating, in the refusal)."""
    folder.plan.check_round(round_no)
    decided = effects(folder)
    seating = folder.read(round_no, "seating")
    if seating is None:
        raise GuandanError(
            f"round {round_no} is not seated yet: run `guandan-dup event seat {folder.path} "
            f"--round {round_no}` before {doing}"
        )
    return decided, seating


@step("event ingest")
def ingest(
    folder: EventFolder, file: str | os.PathLike, round_no: int, override: bool = False,
    command: str = "",
) -> IngestReport:
    """Validate ``file`` and store its results in rounds/R/results.parquet.

    The ledger's start levels (art. 32) are used to check late tables' levels, and a
    substitute may sit in the seat of the player they replace; seat columns the file leaves
    out are taken from the seating (``seated_from``), and a seat cell may hold a player's
    name instead of the id (``seat_names``). A final round (art. 48) takes
    results only with ``override``, which is recorded in the ledger. A (table, set) verified
    at the table (``ENTERED``) is refused unless the file gives the same result. On a dry
    run's folder (``EventFolder.dry_run``) everything is checked and reported and nothing is
    stored.
    """
    decided, seating = round_seating(folder, round_no)
    seats = seats_by_set(folder.plan, seating, decided.substitutes, round_no)
    raw = read_file(file, optional=frozenset(SEAT_COLUMNS), skip_unplayed=True)
    raw, names = read_names(raw, folder.players(), seats, decided.substitutes["player"])
    raw = seated_from(raw, seats)
    return _take(folder, round_no, [raw], Path(file).name, decided, seating,
                 override, command, names=names)


@step("serve: results entered at the tables")
def take_rows(
    folder: EventFolder, round_no: int, tables: list[pa.Table], marks: pd.DataFrame,
    override: bool = False, command: str = "",
) -> IngestReport:
    """Store results entered at the tables exactly as ``ingest`` stores a file's rows.

    ``tables`` hold the rows as a results file would (set-level rows, board-level rows, or
    one table of each: SPEC 5's columns); ``marks`` has a row per (table, set) of them with
    ``MARK_COLUMNS``, recorded in rounds/R/entered.parquet in the same step. A mark with a
    ``reason`` is the director's correction of a verified set: it is also a ``corrected``
    ledger row with that reason (and an ``override`` row first, with ``override``, in a
    round past its correction deadline). Every check of a file applies, and refuses the
    whole call with an ``InvalidResultsError``.
    """
    decided, seating = round_seating(folder, round_no)
    raws = [read_table(table, "the tables' entries") for table in tables]
    return _take(folder, round_no, raws, "the tables' entries", decided, seating, override,
                 command, marks)


def _take(
    folder: EventFolder, round_no: int, raws: list[RawFile], name: str, decided: Effects,
    seating: pd.DataFrame, override: bool, command: str, marks: pd.DataFrame | None = None,
    names: Names | None = None,
) -> IngestReport:
    """The one path of results into a round (a file's, with what reading its ``names``
    found, or the tables' ``marks``)."""
    plan = folder.plan
    names = names or Names()
    start_levels = decided.start_levels[decided.start_levels["round"] == round_no]
    try:
        ingested = load_raws(
            raws,
            boards_per_set=plan.boards_per_set,
            three_failures_reset=plan.three_failures_reset,
            start_levels=start_levels,
        )
    except InvalidResultsError as error:
        raise InvalidResultsError(
            names.said(unseated(error.problems, seating, round_no))) from None
    group_given = any("group" in raw.present for raw in raws)
    sets = ingested.sets
    stacked = pd.concat([raw.frame for raw in raws], ignore_index=True)
    located = sets.assign(file_row=file_rows(stacked, sets).to_numpy())
    seated_as = substituted(located, decided.substitutes)
    people = cache(partial(people_of, folder))  # read only when a seat is wrong
    problems = plan_problems(plan, seating, seated_as, round_no, name, group_given,
                             lambda p: people().player(p))
    problems += plan.event_format.result_problems(folder, located, round_no, name)
    entered = read_entered(folder, round_no) if marks is None else None
    if marks is None:
        problems += verified_elsewhere(entered, located, name)
    problems = names.said(problems)  # by row
    if problems:
        raise InvalidResultsError(problems)
    sets = sets.assign(group=sets["table"].map(plan.group_of_table).astype("int64"))
    if marks is None and entered is not None:  # the same result as the tables': kept as is
        keys = sets.set_index(["table", "set"]).index
        sets = sets[~keys.isin(entered.set_index(["table", "set"]).index)]
    checked_as = f"{name} with the results already in round {round_no}"
    parts: list[Path] = []
    if marks is not None and not should_compact(folder.round_dir(round_no)):
        appended = append_part(folder, round_no, sets, marks, start_levels, checked_as)
        files, replaced, changed = appended.files, appended.replaced, appended.changed
        stored, before = appended.stored, True
    else:  # the round written whole, its parts (if any) retired: a file's way
        earlier = folder.read(round_no, "results")
        stored, replaced = merge_results(earlier, sets)
        check_merged(stored, sets, earlier, checked_as, start_levels)
        changed, before = earlier is None or not stored.equals(earlier), earlier is not None
        files, parts = compacting(folder, round_no, None if marks is None else merged_entered(
            read_entered(folder, round_no), sets, marks, round_no))
        files[folder.file(round_no, "results")] = parquet_bytes(stored)
    if changed and before:
        files |= guard_final(folder, round_no, override, command, "ingest results into it")
    if marks is not None:
        files |= corrected_rows(folder, files, sets, marks, round_no, override, command)
    folder.replace_files(files, remove=parts)
    warnings = list(ingested.warnings)
    scored = [r for r in folder.rounds_scored() if r >= round_no]
    if changed and scored:
        force = ("--force",) if scored != [round_no] else ()
        warnings.append(
            f"{numbered('round', scored)} {plural('was', len(scored), 'were')} scored before "
            f"these results: {plural('its', len(scored), 'their')} standings are out of date "
            f"until you score again (`{event_command(folder.path, 'score', round_no, *force)}`"
            f"{', then every later round' if force else ''})")
    return IngestReport(
        round_no, len(ingested.sets), replaced, folder.missing_results(round_no, stored),
        warnings, changed
    )


def _result(row) -> tuple:
    """A stored result's values that ``verified_elsewhere`` compares (empty cells: None)."""
    return tuple(None if pd.isna(value) else value
                 for value in (row.get(c) for c in _COMPARED))


def levels_text(row) -> str:
    """``"K/5"`` of a stored result (its artificial codes when it has no levels)."""
    if pd.isna(row.get("ns_level")):
        return str(row.get("adjusted"))
    return f"{LEVEL_NAMES[int(row['ns_level'])]}/{LEVEL_NAMES[int(row['ew_level'])]}"


def verified_elsewhere(entered: pd.DataFrame | None, located: pd.DataFrame,
                       file: str) -> list[Problem]:
    """A problem for each result of ``located`` (a file's) that changes a (table, set)
    verified at the table: only the director changes it now, at the console, with a reason
    that the ledger keeps (SPEC 11). The same result again is no change, and no problem."""
    if entered is None or entered.empty:
        return []
    verified = {(int(r["table"]), int(r["set"])): r for r in entered.to_dict("records")}
    out = []
    for row in located.to_dict("records"):
        key = (int(row["table"]), int(row["set"]))
        if key in verified and _result(row) != _result(verified[key]):
            at_table = verified[key]
            out.append(Problem(
                file, int(row["file_row"]), "ns_level/ew_level", levels_text(row),
                f"table {key[0]} set {key[1]} was verified at the table as "
                f"{levels_text(at_table)} ({at_table['source']}); a results file does not "
                "change it: correct it at the director's console (/director), where the "
                "correction is recorded in the ledger with its reason"))
    return out


def corrected_rows(folder: EventFolder, files: dict, sets: pd.DataFrame, marks: pd.DataFrame,
                   round_no: int, override: bool, command: str) -> dict:
    """ledger.parquet with a ``corrected`` row per mark with a reason (on top of an
    ``override`` row ``files`` already holds), or nothing when no mark has one. The row's
    command says who corrected it (the mark's ``source``: ``director``, ``director of venue
    V``), since a venue's director may correct its tables from the server too."""
    corrections = pd.DataFrame(marks)
    corrections = corrections[corrections["reason"].notna()]
    if corrections.empty:
        return {}
    path = folder.path / LEDGER_FILE
    ledger = load_bytes(files[path]) if path in files else read_ledger(folder)
    now = now_utc()
    stored = {(int(r["table"]), int(r["set"])): r for r in sets.to_dict("records")}
    for mark in corrections.to_dict("records"):
        key = (int(mark["table"]), int(mark["set"]))
        row = stored.get(key)
        played = row is not None and not pd.isna(row["ns_level"])
        by = mark.get("source")  # who corrected it: the director, a venue's director
        ledger = add(ledger, event_context(folder, ledger, now), "corrected", round_no,
                     str(mark["reason"]), time=now,
                     command=f"{command}; corrected by the {by}" if by else command,
                     table=key[0],
                     set=key[1], result=levels_text(row) if played else None,
                     override=override)
    return {path: dump(ledger)}
