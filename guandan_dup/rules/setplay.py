"""A set of k boards at one table: tribute, play, levels (SPEC 4, seed 000 art. 7, 10, 12).

The rules decide everything here except the choices, which come from a :class:`Players`
object: bots in the simulator, the recorded log in the replay validator. That way there is
one set loop, and a log is legal exactly when the simulator's own loop accepts it.

Board 1 is led by the board set's leader (East unless configured, art. 7.2); each later board
starts with tribute on the new deal (art. 10) after the previous board's finishing order at
this table, at the level of the next board (``SetState.board_level``), and is led by whoever
the tribute names. The set ends after its boards or as soon as a side passes A.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ..errors import IllegalPlayError
from ..seats import Seat
from .board import PASS, Action, BoardState, apply
from .combos import Combo
from .progression import SetState, apply_board
from .tribute import exchange

TRIBUTE_TRICK = 0
"""Trick number given to tribute and return steps in the move list (play starts at 1)."""


@dataclass(frozen=True, slots=True)
class Move:
    """One step of a board: ``action`` is "tribute", "return", "play" or "pass"."""

    trick: int
    seat: Seat
    action: str
    cards: tuple[int, ...]
    combo: Combo | None = None


@dataclass(frozen=True)
class BoardRecord:
    """A played board: its number, level, leader after tribute, steps and finishing order."""

    board: int
    level: int
    leader: Seat
    moves: tuple[Move, ...]
    finish: str


@dataclass(frozen=True)
class SetRecord:
    """The boards played (fewer than dealt when a side passed A) and the final levels."""

    boards: tuple[BoardRecord, ...]
    state: SetState


class Players(Protocol):
    """The four seats' decisions; ``board`` is the board number being played."""

    def tribute(
        self, board: int, level: int, seat: Seat, action: str, options: tuple[int, ...],
        hand: np.ndarray,
    ) -> int:
        """The card ``seat`` pays ("tribute") or gives back ("return") among ``options``."""

    def act(self, board: int, state: BoardState, moves: Sequence[Move]) -> Action:
        """The action of ``state.turn``; ``moves`` are the board's steps so far."""


def play_board(
    board: int, hands: np.ndarray, level: int, leader: Seat, players: Players,
    moves: list[Move],
) -> BoardState:
    """Play one board from its first lead to the end, appending each step to ``moves``."""
    state = BoardState.deal(hands, level, leader)
    while not state.over:
        trick, seat = state.trick, state.turn
        try:
            action = players.act(board, state, moves)
            state = apply(state, action)
        except IllegalPlayError as error:
            raise IllegalPlayError(f"board {board}, trick {trick}: {error}") from None
        if action is PASS:
            moves.append(Move(trick, seat, "pass", ()))
        else:
            moves.append(Move(trick, seat, "play", tuple(action.cards), state.last))
    return state


def _tribute_phase(
    board: int, hands: np.ndarray, finish: tuple[Seat, ...], level: int, players: Players,
    moves: list[Move],
) -> tuple[np.ndarray, Seat]:
    def choose(seat: Seat, action: str, options: tuple[int, ...], hand: np.ndarray) -> int:
        return players.tribute(board, level, seat, action, options, hand)

    try:
        result = exchange(hands, finish, level, choose)
    except IllegalPlayError as error:
        raise IllegalPlayError(f"board {board}, tribute: {error}") from None
    moves.extend(Move(TRIBUTE_TRICK, s.seat, s.action, (s.card,)) for s in result.steps)
    return result.hands, result.leader


def play_set(
    boards: Sequence[int],
    deals: np.ndarray,
    first_leader: Seat,
    players: Players,
    start: tuple[int, int] = (0, 0),
    three_failures_reset: bool = False,
) -> SetRecord:
    """Play the set's boards (numbers ``boards``, hands ``deals`` as k x 4 x 54 counts)."""
    state = SetState.start(*start)
    records: list[BoardRecord] = []
    finish: tuple[Seat, ...] = ()
    for board, hands in zip(boards, deals, strict=True):
        if state.ended:
            break
        level, leader, moves = state.board_level, first_leader, []
        if records:
            hands, leader = _tribute_phase(board, hands, finish, level, players, moves)
        end = play_board(board, hands, level, leader, players, moves)
        finish = end.finish()
        records.append(BoardRecord(board, level, leader, tuple(moves), end.finish_text()))
        state = apply_board(state, finish, three_failures_reset)
    return SetRecord(tuple(records), state)
