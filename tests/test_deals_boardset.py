"""Board-set tables and files (SPEC 3.4-3.5): board ranges, columns, metadata, verification."""

from collections import Counter

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guandan_dup import __version__
from guandan_dup.deals import boardset
from guandan_dup.deals.boardset import (
    SCHEMA,
    BoardSetError,
    BoardSetInfo,
    dump,
    hands_of,
    load,
    make_board_set,
    parse_board_range,
)
from guandan_dup.deals.generate import deal_boards
from guandan_dup.deals.keys import commitment
from guandan_dup.deals.verify import verify, verify_file
from guandan_dup.errors import GuandanError, InvalidPlanError, NotationError
from guandan_dup.seats import Seat

KEY = bytes(range(32))


@pytest.mark.parametrize(
    ("text", "boards"),
    [
        ("1-4", [1, 2, 3, 4]),
        ("7", [7]),
        ("1-2,5, 9-10", [1, 2, 5, 9, 10]),
        ("40,1-2", [1, 2, 40]),
        (" 3 - 3 ", [3]),
    ],
)
def test_board_ranges_list_boards_in_ascending_order(text, boards):
    assert parse_board_range(text) == boards


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "it is empty"),
        ("  ", "it is empty"),
        ("0-3", "board numbers start at 1"),
        ("5-2", "'5-2' runs backwards"),
        ("a-b", "'a-b' is not a board number or a range like 1-36"),
        ("1-3,", "'' is not a board number"),
        ("1-3,2", "board 2 is listed twice"),
        ("1-99999999", "at most 10,000,000 boards"),
    ],
)
def test_bad_board_ranges_name_the_value_and_the_expected_form(text, reason):
    with pytest.raises(NotationError) as caught:
        parse_board_range(text)
    message = str(caught.value)
    assert message.startswith(f"bad board range {text!r}: {reason}")
    assert "like '1-36' or '1-12,25,30-36'" in message


def test_board_set_columns_and_types_are_the_contract():
    table = make_board_set(KEY, [1, 2, 3, 4, 5], boards_per_set=3, delayed="x", first_leader="S")
    assert table.schema.remove_metadata() == SCHEMA.remove_metadata()
    assert table.column("set").to_pylist() == [1, 1, 1, 2, 2]
    assert table.column("set_board").to_pylist() == [1, 2, 3, 1, 2]
    assert table.column("leader").to_pylist() == ["S", None, None, "S", None]
    assert (hands_of(table) == deal_boards(KEY, [1, 2, 3, 4, 5], "x")).all()


def test_sets_are_numbered_event_wide_from_the_board_number():
    table = make_board_set(KEY, [7, 8, 13], boards_per_set=6)
    assert table.column("set").to_pylist() == [2, 2, 3]
    assert table.column("set_board").to_pylist() == [1, 2, 1]


def test_metadata_records_generator_commitment_and_how_to_recompute():
    info = BoardSetInfo.from_table(make_board_set(KEY, [1], boards_per_set=6, delayed="lotto 7"))
    assert info == BoardSetInfo(
        generator="guandan-dup",
        generator_version=__version__,
        algorithm="guandan-dup/deal/v1",
        commitment=commitment(KEY),
        delayed="lotto 7",
        boards_per_set=6,
        first_leader=Seat.E,
    )


@pytest.mark.parametrize("per_set", [0, -1, True, 1.5])
def test_boards_per_set_must_be_a_positive_whole_number(per_set):
    with pytest.raises(InvalidPlanError, match="boards per set must be a whole number >= 1"):
        make_board_set(KEY, [1], boards_per_set=per_set)


def test_parquet_round_trip_keeps_rows_and_metadata(tmp_path):
    table = make_board_set(KEY, range(1, 13), boards_per_set=6, delayed="中文 value")
    dump(table, tmp_path / "boards.parquet")
    loaded = load(tmp_path / "boards.parquet")
    assert loaded.equals(table)
    assert loaded.schema.metadata == table.schema.metadata


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda path: None, "board set file '.*' does not exist"),
        (lambda path: path.write_bytes(b"not parquet"), "cannot read board set file '.*'"),
        (
            lambda path: pq.write_table(pa.table({"board": [1]}), path),
            "lacks the columns set, set_board, leader, north, east, south, west",
        ),
    ],
    ids=["missing", "corrupt", "not a board set"],
)
def test_unreadable_files_are_named(tmp_path, make, message):
    path = tmp_path / "boards.parquet"
    make(path)
    with pytest.raises(BoardSetError, match=message):
        load(path)


def _with_hand(table, row, column, cards):
    hands = table.column(column).to_pylist()
    hands[row] = cards
    index = table.column_names.index(column)
    return table.set_column(index, column, pa.array(hands, pa.list_(pa.uint8())))


@pytest.mark.parametrize(
    "cards", [list(range(26)), list(range(26)) + [54]], ids=["26 cards", "kind 54"]
)
def test_impossible_hands_are_refused_naming_the_board(tmp_path, cards):
    table = _with_hand(make_board_set(KEY, [4, 5, 6]), 1, "east", cards)
    dump(table, tmp_path / "boards.parquet")
    with pytest.raises(BoardSetError, match=r"column 'east': .* board 5 does not hold one"):
        load(tmp_path / "boards.parquet")


def test_verify_accepts_an_untouched_file(tmp_path):
    dump(make_board_set(KEY, range(1, 37), 6, delayed="d"), tmp_path / "b.parquet")
    result = verify_file(tmp_path / "b.parquet", KEY)
    assert result.ok
    assert result.summary().startswith("all 36 boards match the key")


def test_verify_names_a_tampered_board():
    table = make_board_set(KEY, range(1, 11), 5)
    north, south = (hands_of(table)[3, seat].tolist() for seat in (Seat.N, Seat.S))
    given = next(card for card in north if card not in south)
    north.remove(given)
    south.append(given)
    taken = next(card for card in south if card not in north and card != given)
    south.remove(taken)
    north.append(taken)
    tampered = _with_hand(_with_hand(table, 3, "north", sorted(north)), 3, "south", sorted(south))
    result = verify(KEY, tampered)
    assert not result.ok
    assert result.differing == (4,)
    assert result.summary() == "1 of 10 boards differ: 4"


def test_verify_checks_set_numbering_and_leaders():
    table = make_board_set(KEY, range(1, 5), 2)
    leaders = pa.array(["E", None, "W", None])
    assert verify(KEY, table.set_column(3, "leader", leaders)).differing == (3,)


def test_verify_reports_a_key_that_does_not_match_the_commitment():
    table = make_board_set(KEY, range(1, 4))
    result = verify(bytes(32), table)
    assert not result.commitment_matches
    assert result.differing == (1, 2, 3)
    assert result.summary().splitlines()[0].startswith("the key does NOT match the commitment")


def test_verify_uses_the_delayed_value_of_the_file_unless_overridden():
    table = make_board_set(KEY, range(1, 4), delayed="draw 1234")
    assert verify(KEY, table).ok
    assert verify(KEY, table, delayed="draw 1235").differing == (1, 2, 3)


def test_verify_refuses_a_table_without_generator_metadata():
    table = make_board_set(KEY, [1]).replace_schema_metadata(None)
    with pytest.raises(BoardSetError, match="lacks the metadata generator.*cannot be verified"):
        verify(KEY, table)


def test_verify_refuses_another_algorithm():
    table = make_board_set(KEY, [1])
    metadata = table.schema.metadata | {b"algorithm": b"guandan-dup/deal/v0"}
    with pytest.raises(BoardSetError, match="algorithm 'guandan-dup/deal/v0'"):
        verify(KEY, table.replace_schema_metadata(metadata))


def test_hands_survive_chunked_columns():
    table = make_board_set(KEY, range(1, 7))
    chunked = pa.concat_tables([table.slice(0, 2), table.slice(2)])
    assert (hands_of(chunked) == hands_of(table)).all()
    assert np.array_equal(hands_of(table.slice(3)), hands_of(table)[3:])


@pytest.mark.parametrize(
    ("boards", "message"),
    [
        ([0], "board numbers start at 1; got 0"),
        ([2**31], "board numbers go up to 2,147,483,647; got 2,147,483,648"),
        ([1.0], "board numbers must be a flat list of integers"),
    ],
)
def test_board_numbers_must_fit_the_file(boards, message):
    with pytest.raises(GuandanError, match=message):
        make_board_set(KEY, boards)


def _with_boards(table, boards):
    return table.set_column(0, "board", pa.array(boards, pa.int32()))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda table: pa.concat_tables([table, table.slice(1, 1)]),
            r"column 'board': board 2 is listed more than once; expected each board once",
        ),
        (
            lambda table: _with_boards(table, [1, None, 3]),
            r"column 'board': row 2 is empty; every row needs a board number",
        ),
    ],
    ids=["board twice", "no board number"],
)
def test_load_refuses_missing_or_repeated_board_numbers(tmp_path, change, message):
    dump(change(make_board_set(KEY, [1, 2, 3])), tmp_path / "b.parquet")
    with pytest.raises(BoardSetError, match=message):
        load(tmp_path / "b.parquet")


def test_load_refuses_a_folder_by_name(tmp_path):
    with pytest.raises(BoardSetError, match="board set file '.*' is a folder, not a file"):
        load(tmp_path)


def test_verify_refuses_a_board_set_without_boards():
    with pytest.raises(BoardSetError, match="holds no boards, so there is nothing to verify"):
        verify(KEY, make_board_set(KEY, []))


def test_verify_lists_differing_boards_in_board_order():
    table = make_board_set(KEY, range(1, 5))
    swapped = _with_boards(table, [2, 1, 3, 4])
    assert verify(KEY, swapped).summary() == "2 of 4 boards differ: 1, 2"


def test_verify_says_when_another_delayed_value_was_used():
    table = make_board_set(KEY, range(1, 3), delayed="draw 1234")
    lines = verify(KEY, table, delayed="draw 1235").summary().splitlines()
    assert lines == [
        "using the delayed value 'draw 1235' instead of the file's 'draw 1234'",
        "2 of 2 boards differ: 1, 2",
    ]
    assert verify(KEY, table, delayed="draw 1234").replaced_delayed is None


def test_load_refuses_a_board_that_is_not_one_whole_double_pack(tmp_path):
    table = make_board_set(KEY, [4, 5, 6])
    north = hands_of(table)[2, 0].tolist()
    third_copy = sorted(north[:-1] + [hands_of(table)[2, 1, 0]])  # East's card, still there
    dump(_with_hand(table, 2, "north", third_copy), tmp_path / "b.parquet")
    with pytest.raises(BoardSetError, match=r"exactly 2 times; board 6 does not$"):
        load(tmp_path / "b.parquet")


WHOLE_PACK = Counter({kind: 2 for kind in range(54)})


def reference_whole_packs(hands):
    """One board at a time: does the multiset of its 108 cards hold every kind twice?"""
    return [Counter(board.ravel().tolist()) == WHOLE_PACK for board in hands]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.permutations(list(range(54)) * 2), st.integers(0, 107), st.integers(0, 53)),
        min_size=1,
        max_size=7,
    ),
    st.booleans(),
)
def test_whole_pack_check_equals_the_reference(boards, change):
    packs = []
    for pack, position, kind in boards:
        pack = list(pack)
        if change:
            pack[position] = kind
        packs.append(pack)
    hands = np.array(packs, dtype=np.uint8).reshape(-1, 4, 27)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(boardset, "_PACK_CHUNK", 3)
        assert boardset._whole_packs(hands).tolist() == reference_whole_packs(hands)
