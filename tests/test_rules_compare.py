"""Comparing plays (seed 000 art. 4.2): same type by rank, bombs by tier.

Each row is (play, previous play, level name, whether the play beats it).
"""

import pytest

from guandan_dup.cards import parse_cards
from guandan_dup.errors import IllegalPlayError
from guandan_dup.levels import level_from_text
from guandan_dup.rules.combos import classify
from guandan_dup.rules.compare import beats, play_beats, strongest


def check(play, previous, level, expected):
    got = play_beats(parse_cards(play), parse_cards(previous), level_from_text(level))
    assert got is expected, f"{play} over {previous} at level {level}"


@pytest.mark.parametrize(
    ("play", "previous", "level", "expected"),
    [
        ("S9", "D8", "2", True),
        ("S8", "D8", "2", False),  # equal does not beat
        ("S7", "D8", "2", False),
        ("S9 D9", "S8 C8", "2", True),
        ("S9 C9 D9", "S8 C8 D8", "2", True),
        ("S4 C5 D6 S7 H8", "S3 C4 D5 S6 H7", "2", True),
        ("S3 C4 D5 S6 H7", "SA C2 D3 S4 H5", "9", True),  # A-2-3-4-5 is the lowest straight
        ("SA C2 D3 S4 H5", "ST CJ DQ SK HA", "9", False),
        ("SA DA S2 C2 S3 D3", "SQ DQ SK CK SA DA", "9", False),
        ("S3 C3 D3 S4 C4 D4", "SA CA DA S2 C2 D2", "9", True),
        ("RJ", "BJ", "2", True),
        ("BJ BJ", "SA CA", "2", True),
        ("RJ RJ", "BJ BJ", "2", True),
    ],
)
def test_art4_2_1_same_type_compares_by_rank(play, previous, level, expected):
    check(play, previous, level, expected)


@pytest.mark.parametrize(
    ("play", "previous", "level", "expected"),
    [
        ("S9 C9 D9 S2 C2", "S8 C8 D8 SA CA", "5", True),
        ("S8 C8 D8 S2 C2", "S8 C8 D8 SA CA", "5", False),
        ("S8 C8 D8 S2 C2", "S9 C9 D9 S3 C3", "5", False),
    ],
)
def test_art4_2_2_full_house_compares_only_the_triple(play, previous, level, expected):
    check(play, previous, level, expected)


@pytest.mark.parametrize(
    ("play", "previous", "level", "expected"),
    [
        ("S9 D9", "S8", "2", False),
        ("S9 C9 D9", "S8 C8", "2", False),
        ("S3 C3 D3 S4 C4 D4", "S2 C2 S3 C3 S4 C4", "9", False),
        ("SA C2 D3 S4 H5", "S8 C8 D8 S2 C2", "9", False),
    ],
)
def test_art4_2_plain_combination_beats_only_its_own_type(play, previous, level, expected):
    check(play, previous, level, expected)


@pytest.mark.parametrize(
    ("play", "previous", "level", "expected"),
    [
        ("BJ BJ RJ RJ", "S2 C2 D2 H2 S2 C2 D2 H2 H9 H9", "9", True),
        ("S2 C2 D2 H2 S2 C2", "SA CA DA HA SA", "9", True),
        ("S2 C2 D2 H2 S2 C2 D2", "SA CA DA HA SA CA", "9", True),  # more cards first
        ("S3 C3 D3 H3 S3 C3", "S2 C2 D2 H2 S2 C2", "9", True),  # then rank
        ("S2 C2 D2 H2 S2 C2", "H3 H4 H5 H6 H7", "9", True),
        ("H3 H4 H5 H6 H7", "SA CA DA HA SA", "9", True),
        ("H4 H5 H6 H7 H8", "H3 H4 H5 H6 H7", "9", True),  # straight flushes by rank
        ("D2 D3 D4 D5 D6", "SA S2 S3 S4 S5", "9", True),
        ("S2 C2 D2 H2 S2", "SA CA DA HA", "9", True),
        ("S2 C2 D2 H2", "SA CA DA HA", "9", False),
        ("S2 C2 D2 H2", "SA C2 D3 S4 H5", "9", True),
        ("S2 C2 D2 H2", "BJ BJ", "9", True),
        ("SA CA DA HA", "BJ BJ RJ RJ", "9", False),
    ],
)
def test_art4_2_bomb_order(play, previous, level, expected):
    check(play, previous, level, expected)


def test_art4_2_2_six_card_bomb_beats_straight_flush():
    check("S2 C2 D2 H2 S2 C2", "HT HJ HQ HK HA", "9", True)
    check("HT HJ HQ HK HA", "S2 C2 D2 H2 S2 C2", "9", False)


def test_art4_2_2_straight_flush_beats_five_card_bomb_of_the_level():
    check("H3 H4 H5 H6 H7", "S9 C9 D9 H9 S9", "9", True)


@pytest.mark.parametrize(
    ("play", "previous", "level", "expected"),
    [
        ("S7 C7", "SA CA", "7", True),
        ("SA CA", "S7 C7", "7", False),
        ("S7", "SA", "7", True),
        ("BJ", "S7", "7", True),
        ("S7 C7 D7 S3 C3", "SA CA DA SK CK", "7", True),
        ("S7 C7 D7 D7", "SA CA DA HA", "7", True),
        ("S7 C7 D7 D7", "SA CA DA HA", "8", False),
    ],
)
def test_art4_1_level_card_ranks_above_ace(play, previous, level, expected):
    check(play, previous, level, expected)


def test_art5_1_level_card_natural_in_straights():
    check("S3 C4 D5 S6 H7", "S4 C5 D6 S7 H8", "8", False)
    check("S4 C5 D6 S7 H8", "S3 C4 D5 S6 H7", "8", True)


def test_art5_2_wild_card_reading_is_chosen_to_beat():
    # S8 C8 D8 + wild is a bomb; S8 + wild is a pair of 8s beating 7s.
    check("S8 C8 D8 H2", "SA CA DA S5 C5", "2", True)
    check("S8 H2", "S7 D7", "2", True)
    check("S8 H2", "S9 D9", "2", False)


def test_art5_2_previous_play_counts_at_its_strongest_reading():
    # S3 C3 D3 + two wilds: a bomb of five 3s rather than a full house of 3s.
    check("S4 C4 D4 S5 C5", "S3 C3 D3 H2 H2", "2", False)
    check("S4 C4 D4 D4 S4", "S3 C3 D3 H2 H2", "2", True)
    assert strongest(parse_cards("S3 C3 D3 H2 H2"), 0).type == "bomb"


def test_a_play_that_forms_no_combination_beats_nothing():
    check("S9 D8", "S3", "2", False)


def test_previous_play_that_forms_no_combination_is_an_illegal_play_error():
    with pytest.raises(IllegalPlayError, match=r"previous play 'S8 C9' is not a combination"):
        play_beats(parse_cards("S9 D9"), parse_cards("S8 C9"), 0)


def test_art4_1_beats_takes_the_level_of_the_board():
    sevens = classify(parse_cards("S7 C7"), 5)[0]
    aces = classify(parse_cards("SA CA"), 5)[0]
    assert beats(sevens, aces, level_from_text("7"))
    assert not beats(sevens, aces, level_from_text("8"))
