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
    """NS matchpoints in 2/1 units (2 per result beaten, 1 per tie) and the comparison's
    real result count n, per row.

    ``comparison`` holds ids in ``0..comparisons-1``; ``d`` each row's D (-13..+13).

    >>> mp, n = matchpoints(np.array([0, 0, 0, 0]), np.array([3, 1, 1, -2]), 1)
    >>> mp.tolist(), n.tolist()
    ([6, 3, 3, 0], [4, 4, 4, 4])
    """
    cell = comparison.astype(np.int64) * SPAN + (d.astype(np.int64) + 13)
    counts = np.bincount(cell, minlength=comparisons * SPAN).reshape(comparisons, SPAN)
    below = np.cumsum(counts, axis=1) - counts
    flat_below, flat_counts = below.ravel(), counts.ravel()
    n = counts.sum(axis=1)
    return 2 * flat_below[cell] + flat_counts[cell] - 1, n[comparison]


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
