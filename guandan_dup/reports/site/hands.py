"""Hand records for the site: each board's four hands grouped by suit, highest rank first.

A 27-card hand reads best as suit lines (``♠ A K K 10 3``) plus a joker line, laid out by
compass on the page. Only boards of sets every table has played ever reach this module (the
caller filters with ``EventFolder.complete_sets``), so nothing here decides what is public.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...cards import BIG_JOKER, RANK_NAMES, SMALL_JOKER, SUIT_SYMBOLS, hand_to_counts, parse_cards
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


def _cards(value) -> list[int]:
    """A stored hand: 27 kind ids (list column) or their text form (string column)."""
    return parse_cards(value) if isinstance(value, str) else [int(card) for card in value]


def hand_view(seat: str, cards: Iterable[int]) -> HandView:
    """Group a hand by suit, ranks descending, doubled ranks written twice.

    >>> view = hand_view("N", [48, 48, 0, 53, 1])
    >>> [(line.symbol, line.ranks) for line in view.suits if line.ranks]
    [('♠', ('A', 'A', '2')), ('♥', ('2',))]
    >>> view.big_jokers, view.small_jokers
    (1, 0)
    """
    counts = hand_to_counts(cards)
    by_rank = counts[:SMALL_JOKER].reshape(len(RANK_NAMES), len(SUIT_SYMBOLS))[::-1]
    names = np.array(RANK_NAMES[::-1])
    suits = tuple(
        SuitLine(symbol, suit in _RED_SUITS, tuple(np.repeat(names, by_rank[:, suit]).tolist()))
        for suit, symbol in enumerate(SUIT_SYMBOLS)
    )
    return HandView(seat, suits, int(counts[BIG_JOKER]), int(counts[SMALL_JOKER]))


def board_views(boards: pd.DataFrame) -> list[BoardView]:
    """Views of every board in a board-set table (deals contract columns), in board order."""
    ordered = boards.sort_values("board", kind="stable")
    return [
        BoardView(
            board=int(row["board"]),
            set_board=int(row["set_board"]),
            leader=str(row["leader"]) if pd.notna(row["leader"]) else "",
            hands={
                column[0].upper(): hand_view(column[0].upper(), _cards(row[column]))
                for column in SEAT_COLUMNS
            },
        )
        for row in ordered.to_dict("records")
    ]
