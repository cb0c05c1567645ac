"""Results kept in a spreadsheet: ``.csv`` and ``.xlsx`` files read as a table of text.

Directors keep results in Excel or WPS, so a results file may be a CSV (UTF-8, with or without
the byte-order mark Excel writes, any line ending) or the results sheet of an ``.xlsx``
workbook: the one visible sheet whose header has the results columns (hidden sheets are not
read; :mod:`.workbook` chooses it).
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
from datetime import date, datetime, time

import pyarrow as pa

from ..reading import UTF16_REASON, is_utf16, separator

SUFFIXES = (".csv", ".xlsx")


class Unreadable(Exception):  # noqa: N818 - carries the reason, caught at once by load
    """The file cannot be read at all; ``str()`` is the reason, phrased after the file name."""


def csv_table(path: str | os.PathLike, notes: list[str] | None = None) -> pa.Table:
    """A UTF-8 CSV file as an all-text table; another encoding (UTF-16, GBK) is refused,
    naming it. A header separated by ``;`` (Excel in many locales) is read so, with a line
    in ``notes`` saying it was."""
    data = read_bytes(path)
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
    return text_table(rows)


def read_bytes(path: str | os.PathLike) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        raise Unreadable("no such file: check the path") from None
    except IsADirectoryError:
        raise Unreadable("is a folder, not a results file") from None


def cell_text(value: object) -> str:
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


def text_table(rows: list[list[str]]) -> pa.Table:
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
