"""Individual movement (SPEC 7): seating pattern, groups, byes, partner rotation."""

import re
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guandan_dup.errors import InvalidPlanError
from guandan_dup.movement import choose_byes, seat_round

SEATS = ["north", "east", "south", "west"]


def reference_seating(order, tables_per_group, byes_so_far=()):
    """The rule as written, one table at a time: the obvious slow version."""
    had = Counter(byes_so_far)
    byes = []
    for _ in range(len(order) % 4):
        fewest = min(had[p] for p in order if p not in byes)
        byes.append([p for p in order if p not in byes and had[p] == fewest][-1])
    seated = [p for p in order if p not in byes]
    rows = []
    for t in range(len(seated) // 4):
        a, b, c, d = seated[4 * t : 4 * t + 4]
        rows.append((t // tables_per_group + 1, t + 1, a, b, d, c))
    return rows, sorted(byes, key=order.index)


def rows_of(seating):
    return [tuple(r) for r in seating[["group", "table", *SEATS]].itertuples(index=False)]


orders = st.integers(4, 61).map(lambda n: [f"p{i}" for i in range(n)])


@settings(max_examples=60, deadline=None)
@given(order=orders, tables_per_group=st.integers(1, 5), data=st.data())
def test_spec7_seating_equals_the_slow_reference(order, tables_per_group, data):
    byes_so_far = data.draw(st.lists(st.sampled_from(order), max_size=12))
    result = seat_round(order, tables_per_group, byes_so_far, round_no=3)
    rows, byes = reference_seating(order, tables_per_group, byes_so_far)
    assert rows_of(result.seating) == rows
    assert result.byes["player"].tolist() == byes
    seated = result.seating[SEATS].to_numpy().ravel().tolist()
    assert sorted(seated + byes) == sorted(order), "everyone seated exactly once or on a bye"
    assert set(result.seating["round"]) == {3}


def test_spec7_places_4t_minus_3_to_4t_form_table_t_with_a_d_north_south():
    order = [f"p{i}" for i in range(1, 17)]
    seating = seat_round(order, tables_per_group=2).seating
    assert rows_of(seating) == [
        (1, 1, "p1", "p2", "p4", "p3"),
        (1, 2, "p5", "p6", "p8", "p7"),
        (2, 3, "p9", "p10", "p12", "p11"),
        (2, 4, "p13", "p14", "p16", "p15"),
    ]


def test_spec7_last_group_is_smaller_when_tables_do_not_fill_it():
    seating = seat_round([f"p{i}" for i in range(20)], tables_per_group=2).seating
    assert seating.groupby("group")["table"].count().tolist() == [2, 2, 1]


def test_spec7_byes_go_to_the_lowest_placed_without_a_bye():
    order = [f"p{i}" for i in range(1, 8)]  # 7 players: 3 byes
    assert seat_round(order, 1).byes["player"].tolist() == ["p5", "p6", "p7"]
    assert seat_round(order, 1, byes_so_far=["p7"]).byes["player"].tolist() == ["p4", "p5", "p6"]


@settings(max_examples=30, deadline=None)
@given(n=st.integers(5, 23).filter(lambda n: n % 4), data=st.data())
def test_spec7_nobody_gets_a_second_bye_while_someone_has_none(n, data):
    players = [f"p{i}" for i in range(n)]
    had: list[str] = []
    for _ in range(2 * n):
        order = data.draw(st.permutations(players))
        byes = choose_byes(np.asarray(order, dtype=object), n % 4, had)
        counts = Counter(had)
        others = [p for p in players if p not in byes]
        assert max(counts[p] for p in byes) <= min(counts[p] for p in others)
        had += byes


@settings(max_examples=30, deadline=None)
@given(order=orders, sets=st.lists(st.integers(1, 99), min_size=1, max_size=5, unique=True))
def test_spec7_rotation_seats_everyone_once_per_set_at_the_same_table(order, sets):
    plain = seat_round(order, 2).seating
    rotating = seat_round(order, 2, sets=sets, rotate_partners=True).seating
    assert len(rotating) == len(plain) * len(sets)
    for _, tables in rotating.groupby("set"):
        assert sorted(tables[SEATS].to_numpy().ravel()) == sorted(plain[SEATS].to_numpy().ravel())
    for _, rows in rotating.groupby("table"):
        assert len(set(rows[SEATS].to_numpy().ravel())) == 4, "the four stay together"


def test_spec7_partner_rotation_cycles_ad_bc_ac_bd_ab_cd():
    seating = seat_round(["a", "b", "c", "d"], 1, sets=[4, 5, 6], rotate_partners=True).seating
    assert seating["set"].tolist() == [4, 5, 6]
    partners = [{frozenset((r.north, r.south)), frozenset((r.east, r.west))}
                for r in seating.itertuples()]
    assert partners == [
        {frozenset("ad"), frozenset("bc")},
        {frozenset("ac"), frozenset("bd")},
        {frozenset("ab"), frozenset("cd")},
    ]


@pytest.mark.parametrize(
    ("order", "message"),
    [
        (["a", "b", "c", "a"], "'a'"),
        (["a", "", "c", "d"], "empty player id at place 2 of the order"),
        (["a", "b", "c"], "at least 4 players"),
    ],
)
def test_bad_orders_are_refused_with_the_offender(order, message):
    with pytest.raises(InvalidPlanError, match=re.escape(message)):
        seat_round(order, 2)


def test_rotation_without_sets_is_refused():
    with pytest.raises(InvalidPlanError, match="needs the round's sets"):
        seat_round(["a", "b", "c", "d"], 1, rotate_partners=True)
