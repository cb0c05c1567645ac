"""Play logs: Parquet round trip, and the replay validator finding the first illegal step."""

from __future__ import annotations

from functools import cache

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from write_support import disk_full, record_writes

from guandan_dup.cards import format_cards, parse_cards
from guandan_dup.deals.boardset import make_board_set
from guandan_dup.deals.generate import deal_boards
from guandan_dup.rules.board import PASS, BoardState, apply, reading_of
from guandan_dup.rules.replay import IllegalStepError, LogPlayers, LogStep
from guandan_dup.rules.setplay import play_board
from guandan_dup.seats import Seat
from guandan_dup.sim.boards import hand_counts, set_deals
from guandan_dup.sim.bots import ErraticBot, heuristic_bot, random_bot
from guandan_dup.sim.playlog import COLUMNS, PlayLogError, dump, load, log_frame, validate_log
from guandan_dup.sim.table import SeatedBots, Sitting, play_sitting

BOARD_SET = make_board_set(bytes(32), range(1, 7), boards_per_set=3)


@cache
def simulated() -> pd.DataFrame:
    rows = []
    for set_no, dealt in set_deals(BOARD_SET).items():
        bots = [heuristic_bot(), random_bot(1), heuristic_bot(), random_bot(2)]
        sitting = Sitting(1, 1, set_no, set_no, ("a", "b", "c", "d"))
        _, log, _ = play_sitting(sitting, bots, dealt.boards, dealt.deals, dealt.leader)
        rows += log
    return log_frame(rows)


def tampered(row: int, **changes) -> pd.DataFrame:
    """The simulated log with data row ``row`` (from 1) changed."""
    frame = simulated().copy()
    for column, value in changes.items():
        frame.loc[row - 1, column] = value
    return frame


def first_follow_that_could_fail() -> tuple[int, str]:
    """Row (from 1) of the first single played on a single, and a lower card its player holds."""
    frame = simulated()
    dealt = set_deals(BOARD_SET)[1]
    state = BoardState.deal(dealt.deals[0], 0, dealt.leader)
    for index, step in enumerate(frame.itertuples()):
        cards = tuple(parse_cards(step.cards))
        if step.action == "play" and not state.leading and len(cards) == 1 \
                and state.last.type == "single":
            lower = [c for c in np.flatnonzero(state.hands[state.turn])
                     if 1 <= c // 4 < state.last.cards[0] // 4]
            if lower:
                return index + 1, format_cards([int(lower[0])])
        state = apply(state, PASS if step.action == "pass" else reading_of(cards, state))
    raise AssertionError("no follow found on board 1")


def test_simulated_log_replays_clean_and_round_trips(tmp_path):
    frame = simulated()
    summary = validate_log(frame, BOARD_SET)
    assert summary.sets == 2 and summary.plays == int((frame["action"] == "play").sum())
    assert summary.boards >= 2 and summary.steps == len(frame)
    dump(frame, tmp_path / "log.parquet")
    again = load(tmp_path / "log.parquet")
    assert list(again.columns) == list(COLUMNS)
    pd.testing.assert_frame_equal(again, frame)
    assert validate_log(tmp_path / "log.parquet", BOARD_SET) == summary


def test_art8_card_not_in_hand_is_reported_at_its_row():
    frame = simulated()
    assert frame.loc[0, "seat"] == "E" and frame.loc[0, "action"] == "play"
    dealt = set_deals(BOARD_SET)[1].deals[0]
    missing = format_cards([int(np.flatnonzero(dealt[1] == 0)[0])])
    with pytest.raises(IllegalStepError, match=rf"^row 1: board 1, trick 1: E plays "
                                               rf"'{missing}' but does not hold") as caught:
        validate_log(tampered(1, cards=missing), BOARD_SET)
    assert caught.value.step.row == 1 and caught.value.board == 1


def test_art4_play_that_does_not_beat_is_reported_at_its_row():
    row, lower = first_follow_that_could_fail()
    with pytest.raises(IllegalStepError, match=rf"^row {row}: board 1, .* does not beat"):
        validate_log(tampered(row, cards=lower), BOARD_SET)


def test_art8_play_out_of_turn_is_reported_at_its_row():
    seat = simulated().loc[1, "seat"]
    other = "N" if seat != "N" else "S"
    message = rf"^row 2: board 1, trick 1: {other} acts out of turn"
    with pytest.raises(IllegalStepError, match=message):
        validate_log(tampered(2, seat=other), BOARD_SET)


def test_art10_wrong_tribute_card_is_reported_at_its_row():
    frame = simulated()
    row = int(np.flatnonzero(frame["action"] == "tribute")[0]) + 1
    with pytest.raises(IllegalStepError, match=rf"^row {row}: board \d+, tribute: .* may not "
                                               "tribute"):
        validate_log(tampered(row, cards="S2"), BOARD_SET)


def test_a_log_missing_its_last_step_or_with_one_too_many_is_refused():
    frame = simulated()
    last_of_set_1 = int(np.flatnonzero(frame["set"] == 1)[-1])
    short = frame.drop(index=last_of_set_1)
    message = r"^board 3, trick \d+: the log ends here: [NESW] is to play"
    with pytest.raises(IllegalStepError, match=message):
        validate_log(short, BOARD_SET)
    extra = pd.concat([frame.iloc[: last_of_set_1 + 1], frame.iloc[[last_of_set_1]],
                       frame.iloc[last_of_set_1 + 1:]], ignore_index=True)
    with pytest.raises(IllegalStepError, match=rf"^row {last_of_set_1 + 2}: "):
        validate_log(extra, BOARD_SET)


@pytest.mark.parametrize(
    ("content", "message"),
    [("not parquet", r"cannot read play log '.*log\.parquet': "),
     (None, r"play log '.*log\.parquet' does not exist$")],
)
def test_unreadable_or_missing_log_names_the_file(tmp_path, content, message):
    path = tmp_path / "log.parquet"
    if content is not None:
        path.write_text(content)
    with pytest.raises(PlayLogError, match=message):
        load(path)


def test_a_set_outside_the_board_set_names_the_sets_it_holds():
    """A log checked against another round's board set says which sets that board set has."""
    frame = simulated().assign(set=9)
    with pytest.raises(IllegalStepError, match=r"^row 1: set 9 is not in the board set \(it "
                                               r"holds sets 1, 2: "):
        validate_log(frame, BOARD_SET)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), level=st.integers(0, 12), error=st.floats(0.0, 1.0))
def test_any_simulated_board_replays_to_the_same_end(seed, level, error):
    """Plays with wild cards at every level: what the rules accepted, the replay accepts."""
    hands = hand_counts(deal_boards(seed.to_bytes(32, "big"), [1]))[0]
    moves = []
    bots = SeatedBots([ErraticBot(error, f"{seed}/{seat}") for seat in range(4)])
    end = play_board(1, hands, level, Seat.E, bots, moves)
    steps = [LogStep(row, 1, m.trick, m.seat, m.action, m.cards)
             for row, m in enumerate(moves, start=1)]
    replayed = play_board(1, hands, level, Seat.E, LogPlayers(steps), [])
    assert replayed.finish_text() == end.finish_text()
    assert (replayed.hands == end.hands).all()


def test_log_with_empty_cells_names_the_columns(tmp_path):
    frame = simulated().astype({"trick": "float64"})
    frame.loc[3, "trick"] = None
    frame.to_parquet(tmp_path / "log.parquet")
    with pytest.raises(PlayLogError, match=r"empty cells in column trick"):
        load(tmp_path / "log.parquet")


def test_a_pass_that_records_cards_is_refused():
    row = int(np.flatnonzero(simulated()["action"] == "pass")[0]) + 1
    with pytest.raises(IllegalStepError, match=rf"^row {row}: .* passes but the log records"):
        validate_log(tampered(row, cards="S3"), BOARD_SET)


def test_issue20_a_play_log_whose_write_fails_leaves_the_old_one(tmp_path, monkeypatch):
    frame = simulated()
    events = record_writes(monkeypatch)
    dump(frame, tmp_path / "log.parquet")
    assert [e[0] for e in events] == ["sync file", "replace", "sync dir"]
    before = (tmp_path / "log.parquet").read_bytes()
    disk_full(monkeypatch)
    with pytest.raises(OSError, match="No space left"):
        dump(frame.head(3), tmp_path / "log.parquet")
    assert (tmp_path / "log.parquet").read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["log.parquet"]
