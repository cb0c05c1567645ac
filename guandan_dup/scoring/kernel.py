"""The scoring kernel: numpy arrays in, numpy arrays out, no frames and no files (STYLE 14).

Both engines run these functions: the local one on a round read from disk, the Dask one on a
partition on a worker. Nothing here knows where the arrays came from.

Matchpoints need no sort. A result's score D = NS level - EW level takes 27 values
(-13..+13), so a comparison (a set, or a set within a group) is a row of 27 counts: a result
beats the results counted below its D and ties the others at its D. A comparison is any
integer id with an expected table count beside it, so other groupings (a fouled set's
groups, say) are only other ids.
"""

from __future__ import annotations

import numpy as np

SPAN = 27  # D in -13..+13


def matchpoints(comparison: np.ndarray, d: np.ndarray, comparisons: int):
    """NS matchpoints in 2/1 units (2 per result beaten, 1 per tie) per cell, a cell being an
    occupied (comparison, D): results of one comparison with the same D score alike, so rates
    are worked out once per cell (at most 27 a comparison) and spread to the rows. Returns
    each cell's matchpoints and comparison, each comparison's real result count n, and each
    row's cell.

    ``comparison`` holds ids in ``0..comparisons-1``; ``d`` each row's D (-13..+13).

    >>> mp, at, n, cell = matchpoints(np.array([0, 0, 0, 0]), np.array([3, 1, 1, -2]), 1)
    >>> mp[cell].tolist(), at.tolist(), n.tolist()
    ([6, 3, 3, 0], [0, 0, 0], [4])
    """
    slot = comparison.astype(np.int64) * SPAN + (d.astype(np.int64) + 13)
    counts = np.bincount(slot, minlength=comparisons * SPAN)
    table = counts.reshape(comparisons, SPAN)
    occupied = np.flatnonzero(counts)
    below = (np.cumsum(table, axis=1) - table).ravel()[occupied]
    cell = np.zeros(len(counts), np.int64)
    cell[occupied] = np.arange(len(occupied))
    return 2 * below + counts[occupied] - 1, occupied // SPAN, table.sum(axis=1), cell[slot]


def exact_rates(mp: np.ndarray, n: np.ndarray, big_n: np.ndarray):
    """Each real result's NS rate as a reduced fraction (num, den), Neuberg-adjusted to
    ``big_n`` tables (``big_n >= n``)::

        SR = ((MP + 1) * N - n) / (2n(N - 1)),   1/2 when N = 1

    >>> num, den = exact_rates(np.array([4, 2, 0]), np.array([3, 3, 3]), np.array([4, 4, 4]))
    >>> num.tolist(), den.tolist()
    ([17, 1, 1], [18, 2, 18])
    """
    num = np.where(big_n > 1, (mp + 1) * big_n - n, 1)
    den = np.where(big_n > 1, 2 * n * (big_n - 1), 2)
    common = np.gcd(num, den)
    return num // common, den // common


def per_player(codes: np.ndarray, rate: np.ndarray, players: int):
    """Each player's count of rates and float sum of them, summed in row order (the order is
    part of the contract: the shown averages are these floats)."""
    return (np.bincount(codes, minlength=players),
            np.bincount(codes, rate, minlength=players))
