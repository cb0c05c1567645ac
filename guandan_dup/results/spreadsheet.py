"""Results kept in a spreadsheet: ``.csv`` and ``.xlsx`` files read as a table of text.

Directors keep results in Excel or WPS, so a results file may be a CSV (UTF-8, with or without
the byte-order mark Excel writes, any line ending) or the results sheet of an ``.xlsx``
workbook: the one visible sheet whose header has the results columns (hidden sheets are not
read; see :func:`_results_sheet`).
Both become an Arrow table whose every cell is text (or empty): numbers typed into a sheet
become the text a director sees (``3``, ``10``, ``3.5``), so a level typed as the number
``10`` reads as the level ``"10"``, and :func:`.load.read_table` then applies exactly the
checks and messages a Parquet file gets (integer-looking text in round/table/set columns is
read as integers there). Header names are stripped and lower-cased (two columns with one
name are refused: which one holds the results?); empty cells are empty.
A file that cannot be read raises :class:`Unreadable` with the reason a director can act on.
"""

from __future__ import annotations

import csv
import io
import os
import zipfile
import zlib
from datetime import date, datetime, time

import pyarrow as pa

from ..reading import UTF16_REASON, is_utf16, separator
from .schema import file_kind

SUFFIXES = (".csv", ".xlsx")
# What openpyxl raises on a damaged workbook: a broken zip or member (BadZipFile, zlib.error,
# EOFError), a missing part (KeyError), malformed XML (ParseError is a SyntaxError), entities
# that defusedxml refuses (ValueError), attributes of the wrong kind (TypeError, IndexError,
# AttributeError). A director's file is untrusted input, so each is a reason, not a bug.
_DAMAGED = (zipfile.BadZipFile, zlib.error, EOFError, KeyError, IndexError, TypeError,
            ValueError, AttributeError, SyntaxError, OSError)


class Unreadable(Exception):  # noqa: N818 - carries the reason, caught at once by load
    """The file cannot be read at all; ``str()`` is the reason, phrased after the file name."""


def csv_table(path: str | os.PathLike, notes: list[str] | None = None) -> pa.Table:
    """A UTF-8 CSV file as an all-text table; another encoding (UTF-16, GBK) is refused,
    naming it. A header separated by ``;`` (Excel in many locales) is read so, with a line
    in ``notes`` saying it was."""
    data = _read_bytes(path)
    if is_utf16(data):
        raise Unreadable(f"{UTF16_REASON}, and ingest it again")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Unreadable(
            "is not UTF-8 text (it is probably saved as GBK): save it as UTF-8 (Excel: "
            "'CSV UTF-8 (comma delimited)'; WPS: encoding UTF-8) and ingest it again"
        ) from None
    delimiter = separator(text)
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    except csv.Error as error:
        raise Unreadable(f"cannot be read as CSV ({error})") from None
    if delimiter != "," and notes is not None:
        notes.append(f"{os.fspath(path)}: read with {delimiter!r} as the separator, as Excel "
                     "writes CSV where the decimal mark is a comma (its header has no ',')")
    return _text_table(rows)


def xlsx_table(path: str | os.PathLike, notes: list[str] | None = None) -> pa.Table:
    """The results sheet of an xlsx workbook as an all-text table (formulas as their values).

    The sheet is the one a director means (:func:`_results_sheet`); when the workbook has
    other sheets, a line saying which sheet was read is added to ``notes``. openpyxl parses
    the workbook's XML with defusedxml (a dependency), so an entity bomb is refused at once;
    any damage (a broken zip, malformed XML, a truncated sheet) becomes :class:`Unreadable`,
    whether openpyxl meets it opening the book or reading the rows.
    """
    from openpyxl import load_workbook  # slow to import; only xlsx readers pay for it

    _read_bytes(path)  # a missing file or a folder gets the usual reason
    try:
        book = load_workbook(path, read_only=True, data_only=True)
    except _DAMAGED as error:
        raise _damaged(error) from None
    try:
        sheet, note = _results_sheet(book)
        try:
            rows = [[_cell_text(v) for v in row] for row in sheet.iter_rows(values_only=True)]
        except _DAMAGED as error:
            raise _damaged(error, sheet.title) from None
    finally:
        book.close()
    if note and notes is not None:
        notes.append(f"{os.fspath(path)}: {note}")
    return _text_table(rows)


def _results_sheet(book) -> tuple[object, str | None]:
    """The sheet that holds the results, and a note saying which it is (None for a workbook
    of one sheet).

    The results are where the director sees them: the one *visible* worksheet whose header
    row has the results columns. A hidden sheet (old levels kept out of sight) is never
    read, a notes or cover sheet in front is skipped, and two visible candidates are refused
    by name: guessing would store one of them silently. Without any candidate, the sheet
    shown on opening (the active one) is read, so its header is what the problems name.
    """
    sheets = book.worksheets
    if not sheets:
        charts = ", ".join(repr(s.title) for s in book.chartsheets)
        raise Unreadable(f"has no worksheet, only chart sheets ({charts}): results are read "
                         "from a worksheet with a header row")
    visible = [s for s in sheets if s.sheet_state == "visible"]
    headed = [s for s in visible if _has_results_header(s)]
    if len(headed) > 1:
        names = ", ".join(repr(s.title) for s in headed)
        raise Unreadable(
            f"has {len(headed)} visible sheets with results columns ({names}): which one "
            "holds the results? Hide or delete the others, or save that sheet as a file of "
            "its own, and ingest again"
        )
    hidden = [s for s in sheets if s not in visible and _has_results_header(s)]
    if not headed and hidden:
        names = ", ".join(repr(s.title) for s in hidden)
        raise Unreadable(
            f"has results columns only on hidden sheets ({names}), and hidden sheets are not "
            "read: unhide the sheet with this round's results (or copy them to a visible "
            "sheet) and ingest again"
        )
    if headed:
        chosen, why = headed[0], "the one visible sheet with the results columns"
    else:
        active = book.active
        chosen = active if active in visible else (visible or sheets)[0]
        why = "the sheet shown on opening; no sheet has a header row of results columns"
    others = [s for s in book.worksheets + book.chartsheets if s is not chosen]
    if not others:
        return chosen, None
    skipped = ", ".join(("" if s.sheet_state == "visible" else "hidden ") + repr(s.title)
                        for s in others)
    return chosen, f"read sheet {chosen.title!r}, {why} (not read: {skipped})"


def _has_results_header(sheet) -> bool:
    """Whether the sheet's first row names the columns of a results file (a set-level or
    board-level marker column, or both: a mixed header is a results sheet with a problem)."""
    try:
        first = next(sheet.iter_rows(values_only=True, max_row=1), ())
    except _DAMAGED as error:
        raise _damaged(error, sheet.title) from None
    return file_kind(_cell_text(v).strip().lower() for v in first) is not None


def _damaged(error: Exception, sheet: str | None = None) -> Unreadable:
    """The reason for a workbook openpyxl cannot read: what broke (the innermost error, whose
    words say where: openpyxl wraps it in a vaguer one), and that saving it again from Excel
    or WPS usually mends it. Declared XML entities (an entity bomb) are named as such."""
    while error.__context__ is not None:
        error = error.__context__
    if type(error).__module__.startswith("defusedxml"):
        return Unreadable(
            f"cannot be read as an xlsx workbook: its XML declares entities ({error}), which a "
            "workbook saved by Excel or WPS never does; refused unread (an entity bomb would "
            "fill the memory): save the results again from Excel or WPS"
        )
    what = f"its sheet {sheet!r} is damaged" if sheet else "it is damaged or not a workbook"
    detail = (str(error).strip().splitlines() or [type(error).__name__])[0]
    return Unreadable(
        f"cannot be read as an xlsx workbook: {what} ({detail}); open it in Excel or WPS, "
        "save it again as .xlsx, and ingest it again"
    )


def _read_bytes(path: str | os.PathLike) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        raise Unreadable("no such file: check the path") from None
    except IsADirectoryError:
        raise Unreadable("is a folder, not a results file") from None


def _cell_text(value: object) -> str:
    """What a sheet shows for a cell: a whole number without ``.0``; empty for no value."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).upper()
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
        return str(int(value))
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    return str(value)


def _text_table(rows: list[list[str]]) -> pa.Table:
    """Header row and data rows as an all-string table; blank rows at the end are dropped."""
    while rows and not any(cell.strip() for cell in rows[-1]):
        rows.pop()
    if not rows:
        return pa.table({})
    header = [name.strip().lower() for name in rows[0]]
    twice = [n for n in dict.fromkeys(header) if n and header.count(n) > 1]
    if twice:
        where = " and ".join(str(i + 1) for i, n in enumerate(header) if n == twice[0])
        raise Unreadable(
            f"has two columns named {twice[0]!r} (columns {where}): keep one and ingest again"
        )
    body = rows[1:]
    columns = {}
    for i, name in enumerate(header):
        if not name:
            continue
        cells = [row[i].strip() if i < len(row) else "" for row in body]
        columns[name] = pa.array([c or None for c in cells], pa.string())
    return pa.table(columns)
