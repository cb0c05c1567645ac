"""Shared ranks and their labels (SPEC 6, SPEC 8 art. 49): competition ranking, "1=".

Entries that are equal share a rank and the next ranks are skipped (1, 1, 3); a shared rank
is shown with "=" ("1=", "1=", "3"). Equality is decided on integers only: the caller gives
one integer key per entry in standing order (best first), equal keys for exactly equal
entries (an exact average's code, a tied group's number), so a float is never compared.

>>> ranks, labels = standing_ranks(np.array([9, 7, 7, 4]))
>>> ranks.tolist(), labels.to_pylist()
([1, 2, 2, 4], ['1', '2=', '2=', '4'])
>>> standing_ranks(np.array([0, 0]), above=5)[1].to_pylist()
['6=', '6=']
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .arrays import scalar, to_arrow


def standing_ranks(keys: np.ndarray, above: int = 0) -> tuple[np.ndarray, pa.Array]:
    """The rank (int64) and rank label (large strings) of each entry, given in standing
    order with an integer key each: equal keys are a tie, so ties are runs of neighbours;
    ``above`` entries rank before all of them.

    The labels are made for the distinct ranks only, then spread (a third of the time at
    400k players). ``ValueError`` if ``keys`` are not integers, or neither ascend nor
    descend (a tie split by another entry: not in standing order).
    """
    keys = np.asarray(keys)
    if len(keys) and not np.issubdtype(keys.dtype, np.integer):
        raise ValueError(f"rank keys must be integers (exact ties), got {keys.dtype}")
    step = np.diff(keys)
    if not ((step >= 0).all() or (step <= 0).all()):
        raise ValueError("rank keys must be in standing order (ascending or descending)")
    first = np.r_[True, step != 0] if len(keys) else np.zeros(0, bool)
    starts = np.flatnonzero(first)
    run = np.cumsum(first) - 1
    shared = np.diff(np.r_[starts, len(keys)]) > 1
    distinct = starts.astype(np.int64) + (above + 1)
    labels = pc.binary_join_element_wise(pc.cast(to_arrow(distinct), pa.large_string()),
                                         pc.if_else(to_arrow(shared), scalar("="), scalar("")),
                                         scalar(""))
    return distinct[run], labels.take(to_arrow(run))
