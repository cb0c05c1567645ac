"""Combinations (牌型, seed 000 art. 3-5): what a set of played cards can be read as.

A ``Combo`` is one reading of a play: its type, its rank name and the cards actually put on
the table. Readings do not depend on the level, but their power does (the level card ranks
above A in singles, pairs, triples, full houses and bombs, art. 4.1.1, and at its natural
place in sequences, art. 5.1), so ``power(combo, level)`` turns a reading into one integer
that orders every combination the rules let one play beat another with (art. 4.2).

``classify`` is the plain statement of the rules: it tries every card the wild heart level
cards (逢人配, art. 2.14) could stand for and reads the result as natural cards. The fast
move generator in ``moves`` is checked against it.

>>> from guandan_dup.cards import parse_cards
>>> [c.to_json() for c in classify(parse_cards("S7 D7"), level=0)]
[{'type': 'pair', 'rank': '7', 'cards': 2}]
>>> [(c.type, c.rank) for c in classify(parse_cards("SA D2 H3 C4 S5"), level=0)]
[('straight', '5')]
>>> [(c.type, c.rank) for c in classify(parse_cards("S3 C3 D3 H2 H2"), level=0)]
[('bomb', '3'), ('full_house', '3')]
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations_with_replacement

from ..cards import (
    HEART,
    RANK_NAMES,
    card_to_text,
    hand_to_counts,
    kind,
    parse_cards,
    rank_of,
    suit_of,
)
from ..errors import NotationError
from ..levels import LEVEL_A, LEVEL_NAMES

COMBO_TYPES = (
    "single",
    "pair",
    "triple",
    "full_house",
    "straight",
    "tube",
    "plate",
    "bomb",
    "straight_flush",
    "joker_bomb",
)
"""The combination types, plain ones first, then the bombs."""
BOMB_TYPES = frozenset({"bomb", "straight_flush", "joker_bomb"})
COMBO_RANK_NAMES = (*RANK_NAMES, "BJ", "RJ")
"""Rank names by rank number: 0 = "2" .. 12 = "A", 13 = small joker, 14 = big joker."""
RANK_INDEX = {name: index for index, name in enumerate(COMBO_RANK_NAMES)}
SMALL_JOKER_RANK, BIG_JOKER_RANK = 13, 14

BOMB_POWER = 100
"""Every bomb's power is at least this, and no plain combination reaches it."""
BOMB_TIERS = {4: 1, 5: 2, 6: 4, 7: 5, 8: 6, 9: 7, 10: 8}
"""Bomb tiers by size (art. 4.2.2): 4 cards < 5 cards < straight flush < 6+ cards."""
STRAIGHT_FLUSH_TIER = 3
JOKER_BOMB_POWER = 9 * BOMB_POWER


def level_order(level: int) -> tuple[int, ...]:
    """Order of the 15 ranks in rank-based combinations at this level (art. 4.1.1).

    Natural ranks keep their number, the level rank moves above A (13), the jokers follow.

    >>> level_order(5)[5], level_order(5)[12], level_order(5)[14]
    (13, 12, 15)
    """
    return tuple(13 if r == level else r for r in range(13)) + (14, 15)


LEVEL_ORDERS = tuple(level_order(level) for level in range(LEVEL_A + 1))
"""``level_order`` of every level, by level index."""


def check_level(level: int) -> int:
    """The level a board is played at: 0..12 ("2".."A"); A+ ends a set and is never played."""
    try:
        index = operator.index(level)
    except TypeError:
        index = -1
    if not 0 <= index <= LEVEL_A:
        shown = LEVEL_NAMES[index] if index == LEVEL_A + 1 else level
        raise NotationError(f"boards are played at levels 2..A, not at {shown!r}")
    return index


@dataclass(frozen=True, slots=True)
class Combo:
    """One reading of a play: type, rank name and the sorted kind ids of the cards played.

    Sequences are named by their highest card in natural order (A-2-3-4-5 is ``"5"``); a
    wild heart level card stays as its own kind id in ``cards``.
    """

    type: str
    rank: str
    cards: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def is_bomb(self) -> bool:
        return self.type in BOMB_TYPES

    @classmethod
    def from_text(cls, text: str) -> Combo:
        """Parse a reading as ``to_text`` writes it, ``"pair 7: S7 D7"``: type, rank name,
        a colon and the cards in any accepted spelling (``cards.parse_cards``), kept in
        their order; type and rank are case-insensitive.

        Only the notation is checked (a known type and rank, at least one card, at most two
        of a kind): whether the cards make that reading depends on the level (``classify``).
        Raises ``NotationError`` naming what is wrong.

        >>> Combo.from_text("straight 5: SA d2 H3 C4 S5")
        Combo(type='straight', rank='5', cards=(48, 3, 5, 10, 12))
        """
        head, colon, tail = str(text).partition(":")
        words = head.split()
        if not colon or len(words) != 2:
            raise NotationError(f"bad combination {text!r}: expected 'TYPE RANK: CARDS', "
                                f"as in 'pair 7: S7 D7'")
        combo_type, rank = words[0].lower(), words[1].upper()
        if combo_type not in COMBO_TYPES:
            raise NotationError(f"bad combination type {words[0]!r} in {text!r}: expected "
                                f"one of {', '.join(COMBO_TYPES)}")
        if rank not in RANK_INDEX:
            raise NotationError(f"bad combination rank {words[1]!r} in {text!r}: expected "
                                f"one of {', '.join(COMBO_RANK_NAMES)}")
        cards = tuple(parse_cards(tail))
        if not cards:
            raise NotationError(f"combination {text!r} has no cards")
        hand_to_counts(cards)
        return cls(combo_type, rank, cards)

    def to_text(self) -> str:
        """The reading as text, ``"pair 7: S7 D7"``: cards in their order (kind ids
        ascending, as ``classify`` and ``moves`` give them); ``from_text`` reads it back.

        >>> Combo("joker_bomb", "RJ", (52, 52, 53, 53)).to_text()
        'joker_bomb RJ: BJ BJ RJ RJ'
        """
        return f"{self.type} {self.rank}: {' '.join(map(card_to_text, self.cards))}"

    def to_json(self) -> dict[str, object]:
        """The reading as the ``rules classify`` command prints it."""
        return {"type": self.type, "rank": self.rank, "cards": len(self.cards)}


def power(combo: Combo, level: int) -> int:
    """One integer ordering readings at ``level``: bombs by art. 4.2.2, others by rank.

    Plain combinations compare only with their own type (every sequence type has one
    length), so their power is just the rank's order; bombs are tiered above BOMB_POWER.

    >>> sevens, aces = Combo("pair", "7", (20, 23)), Combo("pair", "A", (48, 51))
    >>> power(sevens, level=5) > power(aces, level=5)  # level 5 is "7": 7s rank above A
    True
    >>> power(sevens, level=0) > power(aces, level=0)
    False
    """
    combo_type = combo.type
    rank = RANK_INDEX[combo.rank]
    if combo_type in ("straight", "tube", "plate"):
        return rank
    if combo_type == "straight_flush":
        return STRAIGHT_FLUSH_TIER * BOMB_POWER + rank
    if combo_type == "joker_bomb":
        return JOKER_BOMB_POWER
    order = LEVEL_ORDERS[level][rank]
    if combo_type == "bomb":
        return BOMB_TIERS[len(combo.cards)] * BOMB_POWER + order
    return order


def _sequence_top(ranks: list[int], length: int) -> int | None:
    """Top rank of ``length`` consecutive distinct ranks, A high or low (art. 4.1.2), or None.

    No wrap-around: K-A-2 is not consecutive. Jokers never belong to a sequence.
    """
    if len(ranks) != length or ranks[-1] > 12:
        return None
    if ranks[-1] - ranks[0] == length - 1:
        return ranks[-1]
    if ranks[-1] == 12 and ranks[-2] == length - 2 and ranks[0] == 0:
        return ranks[-2]
    return None


def _natural_readings(rank_counts: list[int], flush: bool) -> list[tuple[str, int]]:
    """(type, rank number) of every reading of natural cards given their 15 rank counts.

    ``flush`` says that all the cards are of one suit (for straight flushes).
    """
    held = [r for r in range(15) if rank_counts[r]]
    counts = sorted(rank_counts[r] for r in held)
    if len(held) == 1:
        rank, count = held[0], counts[0]
        if count <= 2:
            return [(("single", "pair")[count - 1], rank)]
        if rank <= 12:
            return [("triple" if count == 3 else "bomb", rank)]
        return []
    if held == [SMALL_JOKER_RANK, BIG_JOKER_RANK] and counts == [2, 2]:
        return [("joker_bomb", BIG_JOKER_RANK)]
    if counts == [2, 3]:
        triple = next(r for r in held if rank_counts[r] == 3)
        return [("full_house", triple)] if triple <= 12 else []
    if counts == [1] * 5 and (top := _sequence_top(held, 5)) is not None:
        return [("straight", top)] + ([("straight_flush", top)] if flush else [])
    if counts == [2, 2, 2] and (top := _sequence_top(held, 3)) is not None:
        return [("tube", top)]
    if counts == [3, 3] and (top := _sequence_top(held, 2)) is not None:
        return [("plate", top)]
    return []


def classify(cards: Iterable[int], level: int) -> list[Combo]:
    """Every reading of the played cards at ``level``, strongest first; ``[]`` if none.

    Each wild heart level card may stand for any card except a joker (art. 2.14, 5.2); wild
    cards played on their own are simply level cards. A triple with a pair of its own rank
    is five of a kind, a bomb, never a full house. Raises ``NotationError`` for a card id
    outside 0..53 or more than two copies of a kind.
    """
    level = check_level(level)
    played = tuple(sorted(int(card) for card in cards))
    hand_to_counts(played)
    wild = kind(level, HEART)
    naturals = [card for card in played if card != wild]
    wilds = len(played) - len(naturals)
    if not naturals:
        names = ("single", "pair")
        return [Combo(names[wilds - 1], RANK_NAMES[level], played)] if 1 <= wilds <= 2 else []
    rank_counts = [0] * 15
    for card in naturals:
        rank_counts[rank_of(card)] += 1
    flush = len({suit_of(card) for card in naturals}) == 1 and naturals[-1] < 52
    readings: set[tuple[str, int]] = set()
    for stand_ins in combinations_with_replacement(range(13), wilds):
        counts = rank_counts.copy()
        for rank in stand_ins:
            counts[rank] += 1
        readings.update(_natural_readings(counts, flush))
    combos = [Combo(name, COMBO_RANK_NAMES[rank], played) for name, rank in readings]
    return sorted(combos, key=lambda c: (power(c, level), COMBO_TYPES.index(c.type)), reverse=True)
