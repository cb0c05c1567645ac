"""Simulated events: bots play every table of a round; ``simulate`` rehearses a whole event,
``asked_rounds`` and ``check_playable`` choose the rounds of an existing one the bots may play.

``play_round`` has the signature of a rehearsal's play function once its seed is bound
(:class:`BotPlay`), so ``event.rehearse`` deals, seats, ingests and scores exactly as for a
real event while the bots supply the board-level results.

Each player is a :class:`~guandan_dup.sim.bots.ErraticBot` with a hidden error rate drawn
from the seed (uniform in 0..MAX_ERROR), so standings separate careful from careless players.
"""

from __future__ import annotations

import os
import random
import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..deals.boardset import load as load_boards
from ..errors import GuandanError
from ..event.folder import EVENT_TOML, EventFolder, parquet_bytes
from ..event.random_model import results_frame, table_sets
from ..event.rehearse import Rehearsal, rehearse, rehearse_teams
from ..event.status import event_status
from ..event.transaction import step
from ..seats import SEAT_COLUMNS, Seat
from ..wording import numbered, pasteable, plural
from .boards import set_deals
from .bots import ErraticBot
from .playlog import log_table
from .table import Sitting, play_sitting

MAX_ERROR = 0.3
"""The most careless simulated player plays a random legal action this often."""


def error_rates(players: list[str], seed: int) -> dict[str, float]:
    """Each player's hidden error rate, fixed by the seed and the player id."""
    return {p: random.Random(f"error-rate/{seed}/{p}").uniform(0.0, MAX_ERROR) for p in players}


ROUNDS = re.compile(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?")
"""``--rounds`` of an existing event: a round ("2") or a range of rounds ("2-3")."""


def playlog_path(folder: EventFolder, round_no: int) -> Path:
    """Where the bots' play of a round is logged: its presence says the bots played it."""
    return folder.path / f"playlog-round-{round_no}.parquet"


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
    folder.replace_files({playlog_path(folder, round_no): parquet_bytes(log_table(log))})
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


def asked_rounds(text: str | None, folder: EventFolder) -> range:
    """The rounds ``--rounds`` names ("2" or "2-3", within the plan); without it, every round
    from the first without results to the last: the rest of the day."""
    last = folder.plan.rounds
    if text is None:
        first = next((r for r in range(1, last + 1) if not folder.has_results(r)),
                     None)
        if first is None:
            raise GuandanError(f"every round of {folder.plan.name!r} (1-{last}) already holds "
                               "results: nothing is left to rehearse")
        return range(first, last + 1)
    match = ROUNDS.fullmatch(text)
    if match is None:
        raise GuandanError(f"--rounds {text!r}: expected a round (2) or a range of rounds (2-3)")
    first, end = int(match[1]), int(match[2] or match[1])
    if first > end:
        raise GuandanError(f"--rounds {text!r}: a range goes from its first round to its last "
                           f"({end}-{first})")
    if first < 1 or end > last:
        raise GuandanError(f"--rounds {text!r}: {folder.plan.name!r} has rounds 1-{last}")
    return range(first, end + 1)


def rounds_text(rounds: range) -> str:
    """``rounds`` as ``--rounds`` takes them: "3" or "2-3"."""
    return f"{rounds[0]}-{rounds[-1]}" if len(rounds) > 1 else str(rounds[0])


def rehearsal_copy(folder: EventFolder) -> str:
    """The copy a director is told to make: the folder's name with ``-rehearsal``, beside it."""
    path = folder.path if folder.path.name else folder.path.resolve()
    return pasteable(str(path.with_name(f"{path.name}-rehearsal")))


def check_playable(folder: EventFolder, rounds: range, force: bool = False) -> None:
    """Refuse to let bots play ``rounds`` unless the day could go that way: none of them
    holds results (bots never play over results), every earlier round holds results and is
    scored (rounds are played in order, each seated from the one before), and the earlier
    results were the bots' (``playlog_path``), or ``force`` says the folder is a copy of an
    event under way: bots' results must never slip silently into the event's own folder."""
    where = pasteable(str(folder.path))
    span = rounds_text(rounds)
    held = [r for r in rounds if folder.has_results(r)]
    if held:
        later = (f"; or play the rounds after it, `--rounds "
                 f"{rounds_text(range(held[-1] + 1, rounds.stop))}`"
                 if held[-1] < rounds[-1] else "")
        copy = rehearsal_copy(folder)
        raise GuandanError(
            f"round {held[0]} already holds results ({folder.file(held[0], 'results')}); "
            "nothing was played: bots never play over results. A director rehearses on a "
            f"copy of the event folder made before the round was played (`cp -r {where} {copy}`, "
            f"then `guandan-dup simulate --event {copy} --rounds {span}`){later}")
    for earlier in range(1, rounds[0]):
        if not folder.has_results(earlier):
            raise GuandanError(
                f"round {earlier} has no results yet, and rounds are played in order (each "
                f"is seated from the one before); nothing was played. Play it first: "
                f"`guandan-dup simulate --event {where} --rounds "
                f"{rounds_text(range(earlier, rounds.stop))}`")
    status = event_status(folder)
    unfinished = [s.round for s in status.rounds[: rounds[0] - 1]
                  if s.missing or s.replay or not s.scored or s.out_of_date]
    if unfinished:
        raise GuandanError(
            f"round {unfinished[0]} is not finished, and round {rounds[0]} is seated from it; "
            f"nothing was played. First: `{status.next_step()}`")
    real = [r for r in range(1, rounds[0]) if not playlog_path(folder, r).exists()]
    if real and not force:
        copy = rehearsal_copy(folder)
        raise GuandanError(
            f"{numbered('round', real)} {plural('holds', len(real), 'hold')} results the "
            "bots did not play: "
            f"{where} looks like the event itself, under way, and bots' results must not mix "
            "with its own; nothing was played. Rehearse on a copy: "
            f"`cp -r {where} {copy}`, then `guandan-dup simulate --event {copy} --rounds "
            f"{span} --force` (--force: the folder is a copy)")
