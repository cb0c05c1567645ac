"""Simulated events: bots play every table of a round; ``simulate`` rehearses a whole event.

``play_round`` has the signature of a rehearsal's play function once its seed is bound
(:class:`BotPlay`), so ``event.rehearse`` deals, seats, ingests and scores exactly as for a
real event while the bots supply the board-level results.

Each player is a :class:`~guandan_dup.sim.bots.ErraticBot` with a hidden error rate drawn
from the seed (uniform in 0..MAX_ERROR), so standings separate careful from careless players.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass

import pandas as pd

from ..deals.boardset import load as load_boards
from ..event.folder import EventFolder, parquet_bytes
from ..event.random_model import RESULT_COLUMNS, table_sets
from ..event.rehearse import Rehearsal, rehearse
from ..seats import SEAT_COLUMNS, Seat
from .boards import set_deals
from .bots import ErraticBot
from .playlog import log_table
from .table import Sitting, play_sitting

MAX_ERROR = 0.3
"""The most careless simulated player plays a random legal action this often."""


def error_rates(players: list[str], seed: int) -> dict[str, float]:
    """Each player's hidden error rate, fixed by the seed and the player id."""
    return {p: random.Random(f"error-rate/{seed}/{p}").uniform(0.0, MAX_ERROR) for p in players}


def results_frame(rows: list[tuple]) -> pd.DataFrame:
    """Board-level results (SPEC 5) with int64 numbers and str players and finishes."""
    frame = pd.DataFrame(rows, columns=list(RESULT_COLUMNS))
    ints = dict.fromkeys(RESULT_COLUMNS[:5], "int64")
    return frame.astype(ints | dict.fromkeys((*SEAT_COLUMNS, "finish"), "str"))


def play_round(folder: EventFolder, round_no: int, seed: int = 0) -> pd.DataFrame:
    """Play every table's sets of a round with bots; write and return its results.

    Writes ``rounds/R/results-round-R.parquet`` (board-level results) and
    ``rounds/R/playlog-round-R.parquet`` (the play log) together.
    """
    boards = set_deals(load_boards(folder.file(round_no, "boards")))
    rates = error_rates(folder.players()["player"].astype(str).tolist(), seed)
    results, log = [], []
    for seating, set_no in table_sets(folder, round_no):
        players = tuple(str(seating[column]) for column in SEAT_COLUMNS)
        sitting = Sitting(round_no, int(seating["group"]), int(seating["table"]), set_no, players)
        bots = [ErraticBot(rates[p], f"{seed}/{round_no}/{sitting.table}/{set_no}/{seat.name}")
                for p, seat in zip(players, Seat, strict=True)]
        dealt = boards[set_no]
        rows, steps, _ = play_sitting(sitting, bots, dealt.boards, dealt.deals, dealt.leader,
                                      folder.plan.three_failures_reset)
        results += rows
        log += steps
    frame = results_frame(results)
    folder.replace_files({
        folder.file(round_no, f"results-round-{round_no}"): parquet_bytes(frame),
        folder.file(round_no, f"playlog-round-{round_no}"): parquet_bytes(log_table(log)),
    })
    return frame


@dataclass(frozen=True)
class BotPlay:
    """``play_round`` with its seed bound: a play function for ``event.rehearse``."""

    seed: int = 0

    def __call__(self, folder: EventFolder, round_no: int) -> pd.DataFrame:
        return play_round(folder, round_no, self.seed)


def simulate(
    out_dir: str | os.PathLike,
    players: int,
    rounds: int,
    sets_per_round: int = 2,
    boards_per_set: int = 4,
    seed: int = 0,
    tables_per_group: int = 4,
    show_progress: bool = False,
) -> Rehearsal:
    """Simulate a whole individual event in ``out_dir`` (an event folder), bots playing."""
    return rehearse(
        out_dir,
        players=players,
        rounds=rounds,
        tables_per_group=tables_per_group,
        sets_per_round=sets_per_round,
        boards_per_set=boards_per_set,
        kind="individual",
        seed=seed,
        play=BotPlay(seed),
        show_progress=show_progress,
    )
