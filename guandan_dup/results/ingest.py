"""Ingest results files (or a frame) into the normalised set table, all problems at once.

The order of work: read and coerce every file (:mod:`.load`), check each row's meaning
(:mod:`.validate`), then the checks across rows and files (duplicates, board numbering,
players at two tables, reachable levels), convert boards to sets (:mod:`.boards`), and
raise one :class:`~guandan_dup.errors.InvalidResultsError` listing every problem found.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from ..errors import InvalidResultsError, Problem
from ..levels import LEVEL_NAMES
from ..seats import SEAT_COLUMNS
from .boards import boards_to_sets, check_board_numbers, same_players_through_set
from .ingested import Ingested
from .load import RawFile, located, read_file, read_table
from .schema import NORMALISED_DTYPES, RESULT_KEY, allowed_codes
from .validate import (
    SHOWN_WARNINGS,
    check_rows,
    drop_duplicates,
    players_at_one_table,
    summarised,
    unreachable_levels,
)

# Compared columns of a repeated result -> the input column a problem names.
_SAME = {"group": "group", **{seat: seat for seat in SEAT_COLUMNS}}
_SET_VALUES = {**_SAME, "ns_index": "ns_level", "ew_index": "ew_level", "adjusted": "adjusted",
               "tiebreak": "tiebreak"}
_BOARD_VALUES = {**_SAME, "side": "finish", "amount": "finish"}
_COLUMN_ORDER = ["round", "group", "table", "set", "board", *SEAT_COLUMNS, "ns_level", "ew_level",
                 "finish", "adjusted", "tiebreak"]


def load_results(
    paths: Iterable[str | Path] | str | Path,
    boards_per_set: int | None = None,
    three_failures_reset: bool = False,
    adjusted_rates: Mapping[str, float] | None = None,
    start_levels: pd.DataFrame | None = None,
) -> Ingested:
    """Read set-level and board-level results files (Parquet, .csv, .xlsx) into one
    normalised set table.

    ``boards_per_set`` (K) enables the checks that need it: set s has boards (s-1)K+1 .. sK,
    and set-level levels must be reachable in K boards. ``adjusted_rates`` (code -> rate), when
    given, defines the allowed artificial result codes (default A+, A, A-). ``start_levels``
    (round, table, set, ns_start, ew_start: the ledger's, art. 32) starts those sets above 2/2.
    Raises ``InvalidResultsError`` with every problem in every file.
    """
    if isinstance(paths, str | Path):
        paths = [paths]
    return load_raws([read_file(path) for path in paths], boards_per_set,
                     three_failures_reset, adjusted_rates, start_levels)


def load_raws(
    raws: list[RawFile],
    boards_per_set: int | None = None,
    three_failures_reset: bool = False,
    adjusted_rates: Mapping[str, float] | None = None,
    start_levels: pd.DataFrame | None = None,
) -> Ingested:
    """``load_results`` of inputs already read (``load.read_file`` of a file,
    ``load.read_table`` of an Arrow table of rows): the event folder reads a file once to
    find its rows again, and the server's verified entries arrive as a table, not a file.
    The same checks and the same words as ``load_results``."""
    return _ingest(raws, boards_per_set, three_failures_reset, allowed_codes(adjusted_rates),
                   start_levels)


def validate_sets(
    df: pd.DataFrame,
    file: str = "<frame>",
    boards_per_set: int | None = None,
    three_failures_reset: bool = False,
    adjusted_rates: Mapping[str, float] | None = None,
    start_levels: pd.DataFrame | None = None,
) -> Ingested:
    """Validate a set table built in Python (normalised columns; level indices or text).

    Runs exactly the checks of a set-level file named ``file``; rows are numbered from 1 in
    frame order. Returns it normalised (sorted, deduplicated, dtypes of the contract).
    """
    frame = df.drop(columns=["ns_adjusted", "ew_adjusted", "boards"], errors="ignore")
    for column in ("ns_level", "ew_level"):
        if column in frame and pd.api.types.is_integer_dtype(frame[column]):
            index = frame[column].astype("Int64")
            known = index.between(0, len(LEVEL_NAMES) - 1).fillna(False)
            names = np.asarray(LEVEL_NAMES, dtype=object)[index.where(known, 0).astype(int)]
            frame[column] = pd.Series(names, frame.index, "str").where(known, index.astype("str"))
    raw = read_table(pa.Table.from_pandas(frame, preserve_index=False), file)
    if "boards" in df and raw.kind is not None:
        raw.frame["boards"] = pd.array(df["boards"], "Int16")
    return _ingest([raw], boards_per_set, three_failures_reset, allowed_codes(adjusted_rates),
                   start_levels)


def _ingest(
    raws: list[RawFile], boards_per_set: int | None, reset: bool, codes: tuple[str, ...],
    start_levels: pd.DataFrame | None = None,
) -> Ingested:
    problems: list[Problem] = []
    set_frames, board_frames = [], []
    warnings: list[str] = [note for raw in raws for note in raw.notes]
    for raw in raws:
        problems += raw.problems
        if raw.kind is None:
            continue
        frame, found = check_rows(raw, codes)
        problems += found
        rows = [p.row for p in raw.problems + found if p.row is not None]
        # A column missing or mistyped in the whole file leaves none of its rows usable.
        whole_file = any(p.row is None for p in raw.problems + found)
        frame["_ok"] = ~frame["_row"].isin(rows) & (not whole_file)
        (set_frames if raw.kind.name == "set" else board_frames).append(frame)
    sets = _concat(set_frames)
    boards = _concat(board_frames)
    if not boards.empty:
        # An adjusted row of a board-level file is the whole set's (artificial) result.
        adjusted = boards["adjusted"].notna()
        sets = _concat([sets, boards.loc[adjusted].assign(ns_index=pd.NA, ew_index=pd.NA)])
        boards = boards.loc[~adjusted]
    if not sets.empty:
        problems += unreachable_levels(sets, boards_per_set, reset, start_levels)
        sets, found, warned = drop_duplicates(sets, RESULT_KEY, _SET_VALUES, "result")
        problems += found
        warnings += warned
    derived, first_boards = pd.DataFrame(), pd.DataFrame()
    if not boards.empty:
        boards, found, warned = drop_duplicates(
            boards, [*RESULT_KEY, "board"], _BOARD_VALUES, "board"
        )
        problems += found + check_board_numbers(boards, boards_per_set)
        problems += same_players_through_set(boards)
        warnings += warned
        # Each table's set as its first board, whether or not its boards are sound: the
        # checks across tables must not miss a table because one of its boards is bad.
        first_boards = boards.loc[boards[RESULT_KEY].notna().all(axis=1)].sort_values(
            [*RESULT_KEY, "board"]).drop_duplicates(RESULT_KEY)
        problems += _mixed(sets, first_boards)
        # A table's set is converted only if all its boards are sound: one bad board would
        # shift the levels of every later one and cause spurious problems.
        sound = boards.groupby(RESULT_KEY)["_ok"].transform("all").fillna(False).astype(bool)
        derived, found = boards_to_sets(boards.loc[sound], reset, start_levels)
        problems += found
        if boards_per_set is not None:
            warnings += _short_sets(derived, boards_per_set)
    every = _concat([sets, derived.drop(columns="ended", errors="ignore")])
    seated = _concat([sets, first_boards])
    if not seated.empty:
        problems += players_at_one_table(seated)
    if problems:
        files = {raw.name: i for i, raw in enumerate(raws)}
        columns = {name: i for i, name in enumerate(_COLUMN_ORDER)}
        problems.sort(key=lambda p: (files[p.file], p.row or 0, columns.get(p.column, -1)))
        raise InvalidResultsError(located(problems, [r.frame for r in raws if r.spreadsheet]))
    return Ingested(_normalise(every), warnings)


def _concat(frames: list[pd.DataFrame]) -> pd.DataFrame:
    frames = [f for f in frames if not f.empty]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def _mixed(sets: pd.DataFrame, first_boards: pd.DataFrame) -> list[Problem]:
    """The same (round, table, set) given both as a set-level row and as boards."""
    if sets.empty or first_boards.empty:
        return []
    keyed = sets.loc[sets[RESULT_KEY].notna().all(axis=1)]
    both = keyed.merge(first_boards[[*RESULT_KEY, "_file", "_row"]], on=RESULT_KEY,
                       suffixes=("", "_b"))
    return [
        Problem(file, int(row), None, None,
                f"round {r}, table {t}, set {s} also has board-level rows ({bfile} row {brow});"
                " give a table's set either as one set-level row or as its boards")
        for file, row, r, t, s, bfile, brow in zip(
            both["_file"], both["_row"], both["round"], both["table"], both["set"],
            both["_file_b"], both["_row_b"], strict=True,
        )
    ]


def _short_sets(derived: pd.DataFrame, boards_per_set: int) -> list[str]:
    """Sets with fewer than K boards that did not end by passing A (allowed, but worth a look)."""
    short = derived.loc[(derived["boards"] < boards_per_set) & ~derived["ended"]]
    first_few = short.head(SHOWN_WARNINGS)
    lines = [
        f"round {r}, table {t}, set {s}: only {n} of {boards_per_set} boards and no side passed A"
        for r, t, s, n in zip(first_few["round"], first_few["table"], first_few["set"],
                              first_few["boards"], strict=True)
    ]
    return summarised(lines, len(short),
                      f"sets have fewer than {boards_per_set} boards and no side passed A")


def _normalise(frame: pd.DataFrame) -> pd.DataFrame:
    """The contract's normalised set table: columns, dtypes, one row per result, sorted."""
    if frame.empty:
        return pd.DataFrame({c: pd.Series(dtype=t) for c, t in NORMALISED_DTYPES.items()})
    frame = frame.assign(
        group=frame["group"].fillna(1),
        ns_level=frame["ns_index"],
        ew_level=frame["ew_index"],
        boards=frame.get("boards", pd.NA),
    )
    out = frame[list(NORMALISED_DTYPES)].astype(NORMALISED_DTYPES)
    if "tiebreak" in frame and frame["tiebreak"].notna().any():
        out["tiebreak"] = frame["tiebreak"].astype("str")
    return out.sort_values(["round", "set", "table"], ignore_index=True)
