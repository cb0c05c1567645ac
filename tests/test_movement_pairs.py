"""Pairs movement (SPEC 7 双人赛): 1v2, 3v4, ..., no repeat opponents when avoidable."""

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guandan_dup.errors import InvalidPlanError
from guandan_dup.movement import (
    earlier_meetings,
    match_pairs,
    pair_order,
    partnerships,
    seat_pairs,
)


def members_of(pairs):
    return {p: (f"{p}1", f"{p}2") for p in pairs}


def fewest_repeats(pairs, met):
    """Brute force over every perfect matching: the least number of repeat meetings."""
    if not pairs:
        return 0
    first, rest = pairs[0], pairs[1:]
    return min(
        (frozenset((first, other)) in met) + fewest_repeats(rest[:i] + rest[i + 1 :], met)
        for i, other in enumerate(rest)
    )


def test_spec7_pairs_without_history_meet_1v2_3v4():
    assert match_pairs(["A", "B", "C", "D", "E", "F"]) == [("A", "B"), ("C", "D"), ("E", "F")]


def test_spec7_pairs_look_further_down_the_order_to_avoid_a_repeat():
    met = {frozenset("AB"), frozenset("CD")}
    assert match_pairs(list("ABCD"), met) == [("A", "C"), ("B", "D")]


def test_spec7_pairs_backtrack_when_the_greedy_choice_strands_the_last_two():
    met = {frozenset("AB"), frozenset("CD"), frozenset("BD")}  # greedy A-C leaves B-D
    assert match_pairs(list("ABCD"), met) == [("A", "D"), ("B", "C")]


def test_spec7_unavoidable_repeats_are_reported():
    met = {frozenset("AB")}
    seating = seat_pairs(["A", "B"], members_of("AB"), 1, met=met, round_no=4)
    assert seating.repeats.to_dict("records") == [{"round": 4, "ns": "A", "ew": "B"}]


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 11), rounds=st.integers(1, 6), data=st.data())
def test_spec7_pairs_repeat_no_more_than_the_fewest_possible(n, rounds, data):
    pairs = [chr(ord("A") + i) for i in range(n)]
    members = members_of(pairs)
    pair_of = {p: pair for pair, ps in members.items() for p in ps}
    seatings, byes = [], []
    for r in range(1, rounds + 1):
        order = data.draw(st.permutations(pairs))
        met = earlier_meetings(pd.concat(seatings), pair_of) if seatings else set()
        result = seat_pairs(order, members, 2, met=met, byes_so_far=byes, round_no=r)
        table = result.seating
        ns = table["north"].map(pair_of).tolist()
        ew = table["east"].map(pair_of).tolist()
        bye = sorted({pair_of[p] for p in result.byes["player"]})
        assert sorted(ns + ew + bye) == sorted(pairs), "every pair once per round or on a bye"
        assert all(order.index(a) < order.index(b) for a, b in zip(ns, ew, strict=True))
        playing = [p for p in order if p not in bye]
        repeats = sum(frozenset(m) in met for m in zip(ns, ew, strict=True))
        assert repeats == fewest_repeats(playing, met) == len(result.repeats)
        assert (table["south"] == table["north"].str[0] + "2").all(), "partners stay together"
        seatings.append(table)
        byes += bye


def test_spec7_better_pair_sits_north_south():
    seating = seat_pairs(["B", "A"], members_of("AB"), 1).seating
    assert seating[["north", "south", "east", "west"]].iloc[0].tolist() == ["B1", "B2", "A1", "A2"]


def test_partnerships_need_exactly_two_players():
    players = pd.DataFrame({"player": ["a", "b", "c"], "pair": ["X", "X", "Y"]})
    with pytest.raises(InvalidPlanError, match="these do not: Y: 1 player \\(c\\)$"):
        partnerships(players)


def test_pair_order_follows_the_better_placed_player():
    standings = pd.DataFrame({"player": ["x1", "y1", "x2", "y2"], "position": [3, 1, 2, 4]})
    pair_of = {"x1": "X", "x2": "X", "y1": "Y", "y2": "Y"}
    assert pair_order(standings, pair_of) == ["Y", "X"]
