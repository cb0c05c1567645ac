"""Replay a recorded set against its deals and report the first illegal step.

The log's steps drive the very loop the simulator uses (:func:`setplay.play_set`), so a log
is legal exactly when every step is one the rules allow at that point: the right seat, the
right trick, cards the seat holds, a combination that beats the play before it, the tribute
and return cards art. 10 asks for, and no step missing or left over.

A recorded play is read as the rules count it (``board.reading_of``): its strongest reading
that beats the play before it (when leading, its strongest reading).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..cards import format_cards
from ..errors import IllegalPlayError
from ..seats import Seat
from .board import PASS, Action, BoardState, reading_of
from .setplay import TRIBUTE_TRICK, Move, SetRecord, play_set


@dataclass(frozen=True)
class LogStep:
    """One recorded step: ``row`` is its position in the log file (for messages)."""

    row: int
    board: int
    trick: int
    seat: Seat
    action: str
    cards: tuple[int, ...]


class IllegalStepError(IllegalPlayError):
    """The first illegal step of a log, with where it happened and why."""

    def __init__(self, step: LogStep | None, board: int, reason: str):
        self.step, self.board, self.reason = step, board, reason
        where = f"row {step.row}: " if step is not None else ""
        super().__init__(f"{where}{reason}")


class LogPlayers:
    """Answers the set loop's questions from the log, checking each step's place first."""

    def __init__(self, steps: Sequence[LogStep]):
        self.steps = list(steps)
        self.position = 0
        self.current: LogStep | None = None
        """The step being checked (``None`` once the log has run out)."""
        self.board = 0
        """The board the rules are at."""

    def _next(self, board: int, seat: Seat, trick: int, actions: tuple[str, ...]) -> LogStep:
        """The log's next step, checked against where the rules are: board, seat, trick and
        kind of action. Whether its cards are legal is left to the set loop, which checks a
        logged step exactly as it checks a bot's."""
        self.board, self.current = board, None
        if self.position == len(self.steps):
            raise IllegalPlayError(
                f"the log ends here: {seat.to_text()} is to {' or '.join(actions)}"
            )
        step = self.current = self.steps[self.position]
        self.position += 1
        expected = f"{seat.to_text()} to {' or '.join(actions)} in trick {trick} of board {board}"
        if step.board != board:
            raise IllegalPlayError(f"a step of board {step.board} where the rules expect "
                                   f"{expected}")
        if step.seat != seat:
            raise IllegalPlayError(f"{step.seat.to_text()} acts out of turn: the rules expect "
                                   f"{expected}")
        if step.action not in actions or step.trick != trick:
            raise IllegalPlayError(f"{step.seat.to_text()} records {step.action!r} in trick "
                                   f"{step.trick}: the rules expect {expected}")
        return step

    def tribute(
        self, board: int, level: int, seat: Seat, action: str, options: tuple[int, ...],
        hand: np.ndarray,
    ) -> int:
        step = self._next(board, seat, TRIBUTE_TRICK, (action,))
        if len(step.cards) != 1:
            raise IllegalPlayError(f"{seat.to_text()} hands over {format_cards(step.cards)!r}: "
                                   f"a {action} is exactly one card (art. 10)")
        return step.cards[0]

    def act(self, board: int, state: BoardState, moves: Sequence[Move]) -> Action:
        actions = ("play",) if state.leading else ("play", "pass")
        step = self._next(board, state.turn, state.trick, actions)
        if step.action == "pass":
            if step.cards:
                raise IllegalPlayError(f"{step.seat.to_text()} passes but the log records "
                                       f"cards {format_cards(step.cards)!r}")
            return PASS
        return reading_of(step.cards, state)


def replay_set(
    steps: Sequence[LogStep],
    boards: Sequence[int],
    deals: np.ndarray,
    first_leader: Seat,
    start: tuple[int, int] = (0, 0),
    three_failures_reset: bool = False,
) -> SetRecord:
    """Replay one set's steps (in log order); ``IllegalStepError`` at the first bad step."""
    players = LogPlayers(steps)
    try:
        record = play_set(boards, deals, first_leader, players, start, three_failures_reset)
    except IllegalPlayError as error:
        raise IllegalStepError(players.current, players.board, str(error)) from None
    if players.position < len(steps):
        extra = steps[players.position]
        raise IllegalStepError(
            extra, extra.board,
            f"a step after the end of the set (its last board was {record.boards[-1].board})",
        )
    return record
