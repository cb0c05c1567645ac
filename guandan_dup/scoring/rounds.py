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

import numpy as np
import pandas as pd
import pyarrow as pa

from ..results.by_round import round_blocks
from .players import categories, encode_seats
from .rates import Expected, in_table_order, rate_tables
from .scores import player_scores
from .standings import RoundSums, round_sums

TRAVELLERS_COLUMNS = (
    "round", "group", "set", "table", "north", "east", "south", "west", "ns_level",
    "ew_level", "adjusted", "ns_adjusted", "ew_adjusted", "ns_score", "ns_rate", "ew_rate",
    "ns_matchpoints", "ew_matchpoints", "top", "ns_rate_num", "ew_rate_num", "rate_den",
)


@dataclass(frozen=True)
class BlockScores:
    """A block's travellers and scores (frames of the output contract, rounds ascending),
    each round's player sums for the standings, and warnings."""

    travellers: pd.DataFrame
    scores: pd.DataFrame
    sums: list[RoundSums]
    warnings: list[str]


def each_block(sets: pd.DataFrame):
    """The blocks of a normalised set table, each in table order, rounds ascending."""
    ordered = in_table_order(sets)
    rounds = ordered["round"].to_numpy(np.int64)
    for block in round_blocks(rounds, ordered["set"].to_numpy(np.int64)):
        start, stop = np.searchsorted(rounds, [block[0], block[-1]], side="left")[0], \
            np.searchsorted(rounds, block[-1], side="right")
        yield ordered.iloc[start:stop].reset_index(drop=True)


def score_block(
    sets: pd.DataFrame,
    expected: Expected = None,
    compare_within: str = "event",
    adjusted_rates: Mapping[str, Real] | None = None,
    seats: tuple[pa.Array, np.ndarray] | None = None,
) -> BlockScores:
    """Score a block of rounds (``sets``: rows of the normalised set table in table order,
    e.g. from ``each_block``); ``seats``, the players' codes if ingestion has them (see
    ``results.Ingested``), saves hashing the ids again."""
    rated, warnings = rate_tables(sets, expected, compare_within, adjusted_rates)
    names, codes = encode_seats(rated) if seats is None else (seats[0], seats[1].ravel())
    scores = player_scores(rated, lambda: categories(codes, names))
    rounds = rated["round"].to_numpy(np.int64)
    bounds = np.r_[0, np.flatnonzero(rounds[1:] != rounds[:-1]) + 1, len(rounds)]
    bounds = bounds[:1] if not len(rounds) else bounds
    num, den = scores["rate_num"].to_numpy(np.int64), scores["rate_den"].to_numpy(np.int64)
    rate = scores["score_rate"].to_numpy()
    sums = []
    for start, stop in zip(4 * bounds[:-1], 4 * bounds[1:], strict=True):
        round_names, local = names, codes[start:stop]
        if len(bounds) > 2:  # several rounds: each round's sums name only its own players
            mine, local = np.unique(local, return_inverse=True)
            round_names = names.take(pa.array(mine))
        sums.append(round_sums(int(rounds[start // 4]), round_names, local,
                               num[start:stop], den[start:stop], rate[start:stop]))
    return BlockScores(rated[list(TRAVELLERS_COLUMNS)], scores, sums, warnings)
