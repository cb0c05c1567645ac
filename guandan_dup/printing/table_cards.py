"""Table cards: an A4 sheet per table, folded along its middle into a tent for the table.

Both halves show the same card, the far one upside down, so it reads from either side:
the table number large, its group (or a team match's room), the sets and boards it plays,
who sits where (one row per set under partner rotation) and the QR code of the table's
entry link with its PIN, for the phones of ``guandan-dup serve`` (``event.access``). The
same content as the HTML cards ``event seat`` writes (``event.cards``), for a printer.
Every label leads in Chinese (桌, 北, 局 · 副), English second. A team match's teams keep
their names whole: the match and room on one line, the teams on the next (each on a line
of its own when both will not fit), the print shrunk to fit rather than cut.
"""

from __future__ import annotations

import pandas as pd
from reportlab.lib.units import mm

from ..seats import SEAT_COLUMNS
from .document import LANDSCAPE, MARGIN, Document
from .seat_list import SEAT_LABELS
from .source import Room, RoundSource

NUMBER_W = 62 * mm
"""The table number's column, at the left of each half."""
QR_SIZE = 46 * mm
SETS_W = 30 * mm
"""The sets-and-boards column before the four seats."""
CAPTION_SIZE, SMALLEST = 12, 7
"""A caption line's print, and the smallest it may shrink to before it is split."""


def render(source: RoundSource, doc: Document) -> None:
    """One landscape page per table, folded in the middle (a dashed line)."""
    for group, table, rows in source.tables():
        doc.new_page(LANDSCAPE)
        doc.line(MARGIN / 2, doc.height / 2, doc.width - MARGIN / 2, doc.height / 2, 0.4,
                 dashed=True)
        doc.right(doc.width - MARGIN / 2, doc.height / 2 + 1.5 * mm, "对折 fold", 7)
        _half(doc, source, group, table, rows)
        with doc.turned():
            _half(doc, source, group, table, rows)


def _half(doc: Document, source: RoundSource, group: int, table: int,
          rows: pd.DataFrame) -> None:
    """The lower half of the page: the card as it stands before a player."""
    bottom, top = MARGIN, doc.height / 2 - 8 * mm
    left, right = MARGIN, doc.width - MARGIN
    r = source.round_no
    link = source.links[table]
    qr_x, middle = right - QR_SIZE, right - QR_SIZE / 2
    room = source.rooms.get(table)
    lines = [f"第{group}组 Group {group} · 第{r}轮 Round {r}"] if room is None else (
        caption_lines(doc, room, qr_x - 4 * mm - left))
    for i, line in enumerate(lines):
        size = min(CAPTION_SIZE if i == 0 else CAPTION_SIZE - 1,
                   doc.fitted(line, CAPTION_SIZE, qr_x - 4 * mm - left, smallest=4))
        doc.text(left, top - 4 * mm - i * 4.6 * mm, line, size)
    doc.text(left, top - 9 * mm - len(lines) * 4.6 * mm, "桌 Table", 14)
    doc.text(left, bottom + 12 * mm, str(table), 120, bold=True, fit=NUMBER_W - 4 * mm)
    doc.qr(link.url, qr_x, top - 8 * mm - QR_SIZE, QR_SIZE)
    doc.centered(middle, top - 14 * mm - QR_SIZE, f"PIN {link.pin}", 16, bold=True)
    pin_page = link.url.rsplit("/t/", 1)[0] + "/t"
    doc.centered(middle, top - 19 * mm - QR_SIZE, f"扫码录分 scan, or the PIN at {pin_page}",
                 8, fit=QR_SIZE + 12 * mm)
    below = top - 10 * mm - (len(lines) - 1) * 4.6 * mm  # under the caption's lines
    _seats(doc, source, rows, left + NUMBER_W, qr_x - 6 * mm, bottom, below)


def caption_lines(doc: Document, room: Room, width: float) -> list[str]:
    """A team table's caption as lines that each fit ``width`` at ``SMALLEST`` points or
    more: the match and room, then both teams; each team on its own line when the two do
    not fit together. A team's name is never cut: the line's print shrinks instead."""
    teams = f"{room.home} v {room.away}"
    if doc.width_of(teams, SMALLEST) <= width:
        return [f"{room.match} · {room.room}", teams]
    return [f"{room.match} · {room.room}", f"{room.home} v", room.away]


def _seats(doc: Document, source: RoundSource, rows: pd.DataFrame, x0: float, x1: float,
           bottom: float, top: float) -> None:
    """The sets and boards, and the four seats' names and ids: a row per seating row."""
    seat_w = (x1 - x0 - SETS_W) / len(SEAT_COLUMNS)
    heading = top - 6 * mm
    doc.text(x0, heading, "局 Sets · 副 boards", 9, fit=SETS_W - 2 * mm)
    for i, column in enumerate(SEAT_COLUMNS):
        doc.text(x0 + SETS_W + i * seat_w, heading, SEAT_LABELS[column], 11, bold=True)
    doc.line(x0, heading - 2 * mm, x1, heading - 2 * mm, 0.5)
    height = min(28 * mm, (heading - 4 * mm - bottom) / len(rows))
    size = min(20, height * 0.42)
    baseline = heading - 4 * mm - size * 1.1
    for _, row in rows.iterrows():
        sets = source.sets_of(row)
        cells = [(", ".join(map(str, sets)), source.plan.board_ranges(sets), SETS_W)]
        cells += [(source.names.get(str(row[c]), str(row[c])), str(row[c]), seat_w)
                  for c in SEAT_COLUMNS]
        x = x0
        for first, second, width in cells:
            doc.text(x, baseline, first, size, bold=True, fit=width - 2 * mm)
            doc.text(x, baseline - size * 0.9, second, size * 0.6, fit=width - 2 * mm)
            x += width
        baseline -= height
