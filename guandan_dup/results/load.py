"""Read results files: detect their kind, coerce column types, report cell-level problems.

A results file is Parquet, or a spreadsheet (``.csv``, ``.xlsx``: :mod:`.spreadsheet` reads
it as text); both go through ``read_table``, so they get the same checks and messages.
Spreadsheets and scripts write the same column in many physical types, so this module accepts
every type that carries the meaning unambiguously (any integer type, whole floats or
integer-looking text for numbers; string, large_string or categorical for text; integers for
player ids) and reports anything else once per column. Cells are then checked for emptiness
and range here; what the values *mean* (levels, finishing orders, seats) is checked in
:mod:`.validate`.

Rows are numbered as the director sees them: a spreadsheet's as the sheet shows them (an
xlsx sheet's row, the header on row 1 making the first results row 2; a CSV file's line), a
Parquet file's from 1, counting data rows in order. A problem on a row names the table and
set of that row too in a spreadsheet (:func:`located`), so the director finds it either way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..errors import Problem
from .schema import INT_COLUMNS, KINDS, LARGEST, PLAYER_COLUMNS, TEXT_COLUMNS, FileKind, file_kind
from .spreadsheet import SUFFIXES, Unreadable, csv_table
from .workbook import xlsx_table

_INT64 = {pa.int64(): pd.Int64Dtype()}.get
LEVEL_COLUMNS = ("ns_level", "ew_level")
NORMAL_COLUMNS = frozenset(INT_COLUMNS + TEXT_COLUMNS + PLAYER_COLUMNS)
"""Text columns read after NFKC and trimming (:func:`~guandan_dup.headers.normal`): a
Chinese input method types full-width ``Ｋ``, ``７`` and ``，``, which look like the level K,
the number 7 and a comma and must read as them; a player id ``Ｐ０３`` looks like P03 and is
it (the players file reads its ids so too)."""


def _empty(column: str, n: int) -> pd.Series:
    """An all-empty column of the type ``column`` is coerced to."""
    if column in INT_COLUMNS:
        return pd.Series(pd.NA, range(n), "Int64")
    return pd.Series(None, range(n), "str")


@dataclass
class RawFile:
    """One input's rows with typed columns (absent or mistyped ones all empty).

    ``frame`` has the kind's columns plus ``_file`` (the name used in messages) and ``_row``
    (the row's number, as the module docstring says); ``present`` lists the columns that
    were there with a usable type.
    """

    name: str
    kind: FileKind | None
    frame: pd.DataFrame
    present: frozenset[str] = frozenset()
    problems: list[Problem] = field(default_factory=list)
    #: What a director should know about how the file was read (which sheet of a workbook).
    notes: list[str] = field(default_factory=list)
    #: Read from a spreadsheet (.csv, .xlsx): its problems name the table and set of their
    #: row (:func:`located`), for the director looking at the sheet; a Parquet file's, a
    #: program's, keep the plain form that programs and their tests read.
    spreadsheet: bool = False


def load_table(path: str | Path, notes: list[str] | None = None
               ) -> tuple[pa.Table, Sequence[int] | None]:
    """A results file as an Arrow table, by its suffix: ``.csv``, ``.xlsx``, else Parquet,
    and for a spreadsheet the number of each row as it shows them (None: counted from 1).

    Raises :class:`~.spreadsheet.Unreadable` with the reason when it cannot be read; how it
    was read, when worth saying (which sheet of a workbook, the encoding of a CSV), is added
    to ``notes``.
    """
    suffix = Path(path).suffix.lower()
    if suffix in SUFFIXES:
        return csv_table(path, notes) if suffix == ".csv" else xlsx_table(path, notes)
    try:
        return pq.ParquetFile(path).read(), None
    except FileNotFoundError:
        raise Unreadable("does not exist: check the path") from None
    except IsADirectoryError:
        raise Unreadable("is a folder, not a results file") from None
    except (OSError, pa.ArrowException) as exc:
        if Path(path).is_dir():
            raise Unreadable("is a folder, not a results file") from None
        raise Unreadable(
            f"cannot be read as a Parquet file ({exc}); results files are Parquet, .csv or "
            ".xlsx"
        ) from None


def read_file(path: str | Path, optional: frozenset[str] = frozenset(),
              skip_unplayed: bool = False) -> RawFile:
    """Read one results file; an unreadable file is one problem naming it (``optional``:
    as ``read_table``'s). With ``skip_unplayed``, rows with every result cell empty are left
    out, with a note (:func:`without_unplayed`)."""
    name = str(path)
    notes: list[str] = []
    try:
        table, rows = load_table(path, notes)
    except Unreadable as reason:
        problem = Problem(name, None, None, None, str(reason))
        return RawFile(name, None, pd.DataFrame(), problems=[problem])
    given = table.num_rows
    if skip_unplayed:
        table, rows = without_unplayed(table, rows, name, notes)
    if table.num_rows == 0:  # stored, it would stand for the round's results
        rule = ("has no result filled in yet: it adds no results" if given else
                "has no rows: it adds no results")
        problem = Problem(name, None, None, None, rule)
        return RawFile(name, None, pd.DataFrame(), problems=[problem], notes=notes)
    raw = renumbered(read_table(table, name, optional), rows)
    return replace(raw, notes=notes, spreadsheet=rows is not None)


def renumbered(raw: RawFile, rows: Sequence[int] | None) -> RawFile:
    """``raw`` (as :func:`read_table` numbers it, from 1) with its rows and problems numbered
    ``rows`` (the number of each row in the file: a spreadsheet's, a block's of a dataset);
    None keeps the count from 1."""
    if rows is None:
        return raw
    if raw.kind is not None:
        raw.frame["_row"] = np.asarray(rows, np.int64)
    problems = [p if p.row is None else replace(p, row=int(rows[p.row - 1]))
                for p in raw.problems]
    return replace(raw, problems=problems)


def located(problems: list[Problem], frames: Iterable[pd.DataFrame]) -> list[Problem]:
    """``problems`` each naming the table and set (and board) of the row it is on, where the
    row (``_file`` and ``_row`` of ``frames``, as read) gives them: ``row 15 (table 3, set
    2)``, so the director finds the row by its place as well as by its number."""
    wanted = {(p.file, p.row) for p in problems if p.row is not None}
    places: dict[tuple[str, int], str] = {}
    for frame in frames if wanted else ():
        if frame.empty or "table" not in frame:
            continue
        rows = frame[frame["_row"].isin({row for _, row in wanted})]
        board = rows["board"] if "board" in rows else pd.Series(pd.NA, rows.index)
        for file, row, *where in zip(rows["_file"], rows["_row"], rows["table"], rows["set"],
                                     board, strict=True):
            named = [f"{what} {value}" for what, value in zip(("table", "set", "board"), where,
                                                              strict=True) if pd.notna(value)]
            if (file, int(row)) in wanted and named:
                places[(file, int(row))] = ", ".join(named)
    return [replace(p, at=places[(p.file, p.row)]) if (p.file, p.row) in places else p
            for p in problems]


RESULT_CELLS = ("ns_level", "ew_level", "finish", "adjusted", "tiebreak")
"""The cells a table fills in after play; the rest of a row (round, table, set, seats) a
results sheet (``event sheet``) has filled in before it."""


def without_unplayed(table: pa.Table, rows: Sequence[int] | None, name: str,
                     notes: list[str]) -> tuple[pa.Table, Sequence[int] | None]:
    """``table`` (a spreadsheet's) without the rows whose every result cell is empty, and
    their numbers: a results sheet handed in while some tables still play has their rows
    blank, and those tables are missing, not wrong (``event status`` lists them). A note
    names the rows."""
    cells = [c for c in RESULT_CELLS if c in table.column_names]
    if rows is None or not cells or table.num_rows == 0:  # Parquet: a program's, not a sheet
        return table, rows
    blank = np.ones(table.num_rows, bool)
    for column in cells:
        text = pc.utf8_trim_whitespace(table.column(column).cast(pa.string()))
        blank &= pc.fill_null(pc.equal(text, ""), True).to_numpy(zero_copy_only=False)
    if not blank.any():
        return table, rows
    numbers = np.asarray(rows)
    skipped = numbers[blank]
    shown = ", ".join(map(str, skipped[:10])) + (" ..." if len(skipped) > 10 else "")
    notes.append(f"{name}: {len(skipped)} row{'s' if len(skipped) > 1 else ''} with no result "
                 f"filled in yet left out (row{'s' if len(skipped) > 1 else ''} {shown}): "
                 "ingest the sheet again once those tables have played")
    kept = np.flatnonzero(~blank)
    return table.take(kept), numbers[kept].tolist()


def read_table(table: pa.Table, name: str, optional: frozenset[str] = frozenset()) -> RawFile:
    """Coerce an Arrow table of results to typed columns, collecting every cell problem.

    Required columns named in ``optional`` may be absent without a problem (they are then not
    in ``present``): the event folder fills the seat columns a file leaves out from the
    round's seating."""
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
        for column in sorted(kind.required - optional - set(table.column_names))
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
    if text and name in NORMAL_COLUMNS:
        column = pc.utf8_trim_whitespace(pc.utf8_normalize(column.cast(pa.string()), "NFKC"))
    if name in INT_COLUMNS and text:
        found: list[Problem] = []
        numbers = _whole_numbers(_numbers_of_text(column, name, file, found), name, file, found)
        problems.extend(_as_written(found, column))
        return numbers
    if name in TEXT_COLUMNS and text:
        return column.cast(pa.string()).to_pandas()
    if name == "tiebreak" and numeric:  # a team knockout's winner by team number
        return _id_numbers(column, name, file, problems, "a team")
    if name in LEVEL_COLUMNS and numeric:  # levels typed as numbers: 10 is the level "10"
        levels = _whole_numbers(column, name, file, problems)
        return levels.astype("str").where(levels.notna(), None)
    if name in PLAYER_COLUMNS and (text or numeric):
        if numeric:
            return _id_numbers(column, name, file, problems)
        ids = column.cast(pa.string()).to_pandas().str.strip()
        return ids.mask(ids == "")
    expected = {
        **dict.fromkeys(INT_COLUMNS, "whole numbers (an integer type, or floats without fraction)"),
        **dict.fromkeys(TEXT_COLUMNS, "text (string or categorical)"),
        **dict.fromkeys(LEVEL_COLUMNS, "levels (text, or whole numbers 2..10)"),
        **dict.fromkeys(PLAYER_COLUMNS, "player ids (text or integers)"),
    }[name]
    problems.append(Problem(file, None, name, None, f"has type {column.type}; expected {expected}"))
    return None


EXACT_FLOAT = 2**53
"""Whole numbers a float holds exactly: a float id beyond it may not be the id typed."""


def _id_numbers(column: pa.ChunkedArray, name: str, file: str, problems: list[Problem],
                what: str = "a player id"):
    """Player ids (or teams, ``what``) typed as numbers, as their decimal text: any integer
    (an id is a name, not a count, so an 11-digit phone number is a fine id), a float when
    whole and held exactly; a fraction, or a float too large to hold the id exactly, is a
    problem."""
    if pa.types.is_integer(column.type):
        return column.cast(pa.string()).to_pandas()
    values = column.cast(pa.float64()).to_numpy(zero_copy_only=False)
    with np.errstate(invalid="ignore"):
        whole = np.isfinite(values) & (values == np.round(values))
        exact = whole & (np.abs(values) <= EXACT_FLOAT)
    for row in np.flatnonzero(~np.isnan(values) & ~exact):
        value = _plain(values[row])
        rule = ("is too large to be an exact id as a number (the file stores it as a float, "
                "which rounds it): save the ids as text" if whole[row] else
                f"is not {what}: a number with a fraction (save the ids as text)")
        problems.append(Problem(file, int(row) + 1, name, value, rule))
    text = [str(int(v)) if ok else None for v, ok in zip(values.tolist(), exact, strict=True)]
    return pd.Series(text, dtype="object")


def _numbers_of_text(column: pa.ChunkedArray, name: str, file: str, problems: list[Problem]):
    """Text cells as numbers (floats; empty stays empty); other text is a problem per cell."""
    trimmed = pc.utf8_trim_whitespace(column.cast(pa.string()))
    try:
        return trimmed.cast(pa.float64())  # every cell a number or empty: the fast way
    except pa.ArrowInvalid:
        pass
    values = []
    for row, cell in enumerate(column.cast(pa.string()).to_pylist(), 1):
        text = None if cell is None else cell.strip()
        try:
            values.append(float(text) if text else None)
        except ValueError:
            problems.append(Problem(file, row, name, cell, "is not a whole number"))
            values.append(None)
    return pa.chunked_array([pa.array(values, pa.float64())])


def _as_written(found: list[Problem], column: pa.ChunkedArray) -> list[Problem]:
    """Problems of a text column naming a whole number as written (``9223372036854775809``,
    not the float it was read as), the way a Parquet integer column names it."""
    if not found:
        return found
    cells = column.cast(pa.string()).to_pylist()
    out = []
    for problem in found:
        try:
            out.append(replace(problem, value=int(cells[problem.row - 1].strip())))
        except (TypeError, ValueError, AttributeError):
            out.append(problem)
    return out


def _whole_numbers(column: pa.ChunkedArray, name: str, file: str, problems: list[Problem]):
    """Integers as Int64; floats too when whole (a fraction is a problem for that cell).

    Numbers beyond ``LARGEST`` either way are a problem for that cell, whatever the type (an
    unsigned 64-bit value above 2**63, a float such as 1e20): never an overflow or a warning.
    """
    if pa.types.is_integer(column.type):
        large, tiny = _beyond(column, LARGEST, pc.greater), _beyond(column, -LARGEST, pc.less)
        values = column
        kept = pc.if_else(pa.chunked_array([large | tiny]), None, column).cast(pa.int64())
        series = kept.to_pandas(types_mapper=_INT64)
    else:
        values = column.cast(pa.float64()).to_numpy(zero_copy_only=False)
        with np.errstate(invalid="ignore"):
            whole = np.isfinite(values) & (values == np.round(values))
        bad = ~whole & ~np.isnan(values)
        problems.extend(
            Problem(file, int(row) + 1, name, float(values[row]), "is not a whole number")
            for row in np.flatnonzero(bad)
        )
        finite = np.where(whole, values, 0)
        large, tiny = whole & (finite > LARGEST), whole & (finite < -LARGEST)
        keep = whole & ~large & ~tiny
        small = np.where(keep, finite, 0).astype(np.int64)
        series = pd.Series(pd.array(small, "Int64")).where(keep)
    for rows, rule in ((large, f"must be at most {LARGEST:,}"), (tiny, "must be at least 1")):
        problems.extend(
            Problem(file, int(row) + 1, name, _plain(values[row]), rule)
            for row in np.flatnonzero(rows)
        )
    return series


def _beyond(column: pa.ChunkedArray, bound: int, compare) -> np.ndarray:
    """Where an integer column compares true with ``bound`` (never, if its type cannot hold
    ``bound``: an int16 is never above it, an unsigned one never below its negative)."""
    try:
        scalar = pa.scalar(bound, column.type)
    except (pa.ArrowInvalid, OverflowError):
        return np.zeros(len(column), bool)
    return pc.fill_null(compare(column, scalar), False).to_numpy(zero_copy_only=False)


def _plain(value) -> int | float:
    """A cell value for a message: an int when whole (and not huge as a float)."""
    if isinstance(value, pa.Scalar):
        return value.as_py()
    number = float(value)
    return int(value) if number.is_integer() and abs(number) < 1e18 else number


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
