"""The vectorised scorer equals a slow, obvious one (Fractions, loops) on random events.

Also home of ``make_sets``, the normalised-set-table builder the other scoring tests use.
"""

import hashlib
from fractions import Fraction

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from guandan_dup.levels import level_from_text
from guandan_dup.scoring import score

ADJUSTED = {"A+": Fraction(3, 5), "A": Fraction(1, 2), "A-": Fraction(2, 5)}
SETTINGS = settings(max_examples=60, deadline=None)


def make_sets(rows):
    """Normalised set table from ``(round, group, table, set, n, e, s, w, ns, ew, adjusted)``.

    ``ns``/``ew`` are level texts ("2".."A+") or None; ``adjusted`` is "A+/A-" or None.
    """
    records = []
    for rnd, group, table, set_no, n, e, s, w, ns, ew, adjusted in rows:
        ns_adj, ew_adj = adjusted.split("/") if adjusted else (None, None)
        records.append({
            "round": rnd, "group": group, "table": table, "set": set_no,
            "north": n, "east": e, "south": s, "west": w,
            "ns_level": None if ns is None else level_from_text(ns),
            "ew_level": None if ew is None else level_from_text(ew),
            "adjusted": adjusted, "ns_adjusted": ns_adj, "ew_adjusted": ew_adj, "boards": None,
        })
    dtypes = {"round": "int64", "group": "int64", "table": "int64", "set": "int64",
              "north": "str", "east": "str", "south": "str", "west": "str",
              "ns_level": "Int8", "ew_level": "Int8", "adjusted": "str",
              "ns_adjusted": "str", "ew_adjusted": "str", "boards": "Int16"}
    return pd.DataFrame(records, columns=list(dtypes)).astype(dtypes)


def reference_rates(sets, expected=None, within="event"):
    """{(round, set, table, direction): Fraction} by comparing every pair, one at a time."""
    rates = {}
    rows = list(sets.itertuples())
    for row in rows:
        if pd.isna(row.ns_level):
            rates[row.round, row.set, row.group, row.table, "NS"] = ADJUSTED[row.ns_adjusted]
            rates[row.round, row.set, row.group, row.table, "EW"] = ADJUSTED[row.ew_adjusted]
            continue
        mine = row.ns_level - row.ew_level
        others = [o.ns_level - o.ew_level for o in rows if o is not row
                  and not pd.isna(o.ns_level) and o.set == row.set
                  and (within == "event" or o.group == row.group)]
        n = len(others) + 1
        big_n = max(n, expected or 0)
        for side, sign in (("NS", 1), ("EW", -1)):
            mp = sum(2 if sign * mine > sign * d else 1 if mine == d else 0 for d in others)
            if big_n == 1:
                rate = Fraction(1, 2)
            else:
                rate = (Fraction((mp + 1) * big_n, n) - 1) / (2 * (big_n - 1))
            rates[row.round, row.set, row.group, row.table, side] = rate
    return rates


def reference_lot(seed, player):
    digest = hashlib.sha256(b"guandan-dup/lot\0" + str(seed).encode() + b"\0" + player.encode())
    return int.from_bytes(digest.digest()[:8], "big")


def reference_standings(sets, rates, seed=0, previous=None):
    """[(round, player, sets, cumulative Fraction, rank, label, position)] round by round;
    ``previous`` (player -> position) places players before the first round."""
    played = {}
    for row in sets.itertuples():
        for seat, side in (("north", "NS"), ("east", "EW"), ("south", "NS"), ("west", "EW")):
            rate = rates[row.round, row.set, row.group, row.table, side]
            played.setdefault(getattr(row, seat), []).append((row.round, rate))
    out, previous = [], dict(previous or {})
    for rnd in sorted(set(sets["round"])):
        avgs = {}
        for player, results in played.items():
            so_far = [rate for r, rate in results if r <= rnd]
            if so_far:
                avgs[player] = (len(so_far), sum(so_far) / len(so_far))
        order = sorted(avgs, key=lambda p: (-avgs[p][1], previous.get(p, float("inf")),
                                            reference_lot(seed, p), p))
        for position, player in enumerate(order, 1):
            count, avg = avgs[player]
            rank = 1 + sum(1 for q in avgs if avgs[q][1] > avg)
            tied = sum(1 for q in avgs if avgs[q][1] == avg) > 1
            out.append((rnd, player, count, avg, rank, f"{rank}{'=' if tied else ''}", position))
        previous = {player: position for position, player in enumerate(order, 1)}
    return out


@st.composite
def events(draw):
    """Small random events: byes, missing tables, artificial results, two groups."""
    players = [f"p{i:02d}" for i in range(draw(st.integers(4, 17)))]
    rows, set_no = [], 0
    for rnd in range(1, draw(st.integers(1, 3)) + 1):
        order = draw(st.permutations(players))
        for _ in range(draw(st.integers(1, 2))):
            set_no += 1
            for t in range(1, len(order) // 4 + 1):
                if draw(st.integers(0, 9)) == 0:
                    continue
                seats = order[4 * t - 4: 4 * t]
                kind = draw(st.integers(0, 5))
                if kind == 0:
                    adjusted = draw(st.sampled_from(["A+/A-", "A/A", "A-/A-", "A/A+"]))
                    levels = (None, None)
                else:
                    adjusted = None
                    levels = tuple(draw(st.sampled_from(["2", "3", "5", "A", "A+"]))
                                   for _ in range(2))
                rows.append((rnd, 1 + (t - 1) // 2, t, set_no, *seats, *levels, adjusted))
    return make_sets(rows)


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
