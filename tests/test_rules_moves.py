"""Legal plays from a hand (seed 000 art. 8.1.1): leads, follows, and which cards they use.

The fast generator is held equal to a slow obvious reference: classify every sub-multiset
of a small hand.
"""

from collections import Counter
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guandan_dup.cards import HAND_SIZE, KINDS, format_cards, hand_to_counts, parse_cards
from guandan_dup.errors import NotationError
from guandan_dup.levels import level_from_text
from guandan_dup.rules.combos import classify
from guandan_dup.rules.compare import beats
from guandan_dup.rules.moves import legal_follows, legal_leads

PACK = [card for card in range(KINDS) for _ in range(2)]


def reference_leads(cards: list[int], level: int) -> set[tuple[str, str, int]]:
    """(type, rank, size) of every reading of every sub-multiset of the hand."""
    held = Counter(cards)
    kinds = sorted(held)
    found = set()
    for choice in product(*(range(held[k] + 1) for k in kinds)):
        sub = [k for k, n in zip(kinds, choice, strict=True) for _ in range(n)]
        found |= {(c.type, c.rank, c.size) for c in classify(sub, level)}
    return found


@st.composite
def small_hands(draw):
    """Up to 8 cards: 0-2 wild cards, the rest from a few neighbouring ranks, the level rank
    and the jokers (so that sequences, wild cards and bombs turn up often)."""
    level = draw(st.integers(0, 12))
    wild = 4 * level + 1
    start = draw(st.integers(-1, 9))
    ranks = {r % 13 for r in range(start, start + draw(st.integers(2, 6)))} | {level}
    pool = [card for card in PACK if (card >= 52 or card // 4 in ranks) and card != wild]
    wilds = draw(st.integers(0, 2))
    picks = st.lists(st.integers(0, len(pool) - 1), min_size=1, max_size=8 - wilds, unique=True)
    return [pool[i] for i in draw(picks)] + [wild] * wilds, level


full_hands = st.tuples(
    st.permutations(PACK).map(lambda pack: sorted(pack[:HAND_SIZE])), st.integers(0, 12)
)


@settings(max_examples=150, deadline=None)
@given(small_hands())
def test_leads_match_classifying_every_sub_multiset(hand):
    cards, level = hand
    got = {(c.type, c.rank, c.size) for c in legal_leads(hand_to_counts(cards), level)}
    expected = reference_leads(cards, level)
    assert got == expected, (
        f"{format_cards(cards)} at level {level}: "
        f"missing {sorted(expected - got)}, extra {sorted(got - expected)}"
    )


def assert_plays_come_from_hand(plays, cards, level):
    held = Counter(cards)
    for play in plays:
        assert list(play.cards) == sorted(play.cards)
        assert not Counter(play.cards) - held, f"{play} is not in {format_cards(cards)}"
        readings = {(c.type, c.rank) for c in classify(play.cards, level)}
        assert (play.type, play.rank) in readings, play


@settings(max_examples=40, deadline=None)
@given(full_hands)
def test_every_lead_is_part_of_the_hand_and_reads_as_itself(hand):
    cards, level = hand
    leads = legal_leads(hand_to_counts(cards), level)
    assert_plays_come_from_hand(leads, cards, level)
    assert len(set(leads)) == len(leads)


@settings(max_examples=40, deadline=None)
@given(full_hands, full_hands, st.integers(0, 10**6))
def test_follows_are_exactly_the_leads_that_beat_the_previous_play(hand, other, pick):
    cards, level = hand
    others = legal_leads(hand_to_counts(other[0]), level)
    previous = others[pick % len(others)]
    counts = hand_to_counts(cards)
    follows = legal_follows(counts, level, previous)
    assert all(beats(play, previous, level) for play in follows)
    expected = [play for play in legal_leads(counts, level) if beats(play, previous, level)]
    assert sorted(follows, key=repr) == sorted(expected, key=repr)


def plays(cards: str, level: str, previous: str | None = None) -> list[tuple[str, str, str]]:
    counts, index = hand_to_counts(parse_cards(cards)), level_from_text(level)
    if previous is None:
        found = legal_leads(counts, index)
    else:
        found = legal_follows(counts, index, classify(parse_cards(previous), index)[0])
    return [(c.type, c.rank, format_cards(c.cards)) for c in found]


def of_type(found, combo_type):
    return [(rank, cards) for kind, rank, cards in found if kind == combo_type]


def test_one_play_per_rank_pattern_whatever_the_suits():
    found = plays("S7 S7 C7 D7", "2")
    assert of_type(found, "pair") == [("7", "S7 S7")]
    assert of_type(found, "triple") == [("7", "S7 S7 C7")]
    assert of_type(found, "bomb") == [("7", "S7 S7 C7 D7")]


def test_plays_use_the_fewest_wild_cards():
    found = plays("S9 C9 H2", "2")
    assert of_type(found, "pair") == [("9", "S9 C9")]
    assert of_type(found, "triple") == [("9", "H2 S9 C9")]
    assert of_type(found, "single") == [("9", "S9"), ("2", "H2")]


def test_wild_card_is_a_single_only_without_a_natural_level_card():
    assert of_type(plays("S2 H2", "2"), "single") == [("2", "S2")]
    assert of_type(plays("H2 H2", "2"), "pair") == [("2", "H2 H2")]


def test_plain_straight_keeps_a_straight_flush_when_it_can():
    found = plays("S3 S4 S5 S6 S7 D5", "9")
    assert of_type(found, "straight") == [("7", "S3 S4 D5 S6 S7")]
    assert of_type(found, "straight_flush") == [("7", "S3 S4 S5 S6 S7")]


def test_full_house_once_per_pair_rank_jokers_and_wild_pair_included():
    found = plays("S3 C3 D3 S4 C4 BJ BJ H2 H2", "2")
    threes = [cards for rank, cards in of_type(found, "full_house") if rank == "3"]
    assert threes == ["S3 C3 D3 S4 C4", "S3 C3 D3 BJ BJ", "H2 H2 S3 C3 D3"]


def test_art4_2_follows_a_plain_play_with_higher_same_type_then_bombs():
    found = plays("S9 C9 SK CK S4 C4 D4 H4 BJ", "2", previous="ST CT")
    assert found == [("pair", "K", "SK CK"), ("bomb", "4", "S4 H4 C4 D4")]


def test_art4_2_follows_a_bomb_only_with_bigger_bombs():
    found = plays("S9 C9 D9 H9 S4 C4 D4 H4 S4 BJ BJ RJ RJ", "2", previous="S8 C8 D8 H8")
    assert found == [
        ("bomb", "9", "S9 H9 C9 D9"),
        ("bomb", "4", "S4 S4 H4 C4 D4"),
        ("joker_bomb", "RJ", "BJ BJ RJ RJ"),
    ]


def test_level_card_follows_an_ace():
    assert plays("S7 DK", "7", previous="SA") == [("single", "7", "S7")]


def test_leads_accept_counts_of_any_integer_dtype():
    hand = parse_cards("S3 C3 D3")
    as_int64 = np.bincount(hand, minlength=KINDS)
    assert legal_leads(as_int64, 0) == legal_leads(hand_to_counts(hand), 0)


@pytest.mark.parametrize(
    ("hand", "level", "message"),
    [(np.zeros(53, dtype=np.uint8), 0, "54 kind counts"), (np.zeros(54, np.uint8), 13, "A+")],
)
def test_bad_hand_or_level_is_a_notation_error(hand, level, message):
    with pytest.raises(NotationError, match=message):
        legal_leads(hand, level)
