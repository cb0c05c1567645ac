"""Hand records for the site: each board's four hands grouped by suit, highest rank first.

A 27-card hand reads best as suit lines (``♠ A K K 10 3``) plus a joker line, laid out by
compass on the page. Only boards of sets every table has played ever reach this module (the
event side filters with ``event.publish.complete_sets``), so nothing here decides what is
public.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...cards import BIG_JOKER, SMALL_JOKER, SUIT_SYMBOLS, card_to_unicode
from ...deals.render import hand_by_suit
from ...seats import SEAT_COLUMNS

_RED_SUITS = {1, 3}  # hearts, diamonds


@dataclass(frozen=True)
class SuitLine:
    symbol: str
    red: bool
    ranks: tuple[str, ...]


@dataclass(frozen=True)
class HandView:
    """One seat's hand: four suit lines and the joker counts (big, small)."""

    seat: str
    suits: tuple[SuitLine, ...]
    big_jokers: int
    small_jokers: int


@dataclass(frozen=True)
class BoardView:
    board: int
    set_board: int
    leader: str  # "" for boards after the first: tribute decides who leads them
    hands: dict[str, HandView]


def hand_view(seat: str, cards: Iterable[int]) -> HandView:
    """Group a hand by suit, ranks descending, doubled ranks written twice.

    The grouping is the printed hand record's (``deals.render.hand_by_suit``), so the site
    and the hand records a director prints always agree.

    >>> view = hand_view("N", [48, 48, 0, 53, 1])
    >>> [(line.symbol, line.ranks) for line in view.suits if line.ranks]
    [('♠', ('A', 'A', '2')), ('♥', ('2',))]
    >>> view.big_jokers, view.small_jokers
    (1, 0)
    """
    suits, jokers = hand_by_suit(np.fromiter(cards, dtype=np.int64))
    lines = tuple(
        SuitLine(symbol, suit in _RED_SUITS, tuple(ranks))
        for suit, (symbol, ranks) in enumerate(zip(SUIT_SYMBOLS, suits, strict=True))
    )
    big, small = card_to_unicode(BIG_JOKER), card_to_unicode(SMALL_JOKER)
    return HandView(seat, lines, jokers.count(big), jokers.count(small))


def board_views(boards: pd.DataFrame) -> list[BoardView]:
    """Views of every board in a board-set table (deals contract columns), in board order."""
    ordered = boards.sort_values("board", kind="stable")
    return [
        BoardView(
            board=int(row["board"]),
            set_board=int(row["set_board"]),
            leader=str(row["leader"]) if pd.notna(row["leader"]) else "",
            hands={
                column[0].upper(): hand_view(column[0].upper(), [int(c) for c in row[column]])
                for column in SEAT_COLUMNS
            },
        )
        for row in ordered.to_dict("records")
    ]
