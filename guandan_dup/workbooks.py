"""An ``.xlsx`` workbook a director brings, read safely: the sheet meant, its cells as text.

Every workbook read (results, players, teams, lineups, a conversion table) comes in here, so
all get the same rules. A workbook is untrusted input: openpyxl parses its XML with
defusedxml, parts that would unpack beyond reason are refused unread (a zip bomb), and any
damage is an :class:`~.errors.Unreadable` reason naming what broke, never a traceback. The
sheet read is the one a director means (:func:`choose_sheet`): the one *visible* sheet whose
header names the file's columns; its rows are numbered as the sheet shows them (row 1 first).
"""

from __future__ import annotations

import os
import zipfile
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime, time

from .errors import Unreadable
from .headers import HEADER_SEARCH, column_name, header_index

# What openpyxl raises on a damaged workbook: a broken zip or member (BadZipFile, zlib.error,
# EOFError), a missing part (KeyError), malformed XML (ParseError is a SyntaxError), entities
# that defusedxml refuses (ValueError), attributes of the wrong kind (TypeError, IndexError,
# AttributeError). A director's file is untrusted input, so each is a reason, not a bug.
DAMAGED = (zipfile.BadZipFile, zlib.error, EOFError, KeyError, IndexError, TypeError,
           ValueError, AttributeError, SyntaxError, OSError)

IsHeader = Callable[[Sequence[str]], bool]
"""A header test on a row's column names (:func:`.headers.column_name` of each cell)."""


@dataclass(frozen=True)
class Contents:
    """What a workbook holds, in the words of the reasons a director reads."""

    what: str = "data"
    """The contents as a plural noun: ``which one holds the {what}?``."""
    columns: str = "named columns"
    """The columns that mark the sheet: ``sheets with {columns}``, ``the sheet with the
    {columns}``."""
    wanted: str = "the sheet meant (or copy it to a visible sheet)"
    """What to unhide when only hidden sheets have the columns."""
    again: str = "try again"
    """What the director does once the file is mended."""

    @classmethod
    def naming(cls, required: Sequence[str]) -> Contents:
        """A file marked by its ``required`` columns (a players file: ``id``, ``name``)."""
        names = ", ".join(repr(c) for c in required)
        return cls(columns=f"columns {names}" if names else "named columns")


def cell_text(value: object) -> str:
    """What a sheet shows for a cell: a whole number without ``.0``; empty for no value.

    >>> cell_text(3.0), cell_text(3.5), cell_text(None), cell_text(True)
    ('3', '3.5', '', 'TRUE')
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).upper()
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
        return str(int(value))
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    return str(value)


MAX_PART = 1 << 30
"""A workbook part (a sheet's XML) larger than 1 GiB unpacked is more than any input file
takes (a million results rows take about 150 MB): refused before it is read."""
MAX_RATIO = 200
"""Text XML packs 10 to 50 times smaller; a part of over 16 MiB packed 200 times or more
is built to fill the memory (a zip bomb: a 0.4 MB file holding a 400 MB cell)."""


def check_sizes(path: str | os.PathLike, contents: Contents) -> None:
    """Refuse a workbook whose parts would unpack beyond ``MAX_PART`` or by ``MAX_RATIO``,
    from the sizes the zip declares (reading a part never unpacks more than it declares)."""
    try:
        with zipfile.ZipFile(path) as archive:
            parts = archive.infolist()
    except DAMAGED:
        return  # openpyxl names the damage
    for part in parts:
        ratio = part.file_size / max(part.compress_size, 1)
        if part.file_size > MAX_PART or (part.file_size > 1 << 24 and ratio >= MAX_RATIO):
            raise Unreadable(
                f"cannot be read as an xlsx workbook: its part {part.filename!r} unpacks to "
                f"{part.file_size:,} bytes ({ratio:,.0f} times its packed size), more than "
                f"{contents.what} ever take; refused unread (such a file is built to fill the "
                f"memory). Save the {contents.what} again from Excel or WPS")


@contextmanager
def opened(path: str | os.PathLike, contents: Contents, data_only: bool = True
           ) -> Iterator[object]:
    """The workbook at ``path``, read-only (formulas as their saved values unless
    ``data_only`` is false), sizes checked first (:func:`check_sizes`) and every row of every
    sheet readable; damage met opening it is :class:`Unreadable`."""
    from openpyxl import load_workbook  # slow to import; only xlsx readers pay for it

    check_sizes(path, contents)
    try:
        book = load_workbook(path, read_only=True, data_only=data_only)
    except DAMAGED as error:
        raise damaged(error, contents) from None
    try:
        for sheet in book.worksheets:
            # Read every row, not only those the sheet's <dimension> declares: a workbook
            # written by a program that left it stale (A1:I2 over 300 rows) would otherwise
            # lose its later rows silently, read-only mode trusting the element.
            sheet.reset_dimensions()
        yield book
    finally:
        book.close()


def sheet_rows(sheet, contents: Contents, **where: int) -> list[list[str]]:
    """A sheet's rows (``where``: openpyxl's ``min_row``, ``max_row``) as cell text; damage
    met reading them is :class:`Unreadable` naming the sheet."""
    try:
        return [[cell_text(v) for v in row] for row in sheet.iter_rows(values_only=True,
                                                                         **where)]
    except DAMAGED as error:
        raise damaged(error, contents, sheet.title) from None


def header_row(sheet, is_header: IsHeader, contents: Contents) -> int | None:
    """Where (from 0) the sheet's header passing ``is_header`` is, among its first rows;
    None if it has none (a notes or cover sheet)."""
    first = sheet_rows(sheet, contents, max_row=HEADER_SEARCH)
    start = header_index(first, is_header)  # the first row with a cell when none passes
    named = start is not None and is_header([column_name(c) for c in first[start]])
    return start if named else None


def _has_rows(sheet, is_header: IsHeader, contents: Contents) -> bool:
    """Whether a sheet has a non-empty row below its header (a template has none)."""
    start = header_row(sheet, is_header, contents) or 0
    return any(any(c.strip() for c in row)
               for row in sheet_rows(sheet, contents, min_row=start + 2))


def choose_sheet(book, is_header: IsHeader, contents: Contents) -> tuple[object, str | None]:
    """The sheet that holds the ``contents``, and a note saying which it is (None for a
    workbook of one sheet).

    The data are where the director sees them: the one *visible* worksheet whose header row
    passes ``is_header``. A hidden sheet (old data kept out of sight) is never read, a notes
    or cover sheet in front is skipped, and so is an empty template (the header and no row
    below it) beside the sheet filled in; two visible candidates are refused by name:
    guessing would read one of them silently. Without any candidate, the sheet shown on
    opening (the active one) is read, so its header is what the problems name.
    """
    sheets = book.worksheets
    if not sheets:
        charts = ", ".join(repr(s.title) for s in book.chartsheets)
        raise Unreadable(f"has no worksheet, only chart sheets ({charts}): {contents.what} "
                         "are read from a worksheet with a header row")
    visible = [s for s in sheets if s.sheet_state == "visible"]
    headed = [s for s in visible if header_row(s, is_header, contents) is not None]
    blank: list = []
    if len(headed) > 1 and len(filled := [s for s in headed
                                          if _has_rows(s, is_header, contents)]) == 1:
        headed, blank = filled, [s for s in headed if s not in filled]  # an empty template
    if len(headed) > 1:
        names = ", ".join(repr(s.title) for s in headed)
        raise Unreadable(
            f"has {len(headed)} visible sheets with {contents.columns} ({names}): which one "
            f"holds the {contents.what}? Hide or delete the others, or save that sheet as a "
            f"file of its own, and {contents.again}"
        )
    hidden = [s for s in sheets
              if s not in visible and header_row(s, is_header, contents) is not None]
    if not headed and hidden:
        names = ", ".join(repr(s.title) for s in hidden)
        raise Unreadable(
            f"has {contents.columns} only on hidden sheets ({names}), and hidden sheets are "
            f"not read: unhide {contents.wanted} and {contents.again}"
        )
    if headed:
        chosen, why = headed[0], f"the one visible sheet with the {contents.columns}"
    else:
        active = book.active
        chosen = active if active in visible else (visible or sheets)[0]
        why = f"the sheet shown on opening; no sheet has a header row of {contents.columns}"
    others = [s for s in book.worksheets + book.chartsheets if s is not chosen]
    if not others:
        return chosen, None
    skipped = ", ".join(("" if s.sheet_state == "visible" else "hidden ") + repr(s.title)
                        + (f" (a header without {contents.what})" if s in blank else "")
                        for s in others)
    return chosen, f"read sheet {chosen.title!r}, {why} (not read: {skipped})"


def workbook_rows(path: str | os.PathLike, is_header: IsHeader, contents: Contents
                  ) -> tuple[str, list[list[str]], str | None]:
    """The sheet a director means (:func:`choose_sheet`) of the workbook at ``path``: its
    title, its rows as cell text from sheet row 1 (so row ``i`` of the list is sheet row
    ``i + 1``), and the note saying which sheet was read (None for a book of one sheet)."""
    with opened(path, contents) as book:
        sheet, note = choose_sheet(book, is_header, contents)
        return sheet.title, sheet_rows(sheet, contents), note


def damaged(error: Exception, contents: Contents, sheet: str | None = None) -> Unreadable:
    """The reason for a workbook openpyxl cannot read: what broke (the innermost error, whose
    words say where: openpyxl wraps it in a vaguer one), and that saving it again from Excel
    or WPS usually mends it. Declared XML entities (an entity bomb) are named as such."""
    while error.__context__ is not None:
        error = error.__context__
    if type(error).__module__.startswith("defusedxml"):
        return Unreadable(
            f"cannot be read as an xlsx workbook: its XML declares entities ({error}), which a "
            "workbook saved by Excel or WPS never does; refused unread (an entity bomb would "
            f"fill the memory): save the {contents.what} again from Excel or WPS"
        )
    what = f"its sheet {sheet!r} is damaged" if sheet else "it is damaged or not a workbook"
    detail = (str(error).strip().splitlines() or [type(error).__name__])[0]
    return Unreadable(
        f"cannot be read as an xlsx workbook: {what} ({detail}); open it in Excel or WPS, "
        f"save it again as .xlsx, and {contents.again}"
    )
