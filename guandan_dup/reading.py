"""Reading input files (Parquet, CSV, xlsx) with an error a director understands, whatever
goes wrong.

A missing file, a folder, a truncated or non-Parquet file, a CSV in an encoding that is
neither UTF-8 nor GBK, a damaged workbook all become one ``GuandanError`` (subclass) naming
the file and what to do, never a traceback. Every CSV a director brings (results, players,
teams, lineups) is read by :func:`csv_rows`, so all take the same encodings, separators and
line numbers; every workbook by :func:`.workbooks.workbook_rows`, so all take the same sheet
and the sheet's row numbers. :func:`read_table` reads either, by the file's suffix.
"""

from __future__ import annotations

import codecs
import csv
import io
import os
import unicodedata
from collections.abc import Collection, Sequence
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .errors import GuandanError, Problem, ProblemsError, Unreadable
from .headers import column_name, header_index, named_twice, naming, normal
from .workbooks import Contents, workbook_rows

__all__ = ["Unreadable", "csv_rows", "csv_text", "is_utf16", "read_bytes", "read_parquet",
           "read_table", "read_table_with", "separator", "table_rows", "text_problem"]


def read_parquet(
    path: str | os.PathLike, what: str, error: type[GuandanError] = GuandanError,
    columns: Sequence[str] | None = None,
) -> pa.Table:
    """Read ``path`` (only ``columns`` if given) as an Arrow table; ``error`` says
    ``{what} 'path' ...`` on any failure."""
    name = str(path)
    if Path(path).is_dir():
        raise error(f"{what} {name!r} is a folder, not a file")
    try:
        return pq.read_table(path, columns=columns)
    except FileNotFoundError:
        raise error(f"{what} {name!r} does not exist") from None
    except (OSError, pa.ArrowException) as failure:
        raise error(f"cannot read {what} {name!r} as Parquet: {failure}") from None


def is_utf16(data: bytes) -> bool:
    """Whether ``data`` (a file's first bytes) is UTF-16 text, as Excel's "Unicode Text" and
    some exports save it: a UTF-16 byte-order mark, or a NUL in every other byte (the high
    half of each Latin character), which UTF-8 text never has. Such a file decodes as
    neither UTF-8 nor GBK, and "probably GBK" would send the director the wrong way.

    >>> is_utf16("round,table".encode("utf-16")), is_utf16(b"round,table")
    (True, False)
    """
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return True
    sample = data[:200]
    halves = (sample[0::2], sample[1::2])
    return len(sample) >= 4 and any(half.count(0) >= 0.9 * len(half) for half in halves)


UTF16_REASON = (
    "is UTF-16 text (as Excel's 'Unicode Text' saves it), not UTF-8: save it as 'CSV UTF-8 "
    "(comma delimited)' (Excel) or with the encoding UTF-8 (WPS)"
)
"""What to do about a UTF-16 file, phrased after its name."""


def separator(data: bytes | str) -> str:
    r"""The CSV separator of a file starting with ``data``: ``;`` when its header line (the
    first with a ``,`` or a ``;``: a title line above may have neither) has a ``;`` and no
    ``,`` (Excel writes ``;`` where the decimal mark is a comma: much of Europe, Russia,
    Brazil), else ``,``. Such a header only makes sense split on ``;``.

    >>> separator(b"id;name"), separator("id,name;x"), separator("id"), separator("T\na;b")
    (';', ',', ',', ';')
    """
    text = data.decode("utf-8-sig", "replace") if isinstance(data, bytes) else data
    header = next((line for line in text.split("\n") if "," in line or ";" in line), "")
    return ";" if ";" in header and "," not in header else ","


def read_bytes(path: str | os.PathLike, what: str = "file") -> bytes:
    """A file's bytes; a missing file or a folder (not a ``what``) is :class:`Unreadable`."""
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        raise Unreadable("does not exist: check the path") from None
    except IsADirectoryError:
        raise Unreadable(f"is a folder, not a {what}") from None


GBK_NOTE = "read as GB18030 (GBK), as Excel on Chinese Windows saves CSV (it is not UTF-8)"
"""Said of a CSV file that is not UTF-8 but GB18030, the superset of GBK."""


def csv_text(path: str | os.PathLike, notes: list[str] | None = None, what: str = "file"
             ) -> str:
    """A CSV file's text: UTF-8 (with or without the byte-order mark Excel writes), else
    GB18030 (a superset of GBK, which Excel on Chinese Windows writes), with a line in
    ``notes`` saying so; UTF-16 is refused by name, as is anything neither decodes. ``what``
    the file is, for the reason a folder is refused."""
    data = read_bytes(path, what)
    if is_utf16(data):
        raise Unreadable(UTF16_REASON)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError as error:
        raise Unreadable(
            f"is neither UTF-8 nor GBK (GB18030) text ({error}): save it as 'CSV UTF-8 "
            "(comma delimited)' (Excel) or with the encoding UTF-8 (WPS)") from None
    if notes is not None:
        notes.append(f"{os.fspath(path)}: {GBK_NOTE}")
    return text


def csv_rows(path: str | os.PathLike, notes: list[str] | None = None, what: str = "file"
             ) -> tuple[list[list[str]], list[int]]:
    """A CSV file's records and the line each starts on (from 1, as a text editor and, for
    one-line records, Excel number them). The separator is ``,``, or ``;`` when the header
    line says so (:func:`separator`, with a line in ``notes``); the encoding as
    :func:`csv_text` reads it."""
    text = csv_text(path, notes, what)
    delimiter = separator(text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows, lines, read = [], [], 0
    try:
        for row in reader:
            rows.append(row)
            lines.append(read + 1)
            read = reader.line_num
    except csv.Error as error:
        raise Unreadable(f"cannot be read as CSV ({error})") from None
    if delimiter != "," and notes is not None:
        notes.append(f"{os.fspath(path)}: read with {delimiter!r} as the separator, as Excel "
                     "writes CSV where the decimal mark is a comma (its header has no ',')")
    return rows, lines


def table_rows(path: str | os.PathLike, required: Sequence[str] = ()
               ) -> tuple[list[list[str]], list[int]]:
    """A director's table file's rows of cells and the number of each as the spreadsheet
    shows it: an ``.xlsx`` workbook's sheet (the visible one whose header names
    ``required``: :func:`.workbooks.choose_sheet`) by its rows, from 1; any other file as a
    CSV (:func:`csv_rows`) by its lines."""
    if Path(path).suffix.lower() != ".xlsx":
        return csv_rows(path)
    read_bytes(path, "workbook")  # a missing file or a folder gets the usual reason
    _, rows, _ = workbook_rows(path, naming(required), Contents.naming(required))
    return rows, list(range(1, len(rows) + 1))


def read_table(path: str | os.PathLike, required: Sequence[str] = (),
               numbers: Collection[str] = ()) -> pd.DataFrame:
    """A CSV file's or an xlsx sheet's table as text, indexed by the line (the sheet row)
    each row is on (:func:`table_rows`; the header is the first row naming ``required``, so
    a title line above it is skipped: :mod:`.headers`); header names by
    :func:`.headers.column_name` (Chinese aliases), cells trimmed, those of the ``numbers``
    columns (numbers, codes) read after NFKC too (:func:`.headers.normal`: full-width ``７``
    is 7), blank lines dropped. A file that cannot be read is a ``GuandanError`` naming it;
    how it was read (GBK, ``;``, which sheet) goes unsaid: it changes nothing a director
    does."""
    try:
        rows, lines = table_rows(path, required)
    except Unreadable as reason:
        said = str(reason)  # a damaged workbook's reason says "cannot be read as ..." itself
        raise GuandanError(f"{str(path)!r} {said}" if said.startswith("cannot ")
                           else f"cannot read {str(path)!r}: it {said}") from None
    start = header_index(rows, naming(required))
    if start is None:
        raise GuandanError(f"cannot read {str(path)!r}: it is empty (no header line)")
    header = [column_name(cell) for cell in rows[start]]
    if twice := named_twice(header):
        raise GuandanError(f"cannot read {str(path)!r}: it {twice}: keep one")
    body = [(n, row) for n, row in zip(lines[start + 1:], rows[start + 1:], strict=True)
            if any(cell.strip() for cell in row)]
    cells = {name: [(normal if name in numbers else str.strip)(row[i]) if i < len(row)
                    else "" for _, row in body]
             for i, name in enumerate(header) if name}
    return pd.DataFrame(cells, index=pd.Index([n for n, _ in body], dtype="int64"),
                        dtype="str", columns=list(cells))


def read_table_with(
    path: str | os.PathLike, columns: Sequence[str], error: type[ProblemsError],
    numbers: Collection[str] = (),
) -> pd.DataFrame:
    """:func:`read_table`, refusing with ``error`` (one problem per column) a file that lacks
    any of ``columns``: a director's file with a misnamed header is told which names it
    has."""
    frame = read_table(path, columns, numbers)
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        found = ", ".join(frame.columns) or "none"
        raise error([Problem(Path(path).name, None, c, None, f"missing column (found: {found})")
                     for c in missing])
    return frame


def text_problem(text: str) -> str | None:
    r"""Why ``text`` cannot stand as an id or a name a director typed, or None: a control
    character (a line break, a NUL: no results file or page could hold it as given), or
    nothing visible (spaces and invisible characters such as U+200B only, an id no one
    could type back).

    >>> text_problem("P001"), text_problem("王 伟")
    (None, None)
    >>> print(text_problem("x" + chr(10) + "y"))
    has a control character ('\n'): ids and names are one line of visible text
    >>> print(text_problem(chr(0x200B)))
    has nothing visible (only spaces or invisible characters)
    """
    bad = next((c for c in text if unicodedata.category(c) in ("Cc", "Cs")), None)
    if bad is not None:
        return (f"has a control character ({bad!r}): ids and names are one line of visible "
                "text")
    if not any(unicodedata.category(c)[0] not in "ZC" for c in text):
        return "has nothing visible (only spaces or invisible characters)"
    return None
