"""A set at one table: levels (SPEC 4), tribute between boards (seed 000 art. 10), leaders."""

from __future__ import annotations

from functools import cache

import pytest

from guandan_dup.deals.generate import deal_boards
from guandan_dup.rules.progression import parse_finish
from guandan_dup.rules.progression import play_set as levels_of
from guandan_dup.rules.setplay import TRIBUTE_TRICK, SetRecord, play_set
from guandan_dup.rules.tribute import plan_tribute
from guandan_dup.seats import Seat
from guandan_dup.sim.boards import hand_counts
from guandan_dup.sim.bots import heuristic_bot
from guandan_dup.sim.table import SeatedBots

BOARDS = range(1, 9)


@cache
def played(start: tuple[int, int] = (0, 0), leader: Seat = Seat.E) -> SetRecord:
    deals = hand_counts(deal_boards(bytes(32), BOARDS))
    return play_set(BOARDS, deals, leader, SeatedBots([heuristic_bot()] * 4), start=start)


@pytest.mark.parametrize("leader", [Seat.E, Seat.N])
def test_art7_2_first_board_is_led_by_the_set_leader_without_tribute(leader):
    first = played(leader=leader).boards[0]
    assert first.leader == leader
    assert first.moves[0].seat == leader and first.moves[0].action == "play"
    assert first.level == 0


def test_spec4_each_board_is_played_at_the_winners_level_after_the_previous_board():
    record = played()
    finishes = [b.finish for b in record.boards]
    for index, board in enumerate(record.boards):
        assert board.level == levels_of(finishes[:index]).board_level
    assert record.state == levels_of(finishes)


def test_art10_tribute_steps_precede_play_and_name_the_leader():
    record = played()
    kinds = set()
    for before, board in zip(record.boards, record.boards[1:], strict=False):
        finish = parse_finish(before.finish)
        tribute = plan_tribute(finish)
        steps = [m for m in board.moves if m.trick == TRIBUTE_TRICK]
        assert list(board.moves[: len(steps)]) == steps
        if not steps:
            kinds.add("resisted")
            assert board.leader == finish[0]
            continue
        kinds.add("double" if tribute.double else "single")
        payers = [m.seat for m in steps if m.action == "tribute"]
        assert payers == list(tribute.payers)
        assert sorted(m.seat for m in steps if m.action == "return") == sorted(tribute.receivers)
        assert board.leader in tribute.payers
        if not tribute.double:
            assert board.leader == finish[3]
        assert board.moves[len(steps)].seat == board.leader
    assert kinds == {"single", "double", "resisted"}


@pytest.mark.parametrize("start", [(12, 12), (11, 11)])
def test_spec4_set_ends_as_soon_as_a_side_passes_a(start):
    record = played(start)
    assert record.state.ended
    assert len(record.boards) < len(BOARDS)
    assert 13 in (record.state.ns_level, record.state.ew_level)
