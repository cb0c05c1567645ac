"""Exact comparison of averages of exact rates, with int64 arithmetic only.

A player's average after a round is a rational: the sum of their rates num/den divided by
their set count k. Over the common denominator K*L (L the lcm of every rate denominator, K the
lcm of every set count) it is an integer V in [0, K*L]. In a small event V fits in int64, but
in a big one each set has its own denominator 2(n - 1) and L has hundreds of bits. So V is
kept as its residues modulo m primes just below 2**31 whose product exceeds K*L: by the
Chinese remainder theorem two averages are equal exactly when every residue is equal, and no
product of two residues reaches 2**62.

Equality (the ties) is therefore decided exactly; residues are compared only where two float
averages are within 1e-12 (exactly equal averages always are). The order of unequal averages
comes from their float values, except where two of them are within 1e-12 of each other (float
sums could misorder them): those few are rebuilt from their residues as Python integers and
compared exactly.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import pandas as pd

# Float averages closer than this are compared exactly, never by the floats. A float sum of
# k rates errs by about k * 2**-53 (1e-13 for a thousand sets), so exact ties always fall
# within it, and different averages this close are rare enough to rebuild one by one.
_NEAR = 1e-12


def _is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for n < 2**32 (bases 2, 7, 61 suffice)."""
    if n < 2 or n % 2 == 0:
        return n == 2
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 7, 61):
        x = pow(a, d, n)
        if x in (0, 1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@cache
def primes(count: int) -> tuple[int, ...]:
    """The ``count`` largest primes below 2**31, largest first.

    >>> primes(3)
    (2147483647, 2147483629, 2147483587)
    """
    found, n = [], 2**31 - 1
    while len(found) < count:
        if _is_prime(n):
            found.append(n)
        n -= 1
    return tuple(found)


def _common(values: np.ndarray) -> tuple[int, list[int], np.ndarray]:
    """The lcm of ``values``, lcm // v per distinct v (Python integers), each element's index
    into the distinct values."""
    where, distinct = pd.factorize(values)
    big = math.lcm(*distinct.tolist())
    return big, [big // v for v in distinct.tolist()], where


def average_residues(
    cell: np.ndarray,
    num: np.ndarray,
    den: np.ndarray,
    shape: tuple[int, int],
    rows: np.ndarray,
    cols: np.ndarray,
    sets: np.ndarray,
) -> tuple[np.ndarray, tuple[int, ...]]:
    """Residues of V = (cumulative sum of rates) * K / k for the cells (``rows``, ``cols``).

    ``cell`` gives each rate's cell (player * rounds + round) in a grid of ``shape``; sums
    accumulate along each grid row (over rounds), ``sets`` is k of each chosen cell. Only the
    rates that reach a chosen cell are read. Returns the residues (m, cells) and the m primes
    (their product exceeds K*L >= V).
    """
    chosen_cells = np.zeros(shape, dtype=bool)
    chosen_cells[rows, cols] = True
    reaches = np.logical_or.accumulate(chosen_cells[:, ::-1], axis=1)[:, ::-1].ravel()[cell]
    cell, num, den = cell[reaches], num[reaches], den[reaches]
    scale, per_den, den_at = _common(den)
    common, per_sets, sets_at = _common(sets)
    chosen = primes((scale * common).bit_length() // 30 + 2)
    residues = np.empty((len(chosen), len(rows)), dtype=np.int64)
    for i, prime in enumerate(chosen):
        factor = np.array([q % prime for q in per_den], dtype=np.int64)[den_at]
        per_cell = np.bincount(cell, (num % prime) * factor % prime, shape[0] * shape[1])
        running = per_cell.astype(np.int64).reshape(shape).cumsum(axis=1) % prime
        factor = np.array([q % prime for q in per_sets], dtype=np.int64)[sets_at]
        residues[i] = running[rows, cols] * factor % prime
    return residues, chosen


def _rebuild(residues: np.ndarray, chosen: tuple[int, ...]) -> int:
    """V from its residues (Chinese remainder theorem), as a Python integer."""
    modulus = math.prod(chosen)
    total = 0
    for r, p in zip(residues.tolist(), chosen, strict=True):
        rest = modulus // p
        total += r * rest * pow(rest, -1, p)
    return total % modulus


def maybe_equal(groups: np.ndarray, approx: np.ndarray) -> np.ndarray:
    """Elements whose float average is within ``_NEAR`` of another's in the same group: only
    these can equal another exactly or be misordered, so only these need residues."""
    by_value = np.lexsort((approx, groups))
    close = (groups[by_value[1:]] == groups[by_value[:-1]]) & (
        np.diff(approx[by_value]) <= _NEAR)
    maybe = np.zeros(len(groups), dtype=bool)
    maybe[by_value[1:][close]] = True
    maybe[by_value[:-1][close]] = True
    return maybe


def exact_order(
    groups: np.ndarray,
    approx: np.ndarray,
    maybe: np.ndarray,
    residues: np.ndarray,
    chosen: tuple[int, ...],
) -> tuple[np.ndarray, np.ndarray]:
    """An int64 key per element: within a group, equal keys for exactly equal averages and a
    larger key for a larger average; keys ascend with the group first. Also one float per
    element, the same for all of an exact tie (for display).

    ``approx`` are the float averages, ``maybe`` marks the elements ``maybe_equal`` found and
    ``residues`` holds theirs (one column per marked element, in order).
    """
    klass = np.arange(len(groups), dtype=np.int64)
    tied = pd.factorize(groups[maybe])[0].astype(np.int64)
    for column in residues:
        tied = pd.factorize(tied * 2**31 + column)[0].astype(np.int64)
    klass[maybe] = tied + len(groups)
    klass = pd.factorize(klass)[0].astype(np.int64)
    top = np.full(klass.max() + 1 if len(klass) else 0, -np.inf)
    np.maximum.at(top, klass, approx)
    order = np.lexsort((klass, top[klass], groups))
    ordered = klass[order]
    new_class = np.r_[True, ordered[1:] != ordered[:-1]]
    starts = order[new_class]  # one element of each class, classes in ascending order
    class_key = np.arange(1, len(starts) + 1, dtype=np.int64)
    near = (groups[starts[1:]] == groups[starts[:-1]]) & (
        top[klass[starts[1:]]] - top[klass[starts[:-1]]] <= _NEAR)
    if near.any():
        column_of = np.cumsum(maybe) - 1
        _order_near(class_key, near, column_of[starts], residues, chosen)
    key = np.empty(len(klass), np.int64)
    key[order] = class_key[np.cumsum(new_class) - 1]
    return key, top[klass]


def _order_near(
    class_key: np.ndarray,
    near: np.ndarray,
    columns: np.ndarray,
    residues: np.ndarray,
    chosen: tuple[int, ...],
) -> None:
    """Reorder each run of classes whose float averages nearly touch by their exact values.

    ``near[j]`` links class j + 1 to class j; ``columns[j]`` is class j's residue column.
    Runs are rare (two different averages within 1e-12), so a Python loop over them is fine.
    """
    edges = np.diff(np.r_[0, near.astype(np.int8), 0])
    for first, last in zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1), strict=True):
        run = np.arange(first, last + 1)
        exact = [_rebuild(residues[:, columns[j]], chosen) for j in run]
        class_key[run] = class_key[first] + np.argsort(np.argsort(exact, kind="stable"))
