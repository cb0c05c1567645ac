"""Read results files: detect their kind, coerce column types, report cell-level problems.

Spreadsheets and scripts write the same column in many physical types, so this module accepts
every type that carries the meaning unambiguously (any integer type or whole floats for
numbers; string, large_string or categorical for text; integers for player ids) and reports
anything else once per column. Cells are then checked for emptiness and range here; what the
values *mean* (levels, finishing orders, seats) is checked in :mod:`.validate`.

Rows are numbered from 1, counting data rows of the file in order (the header is not a row).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import Problem
from .schema import INT_COLUMNS, KINDS, PLAYER_COLUMNS, TEXT_COLUMNS, FileKind, file_kind

_INT64 = {pa.int64(): pd.Int64Dtype()}.get


def _empty(column: str, n: int) -> pd.Series:
    """An all-empty column of the type ``column`` is coerced to."""
    if column in INT_COLUMNS:
        return pd.Series(pd.NA, range(n), "Int64")
    return pd.Series(None, range(n), "str")


@dataclass
class RawFile:
    """One input's rows with typed columns (absent or mistyped ones all empty).

    ``frame`` has the kind's columns plus ``_file`` (the name used in messages) and ``_row``
    (1-based row number); ``present`` lists the columns that were there with a usable type.
    """

    name: str
    kind: FileKind | None
    frame: pd.DataFrame
    present: frozenset[str] = frozenset()
    problems: list[Problem] = field(default_factory=list)


def read_parquet(path: str | Path) -> RawFile:
    """Read one results file; an unreadable or non-Parquet file is one problem naming it."""
    name = str(path)
    try:
        table = pq.ParquetFile(path).read()
    except FileNotFoundError:
        reason = "no such file: check the path"
    except IsADirectoryError:
        reason = "is a folder, not a results file"
    except (OSError, pa.ArrowException) as exc:
        reason = (
            "is a folder, not a results file" if Path(path).is_dir()
            else f"cannot be read as a Parquet file ({exc})"
        )
    else:
        return read_table(table, name)
    return RawFile(name, None, pd.DataFrame(), problems=[Problem(name, None, None, None, reason)])


def read_table(table: pa.Table, name: str) -> RawFile:
    """Coerce an Arrow table of results to typed columns, collecting every cell problem."""
    if table.num_rows == 0:
        return RawFile(name, None, pd.DataFrame())
    kind_name = file_kind(table.column_names)
    if kind_name not in ("set", "board"):
        rule = (
            "has both set-level columns (ns_level, ew_level) and board-level columns (board,"
            " finish); a file holds one kind of result"
            if kind_name == "mixed"
            else "has neither ns_level/ew_level (a set-level file) nor board/finish (a"
            " board-level file)"
        )
        return RawFile(name, None, pd.DataFrame(), problems=[Problem(name, None, None, None, rule)])
    kind = next(k for k in KINDS if k.name == kind_name)
    problems = [
        Problem(name, None, column, None, f"is missing: a {kind.name}-level file needs it")
        for column in sorted(kind.required - set(table.column_names))
    ]
    n = table.num_rows
    columns: dict[str, pd.Series] = {}
    present = set()
    for column in sorted(kind.columns):
        series = None
        if column in table.column_names:
            series = _coerce(table.column(column), column, name, problems)
        if series is None:
            series = _empty(column, n)
        else:
            present.add(column)
        columns[column] = series
    frame = pd.DataFrame(columns)
    frame.insert(0, "_row", np.arange(1, n + 1, dtype=np.int64))
    frame.insert(0, "_file", pd.Series(name, pd.RangeIndex(n), dtype="str"))
    reported: dict[str, list[int]] = {}
    for problem in problems:
        reported.setdefault(problem.column, []).append(problem.row)
    problems += _empty_or_below_one(frame, kind, present, reported)
    return RawFile(name, kind, frame, frozenset(present), problems)


def _coerce(column: pa.ChunkedArray, name: str, file: str, problems: list[Problem]):
    """The column as an Int64 or str Series, or None (with a problem) if its type is wrong."""
    kind = pa.types
    if kind.is_dictionary(column.type):
        column = column.cast(column.type.value_type)
    if kind.is_null(column.type):
        return _empty(name, len(column))
    text = kind.is_string(column.type) or kind.is_large_string(column.type) or (
        kind.is_string_view(column.type)
    )
    numeric = kind.is_integer(column.type) or kind.is_floating(column.type)
    if name in INT_COLUMNS and numeric:
        return _whole_numbers(column, name, file, problems)
    if name in TEXT_COLUMNS and text:
        return column.cast(pa.string()).to_pandas()
    if name in PLAYER_COLUMNS and (text or numeric):
        if numeric:
            return _whole_numbers(column, name, file, problems).astype("str")
        ids = column.cast(pa.string()).to_pandas().str.strip()
        return ids.mask(ids == "")
    expected = {
        **dict.fromkeys(INT_COLUMNS, "whole numbers (an integer type, or floats without fraction)"),
        **dict.fromkeys(TEXT_COLUMNS, "text (string or categorical)"),
        **dict.fromkeys(PLAYER_COLUMNS, "player ids (text or integers)"),
    }[name]
    problems.append(Problem(file, None, name, None, f"has type {column.type}; expected {expected}"))
    return None


def _whole_numbers(column: pa.ChunkedArray, name: str, file: str, problems: list[Problem]):
    """Integers as Int64; floats too when whole (a fraction is a problem for that cell)."""
    if pa.types.is_integer(column.type):
        return column.cast(pa.int64()).to_pandas(types_mapper=_INT64)
    values = column.cast(pa.float64()).to_numpy(zero_copy_only=False)
    with np.errstate(invalid="ignore"):
        whole = np.isfinite(values) & (values == np.round(values))
    bad = ~whole & ~np.isnan(values)
    problems.extend(
        Problem(file, int(row) + 1, name, float(values[row]), "is not a whole number")
        for row in np.flatnonzero(bad)
    )
    return pd.Series(pd.array(np.where(whole, values, 0).astype(np.int64), "Int64")).where(whole)


def _empty_or_below_one(
    frame: pd.DataFrame, kind: FileKind, present: set[str], reported: dict[str, list[int]]
) -> list[Problem]:
    """Empty required cells and numbers below 1, in columns that were present and typed.

    Cells already ``reported`` (a fraction, emptied by coercion) are not reported again. The
    play columns (levels; board, finish) may be empty on an adjusted row: :mod:`.validate`
    checks those against ``adjusted``.
    """
    problems = []
    for column in sorted(present):
        values = frame[column]
        if column in kind.required - kind.unneeded_when_adjusted:
            empty = values.isna() & ~frame["_row"].isin(reported.get(column, ()))
            # frame.loc costs even when it takes no row: only where there are some
            for file, row in frame.loc[empty, ["_file", "_row"]].itertuples(index=False) if (
                empty.any()
            ) else ():
                problems.append(Problem(file, row, column, None, "is empty; a value is required"))
        if column in INT_COLUMNS:
            low = (values < 1).fillna(False)
            for file, row, value in frame.loc[low, ["_file", "_row", column]].itertuples(
                index=False
            ) if low.any() else ():
                problems.append(Problem(file, row, column, int(value), "must be at least 1"))
    return problems
