"""Shared ranks (SPEC 6: equal averages share a rank, the next is skipped, shown "1="; SPEC 8
art. 49: teams still equal before the lot share a rank "3="): ``ranking.standing_ranks``
against the slow, obvious count of the entries ranked above."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from guandan_dup.ranking import rank_labels, standing_ranks


def reference(keys: list[int], above: int = 0) -> tuple[list[int], list[str]]:
    """Rank = 1 + entries with a different key before this one; "=" when the key repeats."""
    ranks = [above + 1 + sum(k != key for k in keys[:i]) for i, key in enumerate(keys)]
    labels = [f"{r}=" if keys.count(key) > 1 else str(r)
              for r, key in zip(ranks, keys, strict=True)]
    return ranks, labels


@pytest.mark.parametrize(
    ("keys", "ranks", "labels"),
    [
        ([], [], []),
        ([5], [1], ["1"]),
        ([3, 3, 1], [1, 1, 3], ["1=", "1=", "3"]),
        ([0, 1, 1, 1, 2], [1, 2, 2, 2, 5], ["1", "2=", "2=", "2=", "5"]),
        ([9, 8, 7], [1, 2, 3], ["1", "2", "3"]),
        ([2**62, 2**62, -(2**62)], [1, 1, 3], ["1=", "1=", "3"]),
    ],
)
def test_spec6_equal_keys_share_a_rank_and_skip_the_next(keys, ranks, labels):
    got_ranks, got_labels = standing_ranks(np.array(keys, np.int64))
    assert got_ranks.tolist() == ranks
    assert got_labels.to_pylist() == labels


@given(st.lists(st.integers(-5, 5), max_size=30), st.integers(0, 1000), st.booleans())
def test_standing_ranks_equal_the_obvious_count(keys, above, ascending):
    keys = sorted(keys, reverse=not ascending)
    ranks, labels = standing_ranks(np.array(keys, np.int64), above=above)
    assert (ranks.tolist(), labels.to_pylist()) == reference(keys, above)


def test_keys_out_of_standing_order_or_not_integers_are_refused():
    with pytest.raises(ValueError, match="standing order"):
        standing_ranks(np.array([1, 2, 1]))
    with pytest.raises(ValueError, match="integers"):
        standing_ranks(np.array([0.5, 0.5]))


@given(st.lists(st.integers(1, 40), max_size=30))
def test_rank_labels_mark_every_shared_rank(ranks):
    ranks = sorted(ranks)
    expected = [f"{r}=" if ranks.count(r) > 1 else str(r) for r in ranks]
    assert rank_labels(np.array(ranks, np.int64)).to_pylist() == expected


def test_knockout_places_with_a_gap_keep_their_numbers():
    # a 5-6 match with one side only: its side is 5th, the 7-8 bye's side 7th, no 6th
    assert rank_labels(np.array([1, 2, 3, 4, 5, 7, 9, 9])).to_pylist() == [
        "1", "2", "3", "4", "5", "7", "9=", "9="]
