"""Legal plays from a hand (seed 000 art. 8.1.1): every lead, and the follows that beat a play.

A hand is 54 kind counts (``cards.hand_to_counts``). Plays are enumerated from 15 rank
counts, per-suit rank bit masks (for straight flushes) and the number of wild heart level
cards, never by trying subsets of cards. Which concrete cards a play uses is a choice,
made once per *rank pattern* so that a hand yields a manageable list:

- one play per type and rank; full houses once per (triple rank, pair rank), with a pair
  of two wild cards counted as one more pair rank; bombs once per rank and size; straight
  flushes once per suit and rank;
- each play uses the fewest wild cards that can make it (a version spending a wild card on
  a rank the hand holds naturally is never listed), natural cards lowest kind id first;
- a plain straight takes its cards from two suits when the hand allows, so that playing
  it does not spend a straight flush unnoticed.

Passing is always allowed and never listed. The lists for the last few hands are cached
(keyed by the hand's bytes and the level), because a player asks for follows several
times between two plays of its own.

>>> from guandan_dup.cards import hand_to_counts, parse_cards
>>> hand = hand_to_counts(parse_cards("S3 C3 D4 H2 BJ"))
>>> [(c.type, c.rank) for c in legal_leads(hand, level=0)][:6]
[('single', '3'), ('single', '4'), ('single', '2'), ('single', 'BJ'), ('pair', '3'), ('pair', '4')]
>>> from guandan_dup.rules.combos import classify
>>> [(c.type, c.rank) for c in legal_follows(hand, 0, classify(parse_cards("S9 D9"), 0)[0])]
[]
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from itertools import product
from operator import itemgetter

import numpy as np

from ..cards import BIG_JOKER, COPIES, HEART, KINDS, SMALL_JOKER, kind
from ..errors import NotationError
from .combos import (
    BOMB_POWER,
    BOMB_TIERS,
    COMBO_RANK_NAMES,
    JOKER_BOMB_POWER,
    LEVEL_ORDERS,
    STRAIGHT_FLUSH_TIER,
    Combo,
    check_level,
    power,
)

_PLAIN_TYPES = ("single", "pair", "triple", "full_house", "straight", "tube", "plate")
_BOMBS = "bombs"
_JOKER_BOMB = Combo("joker_bomb", "RJ", (SMALL_JOKER, SMALL_JOKER, BIG_JOKER, BIG_JOKER))
_PRESENT = bytes.maketrans(b"\x00\x01\x02", b"011")
"""Turns a run of card counts into ASCII bits, read by ``int(..., 2)`` as a rank mask."""

Play = tuple[int, Combo]
"""A play and its power, so that a type's plays sort weakest first."""


def _windows(length: int) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """(top rank, ranks, rank bit mask) of each run of ``length`` ranks, A low first."""
    runs = []
    for top in range(length - 2, 13):
        ranks = tuple(12 if r < 0 else r for r in range(top - length + 1, top + 1))
        runs.append((top, ranks, sum(1 << r for r in ranks)))
    return tuple(runs)


_STRAIGHTS, _TUBES, _PLATES = _windows(5), _windows(3), _windows(2)


def _suit_counts_table(rank: int) -> dict[bytes, tuple[int, ...]]:
    """The cards of one rank, ascending, for each possible 4 bytes of suit counts."""
    return {
        bytes(counts): tuple(4 * rank + suit for suit in range(4) for _ in range(counts[suit]))
        for counts in product(range(COPIES + 1), repeat=4)
    }


_RANK_CARDS = tuple(_suit_counts_table(rank) for rank in range(13))


class _HandPlays:
    """The plays of one hand at one level, generated type by type on first demand."""

    __slots__ = (
        "groups",
        "level",
        "natural_counts",
        "naturals",
        "order",
        "present",
        "ranks",
        "wild",
        "wilds",
    )

    def __init__(self, counts: bytes, level: int):
        self.level = level
        self.order = LEVEL_ORDERS[level]
        self.wild = wild = kind(level, HEART)
        self.wilds = counts[wild]
        self.natural_counts = natural = counts[:wild] + b"\0" + counts[wild + 1 :]
        self.naturals = [table[natural[4 * r : 4 * r + 4]] for r, table in enumerate(_RANK_CARDS)]
        self.naturals += [(SMALL_JOKER,) * natural[SMALL_JOKER], (BIG_JOKER,) * natural[BIG_JOKER]]
        self.ranks = [len(cards) for cards in self.naturals]
        self.present = sum(1 << rank for rank in range(13) if self.ranks[rank])
        self.groups: dict[str, tuple[list[int], list[Combo]]] = {}

    def group(self, name: str) -> tuple[list[int], list[Combo]]:
        """Powers (ascending) and plays of one plain type, or of all bombs together."""
        found = self.groups.get(name)
        if found is None:
            plays = getattr(self, "_" + name)()
            plays.sort(key=itemgetter(0))
            found = self.groups[name] = ([p for p, _ in plays], [c for _, c in plays])
        return found

    def _with_wilds(self, cards: tuple[int, ...], wilds: int) -> tuple[int, ...]:
        """Natural cards (ascending) completed by ``wilds`` wild cards, sorted."""
        return tuple(sorted(cards + (self.wild,) * wilds)) if wilds else cards

    def _of_a_kind(self, name: str, size: int) -> list[Play]:
        """Singles, pairs or triples: each rank held, completed by wild cards if need be.

        The level rank counts as held when only its wild cards are (they are level cards);
        no wild card stands for a joker.
        """
        plays = []
        for rank, cards in enumerate(self.naturals):
            held = len(cards)
            if held >= size:
                chosen = cards[:size]
            elif (held or rank == self.level) and rank <= 12 and held + self.wilds >= size:
                chosen = self._with_wilds(cards, size - held)
            else:
                continue
            plays.append((self.order[rank], Combo(name, COMBO_RANK_NAMES[rank], chosen)))
        return plays

    def _single(self) -> list[Play]:
        return self._of_a_kind("single", 1)

    def _pair(self) -> list[Play]:
        return self._of_a_kind("pair", 2)

    def _triple(self) -> list[Play]:
        return self._of_a_kind("triple", 3)

    def _full_house(self) -> list[Play]:
        """A triple with a pair of another rank (art. 3.6); only the triple's rank counts.

        Two wild cards as the pair make one more pair choice per triple (the pair's rank
        is whatever they stand for and does not matter).
        """
        wilds, naturals = self.wilds, self.naturals
        pairs = [
            (rank, cards[:2], max(0, 2 - len(cards)))
            for rank, cards in enumerate(naturals)
            if len(cards) >= 2 or (cards and rank <= 12 and wilds)
        ]
        plays = []
        for triple, cards in enumerate(naturals[:13]):
            short = max(0, 3 - len(cards))
            spare = wilds - short
            if not cards or spare < 0:
                continue
            name, strength, three = COMBO_RANK_NAMES[triple], self.order[triple], cards[:3]
            for pair, two, pair_short in pairs:
                if pair_short <= spare and pair != triple:
                    both = two + three if pair < triple else three + two
                    combo = Combo("full_house", name, self._with_wilds(both, short + pair_short))
                    plays.append((strength, combo))
            if spare == 2:
                plays.append((strength, Combo("full_house", name, self._with_wilds(three, 2))))
        return plays

    def _straight(self) -> list[Play]:
        """Five consecutive ranks (art. 3.7), A high or low, the level card at its place."""
        present, naturals, plays = self.present, self.naturals, []
        for top, ranks, mask in _STRAIGHTS:
            missing = (mask & ~present).bit_count()
            if missing > self.wilds:
                continue
            picked = [naturals[rank][0] for rank in ranks if present >> rank & 1]
            if len({card & 3 for card in picked}) == 1:
                self._unflush(picked)
            cards = self._with_wilds(tuple(sorted(picked)), missing)
            plays.append((top, Combo("straight", COMBO_RANK_NAMES[top], cards)))
        return plays

    def _unflush(self, picked: list[int]) -> None:
        """Swap one card of a one-suit straight for the same rank in another suit, if held."""
        for index, card in enumerate(picked):
            other = [c for c in self.naturals[card >> 2] if (c & 3) != (card & 3)]
            if other:
                picked[index] = other[0]
                return

    def _runs(self, name: str, windows, width: int) -> list[Play]:
        """Tubes (three pairs, art. 3.3) or plates (two triples, art. 3.5)."""
        short = [max(0, width - held) for held in self.ranks]
        plays = []
        for top, ranks, _ in windows:
            need = sum(map(short.__getitem__, ranks))
            if need <= self.wilds:
                cards = sum((self.naturals[rank][:width] for rank in ranks), ())
                cards = tuple(sorted(cards + (self.wild,) * need))
                plays.append((top, Combo(name, COMBO_RANK_NAMES[top], cards)))
        return plays

    def _tube(self) -> list[Play]:
        return self._runs("tube", _TUBES, 2)

    def _plate(self) -> list[Play]:
        return self._runs("plate", _PLATES, 3)

    def _bombs(self) -> list[Play]:
        """Bombs of 4-10 cards, straight flushes, the joker bomb (art. 3, 4.2.2)."""
        plays = []
        for rank, cards in enumerate(self.naturals[:13]):
            held = len(cards)
            for size in range(4, held + self.wilds + 1 if held else 0):
                chosen = cards[:size] if size <= held else self._with_wilds(cards, size - held)
                strength = BOMB_TIERS[size] * BOMB_POWER + self.order[rank]
                plays.append((strength, Combo("bomb", COMBO_RANK_NAMES[rank], chosen)))
        plays += self._straight_flushes()
        if self.ranks[13] == 2 and self.ranks[14] == 2:
            plays.append((JOKER_BOMB_POWER, _JOKER_BOMB))
        return plays

    def _straight_flushes(self) -> list[Play]:
        """Five consecutive ranks of one suit (art. 3.9); wild cards fill any gap."""
        plays = []
        for suit in range(4):
            present = int(self.natural_counts[suit:52:4].translate(_PRESENT)[::-1], 2)
            if present.bit_count() + self.wilds < 5:
                continue
            for top, ranks, mask in _STRAIGHTS:
                missing = (mask & ~present).bit_count()
                if missing <= self.wilds:
                    picked = sorted(4 * rank + suit for rank in ranks if present >> rank & 1)
                    cards = self._with_wilds(tuple(picked), missing)
                    combo = Combo("straight_flush", COMBO_RANK_NAMES[top], cards)
                    plays.append((STRAIGHT_FLUSH_TIER * BOMB_POWER + top, combo))
        return plays


@lru_cache(maxsize=64)
def _plays(counts: bytes, level: int) -> _HandPlays:
    """The hand's plays, cached by its count bytes: a seat follows several times per lead."""
    if max(counts) > COPIES:
        raise NotationError(f"a hand holds at most {COPIES} of each card: counts {list(counts)}")
    return _HandPlays(counts, check_level(level))


def _hand_plays(hand: np.ndarray, level: int) -> _HandPlays:
    counts = np.asarray(hand, dtype=np.uint8)
    if counts.shape != (KINDS,):
        raise NotationError(f"a hand is 54 kind counts, got an array of shape {counts.shape}")
    return _plays(counts.tobytes(), level)


def legal_leads(hand: np.ndarray, level: int) -> list[Combo]:
    """Every combination the hand can lead (art. 8.1.1), plain types first, then bombs.

    Within a type plays come weakest first. See the module docstring for which cards are
    chosen for each play.
    """
    plays = _hand_plays(hand, level)
    leads: list[Combo] = []
    for name in (*_PLAIN_TYPES, _BOMBS):
        leads += plays.group(name)[1]
    return leads


def legal_follows(hand: np.ndarray, level: int, previous: Combo) -> list[Combo]:
    """The plays of the hand that beat ``previous`` (art. 4.2), weakest first, bombs last."""
    plays = _hand_plays(hand, level)
    strength = power(previous, level)
    follows: list[Combo] = []
    if not previous.is_bomb:
        powers, combos = plays.group(previous.type)
        follows += combos[bisect_right(powers, strength) :]
    powers, combos = plays.group(_BOMBS)
    follows += combos[bisect_right(powers, strength) :]
    return follows
