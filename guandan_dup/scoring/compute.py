"""``score``: the normalised set table in; scores, standings and travellers out, in memory."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from numbers import Real

import numpy as np
import pandas as pd
import pyarrow as pa

from .outputs import to_frame
from .penalised import with_penalties, with_unplaced
from .rates import Expected
from .rounds import TRAVELLERS_COLUMNS, each_block, score_block
from .scored import Scored, concat_frames
from .standings import Standings, empty_standings, round_sums
from .variable import variable_rates

__all__ = ["TRAVELLERS_COLUMNS", "Scored", "concat_frames", "score", "standings_of"]


def score(
    sets: pd.DataFrame,
    expected: Expected = None,
    compare_within: str = "event",
    adjusted_rates: Mapping[str, Real] | None = None,
    seed: int | str | bytes = 0,
    previous_positions: Mapping[str, int] | pd.Series | None = None,
    players: Sequence[str] | None = None,
    penalties: pd.DataFrame | None = None,
    variable: pd.DataFrame | None = None,
) -> Scored:
    """Score the normalised set table ``sets`` (the results contract) of one or more rounds.

    ``expected`` is the number of tables meant to play each set in one comparison: one
    number, set -> number, or (set, group) -> number with ``compare_within="group"``; sets
    with fewer real
    results are Neuberg-adjusted, and without it nothing is. ``adjusted_rates`` overrides the
    fixed rates of artificial results (A+ 0.60, A 0.50, A- 0.40). ``seed`` draws the lots that
    settle ties left after the previous position; ``previous_positions`` (player -> position)
    is the order before the first round in ``sets``.

    Rounds are scored one block at a time (``rounds.score_block``: usually a round) and the
    standings follow them (``standings.Standings``); ``files.score_files`` does the same
    without holding more than a block.

    The director's ledger (``guandan_dup.ledger``) adds, each left out by default: an
    optional ``split`` column in ``sets`` (fouled groups compared apart, see
    ``rates.rate_tables``); ``variable`` (round, table, set of artificial results scored as
    the better of the rate and the player's own average, ``variable.variable_rates``);
    ``penalties`` (round, player, points: percentage points off the cumulative average from
    that round on; the standings gain a ``penalty`` column, ``penalised.with_penalties``);
    ``players`` (every registered id: players without a set yet are listed with 0 sets,
    ``penalised.with_unplaced``). These need every round's scores at once, so they are
    applied to the whole event after its blocks.
    """
    standing = Standings(seed, previous_positions)
    parts: dict[str, list[pd.DataFrame]] = {"travellers": [], "scores": [], "standings": []}
    warnings: list[str] = []
    for block in each_block(sets):
        done = score_block(block, expected, compare_within, adjusted_rates)
        parts["travellers"].append(to_frame(done.travellers))
        parts["scores"].append(to_frame(done.scores))
        parts["standings"] += [to_frame(standing.add(sums)) for sums in done.sums]
        warnings += done.warnings
    if not parts["scores"]:
        empty = score_block(sets.iloc[:0], expected, compare_within, adjusted_rates)
        parts = {"travellers": [to_frame(empty.travellers)], "scores": [to_frame(empty.scores)],
                 "standings": [to_frame(empty_standings())]}
    frames = {name: concat_frames(frames) for name, frames in parts.items()}
    if variable is not None or penalties is not None or players is not None:
        frames = _with_ledger(frames, seed, previous_positions, players, penalties, variable)
    return Scored(frames["scores"], frames["standings"], frames["travellers"], warnings)


def _with_ledger(
    frames: dict[str, pd.DataFrame],
    seed: int | str | bytes,
    previous_positions: Mapping[str, int] | pd.Series | None,
    players: Sequence[str] | None,
    penalties: pd.DataFrame | None,
    variable: pd.DataFrame | None,
) -> dict[str, pd.DataFrame]:
    """The ledger's effects on scores and standings (see ``score``): variable artificial
    rates change scores, so the standings are made again from them; then penalties and the
    registered players who have not played yet."""
    scores, table = frames["scores"], frames["standings"]
    if variable is not None:
        scores = variable_rates(scores, variable)
        table = standings_of(scores, seed, previous_positions)
    if penalties is not None:
        table = with_penalties(table, scores, penalties, seed, previous_positions)
    if players is not None:
        table = with_unplaced(table, players, seed, previous_positions, penalties)
    return frames | {"scores": scores, "standings": table}


def standings_of(
    scores: pd.DataFrame,
    seed: int | str | bytes = 0,
    previous_positions: Mapping[str, int] | pd.Series | None = None,
) -> pd.DataFrame:
    """The standings after each round of per-player ``scores`` (rows by round), as the
    blocks of ``score`` build them."""
    standing = Standings(seed, previous_positions)
    tables = []
    for round_no, rows in scores.groupby("round", sort=True, observed=True):
        codes, ids = pd.factorize(rows["player"].astype(str))
        tables.append(to_frame(standing.add(round_sums(
            int(round_no), pa.array(ids, pa.string()), codes,
            rows["rate_num"].to_numpy(np.int64), rows["rate_den"].to_numpy(np.int64),
            rows["score_rate"].to_numpy()))))
    return concat_frames(tables) if tables else to_frame(empty_standings())
