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

import numpy as np
import pandas as pd

from ..errors import GuandanError
from .kernel import exact_rates, matchpoints
from .options import COMPARE_WITHIN

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


def _unrated(artificial: pd.DataFrame, rates: Mapping[str, Fraction]) -> None:
    """Refuse artificial results whose code has no rate, naming the first such table."""
    codes = artificial[["ns_adjusted", "ew_adjusted"]]
    unknown = ~codes.isin(list(rates)).all(axis=1)
    if unknown.any():
        row = artificial[unknown].iloc[0]
        raise GuandanError(
            f"round {row['round']}, table {row['table']}, set {row['set']}: artificial result "
            f"{row['adjusted']!r} has no rate; rates are given for {', '.join(rates)}"
        )


def _expected_per_row(expected: Expected, rows: pd.DataFrame, n: np.ndarray) -> np.ndarray:
    """N for each real result: the expected table count, never below the real count n.

    A mapping is keyed by set number, or by (set, group) when groups are compared apart (each
    group's tables are then the ones expected); ``rows`` holds the comparison columns.
    """
    if expected is None:
        return n
    if not isinstance(expected, Mapping):
        return np.maximum(np.full(len(rows), int(expected), dtype=np.int64), n)
    by_group = any(isinstance(key, tuple) for key in expected)
    if by_group and "group" not in rows:
        raise GuandanError(
            "tables expected per (set, group) need compare_within='group'; comparing "
            "event-wide, give them per set"
        )
    if by_group:
        index = pd.MultiIndex.from_tuples([(int(s), int(g)) for s, g in expected])
        where = pd.MultiIndex.from_arrays([rows["set"].to_numpy(np.int64),
                                           rows["group"].to_numpy(np.int64)])
    else:
        index = pd.Index([int(s) for s in expected])
        where = rows["set"].to_numpy(np.int64)
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


def _comparisons(frame: pd.DataFrame, real: np.ndarray, by: list[str]) -> np.ndarray:
    """A comparison id per real result, 0, 1, ... (a set, or a set within a group, or a
    fouled split of either)."""
    key = frame["set"].to_numpy(np.int64)[real]
    for column in by[1:]:  # group, split: small non-negative numbers
        part = frame[column].to_numpy(np.int64)[real]
        key = key * (int(part.max(initial=0)) + 1) + part
    return pd.factorize(key)[0].astype(np.int64)


def _real_rates(
    frame: pd.DataFrame, real: np.ndarray, by: list[str], expected
) -> tuple[np.ndarray, np.ndarray, np.ndarray, pd.DataFrame, np.ndarray]:
    """Exact NS rate (numerator, denominator) and N of every real result, by the formula of
    the module docstring, reduced; also the comparison keys and n, for the warnings."""
    real_rows = frame.loc[real, by]
    comparison = _comparisons(frame, real, by)
    d = (frame["ns_level"].to_numpy("int64", na_value=0)
         - frame["ew_level"].to_numpy("int64", na_value=0))[real]
    mp, n = matchpoints(comparison, d, int(comparison.max(initial=-1)) + 1)
    big_n = _expected_per_row(expected, real_rows, n)
    num, den = exact_rates(mp, n, big_n)
    return num, den, big_n, real_rows, n


def _artificial_rates(
    artificial: pd.DataFrame, rates: Mapping[str, Fraction]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """NS and EW numerators over one denominator for each artificial result."""
    _unrated(artificial, rates)
    numerators = {code: f.numerator for code, f in rates.items()}
    denominators = {code: f.denominator for code, f in rates.items()}
    ns_den = artificial["ns_adjusted"].map(denominators).to_numpy(np.int64)
    ew_den = artificial["ew_adjusted"].map(denominators).to_numpy(np.int64)
    den = np.lcm(ns_den, ew_den)
    ns_num = artificial["ns_adjusted"].map(numerators).to_numpy(np.int64) * (den // ns_den)
    ew_num = artificial["ew_adjusted"].map(numerators).to_numpy(np.int64) * (den // ew_den)
    return ns_num, ew_num, den


def rate_tables(
    sets: pd.DataFrame,
    expected: Expected = None,
    compare_within: str = "event",
    adjusted_rates: Mapping[str, Real] | None = None,
) -> tuple[pd.DataFrame, list[str]]:
    """Travellers: ``sets`` (the normalised set table, ``in_table_order``) with each table's
    exact rates.

    Adds ``ns_score`` (D for NS, null for artificial results), ``ns_matchpoints``,
    ``ew_matchpoints`` (Neuberg-adjusted, 2/1 units, null for artificial results), ``top``,
    ``ns_rate``, ``ew_rate`` (floats for display) and the exact ``ns_rate_num``,
    ``ew_rate_num`` over ``rate_den``. An optional ``split`` column (0 for the field, another
    number per fouled group) compares each split of a set apart; ``expected`` still gives the
    field's count, so every split is Neuberg-factored to the whole field. Also returns
    warnings for sets with more real results than expected (they are not adjusted).
    """
    if compare_within not in COMPARE_WITHIN:
        raise GuandanError(f"compare within {compare_within!r}: expected 'event' or 'group'")
    rates = adjusted_fractions(adjusted_rates)
    frame = sets.copy(deep=False)
    real = frame["ns_level"].notna().to_numpy()
    by = ["set"] if compare_within == "event" else ["set", "group"]
    if "split" in frame:  # fouled sets: each split compared apart, factored to the field
        by.append("split")
    num, den, big_n, real_rows, n = _real_rates(frame, real, by, expected)

    ns_num = np.zeros(len(frame), np.int64)
    ew_num = np.zeros(len(frame), np.int64)
    rate_den = np.ones(len(frame), np.int64)
    top = np.full(len(frame), np.nan)
    ns_num[real], rate_den[real], top[real] = num, den, 2 * (big_n - 1)
    ew_num[real] = den - num
    ns_num[~real], ew_num[~real], rate_den[~real] = _artificial_rates(frame.loc[~real], rates)

    levels = frame["ns_level"].astype("Int16") - frame["ew_level"].astype("Int16")
    frame["ns_score"] = levels.astype("Int8")
    frame["ns_rate"] = ns_num / rate_den
    frame["ew_rate"] = ew_num / rate_den
    frame["ns_matchpoints"] = frame["ns_rate"] * top
    frame["ew_matchpoints"] = frame["ew_rate"] * top
    # Built from integers: a cast of the NaN under the mask would warn, or not, depending on
    # the CPU's vector path.
    frame["top"] = pd.arrays.IntegerArray(np.where(real, top, 0).astype(np.int64), ~real)
    frame["ns_rate_num"], frame["ew_rate_num"], frame["rate_den"] = ns_num, ew_num, rate_den
    return frame, _surplus_warnings(expected, real_rows, n)


def _surplus_warnings(expected, real_rows: pd.DataFrame, n: np.ndarray) -> list[str]:
    """Name each set that had more real results than the tables expected to play it."""
    if expected is None:
        return []
    wanted = _expected_per_row(expected, real_rows, np.zeros_like(n))
    over = (n > wanted) & (wanted > 0)
    surplus = real_rows.assign(n=n, wanted=wanted)[over].drop_duplicates()
    where = ("set " + surplus["set"].astype(str)).to_numpy(object)
    if "group" in surplus:
        where = where + (" group " + surplus["group"].astype(str)).to_numpy(object)
    counts = surplus["n"].astype(str) + " results but only " + surplus["wanted"].astype(str)
    return list(where + ": " + counts.to_numpy(object) + " tables expected; not adjusted")
