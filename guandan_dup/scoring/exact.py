"""Exact comparison of averages of exact rates, with integer arithmetic only.

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

The standings keep each round's exact sums as residues (``totals``) and add them up for the
players a ranking compares: moved to a common denominator L that grows with every round's
denominators, so the residues are multiplied by a factor; and when the values outgrow the
primes, ``extend`` adds primes (Garner's algorithm rebuilds each value's residue for the new
prime from the old ones).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache

import numpy as np

from ..arrays import to_arrow, to_numpy

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
    encoded = to_arrow(values).dictionary_encode()
    where, distinct = to_numpy(encoded.indices), to_numpy(encoded.dictionary)
    big = math.lcm(*distinct.tolist())
    return big, [big // v for v in distinct.tolist()], where.astype(np.intp)  # indexes as is


def _spread(values: list[int], prime: int, at: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``values[at] % prime`` into ``out`` (int64 or float64) for Python integers ``values``
    too big for int64. ``at`` is always in range: "clip" spares numpy the copy of ``out`` it
    makes to check the indices ("raise"), a third of the time."""
    return np.take(np.array([v % prime for v in values], dtype=out.dtype), at, out=out,
                   mode="clip")


def rate_sums(
    codes: np.ndarray, num: np.ndarray, den: np.ndarray, players: int, most: int
) -> tuple[int, np.ndarray, tuple[int, ...]]:
    """Each player's exact sum of rates num/den over their common denominator L (the lcm of
    ``den``): returns L, the residues of the sums S = sum(num * L / den) (m, players) and the
    m primes, enough for any S up to ``most`` rates (``most * L`` below their product).

    ``codes`` are the players of the rates, ``0..players-1``. The loop over primes reuses its
    buffers: in a big round each is tens of megabytes, and fresh memory is slow to come by.

    Each player's sum is taken as a float64 and must stay an integer below 2**53. When every
    ``num`` is below 2**22 / ``most`` (sets played at up to some 700 tables, four sets a
    player), ``num * (L / den % prime)`` is such an integer already and only the sums are
    reduced, a player at a time; otherwise each term is reduced first (three more passes over
    the rates a prime, twice the time).
    """
    if not len(codes):
        return 1, np.zeros((0, players), dtype=np.int64), ()
    scale, per_den, den_at = _common(den)
    chosen = primes(primes_for(most * scale))
    residues = np.empty((len(chosen), players), dtype=np.int64)
    small = num.min() >= 0 and int(num.max()) * most < 2**22
    as_float = np.empty(len(num))
    if small:
        weight = num.astype(np.float64)
    else:
        term, factor = np.empty(len(num), dtype=np.int64), np.empty(len(num), dtype=np.int64)
    for i, prime in enumerate(chosen):
        if small:
            _spread(per_den, prime, den_at, out=as_float)
            as_float *= weight
        else:
            reduce(num, prime, out=term)
            term *= _spread(per_den, prime, den_at, out=factor)
            reduce(term, prime, out=term)
            as_float[:] = term  # sums of residues below 2**31 stay exact in a float64 far beyond
        reduce(np.bincount(codes, as_float, players).astype(np.int64), prime, out=residues[i])
    return scale, residues, chosen


def reduce(values: np.ndarray, prime: int, out: np.ndarray | None = None) -> np.ndarray:
    """``values % prime`` of int64 ``values`` (into ``out``, which may be ``values``), as
    ``values - values // prime * prime``: numpy divides an array by one number with
    libdivide's multiply and shift, two to four times quicker than its ``%``, a hardware
    division per element (the dearest step of the exact sums). Floor division, so negative
    values give the same residues as ``%``."""
    quotient = np.floor_divide(values, prime)
    quotient *= prime
    return np.subtract(values, quotient, out=out)


def extend(residues: np.ndarray, chosen: tuple[int, ...], count: int) -> np.ndarray:
    """Residues of the same values modulo ``primes(count)`` (a longer prefix of the same
    primes), for values below the product of ``chosen`` (``residues`` reduced, each below its
    prime): Garner's mixed-radix digits, then each new residue by Horner's rule, all in int64
    (no product reaches 2**62) and in place (a temporary per operation would be the dearest
    part at 400k players)."""
    have = len(chosen)
    if count <= have:
        return residues
    digits = []
    for i, prime in enumerate(chosen):
        digit = residues[i].copy()
        for j in range(i):
            digit -= digits[j]
            digit *= pow(chosen[j], -1, prime)
            reduce(digit, prime, out=digit)
        digits.append(digit)
    out = np.zeros((count, residues.shape[1]), dtype=np.int64)
    out[:have] = residues
    for row, prime in enumerate(primes(count)[have:], have):
        value = out[row]
        if digits:
            reduce(digits[-1], prime, out=value)
        for i in range(have - 2, -1, -1):
            value *= chosen[i] % prime
            value += digits[i]
            reduce(value, prime, out=value)
    return out


def primes_for(bound: int) -> int:
    """How many primes of ``primes`` make a product above ``bound``."""
    return bound.bit_length() // 30 + 1


def _rebuild(residues: np.ndarray, chosen: tuple[int, ...]) -> int:
    """V from its residues (Chinese remainder theorem), as a Python integer."""
    modulus = math.prod(chosen)
    total = 0
    for r, p in zip(residues.tolist(), chosen, strict=True):
        rest = modulus // p
        total += r * rest * pow(rest, -1, p)
    return total % modulus


def sorted_keys(
    approx: np.ndarray,
    residues_at: Callable[[np.ndarray], tuple[np.ndarray, tuple[int, ...]]],
) -> tuple[np.ndarray, np.ndarray]:
    """An int64 key per element of float averages ``approx`` given in ascending order:
    equal keys for exactly equal averages, a larger key for a larger average; and one float
    per element, the same for all of an exact tie (the largest of its floats, for display).

    ``residues_at(at)`` gives the residues of the elements at positions ``at`` (ascending:
    the elements within ``_NEAR`` of a neighbour, the only ones that can equal another
    exactly or be misordered by their floats), one column each, and their primes; so a
    caller holding every element's residues gathers only these, once, in this order.

    In value order, a run of neighbours within ``_NEAR`` of each other holds every average
    that could equal or be misordered with one of them. Usually a run is one exact tie (all
    residues equal its first element's): one key, the run's number. A run holding several
    exact values is rare, and is sorted exactly in Python.

    >>> residues = np.array([[3, 5, 5, 6]])  # modulo 7, one column per average
    >>> keys, shown = sorted_keys(np.array([0.25, 0.5, 0.5, 0.75]),
    ...                           lambda at: (residues[:, at], (7,)))
    >>> keys.tolist(), shown.tolist()
    ([0, 1, 1, 2], [0.25, 0.5, 0.5, 0.75])
    """
    if not len(approx):
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    start = np.r_[True, ~(np.diff(approx) <= _NEAR)]  # a run starts: not near the one before
    run = np.cumsum(start) - 1
    last = np.r_[start[1:], True]
    shown = approx[last][run]  # a run's largest float, for all of it
    tied = np.flatnonzero(~(start & last))  # in a run of two or more
    if not len(tied):
        return run, shown
    residues, chosen = residues_at(tied)
    firsts = np.flatnonzero(start)
    column_of_first = np.arange(len(tied)) - (tied - firsts[run[tied]])
    differs = np.zeros(len(tied), dtype=bool)
    for values in residues:
        differs |= values != values[column_of_first]
    mixed = np.unique(run[tied[differs]])
    if not len(mixed):
        return run, shown
    width = np.ones(len(firsts), dtype=np.int64)  # exact values per run
    within = np.zeros(len(approx), dtype=np.int64)  # rank of the exact value within its run
    bounds = np.r_[firsts, len(approx)]
    for one in mixed.tolist():
        span = slice(bounds[one], bounds[one + 1])
        column = int(np.searchsorted(tied, bounds[one]))
        width[one], within[span], shown[span] = _sort_run(
            residues[:, column:column + span.stop - span.start], approx[span], chosen)
    return (np.cumsum(width) - width)[run] + within, shown


def _sort_run(
    residues: np.ndarray, approx: np.ndarray, chosen: tuple[int, ...]
) -> tuple[int, np.ndarray, np.ndarray]:
    """For one run holding several exact values: how many, each element's rank among them,
    and each element's display float (the largest float of its exact value)."""
    _, firsts, klass = np.unique(residues.T, axis=0, return_index=True, return_inverse=True)
    klass = klass.ravel()
    exact = [_rebuild(residues[:, first], chosen) for first in firsts]
    rank = np.argsort(np.argsort(exact))
    top = np.full(len(firsts), -np.inf)
    np.maximum.at(top, klass, approx)
    return len(firsts), rank[klass], top[klass]
