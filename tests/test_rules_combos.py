"""Combinations (seed 000 art. 3-5, art. 2.14): what played cards can be read as.

Each table row is (cards, level, expected readings as (type, rank) pairs). Levels are given
by name ("2".."A"); the heart card of the level is wild.
"""

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from guandan_dup.cards import COPIES, KINDS, card_to_text, card_to_unicode, parse_cards
from guandan_dup.errors import NotationError
from guandan_dup.levels import LEVEL_A, LEVEL_NAMES, level_from_text
from guandan_dup.rules.combos import (
    BOMB_POWER,
    COMBO_RANK_NAMES,
    COMBO_TYPES,
    Combo,
    classify,
    power,
)
from guandan_dup.rules.moves import legal_leads


def readings(cards: str, level: str) -> set[tuple[str, str]]:
    return {(c.type, c.rank) for c in classify(parse_cards(cards), level_from_text(level))}


def check(cards, level, expected):
    assert readings(cards, level) == set(expected), f"{cards} at level {level}"


@pytest.mark.parametrize(
    ("cards", "level", "expected"),
    [
        ("S2", "5", [("single", "2")]),
        ("DA", "5", [("single", "A")]),
        ("RJ", "5", [("single", "RJ")]),
        ("BJ", "5", [("single", "BJ")]),
        ("H5", "5", [("single", "5")]),  # the wild card alone is a level card
    ],
)
def test_art3_1_any_one_card_is_a_single(cards, level, expected):
    check(cards, level, expected)


@pytest.mark.parametrize(
    ("cards", "level", "expected"),
    [
        ("S9 D9", "2", [("pair", "9")]),
        ("S9 S9", "2", [("pair", "9")]),
        ("BJ BJ", "2", [("pair", "BJ")]),
        ("RJ RJ", "2", [("pair", "RJ")]),
        ("BJ RJ", "2", []),
        ("S9 D8", "2", []),
    ],
)
def test_art3_2_pair_is_two_of_a_rank_jokers_only_alike(cards, level, expected):
    check(cards, level, expected)


@pytest.mark.parametrize(
    ("cards", "level", "expected"),
    [
        ("S5 C5 D5", "2", [("triple", "5")]),
        ("BJ BJ RJ", "2", []),
        ("S5 C5 D6", "2", []),
    ],
)
def test_art3_4_triple_is_three_of_a_rank_never_jokers(cards, level, expected):
    check(cards, level, expected)


@pytest.mark.parametrize(
    ("cards", "level", "expected"),
    [
        ("S2 D2 S3 C3 S4 D4", "9", [("tube", "4")]),
        ("SA DA S2 C2 S3 D3", "9", [("tube", "3")]),  # A low: AA2233 is named 3
        ("SQ DQ SK CK SA DA", "9", [("tube", "A")]),
        ("SK DK SA CA S2 D2", "9", []),  # no wrap-around
        ("S2 D2 S3 C3 S4 D4 S5 D5", "9", []),  # exactly three pairs
        ("S2 D2 S3 C3 S5 D5", "9", []),
    ],
)
def test_art3_3_tube_is_exactly_three_consecutive_pairs(cards, level, expected):
    check(cards, level, expected)


@pytest.mark.parametrize(
    ("cards", "level", "expected"),
    [
        ("S3 C3 D3 S4 C4 D4", "9", [("plate", "4")]),
        ("SA CA DA S2 C2 D2", "9", [("plate", "2")]),  # AAA222 is named 2
        ("SK CK DK SA CA DA", "9", [("plate", "A")]),
        ("SA CA DA SK CK DK S2 C2 D2", "9", []),
        ("S3 C3 D3 S5 C5 D5", "9", []),
    ],
)
def test_art3_5_plate_is_exactly_two_consecutive_triples(cards, level, expected):
    check(cards, level, expected)


@pytest.mark.parametrize(
    ("cards", "level", "expected"),
    [
        ("S2 C2 D2 S3 C3", "9", [("full_house", "2")]),
        ("S3 C3 SK CK DK", "9", [("full_house", "K")]),
        ("S5 C5 D5 BJ BJ", "9", [("full_house", "5")]),  # a pair of jokers may go along
        ("S5 C5 D5 BJ RJ", "9", []),
        ("BJ BJ S5 C5 D6", "9", []),
        ("S5 C5 D5 S5 C5", "9", [("bomb", "5")]),  # five of a rank is a bomb
    ],
)
def test_art3_6_full_house_is_a_triple_with_a_pair_of_another_rank(cards, level, expected):
    check(cards, level, expected)


@pytest.mark.parametrize(
    ("cards", "level", "expected"),
    [
        ("S3 C4 D5 S6 H7", "2", [("straight", "7")]),
        ("SA C2 D3 S4 H5", "9", [("straight", "5")]),
        ("ST CJ DQ SK HA", "9", [("straight", "A")]),
        ("SJ CQ DK SA H2", "9", []),
        ("S3 C4 D5 S6", "9", []),
        ("S3 C4 D5 S6 H7 C8", "9", []),
        ("S3 C4 D5 S6 BJ", "9", []),
    ],
)
def test_art3_straight_is_exactly_five_cards(cards, level, expected):
    check(cards, level, expected)


@pytest.mark.parametrize(
    ("cards", "level", "expected"),
    [
        ("S8 C8 D8 H8", "2", [("bomb", "8")]),
        ("S8 C8 D8 H8 S8", "2", [("bomb", "8")]),
        ("S8 C8 D8 H8 S8 C8 D8 H8", "2", [("bomb", "8")]),
        ("S8 C8 D8 H8 S8 C8 D8 H8 H2 H2", "2", [("bomb", "8")]),  # ten cards with two wilds
        ("S8 C8 D8 S9", "2", []),
    ],
)
def test_art3_8_bomb_is_four_to_ten_of_a_rank(cards, level, expected):
    check(cards, level, expected)


@pytest.mark.parametrize(
    ("cards", "level", "expected"),
    [
        ("H3 H4 H5 H6 H7", "2", [("straight_flush", "7"), ("straight", "7")]),
        ("SA S2 S3 S4 S5", "9", [("straight_flush", "5"), ("straight", "5")]),
        ("ST SJ SQ SK SA", "9", [("straight_flush", "A"), ("straight", "A")]),
        ("SJ SQ SK SA S2", "9", []),
    ],
)
def test_art3_9_straight_flush_is_a_one_suit_straight(cards, level, expected):
    check(cards, level, expected)


def test_art3_10_joker_bomb_is_all_four_jokers():
    check("BJ BJ RJ RJ", "2", [("joker_bomb", "RJ")])
    check("BJ RJ RJ", "2", [])


@pytest.mark.parametrize(
    ("cards", "level", "expected"),
    [
        ("S9 H2", "2", [("pair", "9")]),
        ("H2 H2", "2", [("pair", "2")]),  # wild cards alone are level cards
        ("S9 H2 H2", "2", [("triple", "9")]),
        ("S9 C9 D9 H2", "2", [("bomb", "9")]),
        ("S3 C3 S4 C4 H2", "2", [("full_house", "3"), ("full_house", "4")]),
        ("S3 C3 D3 H2 H2", "2", [("bomb", "3"), ("full_house", "3")]),
        ("S3 C4 D6 S7 HQ", "Q", [("straight", "7")]),
        ("S3 C4 S5 D6 HQ", "Q", [("straight", "7"), ("straight", "6")]),
        ("S3 S4 S6 S7 HQ", "Q", [("straight_flush", "7"), ("straight", "7")]),
        ("S3 S4 S5 S6 HQ", "Q", [("straight_flush", "7"), ("straight_flush", "6")]
         + [("straight", "7"), ("straight", "6")]),
        ("S3 C3 S4 C4 HQ HQ", "Q", [("tube", "5"), ("tube", "4"), ("plate", "4")]),
        ("BJ H2", "2", []),  # never a joker
        ("BJ BJ H2", "2", []),
    ],
)
def test_art2_14_wild_heart_level_card_stands_for_any_card_but_a_joker(cards, level, expected):
    check(cards, level, expected)


def test_art2_14_wild_heart_level_card_completes_bomb():
    check("SK CK DK HJ", "J", [("bomb", "K")])


def test_art2_14_wild_heart_level_card_completes_straight_flush():
    check("D9 DT DJ DK H4", "4", [("straight_flush", "K"), ("straight", "K")])


@pytest.mark.parametrize(
    ("cards", "level", "expected"),
    [
        ("S5 C6 D7 S8 C9", "7", [("straight", "9")]),
        ("S6 C6 S7 C7 S8 D8", "7", [("tube", "8")]),
        ("S6 C6 D6 S7 C7 D7", "7", [("plate", "7")]),
        ("S7 C8 D9 ST H7", "7", [("straight", "J"), ("straight", "10")]),
    ],
)
def test_art5_1_level_card_natural_in_straights(cards, level, expected):
    check(cards, level, expected)


def test_art4_1_2_no_wraparound_k_a_2():
    check("SQ CK DA S2 C3", "9", [])
    check("SK DK SA CA S2 D2", "9", [])
    check("SA CA DA S2 C2 D2", "9", [("plate", "2")])


def test_art4_1_2_ace_low_in_a2345():
    check("SA C2 D3 S4 H5", "9", [("straight", "5")])


@pytest.mark.parametrize("combo_type", ["single", "pair", "triple", "full_house", "bomb"])
def test_art4_1_level_card_ranks_above_ace_below_jokers(combo_type):
    def reading(rank):
        return Combo(combo_type, rank, (0,) * {"bomb": 4, "full_house": 5}.get(combo_type, 1))

    level = level_from_text("7")
    assert power(reading("A"), level) < power(reading("7"), level)
    if combo_type in ("single", "pair"):
        jokers = power(reading("BJ"), level), power(reading("RJ"), level)
        assert power(reading("7"), level) < jokers[0] < jokers[1]


def test_art4_2_readings_come_strongest_first():
    found = classify(parse_cards("S3 C3 D3 H2 H2"), 0)
    assert [c.type for c in found] == ["bomb", "full_house"]
    assert power(found[0], 0) >= BOMB_POWER > power(found[1], 0)


def test_combo_to_json_and_its_card_count():
    (pair,) = classify(parse_cards("S9 H2"), 0)
    assert pair == Combo("pair", "9", (1, 28))
    assert pair.to_json() == {"type": "pair", "rank": "9", "cards": 2}
    assert (pair.size, pair.is_bomb) == (2, False)
    assert COMBO_TYPES.index("bomb") > COMBO_TYPES.index("plate")


def test_no_cards_is_no_combination():
    assert classify([], 0) == []


@pytest.mark.parametrize(
    ("cards", "level", "message"),
    [([0, 0, 0], 0, "at most two"), ([0], 13, "not at 'A+'"), ([0], -1, "not at -1")],
)
def test_impossible_cards_or_level_are_notation_errors(cards, level, message):
    with pytest.raises(NotationError, match=re.escape(message)):
        classify(cards, level)


# The text form of a reading: ``Combo.to_text`` / ``Combo.from_text`` round-trip.

FULL_PACK = np.full(KINDS, COPIES, np.uint8)


@pytest.mark.parametrize("level", range(LEVEL_A + 1), ids=LEVEL_NAMES[: LEVEL_A + 1])
def test_every_lead_of_the_whole_pack_round_trips_through_text(level):
    leads = legal_leads(FULL_PACK, level)
    assert {c.type for c in leads} == set(COMBO_TYPES)
    for combo in leads:
        assert Combo.from_text(combo.to_text()) == combo, combo


@pytest.mark.parametrize("combo_type", COMBO_TYPES)
def test_every_type_rank_and_card_round_trips_through_text(combo_type):
    for rank in COMBO_RANK_NAMES:
        for card in range(KINDS):
            combo = Combo(combo_type, rank, (card,))
            text = combo.to_text()
            assert text == f"{combo_type} {rank}: {card_to_text(card)}"
            assert Combo.from_text(text) == combo


COMBOS = st.builds(
    Combo,
    st.sampled_from(COMBO_TYPES),
    st.sampled_from(COMBO_RANK_NAMES),
    st.lists(st.integers(0, KINDS - 1), min_size=1, max_size=10)
    .filter(lambda cards: max(cards.count(c) for c in cards) <= COPIES)
    .map(tuple),
)


@given(COMBOS, st.booleans())
def test_any_combo_round_trips_whatever_the_card_spelling(combo, unicode):
    assert Combo.from_text(combo.to_text()) == combo
    render = card_to_unicode if unicode else card_to_text
    respelled = f"  {combo.type.upper()} {combo.rank.lower()} :{','.join(map(render, combo.cards))}"
    assert Combo.from_text(respelled).to_text() == combo.to_text()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("pair 7 S7 D7", "expected 'TYPE RANK: CARDS'"),
        ("pair: S7 D7", "expected 'TYPE RANK: CARDS'"),
        ("quad 7: S7 D7", "bad combination type 'quad'"),
        ("pair 1: S7 D7", "bad combination rank '1'"),
        ("pair 7:", "has no cards"),
        ("pair 7: S7 X7", "bad card 'X7'"),
        ("bomb 7: S7 S7 S7", "at most two"),
    ],
)
def test_bad_combination_text_is_a_notation_error(text, message):
    with pytest.raises(NotationError, match=re.escape(message)):
        Combo.from_text(text)
