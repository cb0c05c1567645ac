"""``score``: the normalised set table in; scores, standings and travellers out, in memory."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from numbers import Real

import pandas as pd
from pandas.api.types import union_categoricals

from .rates import Expected
from .rounds import TRAVELLERS_COLUMNS, each_block, score_block
from .standings import Standings, empty_standings

__all__ = ["TRAVELLERS_COLUMNS", "Scored", "concat_frames", "score"]


@dataclass(frozen=True)
class Scored:
    """The three outputs of scoring, plus warnings a director should read; from
    ``score_files``, also the rows written per output and the rounds scored."""

    scores: pd.DataFrame
    standings: pd.DataFrame
    travellers: pd.DataFrame
    warnings: list[str] = field(default_factory=list)
    written: Mapping[str, int] = field(default_factory=dict)
    rounds: tuple[int, ...] = ()


def score(
    sets: pd.DataFrame,
    expected: Expected = None,
    compare_within: str = "event",
    adjusted_rates: Mapping[str, Real] | None = None,
    seed: int | str | bytes = 0,
    previous_positions: Mapping[str, int] | pd.Series | None = None,
    on_ready: Callable[[str, pd.DataFrame], None] | None = None,
) -> Scored:
    """Score the normalised set table ``sets`` (the results contract) of one or more rounds.

    ``expected`` is the number of tables meant to play each set in one comparison: one
    number, set -> number, or (set, group) -> number with ``compare_within="group"``; sets
    with fewer real
    results are Neuberg-adjusted, and without it nothing is. ``adjusted_rates`` overrides the
    fixed rates of artificial results (A+ 0.60, A 0.50, A- 0.40). ``seed`` draws the lots that
    settle ties left after the previous position; ``previous_positions`` (player -> position)
    is the order before the first round in ``sets``. ``on_ready(name, frame)`` is called
    with each output (travellers, scores, standings) when all are done.

    Rounds are scored one block at a time (``rounds.score_block``: usually a round) and the
    standings follow them (``standings.Standings``); ``files.score_files`` does the same
    without holding more than a block.
    """
    standing = Standings(seed, previous_positions)
    parts: dict[str, list[pd.DataFrame]] = {"travellers": [], "scores": [], "standings": []}
    warnings: list[str] = []
    for block in each_block(sets):
        done = score_block(block, expected, compare_within, adjusted_rates)
        parts["travellers"].append(done.travellers)
        parts["scores"].append(done.scores)
        parts["standings"] += [standing.add(sums) for sums in done.sums]
        warnings += done.warnings
    if not parts["scores"]:
        empty = score_block(sets.iloc[:0], expected, compare_within, adjusted_rates)
        parts = {"travellers": [empty.travellers], "scores": [empty.scores],
                 "standings": [empty_standings()]}
    frames = {name: concat_frames(frames) for name, frames in parts.items()}
    for name in ("travellers", "scores", "standings"):
        (on_ready or (lambda name, frame: None))(name, frames[name])
    return Scored(frames["scores"], frames["standings"], frames["travellers"], warnings)


def concat_frames(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Rounds' frames one below the other; categorical columns (the scores' ids and codes)
    stay categorical, over the union of the rounds' categories."""
    if not frames:
        return pd.DataFrame()
    if len(frames) == 1:
        return frames[0]
    out = pd.concat(frames, ignore_index=True)
    for column, dtype in frames[0].dtypes.items():
        if isinstance(dtype, pd.CategoricalDtype):
            out[column] = union_categoricals([frame[column] for frame in frames])
    return out
