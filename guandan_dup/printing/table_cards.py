"""Table cards: an A4 sheet per table, folded along its middle into a tent for the table.

Both halves show the same card, the far one upside down, so it reads from either side:
the table number large, its group (or a team match's room), the sets and boards it plays,
who sits where (one row per set under partner rotation) and the QR code of the table's
entry link with its PIN, for the phones of ``guandan-dup serve`` (``event.access``). The
same content as the HTML cards ``event seat`` writes (``event.cards``), for a printer.
"""

from __future__ import annotations

from reportlab.lib.units import mm

from ..seats import SEAT_COLUMNS
from .document import LANDSCAPE, MARGIN, Document
from .seat_list import SEAT_LABELS
from .source import RoundSource

NUMBER_W = 62 * mm
"""The table number's column, at the left of each half."""
QR_SIZE = 46 * mm
SETS_W = 24 * mm


def render(source: RoundSource, doc: Document) -> None:
    """One landscape page per table, folded in the middle (a dashed line)."""
    for group, table, rows in source.tables():
        doc.new_page(LANDSCAPE)
        doc.line(MARGIN / 2, doc.height / 2, doc.width - MARGIN / 2, doc.height / 2, 0.4,
                 dashed=True)
        _half(doc, source, group, table, rows)
        with doc.turned():
            _half(doc, source, group, table, rows)


def _half(doc: Document, source: RoundSource, group: int, table: int, rows) -> None:
    """The lower half of the page: the card as it stands before a player."""
    bottom, top = MARGIN, doc.height / 2 - 8 * mm
    left, right = MARGIN, doc.width - MARGIN
    caption = source.captions.get(table) or f"Group {group} 组 · Round {source.round_no} 第" \
        f"{source.round_no}轮"
    doc.text(left, top - 4 * mm, caption, doc.fitted(caption, 12, right - left))
    doc.text(left, top - 14 * mm, "Table 桌", 14)
    number = str(table)
    doc.text(left, bottom + 12 * mm, number, doc.fitted(number, 120, NUMBER_W - 4 * mm),
             bold=True)
    link = source.links[table]
    qr_x = right - QR_SIZE
    doc.qr(link.url, qr_x, top - 8 * mm - QR_SIZE, QR_SIZE)
    pin_page = link.url.rsplit("/t/", 1)[0] + "/t"
    doc.centered(qr_x + QR_SIZE / 2, top - 14 * mm - QR_SIZE, f"PIN {link.pin}", 16, bold=True)
    doc.centered(qr_x + QR_SIZE / 2, top - 19 * mm - QR_SIZE, pin_page,
                 doc.fitted(pin_page, 8, QR_SIZE + 8 * mm))
    _seats(doc, source, rows, left + NUMBER_W, qr_x - 6 * mm, bottom, top - 10 * mm)


def _seats(doc: Document, source: RoundSource, rows, x0: float, x1: float, bottom: float,
           top: float) -> None:
    """The sets and boards, and the four seats' names and ids: a row per seating row."""
    seat_w = (x1 - x0 - SETS_W) / len(SEAT_COLUMNS)
    heading = top - 6 * mm
    doc.text(x0, heading, "Sets 局 · boards 副", 8)
    for i, column in enumerate(SEAT_COLUMNS):
        doc.text(x0 + SETS_W + i * seat_w, heading, SEAT_LABELS[column], 11, bold=True)
    doc.line(x0, heading - 2 * mm, x1, heading - 2 * mm, 0.5)
    height = min(24 * mm, (heading - 4 * mm - bottom) / len(rows))
    size = min(15, height * 0.42)
    y = heading - 4 * mm
    for _, row in rows.iterrows():
        sets = source.sets_of(row)
        baseline = y - size * 1.1
        doc.text(x0, baseline, ", ".join(map(str, sets)), doc.fitted(", ".join(map(
            str, sets)), size * 0.8, SETS_W - 2 * mm))
        boards = source.plan.board_ranges(sets)
        doc.text(x0, baseline - size * 0.9, boards, doc.fitted(boards, size * 0.6,
                                                                SETS_W - 2 * mm))
        for i, column in enumerate(SEAT_COLUMNS):
            player = str(row[column])
            name = source.names.get(player, player)
            x = x0 + SETS_W + i * seat_w
            doc.text(x, baseline, name, doc.fitted(name, size, seat_w - 2 * mm), bold=True)
            doc.text(x, baseline - size * 0.9, player, doc.fitted(player, size * 0.6,
                                                                   seat_w - 2 * mm))
        y -= height
