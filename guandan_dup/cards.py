"""Card kinds: the 54 kinds of a double deck as small ints, with text and Unicode forms.

Kind id ``4*r + s`` for rank r (0 = "2" ... 12 = "A") and suit s (0 spade, 1 heart,
2 club, 3 diamond); 52 is the small joker, 53 the big joker. Each kind exists twice in the
108-card pack. Like squares in python-chess, kinds are plain ints with name tables; every
notation has a parse/format pair that round-trips.

>>> card_from_text("ST")
32
>>> card_to_text(32), card_to_unicode(32)
('ST', '♠10')
>>> parse_cards("♥9 BJ s10")
[29, 52, 32]
>>> format_cards([53, 0, 0])
'S2 S2 RJ'
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from .errors import NotationError

RANKS = "23456789TJQKA"
"""Rank letters in natural order; index = rank number (0 = "2", 12 = "A")."""
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Rank names as people write them (and as the rules engine names ranks)."""
SUITS = "SHCD"
SUIT_SYMBOLS = "♠♥♣♦"
SUIT_NAMES = ("spades", "hearts", "clubs", "diamonds")
SPADE, HEART, CLUB, DIAMOND = range(4)
SMALL_JOKER = 52
BIG_JOKER = 53
KINDS = 54
COPIES = 2
PACK_SIZE = KINDS * COPIES
HAND_SIZE = PACK_SIZE // 4

_JOKER_TEXT = {SMALL_JOKER: "BJ", BIG_JOKER: "RJ"}
_JOKER_UNICODE = {SMALL_JOKER: "小王", BIG_JOKER: "大王"}


def kind(rank: int, suit: int) -> int:
    """The kind id of a suited card."""
    return 4 * rank + suit


def rank_of(card: int) -> int:
    """Rank number 0..12 of a suited card; 13 for the small joker, 14 for the big one."""
    return card // 4 if card < SMALL_JOKER else 13 + (card - SMALL_JOKER)


def suit_of(card: int) -> int | None:
    """Suit number 0..3 of a suited card, ``None`` for a joker."""
    return card % 4 if card < SMALL_JOKER else None


def _check(card: int) -> int:
    """``card`` as a plain int, or ``NotationError`` if it is no kind id (numpy ints pass)."""
    if not isinstance(card, int | np.integer) or not 0 <= card < KINDS:
        raise NotationError(f"card kind {card!r} is not an id in 0..53")
    return int(card)


def card_to_text(card: int) -> str:
    """Suit letter and rank letter (``"ST"``), or ``"BJ"``/``"RJ"`` for the jokers."""
    card = _check(card)
    if card in _JOKER_TEXT:
        return _JOKER_TEXT[card]
    return SUITS[card % 4] + RANKS[card // 4]


def card_to_unicode(card: int) -> str:
    """Suit symbol and rank name (``"♠10"``), or ``"小王"``/``"大王"`` for the jokers."""
    card = _check(card)
    if card in _JOKER_UNICODE:
        return _JOKER_UNICODE[card]
    return SUIT_SYMBOLS[card % 4] + RANK_NAMES[card // 4]


def _build_lookup() -> dict[str, int]:
    """Every accepted spelling (upper-cased) to its kind: parsing is then one dict lookup."""
    table: dict[str, int] = {}
    for card in range(KINDS):
        table[card_to_text(card)] = card
        table[card_to_unicode(card)] = card
    for card in range(SMALL_JOKER):
        suit_letter, suit_symbol = SUITS[card % 4], SUIT_SYMBOLS[card % 4]
        for rank_text in (RANKS[card // 4], RANK_NAMES[card // 4]):
            table[suit_letter + rank_text] = card
            table[suit_symbol + rank_text] = card
    return {text.upper(): card for text, card in table.items()}


_LOOKUP = _build_lookup()


def card_from_text(token: str) -> int:
    """Parse one card in text or Unicode form (``ST``, ``S10``, ``♠10``, ``BJ``, ``小王``).

    Letters are case-insensitive. Raises ``NotationError`` naming the token otherwise.
    """
    card = _LOOKUP.get(token.strip().upper())
    if card is None:
        raise NotationError(
            f"bad card {token!r}: expected a suit S/H/C/D (or ♠♥♣♦) and a rank "
            f"2-9/T/10/J/Q/K/A, or BJ/RJ (小王/大王) for the jokers"
        )
    return card


_SEPARATORS = re.compile(r"[\s,]+")


def parse_cards(text: str) -> list[int]:
    """Parse cards separated by spaces or commas, keeping their order."""
    return [card_from_text(token) for token in _SEPARATORS.split(text.strip()) if token]


def format_cards(cards: Iterable[int], unicode: bool = False) -> str:
    """Format cards sorted by kind id, separated by spaces."""
    render = card_to_unicode if unicode else card_to_text
    return " ".join(render(card) for card in sorted(cards))


def hand_to_counts(cards: Iterable[int]) -> np.ndarray:
    """A hand (multiset of kind ids) as 54 counts 0..2 (uint8)."""
    ids = np.fromiter((_check(c) for c in cards), dtype=np.int64)
    counts = np.bincount(ids, minlength=KINDS).astype(np.uint8)
    if counts.max(initial=0) > COPIES:
        over = [card_to_text(int(c)) for c in np.flatnonzero(counts > COPIES)]
        raise NotationError(f"a hand holds at most two of each card; too many of {over}")
    return counts


def hand_from_counts(counts: Iterable[int]) -> tuple[int, ...]:
    """The sorted kind ids of a hand given as 54 counts."""
    counts = np.asarray(list(counts) if not isinstance(counts, np.ndarray) else counts)
    if counts.shape != (KINDS,) or counts.min() < 0 or counts.max() > COPIES:
        raise NotationError(f"expected 54 counts in 0..2, got shape {counts.shape}")
    return tuple(int(c) for c in np.repeat(np.arange(KINDS), counts.astype(np.int64)))
