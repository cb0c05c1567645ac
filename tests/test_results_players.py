"""A player at two tables in one set: the vectorised check against a slow, obvious reference."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from guandan_dup.errors import Problem
from guandan_dup.results.validate import players_at_one_table, repeated
from guandan_dup.seats import SEAT_COLUMNS

KEY = ("round", "set", "table")
ROW = st.fixed_dictionaries({
    "round": st.sampled_from([1, 2, None]),
    "set": st.sampled_from([1, 2]),
    "table": st.integers(1, 3),
    **{seat: st.sampled_from(["p1", "p2", "p3", "p4", "p5", None]) for seat in SEAT_COLUMNS},
})


def reference(rows: list[dict]) -> list[Problem]:
    """Seats in column order (every north, then every east, ...): a player's first seat in a
    (round, set) fixes their table; the first seat at each other table is reported."""
    seats = [(column, i, row) for column in SEAT_COLUMNS for i, row in enumerate(rows)
             if row[column] is not None and all(row[k] is not None for k in KEY)]
    first: dict[tuple, int] = {}
    for column, _, row in seats:
        first.setdefault((row["round"], row["set"], row[column]), row["table"])
    reported, problems = set(), []
    for column, i, row in seats:
        key = (row["round"], row["set"], row[column])
        if row["table"] != first[key] and (key, row["table"]) not in reported:
            reported.add((key, row["table"]))
            problems.append(Problem(
                "f", i + 1, column, row[column],
                f"also plays at table {first[key]} in round {row['round']}, set {row['set']};"
                " a player sits at one table per set",
            ))
    return problems


@settings(max_examples=150, deadline=None)
@given(st.lists(ROW, max_size=12))
def test_property_players_at_one_table_equals_reference(rows):
    frame = pd.DataFrame({
        "_file": pd.Series(["f"] * len(rows), dtype="str"),
        "_row": np.arange(1, len(rows) + 1),
        **{k: pd.array([r[k] for r in rows], "Int64") for k in KEY},
        **{s: pd.Series([r[s] for r in rows], dtype="str") for s in SEAT_COLUMNS},
    })
    assert players_at_one_table(frame) == reference(rows)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 40), max_size=30), st.sampled_from([1, 10**9]))
def test_propertyrepeated_keys_counted_or_hashed_alike(keys, scale):
    """Small keys take the counting path, scaled ones (sparse) the hashing path."""
    keys = np.array(keys, dtype=np.int64) * scale
    counts = Counter(keys.tolist())
    assert repeated(keys).tolist() == [counts[k] > 1 for k in keys.tolist()]
