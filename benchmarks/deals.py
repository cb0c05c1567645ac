"""Boards per second: our verifiable deals beside numpy's non-cryptographic shuffle (the floor).

    python benchmarks/deals.py [--boards N]

Ours: SHAKE-256 per board plus a vectorised Fisher-Yates (guandan_dup.deals.deal_boards),
sorted hands included. Floor: ``Generator.permuted`` over an (N, 108) array, which is neither
reproducible across numpy versions nor unpredictable, and does not sort the hands.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from guandan_dup.deals import deal_boards

KEY = bytes(range(32))


def boards_per_second(run, boards: int) -> float:
    """Wall-clock rate of ``run(boards)``, one run: a million boards is long enough."""
    start = time.perf_counter()
    run(boards)
    return boards / (time.perf_counter() - start)


def ours(boards: int) -> None:
    """Deal boards 1..N exactly as ``guandan-dup deal`` does (without writing the file)."""
    deal_boards(KEY, np.arange(1, boards + 1), "benchmark")


def numpy_floor(boards: int) -> None:
    """Shuffle N packs with numpy's fastest generator: what speed costs without our promises."""
    rng = np.random.default_rng(0)
    rng.permuted(np.tile(np.arange(108, dtype=np.uint8), (boards, 1)), axis=1)


def main() -> None:
    """Print both rates for ``--boards`` boards."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1_000_000, help="boards to deal")
    boards = parser.parse_args().boards
    print(f"{boards:,} boards, one core")
    for name, run in (
        ("guandan-dup deal_boards (SHAKE-256)", ours),
        ("numpy Generator.permuted (floor)", numpy_floor),
    ):
        print(f"{name:<38}{boards_per_second(run, boards):>12,.0f} boards/s")


if __name__ == "__main__":
    main()
