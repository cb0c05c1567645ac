"""One table playing one set with four bots: board-level results rows and play-log rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..rules.board import Action, BoardState
from ..rules.setplay import Move, SetRecord, play_set
from ..seats import Seat
from .playlog import set_rows
from .view import Bot, View


class SeatedBots:
    """Four bots in seats N, E, S, W, answering the set loop's questions (``Players``)."""

    def __init__(self, bots: Sequence[Bot]):
        self.bots = tuple(bots)

    def tribute(
        self, board: int, level: int, seat: Seat, action: str, options: tuple[int, ...],
        hand: np.ndarray,
    ) -> int:
        return self.bots[seat].give(action, options, hand, level)

    def act(self, board: int, state: BoardState, moves: Sequence[Move]) -> Action:
        return self.bots[state.turn](View.of(state, moves))


@dataclass(frozen=True)
class Sitting:
    """Where a set is played and by whom: players are ids in seat order N, E, S, W."""

    round: int
    group: int
    table: int
    set: int
    players: tuple[str, str, str, str]


def play_sitting(
    sitting: Sitting,
    bots: Sequence[Bot],
    boards: Sequence[int],
    deals: np.ndarray,
    first_leader: Seat = Seat.E,
    three_failures_reset: bool = False,
) -> tuple[list[tuple], list[tuple], SetRecord]:
    """Play a set at a table; return its results rows, log rows and the set record.

    ``deals`` are the set's hands as k x 4 x 54 counts, ``bots`` in seat order.
    """
    record = play_set(boards, deals, first_leader, SeatedBots(bots),
                      three_failures_reset=three_failures_reset)
    where = (sitting.round, sitting.group, sitting.table, sitting.set)
    results = [(*where, played.board, *sitting.players, played.finish)
               for played in record.boards]
    return results, set_rows(record, *where), record
