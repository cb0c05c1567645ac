"""Swiss pairing (seed 000 art. 26, SPEC 8) and Berger round robins (art. 25, 29.1)."""

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from guandan_dup.teams import berger_round, home_first, swiss_round
from guandan_dup.teams.roundrobin import cycle_length


def meet(*pairs):
    return {frozenset(p) for p in pairs}


def test_art26_3_round_one_is_a_slide_by_team_number():
    assert swiss_round(range(1, 9), set(), set(), 1).pairs == ((1, 5), (2, 6), (3, 7), (4, 8))
    odd = swiss_round(range(1, 8), set(), set(), 1)
    assert odd.bye == 7 and odd.pairs == ((1, 4), (2, 5), (3, 6))


# order, meetings so far, expected pairs, expected rematches
TOP_DOWN = [
    ([1, 2, 3, 4], meet((1, 3), (2, 4)), ((1, 2), (3, 4)), ()),
    ([1, 2, 3, 4], meet((3, 4)), ((1, 3), (2, 4)), ()),  # 1-2 would leave 3-4: backtrack
    ([4, 3, 2, 1], meet((4, 3), (2, 1)), ((4, 2), (3, 1)), ()),
    ([1, 2, 3, 4], meet((1, 2), (1, 3), (1, 4)), ((1, 2), (3, 4)), ((1, 2),)),
]


def test_art26_1_top_down_with_backtracking_and_fewest_rematches():
    for order, met, pairs, rematches in TOP_DOWN:
        result = swiss_round(order, met, set(), 3)
        assert (result.pairs, result.rematches) == (pairs, rematches), (order, met)


def test_art26_6_the_bye_goes_to_the_lowest_placed_team_without_one():
    assert swiss_round([5, 1, 2, 4, 3], set(), {3}, 2).bye == 4
    assert swiss_round([5, 1, 2, 4, 3], set(), {1, 2, 3, 4, 5}, 6).bye == 3


def test_art29_1_swiss_home_team_by_round_parity():
    assert home_first((7, 2), 1) == (2, 7) and home_first((2, 7), 2) == (7, 2)


def rematch_free_exists(teams, met):
    """Slow reference: is there any perfect pairing of ``teams`` without a rematch?"""
    if not teams:
        return True
    first, rest = teams[0], teams[1:]
    return any(
        frozenset((first, o)) not in met and rematch_free_exists(rest[:i] + rest[i + 1:], met)
        for i, o in enumerate(rest)
    )


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 11), st.integers(1, 9), st.randoms(use_true_random=False))
def test_swiss_properties_over_random_events(teams, rounds, rng):
    """No rematch while avoidable; the bye to the lowest-placed team without one (so at most
    one each while the rounds allow); every team once a round; same input, same pairing."""
    order, met, byes = list(range(1, teams + 1)), set(), []
    for round_no in range(1, rounds + 1):
        result = swiss_round(order, met, set(byes), round_no)
        again = swiss_round(list(order), set(reversed(list(met))), set(byes[::-1]), round_no)
        assert result == again
        playing = [t for t in order if t != result.bye]
        assert sorted(t for p in result.pairs for t in p) == sorted(playing)
        if result.rematches:
            assert not rematch_free_exists(playing, met)
        if teams % 2:
            fresh = [t for t in order if t not in byes]
            assert result.bye == (fresh[-1] if fresh else order[-1])
            if round_no <= teams:
                assert result.bye not in byes
            byes.append(result.bye)
        met |= {frozenset(p) for p in result.pairs}
        order = rng.sample(order, len(order))  # any standings may follow


def test_swiss_pairs_24_teams_over_7_rounds_without_rematches():
    rng = random.Random(7)
    order, met = list(range(1, 25)), set()
    for round_no in range(1, 8):
        result = swiss_round(order, met, set(), round_no)
        assert not result.rematches
        met |= {frozenset(p) for p in result.pairs}
        order = rng.sample(order, 24)
    assert len(met) == 7 * 12


def test_art25_berger_round_robin_every_pair_meets_once():
    for teams in range(2, 12):
        length = cycle_length(teams)
        rounds = [berger_round(teams, r) for r in range(1, length + 1)]
        pairs = [frozenset(p) for r in rounds for p in r if p[1] is not None]
        assert len(pairs) == len(set(pairs)) == teams * (teams - 1) // 2
        byes = [p[0] for r in rounds for p in r if p[1] is None]
        assert sorted(byes) == (list(range(1, teams + 1)) if teams % 2 else [])
        for r in rounds:
            assert sorted(t for p in r for t in p if t is not None) == list(range(1, teams + 1))


def test_art25_the_standard_berger_table_of_four_and_the_second_cycle():
    assert [berger_round(4, r) for r in (1, 2, 3)] == [
        [(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    assert berger_round(4, 4) == [(4, 1), (3, 2)], "the second cycle swaps home and away"
    homes = itertools.chain.from_iterable(berger_round(6, r) for r in range(1, 6))
    assert len([h for h, _ in homes]) == 15
