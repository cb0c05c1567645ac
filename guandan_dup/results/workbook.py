"""Results kept in an ``.xlsx`` workbook: the sheet the director means, read as text.

A workbook has several sheets, some hidden, some notes or charts; the results are on the one
visible sheet whose header row has the results columns (:func:`~..workbooks.choose_sheet`,
which every workbook a director brings goes through, opened safely as untrusted input). Its
cells become text as :mod:`.spreadsheet` reads a CSV's, so both get the Parquet file's
checks. What is the results' own is here: the results columns that mark the sheet, the
words of the reasons, and the refusal of formulas whose values were never saved.
"""

from __future__ import annotations

import os
import re
import zipfile

import pyarrow as pa

from ..headers import column_name
from ..workbooks import DAMAGED, Contents, opened, sheet_rows, workbook_rows
from .schema import KINDS, file_kind
from .spreadsheet import Unreadable, header_at, read_bytes, text_table

RESULTS = Contents(
    what="results", columns="results columns",
    wanted="the sheet with this round's results (or copy them to a visible sheet)",
    again="ingest again")
"""A results workbook, in the words of its reasons."""


def _is_results_header(names) -> bool:
    """A set-level or board-level marker column, or both (a mixed header is a results sheet
    with a problem)."""
    return file_kind(names) is not None


def xlsx_table(path: str | os.PathLike, notes: list[str] | None = None
               ) -> tuple[pa.Table, list[int]]:
    """The results sheet of an xlsx workbook as an all-text table (formulas as their saved
    values; a results cell whose formula has none is refused, naming it), and the sheet row
    of each of its rows (the header on row 1, the first results row is row 2).

    The sheet is the one a director means (:func:`~..workbooks.choose_sheet`); when the
    workbook has other sheets, a line saying which sheet was read is added to ``notes``.
    openpyxl parses the workbook's XML with defusedxml (a dependency), so an entity bomb is
    refused at once; any damage (a broken zip, malformed XML, a truncated sheet) becomes
    :class:`Unreadable`, whether openpyxl meets it opening the book or reading the rows.
    """
    read_bytes(path, "results file")  # a missing file or a folder gets the usual reason
    title, rows, note = workbook_rows(path, _is_results_header, RESULTS)
    if _empty_results_cells(rows) and _has_formulas(path):
        _refuse_unsaved_formulas(path, title, rows)
    if note and notes is not None:
        notes.append(f"{os.fspath(path)}: {note}")
    return text_table(rows, range(1, len(rows) + 1))


def _results_columns(rows: list[list[str]]) -> tuple[int, list[int]]:
    """Where the header is (0 without one) and the positions of its results columns
    (those a results file has)."""
    known = set().union(*(kind.columns for kind in KINDS))
    start = header_at(rows) or 0
    header = rows[start] if rows else []
    return start, [i for i, name in enumerate(header) if column_name(name) in known]


def _empty_results_cells(rows: list[list[str]]) -> bool:
    """Whether a results column has an empty cell: only then can a formula hide there."""
    start, columns = _results_columns(rows)
    return any(i >= len(row) or not row[i] for row in rows[start + 1:] for i in columns)


_FORMULA = re.compile(rb"<(?:\w+:)?f[\s>/]")  # a formula element, with or without a prefix


def _has_formulas(path: str | os.PathLike) -> bool:
    """Whether any worksheet of the workbook holds a formula: a scan of the raw XML, a chunk
    at a time, so that a large sheet with empty cells and no formula (the usual case) is
    not parsed a second time."""
    try:
        with zipfile.ZipFile(path) as archive:
            for name in archive.namelist():
                if not name.startswith("xl/worksheets/") or not name.endswith(".xml"):
                    continue
                with archive.open(name) as member:
                    tail = b""
                    while chunk := member.read(1 << 20):
                        if _FORMULA.search(tail + chunk):
                            return True
                        tail = chunk[-16:]
    except DAMAGED:
        return True  # the second pass reports the damage
    return False


def _refuse_unsaved_formulas(path: str | os.PathLike, title: str, rows: list[list[str]]):
    """Refuse a sheet whose results cells hold formulas with no saved value.

    A workbook written by a program (a script, some web exports) keeps a formula's text but
    not its value until Excel or WPS computes and saves it; read for its values, such a cell
    is empty, and "is empty; a value is required" would send the director to a cell that
    shows a number on screen. The formulas are read in a second pass, only for a sheet with
    empty results cells.
    """
    from openpyxl.utils import get_column_letter

    with opened(path, RESULTS, data_only=False) as book:
        formulas = sheet_rows(book[title], RESULTS)
    start, columns = _results_columns(rows)
    header = rows[start]
    unsaved = [
        (r, i) for r in range(start + 1, len(rows)) for i in columns
        if (i >= len(rows[r]) or not rows[r][i]) and r < len(formulas)
        and i < len(formulas[r]) and formulas[r][i].startswith("=")
    ]
    if not unsaved:
        return
    cells = ", ".join(f"{get_column_letter(i + 1)}{r + 1} (column "
                      f"{column_name(header[i])!r})" for r, i in unsaved[:5])
    more = f" and {len(unsaved) - 5} more" if len(unsaved) > 5 else ""
    raise Unreadable(
        f"has formulas with no saved value on sheet {title!r}: {cells}{more}; the workbook "
        "was written by a program that does not compute formulas: open it in Excel or WPS, "
        "save it (the values are then stored) and ingest it again"
    )
