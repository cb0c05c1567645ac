"""Cards (SPEC 2): kind ids, text and Unicode forms that round-trip, hands as counts."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from guandan_dup.cards import (
    BIG_JOKER,
    KINDS,
    SMALL_JOKER,
    card_from_text,
    card_to_text,
    card_to_unicode,
    format_cards,
    hand_from_counts,
    hand_to_counts,
    parse_cards,
    rank_of,
    suit_of,
)
from guandan_dup.errors import NotationError


@pytest.mark.parametrize("card", range(KINDS))
def test_every_kind_round_trips_through_text_and_unicode(card):
    assert card_from_text(card_to_text(card)) == card
    assert card_from_text(card_to_unicode(card)) == card
    assert card_from_text(card_to_text(card).lower()) == card


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("S2", 0),
        ("H2", 1),
        ("C2", 2),
        ("D2", 3),
        ("ST", 32),
        ("S10", 32),
        ("♠10", 32),
        ("♥9", 29),
        ("DA", 51),
        ("BJ", SMALL_JOKER),
        ("小王", SMALL_JOKER),
        ("RJ", BIG_JOKER),
        ("大王", BIG_JOKER),
    ],
)
def test_spec2_kind_id_is_four_rank_plus_suit(text, card):
    assert card_from_text(text) == card


def test_rank_and_suit_of_a_kind():
    assert (rank_of(32), suit_of(32)) == (8, 0)
    assert (rank_of(SMALL_JOKER), rank_of(BIG_JOKER), suit_of(BIG_JOKER)) == (13, 14, None)


@pytest.mark.parametrize("token", ["S1", "X9", "ST0", "JJ", "♠11", ""])
def test_bad_token_is_named_in_the_error(token):
    with pytest.raises(NotationError, match="bad card"):
        card_from_text(token)


def test_parse_error_names_the_offending_token():
    with pytest.raises(NotationError, match="'HZ'"):
        parse_cards("S2 HZ D3")


def test_parse_and_format_keep_multiset():
    cards = parse_cards("RJ, S2 S2 ♥10 小王")
    assert cards == [53, 0, 0, 33, 52]
    assert format_cards(cards) == "S2 S2 HT BJ RJ"
    assert format_cards(cards, unicode=True) == "♠2 ♠2 ♥10 小王 大王"


@given(st.lists(st.integers(0, KINDS - 1), max_size=60).filter(
    lambda xs: max((xs.count(x) for x in xs), default=0) <= 2))
def test_hand_counts_round_trip(cards):
    counts = hand_to_counts(cards)
    assert counts.shape == (KINDS,) and counts.dtype == np.uint8
    assert hand_from_counts(counts) == tuple(sorted(cards))
    assert parse_cards(format_cards(cards)) == sorted(cards)


def test_hand_rejects_a_third_copy():
    with pytest.raises(NotationError, match="two of each"):
        hand_to_counts([5, 5, 5])
