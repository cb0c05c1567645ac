"""The play of one board: turns, tricks, 借风, finishing order (seed 000 art. 8 and 9).

A :class:`BoardState` is an immutable value: :func:`apply` returns a new state and never
touches the old one, so bots, the simulator and the replay validator can keep states around
without defensive copies. The only sizeable field is the 4 x 54 count array; ``apply`` copies
it (216 bytes) and marks the copy read-only, which keeps a move at a few microseconds.
States are built positionally in the hot path (``dataclasses.replace`` costs more than the
rest of a pass).

An action is a :class:`~guandan_dup.rules.combos.Combo` (a play with its declared reading,
art. 5.2) or ``PASS`` (``None``). Cards with several readings (only with wild cards) count as
their strongest reading that may be played (:func:`reading_of`), whatever reading was
declared, so a play log that records only the cards replays exactly.

Flow (art. 8.1): play goes counter-clockwise among the seats still holding cards. A trick ends
when every other seat still in has passed after the last play; its last player leads the next
trick, or, if that player has gone out, their partner does (借风, art. 9). The board ends when
three players have gone out, or at once when partners take 1st and 2nd (双下, art. 8.1.4).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..cards import format_cards
from ..errors import IllegalPlayError
from ..seats import Seat
from .combos import Combo, classify
from .compare import beats
from .moves import legal_follows, legal_leads

PASS = None
"""The pass action (过牌, art. 8.1.2)."""

Action = Combo | None

_NEXT = tuple(seat.next for seat in Seat)
_PARTNER = tuple(seat.partner for seat in Seat)


@dataclass(frozen=True, slots=True)
class BoardState:
    """Everything the rules need between two actions of a board.

    ``last``/``last_seat`` are the current trick's last play and who made it (``None`` when
    the seat to move leads); ``waiting`` counts the seats still in that have not yet answered
    that play; ``finished`` lists the seats that have gone out, in order; ``trick`` counts
    tricks from 1; ``held`` is the number of cards each seat holds (public: anyone can count
    them, and art. 11 has them announced from 10 down).
    """

    hands: np.ndarray
    level: int
    turn: Seat
    held: tuple[int, ...]
    last: Combo | None = None
    last_seat: Seat | None = None
    waiting: int = 0
    finished: tuple[Seat, ...] = ()
    trick: int = 1

    @classmethod
    def deal(cls, hands: np.ndarray, level: int, leader: Seat) -> BoardState:
        """The state before the first lead: ``hands`` are 4 x 54 counts (N E S W)."""
        counts = np.array(hands, dtype=np.uint8)
        if counts.shape != (4, 54):
            raise IllegalPlayError(f"a board needs 4 hands of 54 counts, got {counts.shape}")
        counts.flags.writeable = False
        held = tuple(counts.sum(axis=1, dtype=np.int64).tolist())
        return cls(hands=counts, level=level, turn=Seat(leader), held=held)

    @property
    def over(self) -> bool:
        """Three players out, or partners 1st and 2nd (双下)."""
        return _over(self.finished)

    @property
    def leading(self) -> bool:
        return self.last is None

    def in_play(self, seat: Seat) -> bool:
        return seat not in self.finished

    def finish(self) -> tuple[Seat, ...]:
        """The full finishing order of a finished board (双下: the losers in seat order)."""
        if not self.over:
            raise IllegalPlayError("the board is not over yet")
        return self.finished + tuple(s for s in Seat if s not in self.finished)

    def finish_text(self) -> str:
        """The finishing order as written on a score sheet: 2 letters for 双下, else 4."""
        seats = self.finished if len(self.finished) == 2 else self.finish()
        return "".join(s.to_text() for s in seats)

    def next_seat(self, seat: Seat) -> Seat:
        """The next seat after ``seat`` (counter-clockwise) that still holds cards."""
        return _next_in(seat, self.finished)


def _over(finished: tuple[Seat, ...]) -> bool:
    """``BoardState.over`` from the finishers alone, so ``apply`` can decide before building."""
    return len(finished) >= 3 or (len(finished) == 2 and finished[1] == _PARTNER[finished[0]])


def _next_in(seat: Seat, finished: tuple[Seat, ...]) -> Seat:
    """``BoardState.next_seat`` from the finishers alone (for ``apply``, as ``_over``)."""
    seat = _NEXT[seat]
    while seat in finished:
        seat = _NEXT[seat]
    return seat


def legal_actions(state: BoardState) -> list[Action]:
    """Every legal action of the seat to move: leads, or follows that beat the last play and
    ``PASS``. Empty once the board is over."""
    if state.over:
        return []
    return actions_of(state.hands[state.turn], state.level, state.last)


def actions_of(hand: np.ndarray, level: int, last: Combo | None) -> list[Action]:
    """Leads when ``last`` is ``None``, else the follows that beat it and ``PASS``.

    Takes only what the seat to move can see, so a bot's view lists the very same actions
    as the rules without being handed the other hands.
    """
    if last is None:
        return list(legal_leads(hand, level))
    return [*legal_follows(hand, level, last), PASS]


def _after_pass(state: BoardState) -> BoardState:
    """A pass: the next seat answers, or, when it was the last answer owed, the trick ends.

    The trick's last player leads the next one; if that player has gone out, the lead
    passes to their partner (借风, art. 9), who is still in or the board would be over.
    """
    if state.leading:
        raise IllegalPlayError(f"{state.turn.to_text()} leads this trick and may not pass")
    if state.waiting > 1:
        return BoardState(state.hands, state.level, state.next_seat(state.turn), state.held,
                          state.last, state.last_seat, state.waiting - 1, state.finished,
                          state.trick)
    winner = state.last_seat
    leader = winner if state.in_play(winner) else _PARTNER[winner]
    return BoardState(state.hands, state.level, leader, state.held, None, None, 0,
                      state.finished, state.trick + 1)


@lru_cache(maxsize=8192)
def _readings(cards: tuple[int, ...], level: int) -> tuple[Combo, ...]:
    """``classify`` remembered: the same small plays recur on board after board."""
    return tuple(classify(cards, level))


def reading_of(cards: tuple[int, ...], state: BoardState) -> Combo:
    """What a play of ``cards`` counts as: its strongest reading that may be played now.

    Leading, that is the strongest reading; following, the strongest one that beats the last
    play (art. 5.2 lets the player declare a reading; declaring a weaker one never helps).
    Raises ``IllegalPlayError`` if the cards form no combination or none that beats.
    """
    readings = _readings(tuple(cards), state.level)
    if not readings:
        raise IllegalPlayError(f"{state.turn.to_text()} plays {format_cards(cards)!r}, which "
                               "is not a combination (art. 3)")
    if state.leading:
        return readings[0]
    for combo in readings:
        if beats(combo, state.last, state.level):
            return combo
    raise IllegalPlayError(
        f"{state.turn.to_text()} plays {format_cards(cards)!r} ({readings[0].type}), which "
        f"does not beat the last play {format_cards(state.last.cards)!r} ({state.last.type}) "
        "(art. 4, art. 8.1.1)"
    )


def _check_play(state: BoardState, combo: Combo) -> tuple[np.ndarray, Combo]:
    """The mover's hand after ``combo`` and the reading it counts as; raises
    ``IllegalPlayError`` saying why the play is illegal."""
    hand = state.hands[state.turn]
    used = np.bincount(combo.cards, minlength=len(hand))
    if len(used) > len(hand) or (used > hand).any():
        raise IllegalPlayError(f"{state.turn.to_text()} plays {format_cards(combo.cards)!r} "
                               "but does not hold all of these cards")
    if combo not in _readings(tuple(combo.cards), state.level):
        raise IllegalPlayError(f"{state.turn.to_text()} plays {format_cards(combo.cards)!r}, "
                               f"which is not a {combo.type} (art. 3)")
    counted = reading_of(combo.cards, state)
    if not state.leading and not beats(combo, state.last, state.level):
        raise IllegalPlayError(
            f"{state.turn.to_text()} plays {format_cards(combo.cards)!r} as a {combo.type} "
            f"{combo.rank}, which does not beat the last play (art. 4, art. 8.1.1)"
        )
    return (hand - used).astype(np.uint8), counted


def apply(state: BoardState, action: Action) -> BoardState:
    """The state after the seat to move takes ``action``; ``IllegalPlayError`` if it may not."""
    if state.over:
        raise IllegalPlayError("the board is over: nobody may play")
    if action is PASS:
        return _after_pass(state)
    hand, action = _check_play(state, action)
    hands = state.hands.copy()
    seat = state.turn
    hands[seat] = hand
    hands.flags.writeable = False
    held = list(state.held)
    held[seat] -= len(action.cards)
    out = held[seat] == 0
    finished = state.finished + (seat,) if out else state.finished
    if _over(finished):
        turn, waiting = seat, 0
    else:  # every other seat still in owes an answer
        turn, waiting = _next_in(seat, finished), 4 - len(finished) - (not out)
    return BoardState(hands, state.level, turn, tuple(held), action, seat, waiting, finished,
                      state.trick)
