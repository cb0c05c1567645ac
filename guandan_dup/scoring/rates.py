"""Score rates per set and direction: matchpoints, Neuberg, artificial results (SPEC 6).

Every real result on a set is compared with every other real result on the same set in the
same direction (event-wide, or within its group). Matchpoints are integers in 2/1 units
(a win 2, a tie 1), counted per (comparison, D) by ``kernel.matchpoints`` without a sort.

Rates are kept EXACT as an integer numerator over an integer denominator per table: the
standings decide ties on these fractions, never on floats. One formula covers both the plain
and the Neuberg case. With n real results, N tables expected (N = n when nothing is missing)
and MP the matchpoints out of 2(n - 1)::

    MP' = (MP + 1) * N / n - 1          (Neuberg, top 2(N - 1))
    SR  = MP' / (2(N - 1)) = ((MP + 1) * N - n) / (2n(N - 1))

which for N = n is MP / (2(n - 1)). A lone result (N = 1) scores 1/2. The EW numerator is
``den - ns_num`` because the two directions of a table share the comparisons' matchpoints.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from numbers import Rational, Real
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..arrays import filled, strings, to_arrow, to_numpy
from ..errors import GuandanError
from .kernel import exact_rates, matchpoints
from .options import COMPARE_WITHIN
from .outputs import TRAVELLERS_DTYPES, floats, nullable, output_table

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_ADJUSTED_RATES: dict[str, Fraction] = {
    "A+": Fraction(3, 5),
    "A": Fraction(1, 2),
    "A-": Fraction(2, 5),
}
Expected = int | Mapping[int, int] | Mapping[tuple[int, int], int] | None
"""Tables expected per set (Neuberg's N): one count, per set, or per (set, group)."""


def adjusted_fractions(adjusted_rates: Mapping[str, Real] | None) -> dict[str, Fraction]:
    """The fixed rates of artificial results as exact fractions, code -> rate.

    A mapping given replaces the defaults whole (its codes are the ones ingestion accepts).
    Floats are read through their decimal text, so ``0.6`` means 3/5, not the binary float.

    >>> adjusted_fractions({"A+": 0.65, "A": 0.5, "A-": 0.35})["A+"]
    Fraction(13, 20)
    """
    if adjusted_rates is None:
        return dict(DEFAULT_ADJUSTED_RATES)
    rates = {}
    for code, value in adjusted_rates.items():
        exact = Fraction(value) if isinstance(value, Rational) else Fraction(str(value))
        if not 0 <= exact <= 1:
            raise GuandanError(
                f"artificial result {code!r} rate {value!r} is not between 0 and 1"
            )
        rates[code] = exact
    return rates


def _unrated(artificial: pa.Table, rates: Mapping[str, Fraction]) -> None:
    """Refuse artificial results whose code has no rate, naming the first such table."""
    known = strings(rates)
    unknown = np.zeros(artificial.num_rows, bool)
    for column in ("ns_adjusted", "ew_adjusted"):
        unknown |= ~to_numpy(pc.is_in(artificial[column], value_set=known))
    if unknown.any():
        row = artificial.slice(int(np.argmax(unknown)), 1).to_pylist()[0]
        raise GuandanError(
            f"round {row['round']}, table {row['table']}, set {row['set']}: artificial result "
            f"{row['adjusted']!r} has no rate; rates are given for {', '.join(rates)}"
        )


def _expected(expected: Expected, rows: Mapping[str, np.ndarray], n: np.ndarray) -> np.ndarray:
    """N for each comparison: the expected table count, never below its real count n.

    A mapping is keyed by set number, or by (set, group) when groups are compared apart (each
    group's tables are then the ones expected); ``rows`` holds the comparisons' columns.
    """
    if expected is None:
        return n
    if not isinstance(expected, Mapping):
        return np.maximum(np.full(len(n), int(expected), dtype=np.int64), n)
    by_group = any(isinstance(key, tuple) for key in expected)
    within = "venue" if "venue" in rows else "group"
    if by_group and within not in rows:
        raise GuandanError(
            "tables expected per (set, group) need compare_within='group'; comparing "
            "event-wide, give them per set"
        )
    import pandas as pd  # only for a mapping of expected tables, never at national scale

    if by_group:
        index = pd.MultiIndex.from_tuples([(int(s), int(g)) for s, g in expected])
        where = pd.MultiIndex.from_arrays([rows["set"], rows[within]])
    else:
        index = pd.Index([int(s) for s in expected])
        where = rows["set"]
    lookup = pd.Series([int(v) for v in expected.values()], index=index, dtype="float64")
    wanted = lookup.reindex(where).to_numpy()
    return np.maximum(np.where(np.isnan(wanted), 0, wanted).astype(np.int64), n)


def in_table_order(sets: pd.DataFrame) -> pd.DataFrame:
    """``sets`` ordered by round, set, group, table (so input row order never matters);
    ingestion already delivers them nearly so, and an ordered frame is not copied."""
    order = np.lexsort([sets[c].to_numpy(np.int64) for c in ("table", "group", "set", "round")])
    if np.array_equal(order, np.arange(len(order))):
        return sets.reset_index(drop=True)
    return sets.take(order).reset_index(drop=True)


def _comparisons(numbers: Mapping[str, np.ndarray], by: list[str]) -> np.ndarray:
    """A comparison id per real result, 0, 1, ... (a set, or a set within a group, or a
    fouled split of either); ``numbers`` holds the real results' ``by`` columns."""
    key = numbers["set"]
    for column in by[1:]:  # group, split: small non-negative numbers
        part = numbers[column]
        key = key * (int(part.max(initial=0)) + 1) + part
    return to_numpy(to_arrow(key).dictionary_encode().indices).astype(np.int64)


def _real_rates(
    sets: pa.Table, real: np.ndarray, d: np.ndarray, by: list[str], expected
) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, np.ndarray], np.ndarray]:
    """Exact NS rate (numerator, denominator) and N of every real result (``d``, its D), by
    the formula of the module docstring, reduced; worked out per (comparison, D) cell, not
    per row (the gcd of each row was a tenth of scoring). Also each comparison's ``by``
    columns and n, for the warnings."""
    numbers = {c: to_numpy(sets[c]).astype(np.int64, copy=False)[real] for c in by}
    comparison = _comparisons(numbers, by)
    mp, at, n, cell = matchpoints(comparison, d, int(comparison.max(initial=-1)) + 1)
    reached = np.maximum.accumulate(comparison)  # ids are numbered in order of appearance
    first = np.flatnonzero(np.r_[len(reached) > 0, reached[1:] > reached[:-1]])
    compared = {c: values[first] for c, values in numbers.items()}
    big_n = _expected(expected, compared, n)
    num, den = exact_rates(mp, n[at], big_n[at])
    return num[cell], den[cell], big_n[comparison], compared, n


def _artificial_rates(
    artificial: pa.Table, rates: Mapping[str, Fraction]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """NS and EW numerators over one denominator for each artificial result."""
    _unrated(artificial, rates)
    codes = strings(rates)
    numerators = np.array([f.numerator for f in rates.values()], np.int64)
    denominators = np.array([f.denominator for f in rates.values()], np.int64)
    ns_at, ew_at = (to_numpy(pc.index_in(artificial[c], value_set=codes)).astype(np.int64)
                    for c in ("ns_adjusted", "ew_adjusted"))
    ns_den, ew_den = denominators[ns_at], denominators[ew_at]
    den = np.lcm(ns_den, ew_den)
    return numerators[ns_at] * (den // ns_den), numerators[ew_at] * (den // ew_den), den


def rate_tables(
    sets: pa.Table,
    expected: Expected = None,
    compare_within: str = "event",
    adjusted_rates: Mapping[str, Real] | None = None,
) -> tuple[pa.Table, list[str]]:
    """Travellers (``outputs.TRAVELLERS_DTYPES``): the rows of ``sets`` (the normalised set
    table as Arrow, ``in_table_order``) with each table's exact rates.

    Adds ``ns_score`` (D for NS, null for artificial results), ``ns_matchpoints``,
    ``ew_matchpoints`` (Neuberg-adjusted, 2/1 units, null for artificial results), ``top``,
    ``ns_rate``, ``ew_rate`` (floats for display) and the exact ``ns_rate_num``,
    ``ew_rate_num`` over ``rate_den``. An optional ``split`` column (0 for the field, another
    number per fouled group) compares each split of a set apart; ``expected`` still gives the
    field's count, so every split is Neuberg-factored to the whole field. Also returns
    warnings for sets with more real results than expected (they are not adjusted).
    """
    if compare_within not in COMPARE_WITHIN:
        raise GuandanError(f"compare within {compare_within!r}: expected event, group or venue")
    if compare_within == "venue" and "venue" not in sets.column_names:
        raise GuandanError("compare within venue needs the sets' venue column (an event "
                           "folder with venues numbers them)")
    rates = adjusted_fractions(adjusted_rates)
    ns_level, ew_level = (sets[c].cast(pa.int8()) for c in ("ns_level", "ew_level"))
    real = to_numpy(ns_level.is_valid())
    both = real & to_numpy(ew_level.is_valid())
    d = filled(ns_level, 0).astype(np.int64) - filled(ew_level, 0).astype(np.int64)
    by = ["set"] if compare_within == "event" else ["set", compare_within]
    if "split" in sets.column_names:  # fouled sets: each split compared apart, factored
        by.append("split")
    num, den, big_n, numbers, n = _real_rates(sets, real, d[real], by, expected)

    ns_num = np.zeros(len(real), np.int64)
    ew_num = np.zeros(len(real), np.int64)
    rate_den = np.ones(len(real), np.int64)
    top = np.full(len(real), np.nan)
    ns_num[real], rate_den[real], top[real] = num, den, 2 * (big_n - 1)
    ew_num[real] = den - num
    ns_num[~real], ew_num[~real], rate_den[~real] = _artificial_rates(
        sets.filter(to_arrow(~real)), rates)
    ns_rate, ew_rate = ns_num / rate_den, ew_num / rate_den
    columns = {c: sets[c] for c in TRAVELLERS_DTYPES if c in sets.column_names}
    columns |= {
        "ns_level": ns_level, "ew_level": ew_level,
        "ns_score": nullable(d, ~both, "Int8"),
        "ns_rate": ns_rate, "ew_rate": ew_rate,
        "ns_matchpoints": floats(ns_rate * top), "ew_matchpoints": floats(ew_rate * top),
        "top": nullable(np.where(real, top, 0), ~real, "Int64"),
        "ns_rate_num": ns_num, "ew_rate_num": ew_num, "rate_den": rate_den,
    }
    return output_table("travellers", columns), _surplus_warnings(expected, numbers, n)


def _surplus_warnings(expected, numbers: Mapping[str, np.ndarray], n: np.ndarray) -> list[str]:
    """Name each set that had more real results than the tables expected to play it
    (``numbers``: the comparisons' columns, ``n`` their real result counts)."""
    if expected is None:
        return []
    wanted = _expected(expected, numbers, np.zeros_like(n))
    shown = [c for c in ("set", "group", "venue") if c in numbers]
    return [" ".join(f"{c} {int(numbers[c][i])}" for c in shown)
            + f": {n[i]} results but only {wanted[i]} tables expected; not adjusted"
            for i in np.flatnonzero((n > wanted) & (wanted > 0)).tolist()]
