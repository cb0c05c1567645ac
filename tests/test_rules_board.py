"""The play of one board: seed 000 art. 8 (order of play, tricks, end of a board), art. 9 (借风)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guandan_dup.cards import hand_to_counts, parse_cards
from guandan_dup.errors import IllegalPlayError
from guandan_dup.rules.board import PASS, BoardState, apply, legal_actions
from guandan_dup.rules.combos import Combo
from guandan_dup.rules.compare import strongest
from guandan_dup.rules.progression import parse_finish
from guandan_dup.seats import Seat


def deal(n: str, e: str, s: str, w: str, level: int = 0, leader: Seat = Seat.N) -> BoardState:
    hands = np.stack([hand_to_counts(parse_cards(text)) for text in (n, e, s, w)])
    return BoardState.deal(hands, level, leader)


def run(state: BoardState, script: str) -> BoardState:
    """Apply ``"S3 | pass | D4"``: each step is cards (strongest reading) or ``pass``."""
    for step in script.split("|"):
        step = step.strip()
        play = PASS if step == "pass" else strongest(parse_cards(step), state.level)
        state = apply(state, play)
    return state


# Seats play N -> W -> S -> E (counter-clockwise, art. 8.1.1).
@pytest.mark.parametrize(
    ("case", "hands", "script", "turn", "leading", "finished"),
    [
        ("art8_1_3 last player leads the next trick", ("S3 S9", "C5 C6", "D4 D7", "S8 SK"),
         "S3 | S8 | pass | pass | pass", "W", True, ""),
        ("art9 借风: partner of a player gone out leads when all pass", ("S3", "C5 C6",
         "D4 D7", "S8 SK"), "S3 | pass | pass | pass", "S", True, "N"),
        ("art9 借风 after an answered last play", ("S3 S4", "C5 C6", "D4 D7", "S8"),
         "S3 | S8 | pass | pass | pass", "E", True, "W"),
        ("art8_1_1 finished seats are skipped", ("S3", "C5 C6", "D4 D7", "S8 SK"),
         "S3 | pass | pass | pass | D4 | C5", "W", False, "N"),
    ],
)
def test_art8_and_art9_trick_flow(case, hands, script, turn, leading, finished):
    state = run(deal(*hands), script)
    assert state.turn.to_text() == turn, case
    assert state.trick == 2 and state.leading == leading, case
    assert "".join(s.to_text() for s in state.finished) == finished, case


@pytest.mark.parametrize(
    ("case", "hands", "script", "finish"),
    [
        ("art8_1_4 双下 ends the board at once", ("S3", "C5 C6", "D4", "S8 SK"),
         "S3 | pass | D4", "NS"),
        ("art8_1_4 three players out end the board", ("S3", "C5 C6", "SK", "S5"),
         "S3 | S5 | SK", "NWSE"),
        ("art8_1_4 the last of three goes out after 借风", ("S3", "C5", "D4 D7", "S8 SK"),
         "S3 | S8 | pass | pass | SK | pass | pass | C5", "NWES"),
    ],
)
def test_art8_1_4_end_of_board(case, hands, script, finish):
    state = run(deal(*hands), script)
    assert state.over and legal_actions(state) == [], case
    assert state.finish_text() == finish, case
    assert parse_finish(state.finish_text()) == state.finish()
    with pytest.raises(IllegalPlayError, match="the board is over"):
        apply(state, PASS)


@pytest.mark.parametrize(
    ("case", "script", "message"),
    [
        ("art8_1_2 the leader may not pass", "pass", "N leads this trick and may not pass"),
        ("art8_1_1 cards not held", "SA", "N plays 'SA' but does not hold"),
        ("art8_1_1 a follow must beat the last play", "S9 | S8", "does not beat the last play"),
        ("art4_2 a follow must be of the same type", "S3 | S8 S8", "does not beat"),
    ],
)
def test_art8_illegal_actions_are_refused(case, script, message):
    with pytest.raises(IllegalPlayError, match=message):
        run(deal("S3 S9", "C5 C6", "D4 D7", "S8 S8 SK"), script)


def test_art3_a_play_must_be_the_combination_it_claims():
    fake = Combo("pair", "3", tuple(parse_cards("S3 S9")))
    with pytest.raises(IllegalPlayError, match="N plays 'S3 S9', which is not a pair"):
        apply(deal("S3 S9", "C5 C6", "D4 D7", "S8 SK"), fake)


def test_art8_1_2_pass_is_offered_only_when_following():
    state = deal("S3 S9", "C5 C6", "D4 D7", "S8 S8 SK")
    assert PASS not in legal_actions(state)
    state = run(state, "S9")
    actions = legal_actions(state)
    assert actions[-1] is PASS
    assert [a.rank for a in actions[:-1]] == ["K"]


def test_a_state_is_never_changed_by_apply():
    before = deal("S3 S9", "C5 C6", "D4 D7", "S8 SK")
    copy = before.hands.copy()
    run(before, "S3 | S8")
    assert (before.hands == copy).all() and before.turn == Seat.N and before.leading
    with pytest.raises(ValueError):
        before.hands[0, 0] = 1


def random_deal(seed: int) -> np.ndarray:
    pack = np.repeat(np.arange(54), 2)
    np.random.default_rng(seed).shuffle(pack)
    return np.stack([np.bincount(pack[i * 27:(i + 1) * 27], minlength=54) for i in range(4)])


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), level=st.integers(0, 12), leader=st.sampled_from(Seat))
def test_random_boards_remove_exactly_the_played_cards_and_finish_properly(seed, level, leader):
    dealt = random_deal(seed)
    state = BoardState.deal(dealt, level, leader)
    rng = random.Random(seed)
    played = np.zeros(54, dtype=np.int64)
    while not state.over:
        action = rng.choice(legal_actions(state))
        after = apply(state, action)
        removed = state.hands.astype(np.int64) - after.hands
        expected = np.zeros((4, 54), dtype=np.int64)
        if action is not PASS:
            np.add.at(expected[state.turn], list(action.cards), 1)
            played += expected[state.turn]
        assert (removed == expected).all()
        state = after
    assert parse_finish(state.finish_text()) == state.finish()
    assert len(state.finished) == 3 or state.finished[1] == state.finished[0].partner
    assert (played + state.hands.sum(axis=0) == 2).all()
