"""Bots: a random legal player and a heuristic one that plays the way a club player would.

Both are deterministic given their seed, so a simulated event is reproducible.

The heuristic bot scores each legal play by how much it spends (its power at the level) and
what it breaks (cards taken from a rank it holds more of, the wild heart level card, a rank
that is a bomb), then:

* goes out whenever a play empties its hand;
* leads the cheapest plain combination, preferring to shed several cards at once, and leads
  singles/pairs that suit a partner about to go out;
* lets a partner's winning play stand;
* beats an opponent with the cheapest plain play that breaks little, and keeps its bombs for
  an opponent close to going out or for its own last few cards.
"""

from __future__ import annotations

import random

import numpy as np

from ..cards import HEART, kind, rank_of
from ..rules.board import PASS, Action
from ..rules.combos import Combo, power
from .view import View

BOMB_PENALTY = 100
"""Cost of spending a bomb's cards on a plain play (or of playing a bomb at all)."""
WILD_PENALTY = 30
"""Cost of using the wild heart level card in a plain play."""
BREAK_PENALTY = 4
"""Cost per rank the play takes only part of (a pair split for a single, a triple for a pair)."""
SHED_BONUS = 2
"""Value of each card shed beyond the first when leading."""
HELP_BONUS = 20
"""Value of leading a single (pair) to a partner who holds one card (two)."""
LONGEST_PLAY = 10
"""No combination has more cards (a ten-card bomb): a longer hand cannot go out in one play."""
DANGER = 6
"""An opponent holding at most this many cards is close to going out: bombs come out."""


class RandomBot:
    """Picks uniformly among the legal actions (passes included) and tribute options."""

    def __init__(self, seed: int | str):
        self.rng = random.Random(seed)

    def __call__(self, view: View) -> Action:
        return self.rng.choice(view.legal_actions())

    def give(self, action: str, options: tuple[int, ...], hand: np.ndarray, level: int) -> int:
        """Any legal tribute or return card: the rules already narrowed ``options``."""
        return self.rng.choice(options)


def random_bot(seed: int | str) -> RandomBot:
    """A legal random player, reproducible from ``seed``."""
    return RandomBot(seed)


def _rank_counts(hand: np.ndarray, level: int) -> list[int]:
    """Cards held per rank 0..14, the wild heart level cards left out."""
    natural = hand.astype(np.int16)
    natural[kind(level, HEART)] = 0
    return [*natural[:52].reshape(13, 4).sum(axis=1).tolist(), *natural[52:].tolist()]


class HeuristicBot:
    """A sensible player (see the module docstring); deterministic, no search."""

    def __call__(self, view: View) -> Action:
        held = view.cards_left[view.seat]
        partner_wins = not view.leading and view.last_seat == view.partner
        if partner_wins and held > LONGEST_PLAY:
            return PASS
        actions = view.legal_actions()
        for action in actions:
            if action is not PASS and len(action.cards) == held:
                return action
        plays = [a for a in actions if a is not PASS]
        if partner_wins or not plays:
            return PASS
        counts, wild = _rank_counts(view.hand, view.level), kind(view.level, HEART)
        costs = [_cost(c, view.level, counts, wild) for c in plays]
        if view.leading:
            costs = _lead_costs(plays, costs, view)
        best = min(range(len(plays)), key=costs.__getitem__)
        if view.leading or costs[best] < BOMB_PENALTY or _danger(view):
            return plays[best]
        return PASS

    def give(self, action: str, options: tuple[int, ...], hand: np.ndarray, level: int) -> int:
        """Pay any suit; return the lowest card whose rank is held singly, if possible."""
        if action == "tribute":
            return options[0]
        counts = _rank_counts(hand, level)
        singles = [c for c in options if counts[rank_of(c)] == 1]
        return min(singles or options, key=rank_of)


def _danger(view: View) -> bool:
    """An opponent near the end, or so few cards of ours that a bomb wins the race."""
    opponents = (view.seat.next, view.partner.next)
    return (
        any(0 < view.cards_left[s] <= DANGER for s in opponents)
        or view.cards_left[view.seat] <= DANGER
    )


def _cost(combo: Combo, level: int, counts: list[int], wild: int) -> int:
    """Power spent plus what the play breaks; bombs cost BOMB_PENALTY extra."""
    cost = power(combo, level)
    if combo.is_bomb:
        return cost + BOMB_PENALTY
    used: dict[int, int] = {}
    for card in combo.cards:
        if card == wild:
            cost += WILD_PENALTY
        else:
            rank = rank_of(card)
            used[rank] = used.get(rank, 0) + 1
    for rank, count in used.items():
        if counts[rank] >= 4:
            cost += BOMB_PENALTY
        elif counts[rank] > count:
            cost += BREAK_PENALTY
    return cost


def _lead_costs(plays: list[Combo], costs: list[int], view: View) -> list[int]:
    """Leads that shed several cards, or suit a partner about to go out, cost less."""
    partner = view.partner
    partner_holds = 0 if partner in view.finished else view.cards_left[partner]
    return [
        cost - SHED_BONUS * (len(c.cards) - 1)
        - (HELP_BONUS if len(c.cards) == partner_holds <= 2 else 0)
        for cost, c in zip(costs, plays, strict=True)
    ]


def heuristic_bot() -> HeuristicBot:
    """The heuristic player; it has no randomness, so it needs no seed."""
    return HeuristicBot()


class ErraticBot:
    """The heuristic player, who blunders: with probability ``error`` any legal action.

    Simulated players differ by their error rate, so a simulated event separates them the
    way a real one separates stronger and weaker players.
    """

    def __init__(self, error: float, seed: int | str):
        self.error = error
        self.careful = HeuristicBot()
        self.rng = random.Random(seed)

    def __call__(self, view: View) -> Action:
        if self.rng.random() < self.error:
            return self.rng.choice(view.legal_actions())
        return self.careful(view)

    def give(self, action: str, options: tuple[int, ...], hand: np.ndarray, level: int) -> int:
        return self.careful.give(action, options, hand, level)
