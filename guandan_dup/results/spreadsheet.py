"""Results kept in a spreadsheet: ``.csv`` and ``.xlsx`` files read as a table of text.

Directors keep results in Excel or WPS, so a results file may be a CSV (UTF-8, with or without
the byte-order mark Excel writes, or GBK as Excel on Chinese Windows saves it; any line
ending) or the results sheet of an ``.xlsx`` workbook: the one visible sheet whose header has
the results columns (hidden sheets are not read; :mod:`.workbook` chooses it).
Both become an Arrow table whose every cell is text (or empty): numbers typed into a sheet
become the text a director sees (``3``, ``10``, ``3.5``), so a level typed as the number
``10`` reads as the level ``"10"``, and :func:`.load.read_table` then applies exactly the
checks and messages a Parquet file gets (integer-looking text in round/table/set columns is
read as integers there). The header is the first row naming a results column of either kind
(a title row or blank rows above it are skipped); its names are read by
:func:`~guandan_dup.headers.column_name` (trimmed, lower-cased, Chinese headers such as 桌号
for ``table``; two columns with one name are refused: which one holds the results?). Blank
rows are dropped and empty cells are empty; each row keeps its number as the spreadsheet
shows it (the CSV's line, the sheet's row), which the problems then name.
A file that cannot be read raises :class:`Unreadable` with the reason a director can act on.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import pyarrow as pa

from ..headers import column_name, header_index, named_twice
from ..reading import Unreadable, csv_rows, read_bytes
from .schema import file_kind

SUFFIXES = (".csv", ".xlsx")
__all__ = ["SUFFIXES", "Unreadable", "csv_table", "header_at", "read_bytes", "text_table"]


def csv_table(path: str | os.PathLike, notes: list[str] | None = None
              ) -> tuple[pa.Table, list[int]]:
    """A CSV file as an all-text table and the line of each of its rows. UTF-16 is refused,
    naming it; GBK (GB18030) is read, and so is a header separated by ``;`` (Excel in many
    locales), each with a line in ``notes`` saying so."""
    try:
        rows, lines = csv_rows(path, notes, "results file")
    except Unreadable as reason:
        raise Unreadable(f"{reason}, and ingest it again") from None
    return text_table(rows, lines)


def header_at(rows: Sequence[Sequence[str]]) -> int | None:
    """Where the header is among a sheet's rows: the first naming a results column of a
    set-level or board-level file (:func:`~guandan_dup.headers.header_index`)."""
    return header_index(rows, lambda names: file_kind(names) is not None)


def text_table(rows: list[list[str]], numbers: Sequence[int]) -> tuple[pa.Table, list[int]]:
    """The header row (:func:`header_at`) and the rows below it as an all-string table, and
    the number (``numbers``: each row's, as the spreadsheet shows it) of each row kept;
    blank rows are dropped."""
    start = header_at(rows)
    if start is None:
        return pa.table({}), []
    header = [column_name(name) for name in rows[start]]
    if twice := named_twice(header):
        raise Unreadable(f"{twice}: keep one and ingest again")
    kept = [(n, row) for n, row in zip(numbers[start + 1:], rows[start + 1:], strict=True)
            if any(cell.strip() for cell in row)]
    columns = {}
    for i, name in enumerate(header):
        if not name:
            continue
        cells = [row[i].strip() if i < len(row) else "" for _, row in kept]
        columns[name] = pa.array([c or None for c in cells], pa.string())
    return pa.table(columns), [n for n, _ in kept]
