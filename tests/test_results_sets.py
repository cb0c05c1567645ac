"""The normalised set table: contract dtypes, type coercion, duplicates, frames, empty files."""

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from guandan_dup.errors import InvalidResultsError
from guandan_dup.results import load_results, validate_sets
from guandan_dup.results.schema import NORMALISED_DTYPES

SEATS = ("north", "east", "south", "west")
BASE = {
    "round": [1, 1, 1],
    "table": [2, 1, 1],
    "set": [1, 1, 2],
    "north": ["p5", "p1", "p1"], "east": ["p6", "p2", "p2"],
    "south": ["p7", "p3", "p3"], "west": ["p8", "p4", "p4"],
    "ns_level": ["3", "A+", "2"], "ew_level": ["2", "10", "5"],
}


def write(tmp_path, columns, name="r.parquet"):
    path = tmp_path / name
    pq.write_table(columns if isinstance(columns, pa.Table) else pa.table(columns), path)
    return path


def test_normalised_table_has_contract_columns_dtypes_and_order(tmp_path):
    sets = load_results([write(tmp_path, BASE)]).sets
    assert dict(sets.dtypes.astype(str)) == NORMALISED_DTYPES
    assert sets[["round", "set", "table"]].values.tolist() == [[1, 1, 1], [1, 1, 2], [1, 2, 1]]
    assert sets["ns_level"].tolist() == [13, 1, 0] and sets["ew_level"].tolist() == [8, 0, 3]
    assert sets["group"].tolist() == [1, 1, 1]  # default when the column is absent
    assert sets["boards"].isna().all() and sets["adjusted"].isna().all()


@pytest.mark.parametrize(
    ("column", "array"),
    [
        ("round", pa.array([1, 1, 1], pa.int32())),
        ("table", pa.array([2.0, 1.0, 1.0])),  # floats without fraction
        ("set", pa.array([1, 1, 2], pa.uint8())),
        ("ns_level", pa.array(["3", "A+", "2"]).dictionary_encode()),  # categorical
        ("ew_level", pa.array(["2", "10", "5"], pa.large_string())),
        ("north", pa.array(["p5", "p1", "p1"]).dictionary_encode()),
    ],
)
def test_equivalent_column_types_are_coerced(tmp_path, column, array):
    expected = load_results([write(tmp_path, BASE, "plain.parquet")]).sets
    coerced = load_results([write(tmp_path, {**BASE, column: array})]).sets
    pd.testing.assert_frame_equal(coerced, expected)


def test_integer_player_ids_become_text(tmp_path):
    columns = {**BASE, "north": [5, 1, 1], "east": pa.array([6.0, 2.0, 2.0])}
    sets = load_results([write(tmp_path, columns)]).sets
    assert sets["north"].tolist() == ["1", "5", "1"] and sets["east"].tolist() == ["2", "6", "2"]
    assert str(sets["north"].dtype) == "str"


def test_group_with_empty_cells_defaults_to_one(tmp_path):
    sets = load_results([write(tmp_path, {**BASE, "group": [2.0, None, None]})]).sets
    assert sets["group"].tolist() == [1, 2, 1]


def test_adjusted_rows_keep_codes_and_no_levels(tmp_path):
    columns = {**BASE, "adjusted": [None, " a+/a- ", "A/A"],
               "ns_level": ["3", None, None], "ew_level": ["2", None, None]}
    sets = load_results([write(tmp_path, columns)]).sets
    assert sets["adjusted"].tolist()[0] == "A+/A-" and sets["ns_adjusted"].tolist()[0] == "A+"
    assert sets["ew_adjusted"].tolist()[2] == "A" and sets["ns_level"].isna().tolist() == [
        True, False, True]


def test_adjusted_codes_follow_configured_rates(tmp_path):
    columns = {**BASE, "adjusted": [None, None, "B/B"], "ns_level": ["3", "A+", None],
               "ew_level": ["2", "10", None]}
    path = write(tmp_path, columns)
    sets = load_results([path], adjusted_rates={"A+": 0.6, "B": 0.45}).sets
    assert sets["ns_adjusted"].tolist()[2] == "B"
    with pytest.raises(InvalidResultsError, match="unknown adjusted code"):
        load_results([path])


def test_identical_duplicates_warn_and_keep_one(tmp_path):
    first = write(tmp_path, BASE, "a.parquet")
    again = write(tmp_path, {k: v[:1] for k, v in BASE.items()}, "b.parquet")
    ingested = load_results([first, again])
    assert len(ingested.sets) == 3
    assert ingested.warnings == [
        f"{again} row 1 repeats {first} row 1 exactly (result of round 1, table 2, set 1);"
        " one copy kept"
    ]


def test_identical_board_rows_warn_and_keep_one(tmp_path):
    boards = {"round": [1, 1, 1], "table": [1, 1, 1], "set": [1, 1, 1], "board": [1, 1, 2],
              **{s: [s[0]] * 3 for s in SEATS}, "finish": ["NS", "NSEW", "EW"]}
    ingested = load_results([write(tmp_path, boards)])
    assert ingested.sets["boards"].tolist() == [2]
    assert "row 2 repeats" in ingested.warnings[0] and "board of round 1, table 1, set 1, board 1" \
        in ingested.warnings[0]


def test_issue9_item4_an_empty_file_is_refused_it_adds_no_results(tmp_path):
    empty = pa.table({k: pa.array([], pa.int64() if k in ("round", "table", "set") else
                                  pa.string()) for k in BASE})
    path = write(tmp_path, empty)
    with pytest.raises(InvalidResultsError, match=f"{path}: has no rows: it adds no results"):
        load_results([path])


def test_an_empty_frame_validates_as_no_results():
    empty = pd.DataFrame({k: pd.Series([], dtype="int64" if k in ("round", "table", "set")
                                       else "str") for k in BASE})
    sets = validate_sets(empty).sets
    assert sets.empty and dict(sets.dtypes.astype(str)) == NORMALISED_DTYPES


def test_validate_sets_accepts_level_indices_and_reports_bad_ones():
    frame = pd.DataFrame({**BASE, "ns_level": pd.array([1, 13, 0], "Int8"),
                          "ew_level": pd.array([0, 8, 3], "Int8")})
    assert validate_sets(frame).sets["ns_level"].tolist() == [13, 1, 0]
    frame["ew_level"] = pd.array([0, 14, 3], "Int8")
    with pytest.raises(InvalidResultsError) as caught:
        validate_sets(frame, file="round 1")
    assert [str(p) for p in caught.value.problems] == [
        "round 1, row 2, column 'ew_level': value '14': unknown level; expected one of 2, 3, 4,"
        " 5, 6, 7, 8, 9, 10, J, Q, K, A, A+"
    ]


def test_validate_sets_round_trips_its_own_output(tmp_path):
    sets = load_results([write(tmp_path, BASE)]).sets
    pd.testing.assert_frame_equal(validate_sets(sets).sets, sets)


def test_set_level_result_of_a_table_that_stopped_early_is_accepted(tmp_path):
    # 3/2 takes one board (+1); four boards would move someone up at least four levels in all.
    # A table that ran out of time is accepted, as board-level input accepts it with a warning.
    short = {"round": [1], "table": [1], "set": [1], "north": ["a"], "east": ["b"],
             "south": ["c"], "west": ["d"], "ns_level": ["3"], "ew_level": ["2"]}
    sets = load_results([write(tmp_path, short)], boards_per_set=4).sets
    assert sets[["ns_level", "ew_level"]].values.tolist() == [[1, 0]]


@pytest.mark.parametrize(
    ("name", "reason"),
    [("missing.parquet", "does not exist: check the path"),
     ("folder", "is a folder, not a results file")],
)
def test_a_missing_file_or_a_folder_is_named_plainly(tmp_path, name, reason):
    (tmp_path / "folder").mkdir()
    with pytest.raises(InvalidResultsError) as caught:
        load_results([tmp_path / name])
    assert str(caught.value.problems[0]) == f"{tmp_path / name}: {reason}"
