"""The vectorised scorer equals a slow, obvious one (Fractions, loops) on random events.

The slow reference and ``make_sets`` (the normalised-set-table builder the other scoring
tests use) live in ``scoring_support``.
"""

from fractions import Fraction

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from scoring_support import events, reference_rates, reference_standings

from guandan_dup.scoring import score

SETTINGS = settings(max_examples=60, deadline=None)


def exact_rates(scores):
    return {
        (r.round, r.set, r.group, r.table, r.direction): Fraction(int(r.rate_num),
                                                                  int(r.rate_den))
        for r in scores.itertuples()
    }


@SETTINGS
@given(events(), st.sampled_from([None, 3, 6]), st.sampled_from(["event", "group"]),
       st.integers(0, 3))
def test_vectorised_scorer_equals_the_reference(sets, expected, within, seed):
    scored = score(sets, expected=expected, compare_within=within, seed=seed)
    reference = reference_rates(sets, expected, within)
    assert exact_rates(scored.scores) == reference
    got = [(r.round, r.player, r.sets, r.rank, r.rank_label, r.position)
           for r in scored.standings.itertuples()]
    want = reference_standings(sets, reference, seed)
    assert got == [(r, p, c, rank, label, pos) for r, p, c, _, rank, label, pos in want]
    cumulative = dict(((r, p), avg) for r, p, _, avg, *_ in want)
    for r in scored.standings.itertuples():
        assert abs(r.cumulative - float(cumulative[r.round, r.player])) < 1e-12


@SETTINGS
@given(events(), st.data())
def test_previous_positions_break_ties_as_the_reference_does(sets, data):
    """Positions before the first round (some players without one, some shared), given as a
    dict or a Series, order tied players before the lot does."""
    players = sorted(set(sets[["north", "east", "south", "west"]].to_numpy().ravel()))
    placed = data.draw(st.lists(st.sampled_from(players), unique=True) if players else
                       st.just([]))
    before = {p: data.draw(st.integers(1, 5)) for p in placed}
    given_as = data.draw(st.sampled_from([dict, lambda b: pd.Series(b, dtype="int64")]))
    scored = score(sets, previous_positions=given_as(before))
    want = reference_standings(sets, reference_rates(sets), previous=before)
    assert [(r.round, r.player, r.position) for r in scored.standings.itertuples()] == \
        [(r, p, pos) for r, p, *_, pos in want]


@SETTINGS
@given(events(), st.sampled_from([None, 6]))
def test_rates_lie_between_0_and_1_and_floats_match_exact(sets, expected):
    scores = score(sets, expected=expected).scores
    assert scores["score_rate"].between(0, 1).all()
    np.testing.assert_allclose(scores["score_rate"], scores["rate_num"] / scores["rate_den"])


@SETTINGS
@given(events(), st.sampled_from(["event", "group"]))
def test_ns_and_ew_average_one_half_when_every_table_has_both(sets, within):
    real = sets[sets["ns_level"].notna()]
    travellers = score(real, compare_within=within).travellers
    keys = ["set"] if within == "event" else ["set", "group"]
    means = travellers.groupby(keys)[["ns_rate", "ew_rate"]].mean().mean(axis=1)
    np.testing.assert_allclose(means, 0.5)


@SETTINGS
@given(events(), st.randoms(use_true_random=False))
def test_permuting_input_rows_changes_nothing(sets, rnd):
    order = list(range(len(sets)))
    rnd.shuffle(order)
    first, second = score(sets, seed=1), score(sets.iloc[order], seed=1)
    for name in ("scores", "standings", "travellers"):
        pd.testing.assert_frame_equal(getattr(first, name), getattr(second, name))
