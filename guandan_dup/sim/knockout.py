"""A knockout played by bots: every match's set, then extra boards for a level match.

A match left level after its set is decided by extra boards played one at a time (seed 000
art. 49.2), on fresh deals from the event key numbered far beyond the event's own boards
(from ``EXTRA_BOARDS``). A pairs match: the side that takes 上游 on one extra board wins. A
team match: both rooms play each extra deal until the home team's net levels on them are
not 0. The winner is the results' ``tiebreak``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from ..deals.boardset import make_board_set
from ..errors import GuandanError
from ..event.folder import EventFolder
from ..event.formats import format_problem
from ..event.rehearse import Rehearsal, rehearse
from ..rules.progression import move_up, parse_finish, play_set
from ..seats import SEAT_COLUMNS, Seat
from .boards import set_deals
from .bots import ErraticBot
from .event import check_new_folder, error_rates, play_round
from .table import Sitting, play_sitting

EXTRA_BOARDS = 900_000
"""Extra boards are dealt from this board number up, well clear of any event's boards."""
MAX_EXTRA = 30
"""Extra boards a level team match may take before the rehearsal gives up (it never has)."""


def extra_board(folder: EventFolder, seating: Mapping, board: int, seed: int) -> tuple[str, int]:
    """(side, move-up) of an extra board, number ``board``, played by the four players of a
    seating row: the side that takes 上游 and by how many levels it goes up."""
    round_no, table = int(seating["round"]), int(seating["table"])
    players = tuple(str(seating[c]) for c in SEAT_COLUMNS)
    rates = error_rates(list(players), seed)
    dealt = next(iter(set_deals(make_board_set(
        folder.key(), [board], 1, first_leader=folder.plan.first_leader)).values()))
    bots = [ErraticBot(rates[p], f"{seed}/extra/{board}/{table}/{s.name}")
            for p, s in zip(players, Seat, strict=True)]
    sitting = Sitting(round_no, 1, table, board, players)
    rows, _, _ = play_sitting(sitting, bots, dealt.boards, dealt.deals, dealt.leader)
    return move_up(parse_finish(rows[0][-1]))


def pair_tiebreaks(folder: EventFolder, round_no: int, results: pd.DataFrame, seed: int) -> dict:
    """Table -> ``NS``/``EW``: one extra board decides a level pairs match (a board always
    has a first finisher)."""
    seating = folder.read(round_no, "seating").set_index("table")
    tiebreak = {}
    for table, boards in results.groupby("table"):
        state = play_set(boards["finish"].tolist(),
                         three_failures_reset=folder.plan.three_failures_reset)
        if state.ns_level == state.ew_level:
            row = seating.loc[table].to_dict() | {"table": table}
            tiebreak[table] = extra_board(folder, row, EXTRA_BOARDS + 1000 * round_no + table,
                                          seed)[0]
    return tiebreak


def team_tiebreaks(folder: EventFolder, round_no: int, results: pd.DataFrame, seed: int) -> dict:
    """Open-room table -> the winning team's number: a level team match plays extra boards
    in both rooms, one deal at a time, until the home team's net levels differ from 0."""
    seating = folder.read(round_no, "seating").set_index("table")
    final = {
        table: play_set(boards["finish"].tolist(),
                        three_failures_reset=folder.plan.three_failures_reset)
        for table, boards in results.groupby("table")
    }
    tiebreak = {}
    for m in folder.read(round_no, "matches").dropna(subset=["away"]).itertuples():
        rooms = int(m.open_table), int(m.closed_table)
        net = sum(sign * (final[t].ew_level - final[t].ns_level)
                  for t, sign in zip(rooms, (1, -1), strict=True))
        if net != 0:
            continue  # decided at the tables: 场分 (and 级差分, 级差) follow the net levels
        for extra in range(MAX_EXTRA):
            board = EXTRA_BOARDS + 1000 * round_no + 10 * rooms[0] + extra
            net = 0
            for t, home_side in zip(rooms, ("EW", "NS"), strict=True):
                side, up = extra_board(folder, seating.loc[t].to_dict() | {"table": t}, board,
                                       seed)
                net += up if side == home_side else -up
            if net:
                break
        if net == 0:
            raise GuandanError(f"round {round_no} match {m.match} still level after "
                               f"{MAX_EXTRA} extra boards")
        tiebreak[rooms[0]] = str(m.home if net > 0 else int(m.away))
    return tiebreak


TIEBREAKS = {1: pair_tiebreaks, 2: team_tiebreaks}
"""A level match's extra boards by the tables a match is played at (``Knockout.rooms``):
a pairs match at one table, a team match in its two rooms."""


@dataclass(frozen=True)
class KnockoutBotPlay:
    """A rehearsal play function for knockouts: bots play the round, then the extra boards of
    every level match; results are board-level with a ``tiebreak`` where one was needed."""

    seed: int = 0

    def __call__(self, folder: EventFolder, round_no: int) -> pd.DataFrame:
        results = play_round(folder, round_no, self.seed)
        decide = TIEBREAKS[folder.plan.event_format.rooms]
        tiebreak = decide(folder, round_no, results, self.seed)
        return results.assign(tiebreak=results["table"].map(tiebreak).astype("str"))


def simulate_knockout(
    out_dir: str | os.PathLike,
    entries: int | None,
    boards_per_set: int = 4,
    seed: int = 0,
    show_progress: bool = False,
    kind: str = "pairs",
) -> Rehearsal:
    """Simulate a whole knockout in ``out_dir`` (new or empty), bots playing: ``entries``
    pairs drawn by lot, or teams (``kind="teams"``) seeded by team number."""
    if format_problem(kind, "knockout") or entries is None:
        raise GuandanError(f"knockout {kind!r} of {entries!r}: rehearse a knockout of pairs "
                           "(--knockout pairs --pairs N) or teams (--knockout teams --teams N)")
    check_new_folder(out_dir)
    return rehearse(out_dir, entries, None, boards_per_set=boards_per_set, kind=kind, seed=seed,
                    play=KnockoutBotPlay(seed), show_progress=show_progress, fmt="knockout")
