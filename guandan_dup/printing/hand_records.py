"""Hand records: the round's boards as ``event deal`` wrote them, two boards to an A4 page.

The same boards, headings and suit order as the HTML hand records (``deals.render``: cards
by suit, highest first, jokers last, red suits in red), hands in compass layout around the
board's number and who leads, Chinese first (第 13 副, 北 North, 首出 东 · East leads).
Refused for a round not dealt yet.
"""

from __future__ import annotations

from reportlab.lib.units import mm

from ..cards import BIG_JOKER as BIG_JOKER_CARD
from ..cards import card_to_unicode
from ..deals.boardset import load
from ..deals.render import board_heading, board_rows, board_set_info, html_hand, leader_words
from ..errors import GuandanError
from .document import MARGIN, Document
from .source import RoundSource

PER_PAGE = 2
SIZE = 10
LINE = 4.6 * mm
RED = (0.8, 0, 0)
"""Hearts, diamonds and the big joker, as on the HTML hand records."""
BIG_JOKER = card_to_unicode(BIG_JOKER_CARD)


def render(source: RoundSource, doc: Document) -> None:
    """Pages of ``PER_PAGE`` boards each, in board order."""
    path = source.folder.file(source.round_no, "boards")
    if not path.is_file():
        raise GuandanError(
            f"round {source.round_no} is not dealt yet, so it has no hand records; run "
            f"`guandan-dup event deal {source.folder.path} --round {source.round_no}` first")
    table = load(path)
    info = board_set_info(table)
    rows = board_rows(table)
    for index, row in enumerate(rows):
        if index % PER_PAGE == 0:
            doc.new_page()
        height = (doc.height - 2 * MARGIN) / PER_PAGE
        top = doc.height - MARGIN - (index % PER_PAGE) * height
        _board(doc, row, board_heading(row, info), top, height)


def _board(doc: Document, row: dict, heading: str, top: float, height: float) -> None:
    """One board in the band from ``top`` down ``height`` points."""
    left, width = MARGIN, doc.width - 2 * MARGIN
    doc.box(left, top - height + 3 * mm, width, height - 3 * mm, 0.6)
    doc.text(left + 4 * mm, top - 9 * mm, heading, 13, bold=True, fit=width - 8 * mm)
    column = width / 3
    hands = [html_hand(seat, row["hands"][seat]) for seat in range(4)]
    band = (height - 18 * mm) / 3
    places = {"north": (1, 0), "west": (0, 1), "east": (2, 1), "south": (1, 2)}
    for hand in hands:
        c, r = places[hand["place"]]
        _hand(doc, hand, left + 6 * mm + c * column, top - 16 * mm - r * band, column - 8 * mm)
    cx, cy = left + 1.5 * column, top - 16 * mm - 1.5 * band
    doc.box(cx - 18 * mm, cy - 8 * mm, 36 * mm, 22 * mm, 0.4)
    doc.centered(cx, cy + 3 * mm, str(row["board"]), 20, bold=True)
    if row["leader"] is not None:
        doc.centered(cx, cy - 4 * mm, leader_words(row["leader"]), 9, fit=34 * mm)


def _hand(doc: Document, hand: dict, x: float, top: float, width: float) -> None:
    """A seat's name, a line per suit and the jokers, from ``top`` down."""
    y = top - LINE
    doc.text(x, y, hand["name"], SIZE - 1, bold=True)
    for suit in hand["suits"]:
        y -= LINE
        doc.colour(RED if suit["red"] else None)
        doc.text(x, y, suit["symbol"], SIZE, bold=True)
        doc.colour(None)
        doc.text(x + 5 * mm, y, suit["ranks"], SIZE, fit=width - 5 * mm)
    if hand["jokers"]:
        y -= LINE
        for joker in hand["jokers"]:
            doc.colour(RED if joker == BIG_JOKER else None)
            doc.text(x, y, joker, SIZE)
            x += doc.width_of(joker + " ", SIZE)
        doc.colour(None)
