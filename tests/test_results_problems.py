"""Every kind of bad results input (SPEC 5, issue 3): one case per rule, exact cell named.

Each case writes a small file that is valid except for one thing and checks that the one
problem reported names the file, row, column and value and says which rule was broken.
"""

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from guandan_dup.errors import InvalidResultsError
from guandan_dup.results import load_results

SEATS = {"north": ["p1", "p5"], "east": ["p2", "p6"], "south": ["p3", "p7"], "west": ["p4", "p8"]}


def set_level(**changes):
    """Two tables of round 1, set 1 (valid), with whole columns replaced or dropped (None)."""
    columns = {"round": [1, 1], "table": [1, 2], "set": [1, 1], **SEATS,
               "ns_level": ["3", "2"], "ew_level": ["2", "5"]}
    columns.update(changes)
    return {name: values for name, values in columns.items() if values is not None}


def board_level(**changes):
    """Boards 1-2 of set 1 at tables 1 and 2 (valid), with whole columns replaced."""
    columns = {"round": [1] * 4, "table": [1, 1, 2, 2], "set": [1] * 4, "board": [1, 2, 1, 2],
               **{seat: [p[0], p[0], p[1], p[1]] for seat, p in SEATS.items()},
               "finish": ["NS", "EWN", "NWS", "ENW"]}
    columns.update(changes)
    return {name: values for name, values in columns.items() if values is not None}


def problems_of(tmp_path, monkeypatch, files, **options):
    monkeypatch.chdir(tmp_path)
    for name, columns in files.items():
        pq.write_table(columns if isinstance(columns, pa.Table) else pa.table(columns), name)
    with pytest.raises(InvalidResultsError) as caught:
        load_results(list(files), **options)
    return [str(p) for p in caught.value.problems]


CASES = [
    # (rule, file columns, load options, the one problem expected: its beginning)
    ("missing_column", set_level(west=None), {},
     "r.parquet, column 'west': is missing: a set-level file needs it"),
    ("mistyped_column", set_level(table=[True, False]), {},
     "r.parquet, column 'table': has type bool; expected whole numbers"),
    ("text_in_whole_number_column", set_level(table=["1", "two"]), {},
     "r.parquet, row 2, column 'table': value 'two': is not a whole number"),
    ("mistyped_level_column", set_level(ns_level=[True, False]), {},
     "r.parquet, column 'ns_level': has type bool; expected levels (text, or whole numbers"),
    ("level_as_a_number", set_level(ns_level=[11, 2]), {},
     "r.parquet, row 1, column 'ns_level': value '11': unknown level"),
    ("number_beyond_int64", set_level(round=pa.array([1, 2**64 - 1], pa.uint64())), {},
     "r.parquet, row 2, column 'round': value 18446744073709551615: must be at most "
     "1,000,000,000"),
    ("float_too_large", set_level(set=[1.0, 1e20]), {},
     "r.parquet, row 2, column 'set': value 1e+20: must be at most 1,000,000,000"),
    ("fraction_in_whole_number_column", set_level(round=[1.0, 1.5]), {},
     "r.parquet, row 2, column 'round': value 1.5: is not a whole number"),
    ("empty_required_cell", set_level(north=["p1", None]), {},
     "r.parquet, row 2, column 'north': is empty; a value is required"),
    ("round_at_least_one", set_level(round=[0, 1]), {},
     "r.parquet, row 1, column 'round': value 0: must be at least 1"),
    ("table_at_least_one", set_level(table=[1, -2]), {},
     "r.parquet, row 2, column 'table': value -2: must be at least 1"),
    ("set_at_least_one", set_level(set=[1, 0]), {},
     "r.parquet, row 2, column 'set': value 0: must be at least 1"),
    ("unknown_level", set_level(ew_level=["2", "Z"]), {},
     "r.parquet, row 2, column 'ew_level': value 'Z': unknown level; expected one of 2, 3"),
    ("empty_level_without_adjusted", set_level(ns_level=["3", None]), {},
     "r.parquet, row 2, column 'ns_level': is empty; a value is required (or an adjusted code"),
    ("player_in_two_seats", set_level(south=["p1", "p7"]), {},
     "r.parquet, row 1, column 'south': value 'p1': is also in seat north at this table"),
    ("player_at_two_tables", set_level(west=["p4", "p1"]), {},
     "r.parquet, row 2, column 'west': value 'p1': also plays at table 1 in round 1, set 1"),
    ("same_table_twice_with_different_results",
     set_level(table=[1, 1], **{s: [p[0]] * 2 for s, p in SEATS.items()}), {},
     "r.parquet, row 2, column 'ns_level': value '2': round 1, table 1, set 1 was already given"
     " in r.parquet row 1 with ns_level '3'; a result is given once"),
    ("adjusted_row_has_no_levels", set_level(adjusted=["A+/A-", None], ns_level=[None, "2"]),
     {}, "r.parquet, row 1, column 'ew_level': value '2': must be empty on an artificial"),
    ("unknown_adjusted_code",
     set_level(adjusted=[None, "B/A"], ns_level=["3", None], ew_level=["2", None]), {},
     "r.parquet, row 2, column 'adjusted': value 'B/A': unknown adjusted code; expected NS/EW"
     " codes from A+, A, A-"),
    ("levels_unreachable_in_k_boards", set_level(ns_level=["3", "3"], ew_level=["2", "3"]),
     {"boards_per_set": 1},
     "r.parquet, row 2, column 'ns_level/ew_level': value '3/3': no set of at most 1 board"
     " starting at 2/2 ends with NS at 3 and EW at 3"),
    ("only_one_side_passes_a", set_level(ns_level=["A+", "2"], ew_level=["A+", "5"]), {},
     "r.parquet, row 1, column 'ns_level/ew_level': value 'A+/A+': no set of boards starting"
     " at 2/2"),
    ("board_file_missing_finish_column", board_level(finish=None), {},
     "r.parquet, column 'finish': is missing: a board-level file needs it"),
    ("board_file_mistyped_finish_column", board_level(finish=[1, 2, 3, 4]), {},
     "r.parquet, column 'finish': has type int64; expected text"),
    ("board_file_missing_seat_column", board_level(north=None), {},
     "r.parquet, column 'north': is missing: a board-level file needs it"),
    ("finish_two_letters_not_partners", board_level(finish=["NS", "EWN", "NE", "ENW"]), {},
     "r.parquet, row 3, column 'finish': value 'NE': N and E are not partners; two letters are"
     " only allowed for a 双下 (partners finishing 1st and 2nd)"),
    ("finish_repeated_seat", board_level(finish=["NSN", "EWN", "NWS", "ENW"]), {},
     "r.parquet, row 1, column 'finish': value 'NSN': seat N finishes twice"),
    ("finish_unknown_letter", board_level(finish=["NS", "EWX", "NWS", "ENW"]), {},
     "r.parquet, row 2, column 'finish': value 'EWX': unknown seat letter 'X'"),
    ("finish_wrong_length", board_level(finish=["NS", "E", "NWS", "ENW"]), {},
     "r.parquet, row 2, column 'finish': value 'E': 1 letters: expected the 4 seats"),
    ("board_after_set_ended_by_passing_a",
     {"round": [1] * 6, "table": [1] * 6, "set": [1] * 6, "board": [1, 2, 3, 4, 5, 6],
      **{s: [p[0]] * 6 for s, p in SEATS.items()}, "finish": ["NS"] * 6}, {},
     "r.parquet, row 6, column 'board': value 6: is after the end of the set: a side passed A"),
    ("boards_consecutive_from_first_board_of_set", board_level(board=[1, 3, 1, 2]), {},
     "r.parquet, row 2, column 'board': value 3: is out of sequence: the boards of set 1 at"
     " table 1 must be consecutive from board 1, so board 2 was expected here"),
    ("board_belongs_to_one_set", board_level(set=[1, 1, 2, 2], board=[1, 2, 2, 3]), {},
     "r.parquet, row 3, column 'board': value 2: belongs to set 1 (r.parquet row 2)"),
    ("board_outside_its_set", board_level(set=[1, 1, 2, 2], board=[1, 2, 3, 5]),
     {"boards_per_set": 2},
     "r.parquet, row 4, column 'board': value 5: is outside set 2, which has boards 3-4"),
    ("more_than_k_boards_at_a_table", {k: v[:3] for k, v in board_level().items()},
     {"boards_per_set": 1},
     "r.parquet, row 2, column 'board': value 2: is outside set 1, which has boards 1-1"
     " (1 board per set)"),
    ("same_players_through_a_set", board_level(east=["p2", "p9", "p6", "p6"]), {},
     "r.parquet, row 2, column 'east': value 'p9': differs from 'p2' on board 1"),
    ("same_board_twice_with_different_results",
     board_level(board=[1, 1, 1, 2], finish=["NS", "EW", "NWS", "ENW"]), {},
     "r.parquet, row 2, column 'finish': value 'EW': round 1, table 1, set 1, board 1 was"
     " already given in r.parquet row 1 with finish 'NS'"),
    ("adjusted_board_row_has_no_finish",
     {**{k: v[:3] for k, v in board_level().items()}, "adjusted": [None, None, "A/A"]}, {},
     "r.parquet, row 3, column 'finish': value 'NWS': must be empty on an artificial"),
]


@pytest.mark.filterwarnings("error")  # issue 9 item 5: no RuntimeWarning either
@pytest.mark.parametrize(("rule", "columns", "options", "expected"), CASES,
                         ids=[case[0] for case in CASES])
def test_each_rule_reports_its_cell(tmp_path, monkeypatch, rule, columns, options, expected):
    problems = problems_of(tmp_path, monkeypatch, {"r.parquet": columns}, **options)
    assert [p for p in problems if p.startswith(expected)], f"{rule}: {problems}"
    assert len(problems) == 1, problems


def test_set_and_board_rows_for_the_same_table_and_set(tmp_path, monkeypatch):
    problems = problems_of(tmp_path, monkeypatch, {"s.parquet": set_level(), "b.parquet":
                           board_level()})
    assert problems[0].startswith(
        "s.parquet, row 1: round 1, table 1, set 1 also has board-level rows (b.parquet row 1)"
    )
    assert len(problems) == 2


def test_file_that_is_not_parquet_is_one_problem(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.parquet").write_text("round,table\n1,2\n")
    with pytest.raises(InvalidResultsError) as caught:
        load_results(["notes.parquet", "missing.parquet"])
    problems = [str(p) for p in caught.value.problems]
    assert problems[0].startswith("notes.parquet: cannot be read as a Parquet file")
    assert problems[1] == "missing.parquet: does not exist: check the path"


def test_all_problems_at_once(tmp_path, monkeypatch):
    columns = {"round": [1, 1, 1, 0], "table": [1, 2, 3, 4], "set": [1, 1, 1, 1],
               "north": ["a1", "b1", "c1", "d1"], "east": ["a2", "a2", "c2", "d2"],
               "south": ["a3", "b3", "c1", "d3"], "west": ["a4", "b4", "c4", "d4"],
               "ns_level": ["3", "Q+", "2", "2"], "ew_level": ["2", "2", "4", None]}
    good = {"round": [2], "table": [1], "set": [2], **{s: ["x" + s] for s in SEATS},
            "ns_level": ["2"], "ew_level": ["XX"]}
    problems = problems_of(tmp_path, monkeypatch, {"a.parquet": columns, "b.parquet": good})
    assert problems == [
        "a.parquet, row 2, column 'east': value 'a2': also plays at table 1 in round 1, set 1;"
        " a player sits at one table per set",
        "a.parquet, row 2, column 'ns_level': value 'Q+': unknown level; expected one of 2, 3,"
        " 4, 5, 6, 7, 8, 9, 10, J, Q, K, A, A+",
        "a.parquet, row 3, column 'south': value 'c1': is also in seat north at this table; a"
        " player takes one seat",
        "a.parquet, row 4, column 'round': value 0: must be at least 1",
        "a.parquet, row 4, column 'ew_level': is empty; a value is required (or an adjusted code"
        " for a table that did not play)",
        "b.parquet, row 1, column 'ew_level': value 'XX': unknown level; expected one of 2, 3,"
        " 4, 5, 6, 7, 8, 9, 10, J, Q, K, A, A+",
    ]


def test_repeated_result_names_the_first_column_that_differs(tmp_path, monkeypatch):
    # Same table and set twice: the players differ (west), not only the levels.
    seats = {s: [p[0]] * 2 for s, p in SEATS.items()} | {"west": ["p4", "p9"]}
    columns = set_level(table=[1, 1], ns_level=["3", "4"], **seats)
    problems = problems_of(tmp_path, monkeypatch, {"r.parquet": columns})
    assert problems == [
        "r.parquet, row 2, column 'west': value 'p9': round 1, table 1, set 1 was already given"
        " in r.parquet row 1 with west 'p4'; a result is given once"
    ]


def test_bad_board_at_one_table_hides_no_player_at_two_tables(tmp_path, monkeypatch):
    # Table 1's second board is unreadable, so table 1 is not converted to a set result;
    # p1 sitting at table 2 too must still be reported.
    columns = board_level(finish=["NS", "NNS", "NWS", "ENW"], north=["p1", "p1", "p1", "p1"])
    problems = problems_of(tmp_path, monkeypatch, {"r.parquet": columns})
    assert problems == [
        "r.parquet, row 2, column 'finish': value 'NNS': seat N finishes twice",
        "r.parquet, row 3, column 'north': value 'p1': also plays at table 1 in round 1, set 1;"
        " a player sits at one table per set",
    ]


def test_bad_board_hides_no_set_level_row_for_the_same_table(tmp_path, monkeypatch):
    boards = board_level(finish=["NS", "NNS", "NWS", "ENW"])
    problems = problems_of(tmp_path, monkeypatch, {"s.parquet": set_level(), "b.parquet": boards})
    assert [p[:70] for p in problems] == [
        "s.parquet, row 1: round 1, table 1, set 1 also has board-level rows (b",
        "s.parquet, row 2: round 1, table 2, set 1 also has board-level rows (b",
        "b.parquet, row 2, column 'finish': value 'NNS': seat N finishes twice",
    ]
