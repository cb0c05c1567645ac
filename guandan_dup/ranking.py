"""Shared ranks and their labels (SPEC 6, SPEC 8 art. 49): competition ranking, "1=".

Entries that are equal share a rank and the next ranks are skipped (1, 1, 3); a shared rank
is shown with "=" ("1=", "1=", "3"). Equality is decided on integers only: the caller gives
one integer key per entry in standing order (best first), equal keys for exactly equal
entries (an exact average's code, a tied group's number), so a float is never compared.
``rank_labels`` alone labels ranks found otherwise (a knockout's places, "9=").

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


def _runs(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each run of equal neighbours starts, and each element's run number; refuses
    values that are not integers, or that neither ascend nor descend (not in standing
    order: a tie would be split by another entry)."""
    values = np.asarray(values)
    if len(values) and not np.issubdtype(values.dtype, np.integer):
        raise ValueError(f"rank keys must be integers (exact ties), got {values.dtype}")
    step = np.diff(values)
    if not ((step >= 0).all() or (step <= 0).all()):
        raise ValueError("rank keys must be in standing order (ascending or descending)")
    first = np.r_[True, step != 0] if len(values) else np.zeros(0, bool)
    return np.flatnonzero(first), np.cumsum(first) - 1


def rank_labels(ranks: np.ndarray) -> pa.Array:
    """Each rank as shown, ``"1"``, or ``"2="`` for one its neighbours share, of integer
    ``ranks`` in standing order (large strings). The labels are made for the distinct ranks
    only, then spread (a third of the time at 400k players); with no rank shared (a field
    of 800,000 after a few rounds) they are the ranks' digits alone.

    >>> rank_labels(np.array([1, 2, 2, 4])).to_pylist()
    ['1', '2=', '2=', '4']
    """
    starts, run = _runs(ranks)
    return _labels(np.asarray(ranks)[starts], starts, run)


def _labels(distinct: np.ndarray, starts: np.ndarray, run: np.ndarray) -> pa.Array:
    """``rank_labels`` of the ranks of runs starting at ``starts`` (``distinct``, one each),
    each element in run ``run``."""
    shared = np.diff(np.r_[starts, len(run)]) > 1
    labels = pc.cast(to_arrow(distinct.astype(np.int64)), pa.large_string())
    if shared.any():
        labels = pc.binary_join_element_wise(
            labels, pc.if_else(to_arrow(shared), scalar("="), scalar("")), scalar(""))
    return labels if len(starts) == len(run) else labels.take(to_arrow(run))


def standing_ranks(keys: np.ndarray, above: int = 0) -> tuple[np.ndarray, pa.Array]:
    """The competition rank (int64) of each entry, given in standing order with an integer
    key each, and their ``rank_labels``: equal keys are a tie, so ties are runs of
    neighbours, found once for both; ``above`` entries rank before all of them.
    ``ValueError`` if ``keys`` are not integers or not in standing order (neither ascending
    nor descending)."""
    starts, run = _runs(keys)
    first = starts.astype(np.int64) + (above + 1)  # each run's rank
    return first[run], _labels(first, starts, run)


def ranks_within(ranks: np.ndarray) -> tuple[np.ndarray, pa.Array]:
    """The ranks of part of a field among themselves, given its event-wide competition
    ``ranks`` in standing order: entries tied event-wide stay tied, the others are placed
    in turn (one venue's players ranked within the venue).

    >>> ranks, labels = ranks_within(np.array([2, 5, 5, 9]))
    >>> ranks.tolist(), labels.to_pylist()
    ([1, 2, 2, 4], ['1', '2=', '2=', '4'])
    """
    return standing_ranks(np.asarray(ranks, dtype=np.int64))
