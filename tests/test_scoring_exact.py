"""Exact averages by residues (scoring.exact): ties exact even when L*K has hundreds of bits."""

import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scoring_support import make_sets, reference_rates, reference_standings

from guandan_dup.scoring import score
from guandan_dup.scoring.exact import (
    extend,
    primes,
    rate_sums,
    reduce,
    sorted_keys,
)


def residues_of(values, chosen):
    return np.array([[v % p for v in values] for p in chosen], dtype=np.int64)


def by_trial_division(n):
    return n > 1 and all(n % q for q in range(2, math.isqrt(n) + 1))


def test_primes_are_the_largest_primes_below_2_to_31():
    chosen = primes(4)
    between = range(chosen[-1], 2**31)
    assert tuple(n for n in reversed(between) if by_trial_division(n)) == chosen


def keys_of(approx, values, chosen):
    """``sorted_keys`` of floats ``approx`` (ascending) and the exact values they stand
    for, with the positions whose residues it asked for."""
    asked = []

    def residues_at(at):
        asked.append(at.tolist())
        return residues_of([values[i] for i in at.tolist()], chosen), chosen

    key, shown = sorted_keys(np.asarray(approx), residues_at)
    return key, shown, asked


def test_equal_residues_tie_even_when_the_floats_differ_in_the_last_bit():
    chosen = primes(3)
    approx = sorted([0.1 + 0.7, 0.8])
    assert approx[0] != approx[1]
    key, shown, asked = keys_of(approx, [8, 8], chosen)
    assert asked == [[0, 1]]
    assert key[0] == key[1] and shown[0] == shown[1] == 0.8


def test_unequal_residues_do_not_tie_even_with_equal_floats():
    key, _, _ = keys_of([0.8, 0.8], [8, 9], primes(3))
    assert key[0] < key[1]


def test_unequal_averages_with_equal_floats_are_ordered_exactly():
    # V = 2**70 + 5 and 2**70 + 3 round to the same float; the exact values decide.
    values = [2**70 + 5, 2**70 + 3, 2**70 + 4]
    approx = [float(v) / 2**71 for v in values]
    assert len(set(approx)) == 1
    key, _, _ = keys_of(approx, values, primes(4))
    assert key[1] < key[2] < key[0]


def test_big_event_with_a_different_table_count_on_every_set_matches_the_reference():
    # Set s is played by q + 1 tables for the s-th prime q >= 11, so its denominator is 2q:
    # over 14 sets the lcm of the denominators alone is beyond 2**64.
    rng = random.Random(4)
    players = [f"p{i:03d}" for i in range(248)]
    odd_primes = [11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61]
    rows = []
    for s, q in enumerate(odd_primes, 1):
        seats = rng.sample(players, 4 * (q + 1))
        for t in range(q + 1):
            ns, ew = rng.choice([("3", "2"), ("2", "3"), ("4", "4"), ("5", "2")])
            rows.append((1 + (s - 1) // 4, 1, t + 1, s, *seats[4 * t: 4 * t + 4], ns, ew, None))
    sets = make_sets(rows)
    assert math.lcm(*(2 * q for q in odd_primes)) > 2**64
    standings = score(sets, seed=3).standings
    want = reference_standings(sets, reference_rates(sets), seed=3)
    got = [(r.round, r.player, r.sets, r.rank, r.rank_label, r.position)
           for r in standings.itertuples()]
    assert got == [(r, p, c, rank, label, pos) for r, p, c, _, rank, label, pos in want]


def test_only_averages_within_1e_12_of_another_need_residues():
    approx = [0.1, 0.5, 0.5 + 1e-13, 0.5 + 1e-9, 0.7]
    _, _, asked = keys_of(approx, [1, 5, 5, 6, 7], primes(2))
    assert asked == [[1, 2]]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.booleans()), min_size=1, max_size=30))
def test_sorted_keys_match_sorting_the_exact_values(elements):
    # The values V are less than 2**31 apart near 2**70, so their floats are within 1e-12
    # and only residues order them (and residue order is not value order); "nudge" moves a
    # float by one ulp, as a float sum of equal fractions may.
    chosen = primes(4)
    values = [2**70 + 2**31 - 10**9 + 300_000_007 * v for v, _ in elements]
    approx = [np.nextafter(v / 2**71, 1) if nudge else v / 2**71
              for v, (_, nudge) in zip(values, elements, strict=True)]
    order = sorted(range(len(values)), key=approx.__getitem__)
    key, shown, _ = keys_of([approx[i] for i in order], [values[i] for i in order], chosen)
    for a, b in itertools.combinations(range(len(order)), 2):
        i, j = order[a], order[b]
        assert np.sign(key[a] - key[b]) == np.sign(values[i] - values[j])
        if values[i] == values[j]:
            assert shown[a] == shown[b]


@given(st.lists(st.integers(-(2**62), 2**62), max_size=20),
       st.sampled_from([2, 3, 2**31 - 1, *primes(3)]))
def test_reduce_is_the_remainder(values, prime):
    array = np.array(values, np.int64)
    assert reduce(array, prime).tolist() == [v % prime for v in values]
    reduce(array, prime, out=array)
    assert array.tolist() == [v % prime for v in values]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 2**200), min_size=1, max_size=20), st.integers(1, 3),
       st.integers(0, 4))
def test_extend_gives_the_residues_of_more_primes(values, have, more):
    """Garner's algorithm: residues modulo a few primes, extended to more, equal the residues
    computed directly, for values below the product of the few."""
    bound = math.prod(primes(have))
    values = [v % bound for v in values]
    residues = np.array([[v % p for v in values] for p in primes(have)], dtype=np.int64)
    wanted = np.array([[v % p for v in values] for p in primes(have + more)], dtype=np.int64)
    assert (extend(residues, primes(have), have + more) == wanted).all()


big = st.one_of(st.integers(0, 2**200), st.sampled_from([0, 1, 2**31 - 2, 2**31 - 1, 2**62]))


@pytest.mark.parametrize("biggest", [10**3, 10**6, 10**12])  # small nums: the float path
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_rate_sums_are_each_players_exact_sum_over_the_common_denominator(biggest, data):
    rates = data.draw(st.lists(
        st.tuples(st.integers(0, 5), st.integers(1, biggest), st.integers(0, biggest)),
        min_size=1, max_size=40))
    codes = np.array([p for p, _, _ in rates])
    den = np.array([d for _, d, _ in rates])
    num = np.array([n % (d + 1) for _, d, n in rates])  # rates num/den between 0 and 1
    most = int(np.bincount(codes).max())
    scale, residues, chosen = rate_sums(codes, num, den, 6, most)
    assert scale == math.lcm(*den.tolist())
    for player in range(6):
        exact = sum(Fraction(int(n), int(d)) for p, n, d in zip(codes, num, den, strict=True)
                    if p == player)
        assert exact * scale == int(exact * scale)
        assert residues[:, player].tolist() == [int(exact * scale) % p for p in chosen]
