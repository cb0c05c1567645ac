"""Boards fully played per second by four heuristic bots (target: at least 100).

Plays sets of 4 boards (tribute included) on deals from a fixed key, the way ``simulate``
does, and prints the rate per CPU second (the figure that does not depend on what else the
machine is running) and per wall-clock second. ``--profile`` prints the 25 costliest
functions instead.

    /work/venv/bin/python benchmarks/simulate.py [--boards 400] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from guandan_dup.deals.generate import deal_boards
from guandan_dup.rules.setplay import play_set
from guandan_dup.seats import Seat
from guandan_dup.sim.boards import hand_counts
from guandan_dup.sim.bots import heuristic_bot
from guandan_dup.sim.table import SeatedBots

TARGET = 100
BOARDS_PER_SET = 4


def play(boards: int) -> int:
    """Play ``boards`` dealt boards in sets; return how many were played (sets may end early)."""
    deals = hand_counts(deal_boards(bytes(32), range(1, boards + 1)))
    players = SeatedBots([heuristic_bot() for _ in Seat])
    played = 0
    for first in range(0, boards, BOARDS_PER_SET):
        numbers = range(first + 1, min(first + BOARDS_PER_SET, boards) + 1)
        record = play_set(numbers, deals[first : first + len(numbers)], Seat.E, players)
        played += len(record.boards)
    return played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=400, help="boards to deal (default 400)")
    parser.add_argument("--profile", action="store_true", help="print a cProfile summary")
    args = parser.parse_args()
    play(8)  # warm up caches and imports
    if args.profile:
        with cProfile.Profile() as profile:
            play(args.boards)
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
        return
    wall, cpu = time.perf_counter(), time.process_time()
    played = play(args.boards)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    rate = played / cpu
    verdict = "meets" if rate >= TARGET else "MISSES"
    print(f"{played} boards played by 4 heuristic bots: {rate:.0f} boards per CPU second, "
          f"{played / wall:.0f} boards/s wall clock ({verdict} the target of {TARGET})")


if __name__ == "__main__":
    main()
