"""What scoring returns: the three outputs as frames, warnings, and what was written.

Its own module without pandas at import: ``score_files`` builds a ``Scored`` from Arrow
tables, and a ``score`` command that keeps no frames (``keep=False``) never loads pandas.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pyarrow as pa

from .outputs import to_frame

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class Scored:
    """The three outputs of scoring, plus warnings a director should read; from
    ``score_files``, also the rows written per output and the rounds scored (and no frames,
    None, with ``keep=False``)."""

    scores: pd.DataFrame | None
    standings: pd.DataFrame | None
    travellers: pd.DataFrame | None
    warnings: list[str] = field(default_factory=list)
    written: Mapping[str, int] = field(default_factory=dict)
    rounds: tuple[int, ...] = ()

    @classmethod
    def of(cls, tables: Mapping[str, Sequence[pa.Table]], warnings: list[str],
           written: Mapping[str, int], rounds: tuple[int, ...]) -> Scored:
        """From each output's tables block by block (none at all: no frames kept)."""
        if not any(tables.values()):
            return cls(None, None, None, warnings, written, rounds)
        frames = {name: concat_frames([to_frame(table) for table in got])
                  for name, got in tables.items()}
        return cls(frames["scores"], frames["standings"], frames["travellers"], warnings,
                   written, rounds)


def concat_frames(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Rounds' frames one below the other; categorical columns (the scores' ids and codes)
    stay categorical, over the union of the rounds' categories."""
    import pandas as pd
    from pandas.api.types import union_categoricals

    if not frames:
        return pd.DataFrame()
    if len(frames) == 1:
        return frames[0]
    out = pd.concat(frames, ignore_index=True)
    for column, dtype in frames[0].dtypes.items():
        if isinstance(dtype, pd.CategoricalDtype):
            out[column] = union_categoricals([frame[column] for frame in frames])
    return out
