"""Board-level results: the vectorised conversion equals ``play_set``; same event, same table."""

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from hypothesis import example, given, settings
from hypothesis import strategies as st

from guandan_dup.levels import level_to_text
from guandan_dup.results import load_results
from guandan_dup.results.boards import boards_to_sets
from guandan_dup.results.load import read_table
from guandan_dup.results.schema import ADJUSTED_CODES
from guandan_dup.results.validate import check_rows
from guandan_dup.rules.progression import SetState, apply_board, parse_finish, play_set

SEATS = ("north", "east", "south", "west")
# Double-downs are frequent so that sets often reach and pass A within a few boards.
FINISH = st.sampled_from(["NS", "SN", "EW", "WE", "NES", "ENW", "NEW", "ENS", "SWE", "WSN"])


def board_rows(tables: list[list[str]]) -> dict[str, list]:
    """Board-level columns: table t (1-based) plays set 1 with the given finishing orders."""
    columns = {name: [] for name in ("round", "table", "set", "board", *SEATS, "finish")}
    for table, finishes in enumerate(tables, start=1):
        for board, finish in enumerate(finishes, start=1):
            row = (1, table, 1, board, *(f"{s[0]}{table}" for s in SEATS), finish)
            for name, value in zip(columns, row, strict=True):
                columns[name].append(value)
    return columns


def reference(finishes: list[str], reset: bool) -> tuple[int, int, int, int]:
    """play_set on the boards up to the end of the set: levels, boards played, boards after."""
    state = SetState.start()
    for played, finish in enumerate(finishes):
        if state.ended:
            return state.ns_level, state.ew_level, played, len(finishes) - played
        state = apply_board(state, parse_finish(finish), reset)
    return state.ns_level, state.ew_level, len(finishes), 0


THREE_FAILURES_AT_A = ["NS"] * 4 + ["NEW"] * 3 + ["EW", "NS"]


@settings(max_examples=60, deadline=None)
@example([THREE_FAILURES_AT_A, ["NS"] * 7], True)
@example([THREE_FAILURES_AT_A, ["NS"] * 7], False)
@given(st.lists(st.lists(FINISH, min_size=1, max_size=16), min_size=1, max_size=6),
       st.booleans())
def test_property_vectorised_conversion_equals_play_set(tables, reset):
    frame, problems = check_rows(read_table(pa.table(board_rows(tables)), "t"), ADJUSTED_CODES)
    assert problems == []
    sets, after_end = boards_to_sets(frame, three_failures_reset=reset)
    expected = [reference(finishes, reset) for finishes in tables]
    assert list(zip(sets["ns_index"], sets["ew_index"], sets["boards"], strict=True)) == [
        e[:3] for e in expected
    ]
    assert len(after_end) == sum(e[3] for e in expected)


def test_board_level_and_set_level_give_the_same_table(tmp_path):
    # Table 2 passes A on its 5th board, ending its set; tables 1 and 3 play all 6 boards.
    tables = [["NS", "ENW", "NEW", "SN", "WNE", "ENS"], ["EW", "EW", "WE", "EW", "EW"],
              ["NES"] * 6]
    boards = tmp_path / "boards.parquet"
    pq.write_table(pa.table(board_rows(tables)), boards)
    finals = [play_set(finishes) for finishes in tables]
    set_level = {k: v for k, v in board_rows([["NS"]] * len(tables)).items()
                 if k not in ("board", "finish")}
    set_level["ns_level"] = [level_to_text(s.ns_level) for s in finals]
    set_level["ew_level"] = [level_to_text(s.ew_level) for s in finals]
    sets = tmp_path / "sets.parquet"
    pq.write_table(pa.table(set_level), sets)
    from_boards = load_results([boards], boards_per_set=6).sets
    from_sets = load_results([sets], boards_per_set=6).sets
    assert from_boards["boards"].tolist() == [6, 5, 6]
    pd.testing.assert_frame_equal(
        from_boards.drop(columns="boards"), from_sets.drop(columns="boards")
    )
