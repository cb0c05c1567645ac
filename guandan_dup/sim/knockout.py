"""A pairs knockout played by bots: every match's set, then extra boards for a level match.

A match left level after its set is decided by extra boards played one at a time (seed 000
art. 49.2): the bots play one on a fresh deal from the event key, numbered far beyond the
event's own boards (``EXTRA_BOARDS`` + 1000 R + T for table T of round R); the side that
takes 上游 on it wins, and is the results row's ``tiebreak``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import pandas as pd

from ..deals.boardset import make_board_set
from ..errors import GuandanError
from ..event.folder import EventFolder
from ..event.rehearse import Rehearsal, rehearse
from ..rules.progression import move_up, parse_finish, play_set
from ..seats import SEAT_COLUMNS, Seat
from .boards import set_deals
from .bots import ErraticBot
from .event import check_new_folder, error_rates, play_round
from .table import Sitting, play_sitting

EXTRA_BOARDS = 900_000
"""Extra boards are dealt from this board number up, well clear of any event's boards."""


def extra_board_winner(folder: EventFolder, seating: dict, seed: int) -> str:
    """``NS`` or ``EW``: the side that takes 上游 on an extra board (one board always has a
    first finisher, so one extra board decides a match)."""
    round_no, table = int(seating["round"]), int(seating["table"])
    players = tuple(str(seating[c]) for c in SEAT_COLUMNS)
    rates = error_rates(list(players), seed)
    board = EXTRA_BOARDS + 1000 * round_no + table
    dealt = next(iter(set_deals(make_board_set(
        folder.key(), [board], 1, first_leader=folder.plan.first_leader)).values()))
    bots = [ErraticBot(rates[p], f"{seed}/extra/{board}/{s.name}")
            for p, s in zip(players, Seat, strict=True)]
    sitting = Sitting(round_no, 1, table, board, players)
    rows, _, _ = play_sitting(sitting, bots, dealt.boards, dealt.deals, dealt.leader)
    return move_up(parse_finish(rows[0][-1]))[0]


@dataclass(frozen=True)
class KnockoutBotPlay:
    """A rehearsal play function for knockouts: bots play the round, then the extra boards of
    every level match; results are board-level with a ``tiebreak`` on level tables."""

    seed: int = 0

    def __call__(self, folder: EventFolder, round_no: int) -> pd.DataFrame:
        results = play_round(folder, round_no, self.seed)
        seating = folder.read(round_no, "seating").set_index("table")
        tiebreak = {}
        for table, boards in results.groupby("table"):
            state = play_set(boards["finish"].tolist(),
                             three_failures_reset=folder.plan.three_failures_reset)
            if state.ns_level == state.ew_level:
                row = seating.loc[table].to_dict() | {"table": table}
                tiebreak[table] = extra_board_winner(folder, row, self.seed)
        return results.assign(tiebreak=results["table"].map(tiebreak).astype("str"))


def simulate_knockout(
    out_dir: str | os.PathLike,
    pairs: int | None,
    boards_per_set: int = 4,
    seed: int = 0,
    show_progress: bool = False,
    kind: str = "pairs",
) -> Rehearsal:
    """Simulate a whole pairs knockout by lot in ``out_dir`` (new or empty), bots playing."""
    if kind != "pairs" or pairs is None:
        raise GuandanError(f"knockout {kind!r} with {pairs!r} pairs: knockouts are rehearsed "
                           "with pairs (--knockout pairs --pairs N)")
    check_new_folder(out_dir)
    return rehearse(
        out_dir,
        players=2 * pairs,
        boards_per_set=boards_per_set,
        kind="pairs",
        seed=seed,
        play=KnockoutBotPlay(seed),
        show_progress=show_progress,
        fmt="knockout",
    )
