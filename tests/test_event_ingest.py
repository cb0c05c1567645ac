"""Ingest into an event folder: checked against plan and seating; refusals touch nothing;
corrections replace the same (table, set) and keep the earlier file in history/."""

import pandas as pd
import pytest
from event_support import KEY, board_results, players_csv, set_results, snapshot, write

from guandan_dup.errors import GuandanError, InvalidResultsError
from guandan_dup.event import EventFolder, create_event, deal_round, ingest, seat_event_round
from guandan_dup.event.people import people_of
from guandan_dup.event.publish import public_sets


@pytest.fixture
def folder(tmp_path):
    csv = players_csv(tmp_path / "players.csv", 18)
    event = create_event(tmp_path / "event", csv, 2, 2, 4, 3, key=KEY)
    deal_round(event, 1)
    seat_event_round(event, 1)
    return event


def refused(folder, frame, tmp_path, round_no=1):
    """Ingest ``frame``; assert it is refused and the folder is byte-identical; the error."""
    before = snapshot(folder.path)
    with pytest.raises(GuandanError) as error:
        ingest(folder, write(frame, tmp_path / "bad.parquet"), round_no)
    assert snapshot(folder.path) == before
    return str(error.value)


def test_good_results_are_stored_normalised(folder, tmp_path):
    report = ingest(folder, write(set_results(folder, 1), tmp_path / "r1.parquet"), 1)
    assert (report.taken, report.replaced, report.missing) == (8, 0, [])
    stored = folder.read(1, "results")
    assert len(stored) == 8 and public_sets(folder, [1]) == {(1, 1), (1, 2)}
    assert str(stored["ns_level"].dtype) == "Int8"


def test_a_table_the_round_did_not_have_is_refused(folder, tmp_path):
    frame = set_results(folder, 1)
    frame.loc[0, "table"] = 9
    assert "column 'table': value 9: round 1 has tables 1..4" in refused(folder, frame, tmp_path)


def test_a_set_not_planned_for_the_round_is_refused(folder, tmp_path):
    frame = set_results(folder, 1)
    frame.loc[frame["set"] == 2, "set"] = 3
    message = refused(folder, frame, tmp_path)
    assert "column 'set': value 3: table 1 (group 1) plays sets 1, 2 in round 1" in message


def test_players_not_seated_there_are_refused_and_every_problem_listed(folder, tmp_path):
    frame = set_results(folder, 1)
    frame.loc[0, ["north", "east"]] = frame.loc[0, ["east", "north"]].to_numpy()
    frame.loc[1, "round"] = 2
    message = refused(folder, frame, tmp_path)
    seating = folder.read(1, "seating").iloc[0]
    assert f"column 'north': value {seating['east']!r}" in message
    assert f"the seating has {people_of(folder).player(seating['north'])}\n" in message
    assert "column 'east'" in message
    assert "column 'round': value 2: this is round 1" in message


def test_file_level_problems_are_refused_by_load_results(folder, tmp_path):
    frame = set_results(folder, 1)
    frame.loc[0, "ns_level"] = "Z"
    assert isinstance(refused(folder, frame, tmp_path), str)


def test_a_round_not_yet_seated_is_refused(folder, tmp_path):
    message = refused(folder, set_results(folder, 1), tmp_path, round_no=2)
    assert "round 2 is not seated yet" in message


def test_a_correction_replaces_the_same_tables_and_keeps_history(folder, tmp_path):
    first = set_results(folder, 1)
    ingest(folder, write(first, tmp_path / "r1.parquet"), 1)
    original = folder.file(1, "results").read_bytes()
    before = folder.read(1, "results")
    correction = first[first["table"] == 1].assign(ns_level="8", ew_level="4")
    report = ingest(folder, write(correction, tmp_path / "fix.parquet"), 1)
    assert report.replaced == 2
    stored = folder.read(1, "results")
    assert stored.loc[stored["table"] == 1, ["ns_level", "ew_level"]].to_numpy().tolist() == [
        [6, 2],
        [6, 2],
    ]
    pd.testing.assert_frame_equal(stored[stored["table"] != 1], before[before["table"] != 1])
    kept = list((folder.path / "history").iterdir())
    assert [p.read_bytes() for p in kept] == [original]
    assert kept[0].name.startswith("rounds-1-results.")
    ingest(folder, write(correction.assign(ew_level="5"), tmp_path / "fix2.parquet"), 1)
    assert len(list((folder.path / "history").iterdir())) == 2


def test_results_can_arrive_one_set_at_a_time(folder, tmp_path):
    frame = set_results(folder, 1)
    for s in (1, 2):
        ingest(folder, write(frame[frame["set"] == s], tmp_path / f"set{s}.parquet"), 1)
    assert len(folder.read(1, "results")) == 8


def test_partner_rotation_checks_the_seating_of_each_set(tmp_path):
    csv = players_csv(tmp_path / "players.csv", 8)
    event = create_event(tmp_path / "rot", csv, 2, 3, 1, 1, rotate_partners=True, key=KEY)
    seat_event_round(event, 1)
    frame = set_results(event, 1)
    ingest(event, write(frame, tmp_path / "ok.parquet"), 1)
    first_set = frame[frame["set"] == 1][["table", "north", "east", "south", "west"]]
    wrong = frame[frame["set"] == 2].drop(columns=["north", "east", "south", "west"])
    wrong = wrong.merge(first_set, on="table")[frame.columns]
    assert "the seating has" in refused(EventFolder.open(event.path), wrong, tmp_path)


def test_a_folder_without_event_toml_is_not_an_event(tmp_path):
    with pytest.raises(GuandanError, match="is not an event folder"):
        EventFolder.open(tmp_path)


def test_invalid_results_error_lists_problems(folder, tmp_path):
    frame = set_results(folder, 1)
    frame.loc[[0, 1], "table"] = [7, 8]
    with pytest.raises(InvalidResultsError) as error:
        ingest(folder, write(frame, tmp_path / "bad.parquet"), 1)
    assert len(error.value.problems) == 2


def test_a_group_that_contradicts_the_seating_is_refused(folder, tmp_path):
    frame = set_results(folder, 1)
    frame.loc[0, "group"] = 2
    assert "column 'group': value 2: table 1 is in group 1" in refused(folder, frame, tmp_path)


def test_a_file_without_group_takes_the_seating_group(folder, tmp_path):
    frame = set_results(folder, 1).drop(columns="group")
    ingest(folder, write(frame, tmp_path / "r.parquet"), 1)
    stored = folder.read(1, "results")
    assert stored.groupby("group")["table"].unique().map(list).to_dict() == {1: [1, 2], 2: [3, 4]}


def test_plan_problems_name_the_row_of_the_file_in_file_order(folder, tmp_path):
    """SPEC 5: every offending row is listed, so the director can find it in the file."""
    frame = set_results(folder, 1)
    frame.loc[5, "table"] = 9
    frame.loc[2, "round"] = 2
    message = refused(folder, frame, tmp_path)
    assert message.index("bad.parquet, row 3, column 'round'") < message.index(
        "bad.parquet, row 6, column 'table': value 9")


def test_a_board_level_problem_names_the_first_board_row_of_its_set(folder, tmp_path):
    frame = board_results(folder, 1)
    wrong = frame["table"] == 2
    frame.loc[wrong, "north"] = "P999"
    first = int(frame.index[wrong][0]) + 1
    assert f"row {first}, column 'north': value 'P999'" in refused(folder, frame, tmp_path)


def test_ingesting_the_same_results_again_changes_nothing(folder, tmp_path):
    path = write(set_results(folder, 1), tmp_path / "r1.parquet")
    assert ingest(folder, path, 1).changed
    before = snapshot(folder.path)
    again = ingest(folder, path, 1)
    assert (again.changed, again.replaced) == (False, 8)
    assert snapshot(folder.path) == before


def test_rows_of_two_rounds_for_the_same_table_and_set_are_each_named(folder, tmp_path):
    frame = set_results(folder, 1)
    other = frame.iloc[[0]].assign(round=2)
    message = refused(folder, pd.concat([frame, other], ignore_index=True), tmp_path)
    assert f"row {len(frame) + 1}, column 'round': value 2: this is round 1" in message


def test_issue21_a_number_in_a_seat_column_is_said_not_seated(folder, tmp_path):
    """Seat or table numbers typed where the ids go (a column of 1s): the file alone reads
    one player at every table, but the id is no one the round seated, and that is said."""
    frame = set_results(folder, 1).assign(north="1")
    message = refused(folder, frame, tmp_path)
    assert ("column 'north': value '1': is neither the id nor the name of a registered player "
            "(the seat columns take ids or unique names, not seat or table numbers); the "
            "seating has ") in message
    assert "also plays at table" not in message
