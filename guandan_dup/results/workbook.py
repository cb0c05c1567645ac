"""Results kept in an ``.xlsx`` workbook: the sheet the director means, read as text.

A workbook has several sheets, some hidden, some notes or charts; the results are on the one
visible sheet whose header row has the results columns (:func:`_results_sheet`). Its cells
become text as :mod:`.spreadsheet` reads a CSV's, so both get the Parquet file's checks. A
workbook is untrusted input: openpyxl parses its XML with defusedxml, and any damage is a
reason naming the file (:class:`~.spreadsheet.Unreadable`), never a traceback.
"""

from __future__ import annotations

import os
import re
import zipfile
import zlib

import pyarrow as pa

from ..headers import HEADER_SEARCH, column_name
from .schema import KINDS, file_kind
from .spreadsheet import Unreadable, cell_text, header_at, read_bytes, text_table

# What openpyxl raises on a damaged workbook: a broken zip or member (BadZipFile, zlib.error,
# EOFError), a missing part (KeyError), malformed XML (ParseError is a SyntaxError), entities
# that defusedxml refuses (ValueError), attributes of the wrong kind (TypeError, IndexError,
# AttributeError). A director's file is untrusted input, so each is a reason, not a bug.
_DAMAGED = (zipfile.BadZipFile, zlib.error, EOFError, KeyError, IndexError, TypeError,
            ValueError, AttributeError, SyntaxError, OSError)


def xlsx_table(path: str | os.PathLike, notes: list[str] | None = None
               ) -> tuple[pa.Table, list[int]]:
    """The results sheet of an xlsx workbook as an all-text table (formulas as their saved
    values; a results cell whose formula has none is refused, naming it), and the sheet row
    of each of its rows (the header on row 1, the first results row is row 2).

    The sheet is the one a director means (:func:`_results_sheet`); when the workbook has
    other sheets, a line saying which sheet was read is added to ``notes``. openpyxl parses
    the workbook's XML with defusedxml (a dependency), so an entity bomb is refused at once;
    any damage (a broken zip, malformed XML, a truncated sheet) becomes :class:`Unreadable`,
    whether openpyxl meets it opening the book or reading the rows.
    """
    from openpyxl import load_workbook  # slow to import; only xlsx readers pay for it

    read_bytes(path, "results file")  # a missing file or a folder gets the usual reason
    _check_sizes(path)
    try:
        book = load_workbook(path, read_only=True, data_only=True)
    except _DAMAGED as error:
        raise _damaged(error) from None
    try:
        _every_row(book)
        sheet, note = _results_sheet(book)
        try:
            rows = [[cell_text(v) for v in row] for row in sheet.iter_rows(values_only=True)]
        except _DAMAGED as error:
            raise _damaged(error, sheet.title) from None
    finally:
        book.close()
    if _empty_results_cells(rows) and _has_formulas(path):
        _refuse_unsaved_formulas(path, sheet.title, rows)
    if note and notes is not None:
        notes.append(f"{os.fspath(path)}: {note}")
    return text_table(rows, range(1, len(rows) + 1))


MAX_PART = 1 << 30
"""A workbook part (a sheet's XML) larger than 1 GiB unpacked is more than any round's
results (a million results rows take about 150 MB): refused before it is read."""
MAX_RATIO = 200
"""Text XML packs 10 to 50 times smaller; a part of over 16 MiB packed 200 times or more
is built to fill the memory (a zip bomb: a 0.4 MB file holding a 400 MB cell)."""


def _check_sizes(path: str | os.PathLike) -> None:
    """Refuse a workbook whose parts would unpack beyond ``MAX_PART`` or by ``MAX_RATIO``,
    from the sizes the zip declares (reading a part never unpacks more than it declares)."""
    try:
        with zipfile.ZipFile(path) as archive:
            parts = archive.infolist()
    except _DAMAGED:
        return  # openpyxl names the damage
    for part in parts:
        ratio = part.file_size / max(part.compress_size, 1)
        if part.file_size > MAX_PART or (part.file_size > 1 << 24 and ratio >= MAX_RATIO):
            raise Unreadable(
                f"cannot be read as an xlsx workbook: its part {part.filename!r} unpacks to "
                f"{part.file_size:,} bytes ({ratio:,.0f} times its packed size), more than "
                "results ever take; refused unread (such a file is built to fill the "
                "memory). Save the results again from Excel or WPS")


def _every_row(book) -> None:
    """Read every row of the book's worksheets, not only those its ``<dimension>`` element
    declares: a workbook written by a program that left it stale (``A1:I2`` over 300 rows)
    would otherwise lose its later rows silently, read-only mode trusting the element."""
    for sheet in book.worksheets:
        sheet.reset_dimensions()


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
    except _DAMAGED:
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
    from openpyxl import load_workbook
    from openpyxl.utils import get_column_letter

    book = load_workbook(path, read_only=True, data_only=False)
    _every_row(book)
    try:
        formulas = list(book[title].iter_rows(values_only=True))
    except _DAMAGED as error:
        raise _damaged(error, title) from None
    finally:
        book.close()
    start, columns = _results_columns(rows)
    header = rows[start]
    unsaved = [
        (r, i) for r in range(start + 1, len(rows)) for i in columns
        if (i >= len(rows[r]) or not rows[r][i]) and r < len(formulas)
        and i < len(formulas[r]) and isinstance(formulas[r][i], str)
        and formulas[r][i].startswith("=")
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


def _results_sheet(book) -> tuple[object, str | None]:
    """The sheet that holds the results, and a note saying which it is (None for a workbook
    of one sheet).

    The results are where the director sees them: the one *visible* worksheet whose header
    row has the results columns. A hidden sheet (old levels kept out of sight) is never
    read, a notes or cover sheet in front is skipped, and so is an empty template (the
    results header and no row below it) beside the sheet filled in; two visible candidates
    with results are refused by name: guessing would store one of them silently. Without
    any candidate, the sheet shown on opening (the active one) is read, so its header is
    what the problems name.
    """
    sheets = book.worksheets
    if not sheets:
        charts = ", ".join(repr(s.title) for s in book.chartsheets)
        raise Unreadable(f"has no worksheet, only chart sheets ({charts}): results are read "
                         "from a worksheet with a header row")
    visible = [s for s in sheets if s.sheet_state == "visible"]
    headed = [s for s in visible if _results_header(s) is not None]
    blank: list = []
    if len(headed) > 1 and len(filled := [s for s in headed if _has_rows(s)]) == 1:
        headed, blank = filled, [s for s in headed if s not in filled]  # an empty template
    if len(headed) > 1:
        names = ", ".join(repr(s.title) for s in headed)
        raise Unreadable(
            f"has {len(headed)} visible sheets with results columns ({names}): which one "
            "holds the results? Hide or delete the others, or save that sheet as a file of "
            "its own, and ingest again"
        )
    hidden = [s for s in sheets if s not in visible and _results_header(s) is not None]
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
                        + (" (a header without results)" if s in blank else "")
                        for s in others)
    return chosen, f"read sheet {chosen.title!r}, {why} (not read: {skipped})"


def _has_rows(sheet) -> bool:
    """Whether a sheet has a non-empty row below its header (a template has none)."""
    start = _results_header(sheet) or 0
    try:
        return any(any(cell_text(v).strip() for v in row)
                   for row in sheet.iter_rows(min_row=start + 2, values_only=True))
    except _DAMAGED as error:
        raise _damaged(error, sheet.title) from None


def _results_header(sheet) -> int | None:
    """Where (from 0) the sheet's header naming the columns of a results file is, among its
    first rows (a set-level or board-level marker column, or both: a mixed header is a
    results sheet with a problem); None if it has none (a notes or cover sheet)."""
    try:
        first = [[cell_text(v) for v in row]
                 for row in sheet.iter_rows(values_only=True, max_row=HEADER_SEARCH)]
    except _DAMAGED as error:
        raise _damaged(error, sheet.title) from None
    start = header_at(first)  # the first row with a cell when none names results columns
    named = start is not None and file_kind(map(column_name, first[start])) is not None
    return start if named else None


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
