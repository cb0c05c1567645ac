"""Tribute before boards 2..k of a set: 进贡, 还牌 and 抗贡 (seed 000 art. 10).

Pure functions over hands given as 54 counts (one row per seat, N E S W). The finishing
order of the previous board at the table decides who pays whom; the level of the board about
to be played decides which card is "largest".

Decisions where the seed leaves room (documented in docs/simulation.md):

* "Largest card" (art. 10.2) is in single-card order at the new board's level (art. 4.1):
  RJ > BJ > level card > A > K > ... > 2. The heart level card is never paid. Cards of the
  same rank but different suits are equally large; the payer chooses among them.
* A return card (art. 10.2) must have a face value of 2..10; the level card counts by its
  face (at level 5 a 5 may be returned, the heart 5 included). When every card is higher
  than 10 any card may be returned, as issue 5 states the rule (the seed's text names the
  smallest; returning it is of course accepted).
* 抗贡 (art. 10.4): in a single tribute the 下游 alone must hold both big jokers; in a
  double tribute the 双下 side holds them between them (one each or both in one hand).
* Equal double tribute (art. 10.3, "按顺时针方向进贡"): each payer gives to the winner
  clockwise from them (their 上家, ``Seat(s + 1)``), and receives that winner's return.
* The first lead (art. 10.2-10.4): the payer in a single tribute, the one who paid the 上游 in
  a double tribute, the 上游 after 抗贡.

>>> from guandan_dup.seats import Seat
>>> plan_tribute((Seat.N, Seat.W, Seat.S, Seat.E))
Tribute(payers=(<Seat.E: 1>,), receivers=(<Seat.N: 0>,))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..cards import BIG_JOKER, HEART, KINDS, card_to_text, kind, rank_of
from ..errors import IllegalPlayError
from ..seats import Seat
from .combos import LEVEL_ORDERS

HIGHEST_RETURN_RANK = 8
"""Rank index of "10": a return card has a face value of at most 10 (art. 10.2)."""
_KIND_RANKS = np.array([rank_of(card) for card in range(KINDS)])


@dataclass(frozen=True)
class Tribute:
    """Who owes tribute to whom after a board: one payer (单贡) or two (双贡)."""

    payers: tuple[Seat, ...]
    receivers: tuple[Seat, ...]

    @property
    def double(self) -> bool:
        return len(self.payers) == 2


@dataclass(frozen=True)
class Step:
    """One card handed over: ``action`` is ``"tribute"`` or ``"return"``."""

    action: str
    seat: Seat
    card: int
    to: Seat


@dataclass(frozen=True)
class Exchange:
    """The outcome of the tribute phase: hands after it, the steps taken, who leads."""

    hands: np.ndarray
    steps: tuple[Step, ...]
    leader: Seat
    resisted: bool


Chooser = Callable[[Seat, str, tuple[int, ...], np.ndarray], int]
"""``choose(seat, action, options, hand_counts) -> card``: a seat picks among legal cards."""


def single_strength(level: int) -> np.ndarray:
    """Strength of each kind as a single card at ``level`` (art. 4.1): 2 is 0, RJ is 15.

    The rank order of plays (``combos.LEVEL_ORDERS``) spread over the 54 kinds, so that
    tribute and play can never disagree on which card is larger.
    """
    return np.asarray(LEVEL_ORDERS[level])[_KIND_RANKS]


def plan_tribute(finish: Sequence[Seat]) -> Tribute:
    """Who pays whom after a board with this full finishing order (art. 10.2, 10.3)."""
    first, second, third, last = finish
    if second == first.partner:
        return Tribute(payers=(third, last), receivers=(first, second))
    return Tribute(payers=(last,), receivers=(first,))


def resists(hands: np.ndarray, tribute: Tribute) -> bool:
    """抗贡 (art. 10.4): the paying seats hold both big jokers between them."""
    return sum(int(hands[seat, BIG_JOKER]) for seat in tribute.payers) == 2


def tribute_options(hand: np.ndarray, level: int) -> tuple[int, ...]:
    """The cards a payer may give: every kind of the largest rank held, bar the heart level."""
    held = hand.astype(bool)
    held[kind(level, HEART)] = False
    if not held.any():
        raise IllegalPlayError("a hand of heart level cards only cannot pay tribute")
    strength = np.where(held, single_strength(level), -1)
    return tuple(int(c) for c in np.flatnonzero(strength == strength.max()))


def return_options(hand: np.ndarray, level: int) -> tuple[int, ...]:
    """The cards a receiver may return: face value 2..10, else any card.

    Seed 000 art. 10.2 asks for the smallest card when every card is above 10; issue 5 (the
    product's contract) allows any card then. Accepting any card also accepts every log that
    follows the seed; the bots return their lowest card anyway.
    """
    held = hand.astype(bool)
    low = held.copy()
    low[(HIGHEST_RETURN_RANK + 1) * 4 :] = False
    return tuple(int(c) for c in np.flatnonzero(low if low.any() else held))


def _first_option(seat: Seat, action: str, options: tuple[int, ...], hand: np.ndarray) -> int:
    """The default chooser: any legal card will do when nobody's choice is being modelled."""
    return options[0]


def _hand_over(hands: np.ndarray, step: Step) -> None:
    """Move one card between two hands (4 x 54 counts), in place."""
    hands[step.seat, step.card] -= 1
    hands[step.to, step.card] += 1


_RULE = {
    "tribute": "art. 10.2: the largest card but the heart level card",
    "return": "art. 10.2: a card of 10 or lower (any card when all are higher)",
}


def _choose(choose: Chooser, seat: Seat, action: str, options: tuple[int, ...],
            hand: np.ndarray) -> int:
    """Ask ``choose`` for a card (showing it a copy of the hand) and check it is an option."""
    card = choose(seat, action, options, hand.copy())
    if card not in options:
        allowed = " ".join(card_to_text(c) for c in options)
        raise IllegalPlayError(
            f"{seat.to_text()} may not {action} {card_to_text(card)!r}: "
            f"expected one of {allowed} ({_RULE[action]})"
        )
    return card


def _receivers_of(tribute: Tribute, paid: dict[Seat, int], level: int) -> dict[Seat, Seat]:
    """Map payer -> receiver: the larger card goes to the 上游 (art. 10.3)."""
    if not tribute.double:
        return {tribute.payers[0]: tribute.receivers[0]}
    strength = single_strength(level)
    a, b = tribute.payers
    if strength[paid[a]] == strength[paid[b]]:
        return {a: Seat((a + 1) % 4), b: Seat((b + 1) % 4)}
    big, small = (a, b) if strength[paid[a]] > strength[paid[b]] else (b, a)
    return {big: tribute.receivers[0], small: tribute.receivers[1]}


def exchange(
    hands: np.ndarray,
    finish: Sequence[Seat],
    level: int,
    choose: Chooser = _first_option,
) -> Exchange:
    """Run the tribute phase on dealt ``hands`` (4 x 54 counts) after a board ending ``finish``.

    ``choose`` picks each card among the legal options (a bot or a replayed log); a choice
    outside the options raises ``IllegalPlayError``. The input array is not modified.
    """
    tribute = plan_tribute(finish)
    hands = np.array(hands, dtype=np.uint8)
    if resists(hands, tribute):
        return Exchange(hands, (), tribute.receivers[0], resisted=True)
    paid: dict[Seat, int] = {}
    for payer in tribute.payers:
        options = tribute_options(hands[payer], level)
        paid[payer] = _choose(choose, payer, "tribute", options, hands[payer])
    receiver_of = _receivers_of(tribute, paid, level)
    steps = [Step("tribute", payer, paid[payer], receiver_of[payer]) for payer in tribute.payers]
    for step in steps:
        _hand_over(hands, step)
    for payer in tribute.payers:
        receiver = receiver_of[payer]
        options = return_options(hands[receiver], level)
        step = Step("return", receiver, _choose(choose, receiver, "return", options,
                                                hands[receiver]), payer)
        _hand_over(hands, step)
        steps.append(step)
    leader = next(p for p in tribute.payers if receiver_of[p] == tribute.receivers[0])
    return Exchange(hands, tuple(steps), leader, resisted=False)
