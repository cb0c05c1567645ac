"""Seat cells holding a player's name where the id goes (issue 25, item 6): a name no other
player of the event has is that player, said in a note; a shared name, or a cell that is
neither an id nor a name, is refused with the ids that could be meant and the player the
seating has there; nothing is stored on a refusal."""

import pandas as pd
import pyarrow as pa
import pytest
from event_support import (
    KEY,
    by_name,
    names_of,
    reference,
    run,
    saved,
    seated_event,
    set_results,
    snapshot,
    stored_after,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from guandan_dup.event import EventFolder, create_event, deal_round, seat_event_round
from guandan_dup.event.entrants import demo_players
from guandan_dup.event.seat_names import read_names
from guandan_dup.results.load import read_table
from guandan_dup.seats import SEAT_COLUMNS

SEATS = list(SEAT_COLUMNS)


@pytest.fixture
def event(tmp_path):
    """17 players at 4 tables, 2 sets; round 1 dealt and seated (made by the CLI)."""
    return seated_event(tmp_path)


@pytest.fixture
def shared(tmp_path):
    """16 players at 4 tables, P002 named as P001 is (王伟); round 1 dealt and seated."""
    players = demo_players(16)
    players.loc[1, "name"] = players.loc[0, "name"]
    path = tmp_path / "players.csv"
    players.to_csv(path, index=False)
    folder = create_event(tmp_path / "shared", path, 4, 2, 3, 1, key=KEY)
    deal_round(folder, 1)
    seat_event_round(folder, 1)
    return folder


NAMED = {
    "every seat": (SEATS, None, str),
    "one seat": (["east"], None, str),
    "some rows": (SEATS, [0, 3], str),
    "full-width space around": (["north", "west"], None, lambda name: f"\u3000{name} "),
}


@pytest.mark.parametrize("suffix", [".csv", ".xlsx", ".parquet"])
@pytest.mark.parametrize("case", NAMED)
def test_a_seat_cell_holding_a_unique_name_is_that_player(event, tmp_path, case, suffix):
    columns, rows, dress = NAMED[case]
    results = set_results(EventFolder.open(event), 1, seed=2)
    expected = reference(event, tmp_path, results)
    path = saved(by_name(results, EventFolder.open(event), columns, rows, dress),
                 tmp_path / f"named{suffix}")
    pd.testing.assert_frame_equal(stored_after(event, path), expected)


def test_the_note_says_how_many_cells_were_read_by_name_and_names_the_first(event, tmp_path):
    folder = EventFolder.open(event)
    results = set_results(folder, 1)
    names = names_of(folder)
    path = saved(by_name(results, folder, ["north"]), tmp_path / "named.csv")
    first = list(dict.fromkeys(results["north"]))  # set 1 and 2 of a table: one name
    shown = ", ".join(f"{names[p]} as {p}" for p in first[:2])
    said = run("event", "ingest", event, path, "--round", 1)
    assert said.splitlines() == [
        "Round 1: took 8 set results.",
        f"Warning: {path}: 8 seat cells held a player's name, not an id, and were read as "
        f"that player ({shown}, {names[first[2]]} as {first[2]} and 1 more name)",
        "Every table of the round has results.",
    ]


def test_a_file_of_ids_has_no_note(event, tmp_path):
    path = saved(set_results(EventFolder.open(event), 1), tmp_path / "ids.csv")
    assert "read as that player" not in run("event", "ingest", event, path, "--round", 1)


def test_a_cell_that_is_an_id_is_that_id_even_when_a_player_is_so_named(tmp_path):
    players = demo_players(16)
    players.loc[2, "name"] = "P001"  # P003 is named as P001's id
    path = tmp_path / "players.csv"
    players.to_csv(path, index=False)
    folder = create_event(tmp_path / "event", path, 4, 2, 3, 1, key=KEY)
    seat_event_round(folder, 1)
    results = set_results(folder, 1)
    said = run("event", "ingest", folder.path, saved(results, tmp_path / "r.csv"), "--round", 1)
    assert "read as that player" not in said
    stored = folder.read(1, "results")
    assert sorted(set(stored[SEATS].to_numpy().ravel())) == sorted(players["id"])


REFUSED = {
    "a name two players share": (
        "王伟", "is the name of P001 and P002: write the id (the seat columns take ids or "
        "unique names)"),
    "a name no player has": (
        "无名氏", "is neither the id nor the name of a registered player (the seat columns "
        "take ids or unique names)"),
    "an id no player has": (
        "P999", "is neither the id nor the name of a registered player (the seat columns "
        "take ids or unique names)"),
    "a seat or table number": (
        "3", "is neither the id nor the name of a registered player (the seat columns take "
        "ids or unique names, not seat or table numbers)"),
}


@pytest.mark.parametrize("case", REFUSED)
def test_a_shared_or_unknown_name_is_refused_with_the_ids_and_the_seated_player(
        shared, tmp_path, case):
    value, rule = REFUSED[case]
    results = set_results(shared, 1)
    table, set_no, seated = results.loc[0, ["table", "set", "north"]]
    path = saved(results.assign(north=[value, *results["north"][1:]]), tmp_path / "r.csv")
    before = snapshot(shared.path)
    said = run("event", "ingest", shared.path, path, "--round", 1, code=1)
    assert said.splitlines() == [
        "Error: 1 problem in the results; nothing was written:",
        f"  {path}, row 2 (table {table}, set {set_no}), column 'north': value {value!r}: "
        f"{rule}; the seating has {seated} {names_of(shared)[seated]} here",
    ]
    assert snapshot(shared.path) == before


OTHER_PROBLEMS = {
    "the file's own (a level)": ("ns_level", "Z", "column 'ns_level': value 'Z'"),
    "the event's (a table)": ("table", 9, "column 'table': value 9: round 1 has tables 1..4"),
}


@pytest.mark.parametrize("case", OTHER_PROBLEMS)
def test_a_refused_name_is_listed_with_every_other_problem_of_the_file(shared, tmp_path, case):
    column, value, said_of_it = OTHER_PROBLEMS[case]
    results = set_results(shared, 1)
    results.loc[0, "north"] = "无名氏"
    results[column] = results[column].astype(object)
    results.loc[5, column] = value
    said = run("event", "ingest", shared.path, saved(results, tmp_path / "r.csv"), "--round",
               1, code=1)
    assert said.startswith("Error: 2 problems in the results")
    assert "row 2" in said and "value '无名氏': is neither the id nor the name" in said
    assert f"row 7{' (table' if column == 'ns_level' else ','}" in said and said_of_it in said


def test_an_ambiguous_name_names_the_ids_in_every_cell_that_holds_it(shared, tmp_path):
    results = set_results(shared, 1)
    path = saved(by_name(results, shared, SEATS), tmp_path / "r.csv")
    said = run("event", "ingest", shared.path, path, "--round", 1, code=1)
    sitting = results[SEATS].isin(["P001", "P002"])
    assert said.count("value '王伟': is the name of P001 and P002: write the id") == \
        sitting.to_numpy().sum() == 4, "two players, two sets each"
    assert "also plays at table" not in said, "a refused cell is not checked again"


def test_a_name_read_as_a_player_seated_elsewhere_is_echoed_as_written(event, tmp_path):
    folder = EventFolder.open(event)
    results = set_results(folder, 1)
    results.loc[0, ["north", "east"]] = results.loc[0, ["east", "north"]].to_numpy()
    north, east = results.loc[0, ["north", "east"]]  # swapped: each in the other's seat
    names = names_of(folder)
    path = saved(by_name(results, folder, ["north", "east"], [0]), tmp_path / "r.csv")
    said = run("event", "ingest", event, path, "--round", 1, code=1)
    table = results.loc[0, "table"]
    assert said.splitlines() == [
        "Error: 2 problems in the results; nothing was written:",
        f"  {path.name}, row 2, column 'north': value {names[north]!r}: the name of {north}; "
        f"table {table} set 1: the seating has {east} {names[east]}",
        f"  {path.name}, row 2, column 'east': value {names[east]!r}: the name of {east}; "
        f"table {table} set 1: the seating has {north} {names[north]}",
    ]


PLAYERS = demo_players(24)
ROWS = pd.DataFrame({
    "round": 1, "table": [1, 2, 3, 4, 5, 6], "set": 1, "ns_level": "5", "ew_level": "3",
    **{seat: PLAYERS["id"][i::4].tolist() for i, seat in enumerate(SEATS)}})


@settings(max_examples=60, deadline=None)
@given(st.lists(st.booleans(), min_size=24, max_size=24))
def test_property_names_and_ids_read_as_the_same_players(by_names):
    """Any mix of names and ids in the seat cells reads as the ids, a note per file."""
    names = dict(zip(PLAYERS["id"], PLAYERS["name"], strict=True))
    mixed = ROWS.copy()
    for k, name in enumerate(by_names):
        row, seat = divmod(k, 4)
        if name:
            mixed.loc[row, SEATS[seat]] = names[mixed.loc[row, SEATS[seat]]]
    raw = read_table(pa.Table.from_pandas(mixed, preserve_index=False), "r.csv")
    read, names = read_names(raw, PLAYERS.rename(columns={"id": "player"}), ROWS)
    assert read.frame[SEATS].to_numpy().tolist() == ROWS[SEATS].to_numpy().tolist()
    assert (len(names.named), names.problems, len(read.notes)) == (sum(by_names), [],
                                                                   int(any(by_names)))
