"""Level rules of a set (SPEC 4), one table per rule; levels are indices (0 = "2", 12 = "A")."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guandan_dup.errors import IllegalPlayError, NotationError
from guandan_dup.levels import LEVEL_A, LEVEL_PASSED_A
from guandan_dup.rules.progression import (
    SetState,
    apply_board,
    move_up,
    parse_finish,
    play_set,
    reachable,
)

A, K, Q = LEVEL_A, 11, 10


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("NWSE", "NWSE"),
        ("nwse", "NWSE"),
        ("NWS", "NWSE"),  # three letters: the fourth is implied
        ("NS", "NSEW"),  # 双下: the losers' order does not matter
        ("WE", "WENS"),
        ("ENS", "ENSW"),
    ],
)
def test_finish_order_written_with_four_three_or_two_letters(text, order):
    assert "".join(s.to_text() for s in parse_finish(text)) == order


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("NE", "N and E are not partners; two letters are only allowed for a 双下"),
        ("NWSN", "seat N finishes twice"),
        ("NXS", "unknown seat letter 'X'"),
        ("N", "1 letters: expected the 4 seats"),
        ("NWSEN", "seat N finishes twice"),
        ("", "0 letters"),
    ],
)
def test_impossible_finishing_order_is_a_notation_error(text, reason):
    with pytest.raises(NotationError, match="finishing order") as caught:
        parse_finish(text)
    assert reason in str(caught.value)


@pytest.mark.parametrize(
    ("finish", "side", "amount"),
    [("NS", "NS", 3), ("NWS", "NS", 2), ("NWE", "NS", 1), ("EW", "EW", 3), ("WNE", "EW", 2),
     ("ENS", "EW", 1)],
)
def test_only_the_winners_side_moves_up_by_partner_place(finish, side, amount):
    assert move_up(parse_finish(finish)) == (side, amount)


def test_double_down_moves_up_three():
    assert (play_set(["NS"]).ns_level, play_set(["NS"]).ew_level) == (3, 0)


@pytest.mark.parametrize(
    ("finishes", "board_level"),
    [
        (["NS"], 3),  # NS won and moved up to 5: the next board is played at 5
        (["NS", "ENW"], 2),  # then EW won with +2: played at EW's level 4
        (["NS", "ENW", "SEW"], 4),  # NS +1 from 5 to 6 (index 4)
    ],
)
def test_next_board_played_at_winners_level(finishes, board_level):
    assert play_set(finishes).board_level == board_level


def test_board_one_played_at_level_two_or_the_lower_start_level():
    assert SetState.start().board_level == 0
    assert SetState.start(5, 2).board_level == 2


@pytest.mark.parametrize(
    ("start", "finish", "ns_after"),
    [
        ((Q, 0), "NS", A),  # Q +3 would be A+2: stops at A
        ((K, 0), "NS", A),
        ((K, 0), "NWE", A),
        ((Q, 0), "NWS", A),
    ],
)
def test_a_must_be_played_stops_at_a(start, finish, ns_after):
    state = apply_board(SetState(*start, board_level=start[1]), parse_finish(finish))
    assert state.ns_level == ns_after and not state.ended


@pytest.mark.parametrize(
    ("finish", "ns_after", "ended"),
    [
        ("NS", LEVEL_PASSED_A, True),  # 双下 at A: passes
        ("NES", LEVEL_PASSED_A, True),  # partner 3rd: passes
        ("NEW", A, False),  # partner last (+1): stays at A
        ("EWN", A, False),  # the opponents won
    ],
)
def test_pass_a_needs_partner_not_last(finish, ns_after, ended):
    state = apply_board(SetState(A, 5, board_level=A), parse_finish(finish))
    assert (state.ns_level, state.ended) == (ns_after, ended)


def test_win_at_a_on_opponents_lower_level_stays_at_a():
    state = apply_board(SetState(A, 5, board_level=5), parse_finish("NS"))
    assert (state.ns_level, state.ended, state.board_level) == (A, False, A)


def test_pass_a_ends_the_set_and_a_later_board_is_illegal():
    finishes = ["NS"] * 4 + ["NS"]  # 2 -> 5 -> 8 -> J -> A, then passes A
    assert play_set(finishes).ns_level == LEVEL_PASSED_A
    with pytest.raises(IllegalPlayError, match="after the end of the set"):
        play_set([*finishes, "EW"])


@pytest.mark.parametrize(
    ("reset", "ns_after", "fails"),
    [(False, A, 3), (True, 0, 0)],
)
def test_three_failures_at_a_reset_to_two_only_with_the_house_rule(reset, ns_after, fails):
    # NS at A, board at A: two +1 wins (NS fails, stays at A), then EW wins (third failure).
    state = SetState(A, 0, board_level=A)
    for finish in ("NEW", "NEW", "EWS"):
        state = apply_board(state, parse_finish(finish), three_failures_reset=reset)
    assert (state.ns_level, state.ns_fails_at_a) == (ns_after, fails)


def test_failure_at_a_counts_only_boards_played_at_a():
    state = apply_board(SetState(A, 5, board_level=5), parse_finish("EW"))
    assert state.ns_fails_at_a == 0


def test_third_failure_by_a_plus_one_win_sends_next_board_to_two():
    state = SetState(A, 3, board_level=A, ns_fails_at_a=2)
    state = apply_board(state, parse_finish("NEW"), three_failures_reset=True)
    assert (state.ns_level, state.board_level) == (0, 0)


@pytest.mark.parametrize(
    ("ns", "ew", "boards", "possible"),
    [
        (1, 0, 1, True),
        (3, 0, 1, True),
        (1, 1, 1, False),  # both sides above 2 after one board
        (0, 0, 1, False),  # somebody always moves up
        (4, 0, 1, False),  # at most +3 a board
        (2, 2, 2, True),
        (LEVEL_PASSED_A, 0, 5, True),  # four 双下 reach A, the fifth passes
        (LEVEL_PASSED_A, 0, 4, False),
        (LEVEL_PASSED_A, LEVEL_PASSED_A, None, False),  # only one side can pass A
        (5, 7, None, True),
    ],
)
def test_reachable_levels_after_k_boards(ns, ew, boards, possible):
    assert reachable(ns, ew, boards) is possible


FINISHES = st.sampled_from(["NS", "NES", "NEW", "EW", "ENW", "ENS", "SN", "WE", "SWN", "WSE"])


@settings(max_examples=60, deadline=None)
@given(st.lists(FINISHES, min_size=1, max_size=20), st.booleans())
def test_property_levels_in_range_winner_moves_and_a_plus_ends(finishes, reset):
    state = SetState.start()
    for finish in finishes:
        if state.ended:
            break
        order = parse_finish(finish)
        after = apply_board(state, order, three_failures_reset=reset)
        side = order[0].side
        loser = "EW" if side == "NS" else "NS"
        assert 0 <= after.ns_level <= LEVEL_PASSED_A and 0 <= after.ew_level <= LEVEL_PASSED_A
        if not reset:
            before = {"NS": state.ns_level, "EW": state.ew_level}
            now = {"NS": after.ns_level, "EW": after.ew_level}
            assert now[loser] == before[loser]
            assert now[side] >= before[side]
        assert after.ended == (LEVEL_PASSED_A in (after.ns_level, after.ew_level))
        assert after.board_level == (after.ns_level if side == "NS" else after.ew_level)
        state = after

