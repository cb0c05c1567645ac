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
from pathlib import Path

import pandas as pd

from ..deals.boardset import load as load_boards
from ..errors import GuandanError
from ..event.folder import EVENT_TOML, EventFolder, parquet_bytes
from ..event.random_model import results_frame, table_sets
from ..event.rehearse import Rehearsal, rehearse, rehearse_teams
from ..event.transaction import step
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


@step("simulate play")
def play_round(folder: EventFolder, round_no: int, seed: int = 0) -> pd.DataFrame:
    """Play every table's sets of a round with bots; return its board-level results.

    Writes the round's play log, ``playlog-round-R.parquet``, at the top of the event folder
    beside the ``results-round-R.parquet`` file that the rehearsal writes and ingests.
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
    folder.replace_files(
        {folder.path / f"playlog-round-{round_no}.parquet": parquet_bytes(log_table(log))}
    )
    return frame


@dataclass(frozen=True)
class BotPlay:
    """``play_round`` with its seed bound: a play function for ``event.rehearse``."""

    seed: int = 0

    def __call__(self, folder: EventFolder, round_no: int) -> pd.DataFrame:
        return play_round(folder, round_no, self.seed)


def check_new_folder(path: str | os.PathLike) -> None:
    """Refuse a file, or a folder that already holds anything, before writing a byte.

    A rerun into the same folder, or into the leftovers of an earlier run whose event.toml
    was removed, would leave old rounds and exports beside the new event's: a director gets a
    clean new folder or a clear refusal, never a mixed one.
    """
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise GuandanError(f"{str(path)!r} is a file: simulate needs a new or empty folder")
    held = sorted(entry.name for entry in path.iterdir()) if path.is_dir() else []
    if held:
        what = (f"an event ({EVENT_TOML})" if EVENT_TOML in held
                else "files: " + ", ".join(held[:3]) + (", ..." if len(held) > 3 else ""))
        raise GuandanError(f"{str(path)!r} already holds {what}; not touched: simulate needs a "
                           "new or empty folder")


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
    """Simulate a whole individual event in ``out_dir`` (an event folder), bots playing.

    ``out_dir`` must be new or empty (``check_new_folder``).
    """
    check_new_folder(out_dir)
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


def simulate_teams(
    out_dir: str | os.PathLike,
    teams: int,
    rounds: int,
    boards_per_set: int = 4,
    fmt: str = "swiss",
    seed: int = 0,
    show_progress: bool = False,
) -> Rehearsal:
    """Simulate a whole team event (Swiss or round robin) in ``out_dir``, bots playing both
    rooms of every match; ``out_dir`` must be new or empty."""
    check_new_folder(out_dir)
    return rehearse_teams(out_dir, teams, rounds, boards_per_set, fmt, seed, BotPlay(seed),
                          show_progress)
