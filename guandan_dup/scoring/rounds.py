"""A block of rounds scored: travellers, per-player scores and each round's player sums.

A set's results are compared event-wide, so a set played in two rounds links them: a block
is the smallest run of rounds no set crosses (usually one round). Blocks need nothing from
each other, so they can be scored anywhere and in any order; only the standings
(``standings.Standings``) take their rounds in order. The same function serves both engines:
the local one calls it on each block in turn, the Dask one on workers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from numbers import Real
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from ..arrays import to_arrow, to_numpy
from ..results.by_round import round_blocks
from .outputs import TRAVELLERS_DTYPES
from .players import encode_seats
from .rates import Expected, in_table_order, rate_tables
from .scores import player_scores, seat_rates
from .standings import RoundSums, round_sums

if TYPE_CHECKING:
    import pandas as pd

TRAVELLERS_COLUMNS = tuple(TRAVELLERS_DTYPES)


@dataclass(frozen=True)
class BlockScores:
    """A block's travellers (an Arrow table of the output contract, rounds ascending;
    ``outputs.to_frame`` gives the frame), its players (``names``, and each seat's code into
    them, table by table, seats N E S W), each round's player sums for the standings, and
    warnings. ``scores`` makes the per-player scores from these when asked: the ``score``
    command makes them on the scores file's writing thread, so that the block's scoring does
    not wait for them and they are in memory only while they are written."""

    travellers: pa.Table
    names: pa.Array
    codes: np.ndarray
    sums: list[RoundSums]
    warnings: list[str]

    @property
    def scores(self) -> pa.Table:
        """One row per player per table-set (``scores.player_scores``)."""
        return player_scores(self.travellers, self.names, self.codes)


def each_block(sets: pd.DataFrame):
    """The blocks of a normalised set table, each in table order, rounds ascending."""
    ordered = in_table_order(sets)
    rounds = ordered["round"].to_numpy(np.int64)
    for block in round_blocks(rounds, ordered["set"].to_numpy(np.int64)):
        start, stop = np.searchsorted(rounds, [block[0], block[-1]], side="left")[0], \
            np.searchsorted(rounds, block[-1], side="right")
        yield ordered.iloc[start:stop].reset_index(drop=True)


def score_block(
    sets: pa.Table | pd.DataFrame,
    expected: Expected = None,
    compare_within: str = "event",
    adjusted_rates: Mapping[str, Real] | None = None,
    seats: tuple[pa.Array, np.ndarray, np.ndarray | None] | None = None,
) -> BlockScores:
    """Score a block of rounds (``sets``: rows of the normalised set table in table order, as
    Arrow or as the frame ``each_block`` gives); ``seats``, the players' codes (and their
    ids' hashes, if made) if ingestion has them (see ``results.Ingested``), saves hashing
    the ids again."""
    if not isinstance(sets, pa.Table):
        sets = pa.Table.from_pandas(sets, preserve_index=False)
    travellers, warnings = rate_tables(sets, expected, compare_within, adjusted_rates)
    names, codes, hashes = (*encode_seats(travellers), None) if seats is None else (
        seats[0], seats[1].ravel(), seats[2])
    rounds = to_numpy(travellers["round"])
    bounds = np.r_[0, np.flatnonzero(rounds[1:] != rounds[:-1]) + 1, len(rounds)]
    bounds = bounds[:1] if not len(rounds) else bounds
    num, den, rate = seat_rates(travellers)
    sums = []
    for start, stop in zip(4 * bounds[:-1], 4 * bounds[1:], strict=True):
        round_names, local, round_hashes = names, codes[start:stop], hashes
        if len(bounds) > 2:  # several rounds: each round's sums name only its own players
            mine, local = np.unique(local, return_inverse=True)
            round_names = names.take(to_arrow(mine))
            round_hashes = None if hashes is None else hashes[mine]
        sums.append(round_sums(int(rounds[start // 4]), round_names, local,
                               num[start:stop], den[start:stop], rate[start:stop],
                               round_hashes))
    return BlockScores(travellers, names, codes, sums, warnings)
