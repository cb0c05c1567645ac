"""Each player's exact total kept round by round (``scoring.totals``) is the sum of their
rates as fractions, whether the rounds are kept apart or folded together."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guandan_dup.scoring.exact import primes, primes_for, rate_sums
from guandan_dup.scoring.totals import Totals

# A round: which of the players so far play (and how many new ones), and their rates.
RATE = st.tuples(st.integers(1, 10**6), st.integers(0, 10**6))  # den, num (mod den + 1)
ROUND = st.tuples(st.lists(st.booleans(), max_size=8), st.integers(0, 3),
                  st.lists(RATE, min_size=1, max_size=3))


@pytest.mark.parametrize("fold_after", [0, 4, 24], ids=["every_round", "now_and_then", "never"])
@settings(max_examples=60, deadline=None)
@given(rounds=st.lists(ROUND, min_size=1, max_size=6), data=st.data())
def test_totals_are_the_sums_of_the_rates_as_fractions(fold_after, rounds, data):
    totals, exact, sets = Totals(fold_after), [], []
    for plays, new, rates in rounds:
        codes = [p for p, playing in enumerate(plays[:len(exact)]) if playing]
        codes += list(range(len(exact), len(exact) + new))
        exact, sets = exact + [Fraction(0)] * new, sets + [0] * new
        if not codes:
            continue
        # every player of the round gets every rate of it (codes distinct, in any order)
        order = data.draw(st.permutations(codes))
        num = [n % (d + 1) for d, n in rates]
        for code in order:
            exact[code] += sum(Fraction(n, d) for n, (d, _) in zip(num, rates, strict=True))
            sets[code] += len(rates)
        scale, residues, chosen = rate_sums(
            np.repeat(np.arange(len(order)), len(rates)), np.tile(num, len(order)),
            np.tile([d for d, _ in rates], len(order)), len(order), len(rates))
        totals.add(np.array(order), residues, chosen, scale, len(exact), max(sets))
        asked = data.draw(st.lists(st.integers(0, len(exact) - 1), max_size=6))
        count = primes_for(max(sets) * totals.scale)
        assert totals.at(np.array(asked, np.int64), count).tolist() == [
            [int(exact[a] * totals.scale) % p for a in asked] for p in primes(count)]
