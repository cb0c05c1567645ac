"""What one seat can see during a board, and the bot interface built on it.

A bot never receives the :class:`~guandan_dup.rules.board.BoardState` (which holds every
hand): it gets a :class:`View` with its own hand, the public course of the board and the card
counts everyone can see, so a bot cannot cheat by construction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ..rules.board import Action, BoardState, actions_of
from ..rules.combos import Combo
from ..rules.setplay import Move
from ..seats import Seat


@dataclass(frozen=True, slots=True)
class View:
    """One seat's view before it acts.

    ``last``/``last_seat``: the play to beat and who made it (``None`` when leading);
    ``cards_left``: cards held by N, E, S, W; ``moves``: the board's steps so far (tribute
    included, trick 0).
    """

    seat: Seat
    hand: np.ndarray
    level: int
    last: Combo | None
    last_seat: Seat | None
    cards_left: tuple[int, ...]
    finished: tuple[Seat, ...]
    trick: int
    moves: Sequence[Move]

    @classmethod
    def of(cls, state: BoardState, moves: Sequence[Move]) -> View:
        return cls(
            seat=state.turn,
            hand=state.hands[state.turn],
            level=state.level,
            last=state.last,
            last_seat=state.last_seat,
            cards_left=state.held,
            finished=state.finished,
            trick=state.trick,
            moves=moves,
        )

    @property
    def partner(self) -> Seat:
        return self.seat.partner

    @property
    def leading(self) -> bool:
        return self.last is None

    def legal_actions(self) -> list[Action]:
        """Leads, or follows that beat ``last`` plus ``PASS`` (same as the rules' list)."""
        return actions_of(self.hand, self.level, self.last)


class Bot(Protocol):
    """A player: ``bot(view)`` is its action; ``bot.give(...)`` its tribute/return card."""

    def __call__(self, view: View) -> Action:
        """The action to take; must be one of ``view.legal_actions()``."""

    def give(self, action: str, options: tuple[int, ...], hand: np.ndarray, level: int) -> int:
        """The card to pay (``action="tribute"``) or return (``"return"``) among ``options``."""
