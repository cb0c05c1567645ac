"""Round-1 lot and seeds derived from the event key (SPEC 7 round 1, SPEC 6 tie-break lot)."""

import hashlib

import pandas as pd

from guandan_dup.movement import derive_seed, draw_lot, seeding_order, with_unplaced

KEY = bytes(range(32))


def test_lot_is_a_permutation_fixed_by_the_key_not_by_the_input_order():
    players = [f"p{i}" for i in range(50)]
    drawn = draw_lot(players, KEY)
    assert sorted(drawn) == sorted(players)
    assert draw_lot(reversed(players), KEY) == drawn
    assert draw_lot(players, bytes(32)) != drawn
    assert draw_lot(players, KEY, label="round 2") != drawn


def test_lot_golden_order_pins_the_algorithm():
    """SHA-256 over label, key and id; recomputed here the long way to pin the construction."""
    ticket = {
        p: hashlib.sha256(b"guandan-dup lot v1\0round 1 seating\0" + KEY + b"\0" + p.encode())
        .digest()
        for p in ["王伟", "李娜", "张敏", "p4"]
    }
    assert draw_lot(ticket, KEY) == sorted(ticket, key=ticket.get)


def test_derived_seeds_differ_by_label_and_key():
    seeds = {derive_seed(KEY, "a"), derive_seed(KEY, "b"), derive_seed(bytes(32), "a")}
    assert len(seeds) == 3
    assert all(0 <= s < 2**63 for s in seeds)


def test_seeding_order_is_by_seed_then_file_order():
    players = pd.DataFrame({"player": ["a", "b", "c", "d"], "seed": [3, 1, 3, 2]})
    assert seeding_order(players) == ["b", "d", "a", "c"]


def test_spec7_players_without_a_standing_follow_the_ranked_once_each():
    assert with_unplaced(["b", "a"], ["c", "a", "d", "c"]) == ["b", "a", "c", "d"]
