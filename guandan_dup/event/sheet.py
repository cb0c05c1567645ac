"""``event sheet``: the results sheet of a round, to fill in at the venue and ingest as it is.

The round, table and set already say who sits where, so nobody should copy 72 player ids a
round by hand: the sheet has a row per table and set (``--boards``: per table and board)
with the round, group, table, set and the four seats' ids and names filled in from the
seating (per set when partners rotate, a substitute in the seat of the player they
replace, as ``event ingest`` reads them) and the result columns empty. Its header is the
first row, in the column names ``event ingest`` reads, so the filled sheet goes back in
unchanged; the name columns are for the person typing and ingest ignores them. A sheet in
which the seat columns were deleted still goes in: ingest then takes them from the seating.

An ``.xlsx`` sheet has its header row frozen and bold, its columns as wide as their
contents (a Chinese character counts two) and its id and result cells formatted as text, so
Excel keeps an id's leading zeros and a typed ``10`` as it is. A ``.csv`` sheet is UTF-8
with a byte-order mark, which Excel on Chinese Windows needs to show the names. Names are
made inert as every spreadsheet the package writes for people (``reports.render.inert``).
"""

from __future__ import annotations

import io
import os
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font

from ..atomic import write_bytes
from ..errors import GuandanError
from ..reports.render import inert, one_line
from ..seats import SEAT_COLUMNS
from .folder import EventFolder
from .ingest import round_seating, seats_by_set

NAME_COLUMNS = tuple(f"{seat}_name" for seat in SEAT_COLUMNS)
SET_RESULT = ("ns_level", "ew_level")
BOARD_RESULT = ("finish",)
TEXT_COLUMNS = frozenset({*SEAT_COLUMNS, *SET_RESULT, *BOARD_RESULT})
"""Cells an xlsx sheet formats as text: the ids as written, the results as typed."""
SUFFIXES = (".xlsx", ".csv")


@dataclass(frozen=True)
class Sheet:
    """A results sheet written: where, and how many rows to fill in."""

    path: Path
    rows: int
    boards: bool


def sheet_rows(folder: EventFolder, round_no: int, boards: bool = False) -> pd.DataFrame:
    """The rows of round ``round_no``'s results sheet (``boards``: one per table and board,
    with ``board`` and an empty ``finish``; else one per table and set with empty levels).

    Refused, as ingest is, while the round is not seated; byes have no row.
    """
    decided, seating = round_seating(folder, round_no, "making its results sheet")
    seats = seats_by_set(folder.plan, seating, decided.substitutes, round_no)
    players = folder.players()
    names = dict(zip(players["player"], players["name"], strict=True))
    rows = seats.assign(round=round_no, **{
        f"{seat}_name": seats[seat].map(lambda p: names.get(p, "")) for seat in SEAT_COLUMNS})
    key = ["round", "group", "table", "set"]
    if boards:
        rows["board"] = rows["set"].map(lambda s: list(folder.plan.boards_of_set(s)))
        rows = rows.explode("board", ignore_index=True).astype({"board": "int64"})
        key.append("board")
    result = BOARD_RESULT if boards else SET_RESULT
    rows = rows.assign(**dict.fromkeys(result, None))
    return rows[[*key, *SEAT_COLUMNS, *NAME_COLUMNS, *result]]


def write_sheet(
    folder: EventFolder, round_no: int, out: str | os.PathLike, boards: bool = False
) -> Sheet:
    """Write round ``round_no``'s results sheet to ``out`` (``.xlsx`` or ``.csv``, by its
    suffix) atomically; anything else, or a round not seated, is refused first."""
    out = Path(out)
    suffix = out.suffix.lower()
    if suffix not in SUFFIXES:
        raise GuandanError(
            f"cannot write the results sheet to {str(out)!r}: a sheet is .xlsx or .csv, "
            f"not {suffix or 'a file without a suffix'!r}")
    rows = sheet_rows(folder, round_no, boards)
    safe = rows.assign(**{c: rows[c].map(lambda v: inert(one_line(v))) for c in NAME_COLUMNS})
    data = xlsx_bytes(safe, f"round {round_no}") if suffix == ".xlsx" else csv_bytes(safe)
    write_bytes(out, data)
    return Sheet(out, len(rows), boards)


def csv_bytes(rows: pd.DataFrame) -> bytes:
    """The sheet as CSV: UTF-8 with a byte-order mark, empty cells empty."""
    return rows.to_csv(index=False, lineterminator="\r\n").encode("utf-8-sig")


def shown_width(text: str) -> int:
    """How many character widths ``text`` takes in a spreadsheet cell: a wide (Chinese,
    full-width) character takes two.

    >>> shown_width("P001"), shown_width("王小明")
    (4, 6)
    """
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def xlsx_bytes(rows: pd.DataFrame, title: str, text: frozenset[str] = TEXT_COLUMNS) -> bytes:
    """The sheet as a workbook of one sheet named ``title``: header in row 1, bold and
    frozen, every column as wide as its widest cell, text cells stored as text and the
    ``text`` columns formatted as text (``event tokens --out links.xlsx`` passes its PIN)."""
    book = Workbook()
    sheet = book.active
    sheet.title = title
    sheet.append(list(rows.columns))
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for values in rows.astype(object).where(rows.notna(), None).itertuples(index=False):
        sheet.append([ILLEGAL_CHARACTERS_RE.sub("", v) if isinstance(v, str) else v
                      for v in values])
    for index, column in enumerate(rows.columns, 1):
        cells = [sheet.cell(row, index) for row in range(1, len(rows) + 2)]
        for cell in cells[1:]:
            if column in text:
                cell.number_format = "@"
            if isinstance(cell.value, str):
                cell.data_type = "s"  # text, even if it looks like a formula
        widest = max(shown_width("" if c.value is None else str(c.value)) for c in cells)
        sheet.column_dimensions[cells[0].column_letter].width = widest + 2
    sheet.freeze_panes = "A2"
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()
