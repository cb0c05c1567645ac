"""Score rates worked by hand (SPEC 6: matchpoints per set and direction, Neuberg, artificial)."""

from fractions import Fraction

import pandas as pd
import pytest
from scoring_support import make_sets

from guandan_dup.errors import GuandanError
from guandan_dup.scoring import score
from guandan_dup.scoring.rates import adjusted_fractions


def one_set(levels, adjusted=(), round_=1, set_no=1, group_of=lambda t: 1):
    """Tables 1.. with ``levels`` (NS, EW) pairs, then artificial results ``adjusted``."""
    rows = [(round_, group_of(t), t, set_no, f"n{t}", f"e{t}", f"s{t}", f"w{t}", ns, ew, None)
            for t, (ns, ew) in enumerate(levels, 1)]
    start = len(levels) + 1
    rows += [(round_, 1, t, set_no, f"n{t}", f"e{t}", f"s{t}", f"w{t}", None, None, adj)
             for t, adj in enumerate(adjusted, start)]
    return make_sets(rows)


def rates(travellers):
    return list(zip(travellers["ns_rate"], travellers["ew_rate"], strict=True))


def test_spec6_four_tables_d_plus3_plus1_plus1_minus2():
    # D = +3, +1, +1, -2; n = 4, top 2(n-1) = 6.
    # NS: +3 beats 3 -> 6/6 = 1; each +1 beats 1 ties 1 -> 3/6 = 0.5; -2 beats 0 -> 0.
    # EW mirrors: 0, 0.5, 0.5, 1.
    travellers = score(one_set([("5", "2"), ("3", "2"), ("3", "2"), ("2", "4")])).travellers
    assert rates(travellers) == [(1, 0), (0.5, 0.5), (0.5, 0.5), (0, 1)]
    assert travellers["ns_score"].tolist() == [3, 1, 1, -2]
    assert travellers["ns_matchpoints"].tolist() == [6, 3, 3, 0]
    assert travellers["top"].tolist() == [6, 6, 6, 6]


def test_spec6_three_tables_ties_score_half_a_comparison():
    # D = +2, +2, -1: each +2 beats 1 and ties 1 -> (1 + 1/2) / 2 = 0.75; -1 -> 0.
    travellers = score(one_set([("4", "2"), ("4", "2"), ("2", "3")])).travellers
    assert rates(travellers) == [(0.75, 0.25), (0.75, 0.25), (0, 1)]


def test_spec6_a_lone_result_scores_one_half():
    assert rates(score(one_set([("A+", "2")])).travellers) == [(0.5, 0.5)]


def test_spec6_both_partners_get_their_direction_rate_and_ew_score_is_minus_d():
    scores = score(one_set([("5", "2"), ("2", "2")])).scores
    first = scores[scores["table"] == 1].set_index("seat")
    assert first["score_rate"].to_dict() == {"N": 1, "E": 0, "S": 1, "W": 0}
    assert first["score"].tolist() == [3, -3, 3, -3]
    assert first["direction"].tolist() == ["NS", "EW", "NS", "EW"]


def test_spec6_neuberg_three_results_of_four_expected():
    # n = 3 real, N = 4 expected; D = +3, 0, -1: MP = 4, 2, 0 out of 2(n-1) = 4.
    # MP' = (MP + 1) * 4/3 - 1 = 17/3, 3, 1/3 out of top 2(N-1) = 6.
    # SR = 17/18, 1/2, 1/18.
    scored = score(one_set([("5", "2"), ("2", "2"), ("2", "3")]), expected=4)
    exact = [Fraction(int(n), int(d)) for n, d in
             zip(scored.travellers["ns_rate_num"], scored.travellers["rate_den"], strict=True)]
    assert exact == [Fraction(17, 18), Fraction(1, 2), Fraction(1, 18)]
    assert scored.travellers["ns_matchpoints"].tolist() == pytest.approx([17 / 3, 3, 1 / 3])
    assert scored.travellers["top"].tolist() == [6, 6, 6]


def test_spec6_no_expected_count_means_no_neuberg():
    plain = score(one_set([("5", "2"), ("2", "2"), ("2", "3")])).travellers
    assert rates(plain) == [(1, 0), (0.5, 0.5), (0, 1)]


def test_spec6_expected_per_set_mapping_and_surplus_warning():
    sets = pd.concat([one_set([("5", "2"), ("2", "2")], set_no=1),
                      one_set([("5", "2"), ("2", "2"), ("2", "3")], set_no=2)])
    scored = score(sets, expected={1: 3, 2: 2})
    # Set 1: n = 2, N = 3: MP 2 -> (3 * 3/2 - 1) / 4 = 7/8; MP 0 -> (3/2 - 1) / 4 = 1/8.
    assert scored.travellers["ns_rate"].tolist()[:2] == [7 / 8, 1 / 8]
    assert scored.travellers["ns_rate"].tolist()[2:] == [1, 0.5, 0]
    assert scored.warnings == ["set 2: 3 results but only 2 tables expected; not adjusted"]


def test_spec6_artificial_results_take_fixed_rates_and_count_as_missing():
    # Tables 1-2 real (D = +1, -1), table 3 "A+/A-", expected 3 tables:
    # real n = 2, N = 3: MP 2 -> 7/8, MP 0 -> 1/8; table 3 NS 0.60, EW 0.40, no comparison.
    sets = one_set([("3", "2"), ("2", "3")], adjusted=["A+/A-"])
    scored = score(sets, expected=3)
    assert rates(scored.travellers) == [(7 / 8, 1 / 8), (1 / 8, 7 / 8), (0.6, 0.4)]
    artificial = scored.scores[scored.scores["table"] == 3]
    assert artificial["score"].isna().all()
    assert artificial["adjusted"].tolist() == ["A+", "A-", "A+", "A-"]


def test_spec6_artificial_rates_are_configurable():
    sets = one_set([("3", "2")], adjusted=["A/A", "A+/A-"])
    travellers = score(sets, adjusted_rates={"A+": 0.7, "A": 0.45, "A-": 0.4}).travellers
    assert rates(travellers)[1:] == [(0.45, 0.45), (0.7, 0.4)]


def test_artificial_rate_outside_0_to_1_is_refused():
    with pytest.raises(GuandanError, match="'A\\+' rate 1.5 is not between 0 and 1"):
        adjusted_fractions({"A+": 1.5})


def test_artificial_code_without_a_rate_is_refused():
    sets = one_set([("3", "2")], adjusted=["A+/A-"])
    with pytest.raises(GuandanError, match="table 2, set 1: artificial result 'A\\+/A-' has no"):
        score(sets, adjusted_rates={"A": 0.5})


def test_spec6_compare_within_group_keeps_groups_apart():
    # Group 1: D = +1, 0 -> 1, 0. Group 2: D = +5, +4 -> 1, 0. Event-wide the +1 would
    # beat only the 0 of three others: 2/6.
    levels = [("3", "2"), ("2", "2"), ("7", "2"), ("6", "2")]
    group_of = {1: 1, 2: 1, 3: 2, 4: 2}.get
    by_group = score(one_set(levels, group_of=group_of), compare_within="group").travellers
    assert by_group["ns_rate"].tolist() == [1, 0, 1, 0]
    event_wide = score(one_set(levels, group_of=group_of)).travellers
    assert event_wide["ns_rate"].tolist() == [2 / 6, 0, 1, 4 / 6]


def test_spec6_neuberg_per_group_when_groups_are_compared_apart():
    # Group 1 has 2 tables, both played: D = +1, 0 -> 1, 0 (no adjustment, n = N = 2).
    # Group 2 expected 3 tables, 2 played (D = +5, +4): n = 2, N = 3, MP 2 and 0 out of 2:
    # MP' = (MP + 1) * 3/2 - 1 = 7/2, 1/2 out of top 4 -> 7/8, 1/8.
    levels = [("3", "2"), ("2", "2"), ("7", "2"), ("6", "2")]
    group_of = {1: 1, 2: 1, 3: 2, 4: 2}.get
    scored = score(one_set(levels, group_of=group_of), expected={(1, 1): 2, (1, 2): 3},
                   compare_within="group")
    assert scored.travellers["ns_rate"].tolist() == [1, 0, 7 / 8, 1 / 8]
    assert scored.travellers["top"].tolist() == [2, 2, 4, 4]


def test_expected_per_group_needs_group_comparison():
    with pytest.raises(GuandanError, match=r"per \(set, group\) need compare_within='group'"):
        score(one_set([("3", "2")]), expected={(1, 1): 2})


def test_compare_within_must_be_event_or_group():
    with pytest.raises(GuandanError, match="compare within 'table'"):
        score(one_set([("3", "2")]), compare_within="table")


def test_same_set_compares_across_rounds_as_the_spec_numbers_sets_event_wide():
    sets = pd.concat([one_set([("3", "2")], round_=1), one_set([("2", "2")], round_=2)])
    assert score(sets).travellers["ns_rate"].tolist() == [1, 0]
