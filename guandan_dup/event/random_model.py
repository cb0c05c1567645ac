"""A fast stand-in for real play: board-level finishing orders from hidden player strengths.

The simulator's bots play every card (``guandan_dup.sim``, used by ``demo``); when only the
results matter, as in most tests of the event folder, this model gives results that look like
a tournament's in a fraction of the time: better players finish earlier more often, so the
standings separate them. Each
player gets a hidden strength (a normal draw from the model's seed); a board's finishing
order is a Plackett-Luce draw (Gumbel trick: sort strength + Gumbel noise), and the set is
played out with the real level rules until its k boards are done or a side passes A.

It is a *play function*: ``model(folder, round_no) -> DataFrame`` giving a board-level
results file (SPEC 5) for every table of the round. Any function with that signature, such
as one that plays the boards with the simulator, can replace it in ``rehearse``.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pandas as pd

from ..rules.progression import SetState, apply_board
from ..seats import SEAT_COLUMNS, Seat
from .folder import EventFolder

RESULT_COLUMNS = ("round", "group", "table", "set", "board", *SEAT_COLUMNS, "finish")


def results_frame(rows: list[tuple]) -> pd.DataFrame:
    """Board-level results (SPEC 5) from row tuples: int64 numbers, str players and finishes."""
    frame = pd.DataFrame(rows, columns=list(RESULT_COLUMNS))
    types = dict.fromkeys(RESULT_COLUMNS[:5], "int64") | dict.fromkeys(RESULT_COLUMNS[5:], "str")
    return frame.astype(types)


def table_sets(folder: EventFolder, round_no: int) -> Iterator[tuple[dict, int]]:
    """Each (seating row, set) the round plays: per row's set when partners rotate."""
    seating = folder.read(round_no, "seating")
    for row in seating.to_dict("records"):
        sets = [row["set"]] if "set" in row else folder.plan.sets_of_group(round_no, row["group"])
        for set_no in sets:
            yield row, int(set_no)


class RandomModel:
    """Seeded random play; ``spread`` is the standard deviation of the hidden strengths."""

    def __init__(self, seed: int = 0, spread: float = 1.0):
        self.seed = seed
        self.spread = spread

    def strengths(self, players: pd.Series) -> dict[str, float]:
        """Hidden strength per player id, fixed for the model's seed."""
        ids = sorted(players.astype(str))
        draws = np.random.default_rng([self.seed, 0]).normal(0.0, self.spread, len(ids))
        return dict(zip(ids, draws.tolist(), strict=True))

    def __call__(self, folder: EventFolder, round_no: int) -> pd.DataFrame:
        strength = self.strengths(folder.players()["player"])
        rng = np.random.default_rng([self.seed, round_no])
        plan = folder.plan
        rows = []
        for seating, set_no in table_sets(folder, round_no):
            seat_strength = np.array([strength[seating[c]] for c in SEAT_COLUMNS])
            noise = rng.gumbel(size=(plan.boards_per_set, 4))
            orders = np.argsort(-(seat_strength + noise), axis=1)
            state = SetState()
            for board, order in zip(plan.boards_of_set(set_no), orders, strict=True):
                finish = tuple(Seat(int(s)) for s in order)
                state = apply_board(state, finish, plan.three_failures_reset)
                text = "".join(s.to_text() for s in finish)
                rows.append(
                    (round_no, seating["group"], seating["table"], set_no, board)
                    + tuple(seating[c] for c in SEAT_COLUMNS)
                    + (text,)
                )
                if state.ended:
                    break
        return results_frame(rows)
