"""``event sheet``: a round's results sheet with who sits where filled in, which goes back in
through ``event ingest`` as it is; ingest takes the seat columns a file leaves out from the
seating (issue 23, item 1)."""

import openpyxl
import pandas as pd
import pytest
from event_support import (
    KEY,
    board_results,
    players_csv,
    reference,
    run,
    seated_event,
    set_results,
    snapshot,
    stored_after,
)

from guandan_dup.event import EventFolder, create_event, seat_event_round
from guandan_dup.event.sheet import shown_width, write_sheet
from guandan_dup.seats import SEAT_COLUMNS

SEATS = list(SEAT_COLUMNS)
NAMES = [f"{seat}_name" for seat in SEATS]
SET_HEADER = ["round", "group", "table", "set", *SEAT_COLUMNS, *NAMES, "ns_level", "ew_level"]
BOARD_HEADER = ["round", "group", "table", "set", "board", *SEAT_COLUMNS, *NAMES, "finish"]
KEYS = ["table", "set"]


@pytest.fixture
def event(tmp_path):
    """17 players at 4 tables (a bye), 2 sets of 3 boards; round 1 dealt and seated."""
    return seated_event(tmp_path)


def read_sheet(path) -> pd.DataFrame:
    """A sheet as the text a director sees in it (empty cells empty)."""
    if path.suffix == ".xlsx":
        frame = pd.read_excel(path, dtype=str)
    else:
        frame = pd.read_csv(path, dtype=str, encoding="utf-8-sig", keep_default_na=False)
    return frame.fillna("")


def filled(sheet: pd.DataFrame, results: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """``sheet`` with its result ``columns`` typed in from ``results`` (same keys)."""
    key = [c for c in ("table", "set", "board") if c in sheet.columns]
    typed = results[key + columns].astype(str)
    merged = sheet.drop(columns=columns).merge(typed, on=key, how="left")
    return merged[sheet.columns]


def save_filled(path, frame: pd.DataFrame, columns: list[str]) -> None:
    """Type ``frame``'s result ``columns`` into the sheet at ``path``, as a director does:
    into the workbook's cells, or saving the CSV as Excel's "CSV UTF-8" does."""
    if path.suffix == ".csv":
        frame.to_csv(path, index=False, encoding="utf-8-sig")
        return
    book = openpyxl.load_workbook(path)
    sheet = book.active
    header = [c.value for c in sheet[1]]
    for row, values in enumerate(frame[columns].itertuples(index=False), 2):
        for column, value in zip(columns, values, strict=True):
            sheet.cell(row, header.index(column) + 1).value = value
    book.save(path)


def seated_rows(folder: EventFolder) -> pd.DataFrame:
    """Each (table, set) of round 1 with its seats and their names, from the folder."""
    seating = folder.read(1, "seating")
    names = dict(zip(folder.players()["player"], folder.players()["name"], strict=True))
    rows = [
        (table, s, *(row[seat] for seat in SEAT_COLUMNS),
         *(names[row[seat]] for seat in SEAT_COLUMNS))
        for table, s in folder.plan.planned_results(1)
        for _, row in seating[seating["table"] == table].iterrows()
    ]
    return pd.DataFrame(rows, columns=[*KEYS, *SEAT_COLUMNS, *NAMES]).astype(str)


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_issue23_the_sheet_names_who_sits_at_each_table_and_set(event, tmp_path, suffix):
    out = tmp_path / f"round1{suffix}"
    said = run("event", "sheet", event, "--round", 1, "--out", out)
    assert f"Wrote {out}: 8 rows, one per table and set of round 1." in said
    assert f"Next: fill in ns_level and ew_level, then `guandan-dup event ingest {event} {out}" \
        in said
    sheet = read_sheet(out)
    assert list(sheet.columns) == SET_HEADER
    assert (sheet[["round", "group"]].drop_duplicates().to_numpy().tolist()
            == [["1", "1"]]) and (sheet[["ns_level", "ew_level"]] == "").all().all()
    expected = seated_rows(EventFolder.open(event))
    got = sheet[expected.columns].sort_values(KEYS, key=lambda c: c.astype(int))
    pd.testing.assert_frame_equal(got.reset_index(drop=True),
                                  expected.sort_values(KEYS).reset_index(drop=True))
    bye = EventFolder.open(event).read(1, "byes")["player"].iloc[0]
    assert bye not in set(sheet[SEATS].to_numpy().ravel()), "a bye has no row"


def test_issue23_the_xlsx_sheet_has_its_header_frozen_and_its_columns_sized(event, tmp_path):
    out = tmp_path / "round1.xlsx"
    run("event", "sheet", event, "--round", 1, "--out", out)
    sheet = openpyxl.load_workbook(out).active
    assert sheet.freeze_panes == "A2"
    assert [c.value for c in sheet[1]] == SET_HEADER and all(c.font.b for c in sheet[1])
    for column in sheet.iter_cols():
        widest = max(shown_width(str(c.value)) for c in column if c.value is not None)
        assert sheet.column_dimensions[column[0].column_letter].width >= widest, column[0].value
    assert {sheet.cell(2, SET_HEADER.index(c) + 1).number_format
            for c in ("north", "ns_level")} == {"@"}, "ids and levels are typed as text"


def test_issue23_the_csv_sheet_is_utf8_with_a_byte_order_mark(event, tmp_path):
    out = tmp_path / "round1.csv"
    run("event", "sheet", event, "--round", 1, "--out", out)
    data = out.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf" + b"round,group,table,set,")
    names = seated_rows(EventFolder.open(event))["north_name"]
    assert all(name in data[3:].decode("utf-8") for name in names)


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_issue23_the_filled_sheet_is_ingested_as_it_is(event, tmp_path, suffix):
    results = set_results(EventFolder.open(event), 1, seed=3)
    expected = reference(event, tmp_path, results)
    out = tmp_path / f"round1{suffix}"
    run("event", "sheet", event, "--round", 1, "--out", out)
    levels = ["ns_level", "ew_level"]
    save_filled(out, filled(read_sheet(out), results, levels), levels)
    pd.testing.assert_frame_equal(stored_after(event, out), expected)


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_issue23_a_sheet_handed_in_while_tables_play_takes_the_filled_rows(event, tmp_path,
                                                                          suffix):
    results = set_results(EventFolder.open(event), 1, seed=3)
    out = tmp_path / f"round1{suffix}"
    run("event", "sheet", event, "--round", 1, "--out", out)
    levels = ["ns_level", "ew_level"]
    sheet = filled(read_sheet(out), results, levels)
    sheet.loc[sheet["table"] == "3", levels] = ""  # table 3 still plays
    save_filled(out, sheet, levels)
    said = run("event", "ingest", event, out, "--round", 1)
    assert "2 rows with no result filled in yet left out (rows " in said
    stored = EventFolder.open(event).read(1, "results")
    assert sorted(stored["table"].unique()) == [1, 2, 4]
    save_filled(out, filled(read_sheet(out), results, levels), levels)  # table 3 done
    expected = reference(event, tmp_path, results)
    pd.testing.assert_frame_equal(stored_after(event, out), expected)


def test_issue23_the_board_sheet_has_a_row_per_board_and_goes_back_in(event, tmp_path):
    results = board_results(EventFolder.open(event), 1, seed=4)
    expected = reference(event, tmp_path, results)
    out = tmp_path / "boards.xlsx"
    said = run("event", "sheet", event, "--round", 1, "--out", out, "--boards")
    assert "24 rows, one per table and board" in said and "Next: fill in finish" in said
    sheet = read_sheet(out)
    assert list(sheet.columns) == BOARD_HEADER and (sheet["finish"] == "").all()
    boards = sheet.groupby("set")["board"].unique().map(sorted).to_dict()
    assert boards == {"1": ["1", "2", "3"], "2": ["4", "5", "6"]}
    save_filled(out, filled(sheet, results, ["finish"]), ["finish"])
    pd.testing.assert_frame_equal(stored_after(event, out), expected)


@pytest.mark.parametrize("left_out", [SEATS, ["east"]], ids=["all seats", "one seat"])
def test_issue23_seat_columns_left_out_are_taken_from_the_seating(event, tmp_path, left_out):
    results = set_results(EventFolder.open(event), 1, seed=5)
    expected = reference(event, tmp_path, results)
    path = tmp_path / "no-seats.csv"
    results.drop(columns=list(left_out)).to_csv(path, index=False)
    pd.testing.assert_frame_equal(stored_after(event, path), expected)


def test_issue23_seat_columns_given_are_checked_as_before(event, tmp_path):
    out = tmp_path / "round1.csv"
    run("event", "sheet", event, "--round", 1, "--out", out)
    levels = ["ns_level", "ew_level"]
    sheet = filled(read_sheet(out), set_results(EventFolder.open(event), 1), levels)
    sheet.loc[0, ["north", "east"]] = sheet.loc[0, ["east", "north"]].to_numpy()
    save_filled(out, sheet, levels)
    before = snapshot(event)
    said = run("event", "ingest", event, out, "--round", 1, code=1)
    assert f"row 2, column 'north': value {sheet.loc[0, 'north']!r}" in said
    north = sheet.loc[0, "east"], sheet.loc[0, "north_name"]  # the seating's north, swapped
    assert "the seating has {} {}\n".format(*north) in said
    assert snapshot(event) == before


def test_issue23_a_row_of_a_table_the_round_has_not_without_seats_says_the_table(event,
                                                                                 tmp_path):
    results = set_results(EventFolder.open(event), 1).drop(columns=SEATS)
    results.loc[0, "table"] = 9
    path = tmp_path / "no-seats.csv"
    results.to_csv(path, index=False)
    said = run("event", "ingest", event, path, "--round", 1, code=1)
    assert "row 2, column 'table': value 9: round 1 has tables 1..4" in said
    assert "is missing" not in said


def test_issue23_partner_rotation_gives_each_set_its_own_seats(tmp_path):
    folder = create_event(tmp_path / "rot", players_csv(tmp_path / "p.csv", 8), 2, 3, 1, 1,
                          rotate_partners=True, key=KEY)
    seat_event_round(folder, 1)
    written = write_sheet(folder, 1, tmp_path / "rot.csv")
    assert written.rows == 6
    sheet = read_sheet(written.path).astype({"table": int, "set": int})
    seating = folder.read(1, "seating")
    got = sheet[[*KEYS, *SEAT_COLUMNS]].sort_values(KEYS, ignore_index=True)
    want = seating[[*KEYS, *SEAT_COLUMNS]].sort_values(KEYS, ignore_index=True)
    pd.testing.assert_frame_equal(got, want, check_dtype=False)
    layouts = sheet.groupby("table")[SEATS].apply(lambda t: len(set(map(tuple, t.to_numpy()))))
    assert layouts.tolist() == [3, 3], "partners rotate: each set has its own seats"


def test_spec10_a_substitute_sits_in_the_sheet_and_in_the_seats_taken_from_the_seating(
        event, tmp_path):
    results = set_results(EventFolder.open(event), 1, seed=6)
    replaced = results["north"].iloc[0]
    run("event", "ledger", "add", event, "substitute", "--round", 1, "--player", "SUB1",
        "--for", replaced, "--reason", "family emergency")
    out = tmp_path / "round1.csv"
    run("event", "sheet", event, "--round", 1, "--out", out)
    sheet = read_sheet(out)
    assert replaced not in set(sheet["north"])
    assert sheet.loc[sheet["north"] == "SUB1", "north_name"].tolist() == ["", ""]
    path = tmp_path / "no-seats.csv"
    results.drop(columns=SEATS).to_csv(path, index=False)
    stored = stored_after(event, path)
    assert "SUB1" in set(stored["north"]) and replaced not in set(stored["north"])


def test_issue23_a_round_not_seated_has_no_sheet(event, tmp_path):
    out = tmp_path / "round2.xlsx"
    said = run("event", "sheet", event, "--round", 2, "--out", out, code=1)
    assert (f"Error: round 2 is not seated yet: run `guandan-dup event seat {event} --round 2` "
            "before making its results sheet") in said
    assert not out.exists()


@pytest.mark.parametrize("name", ["round1.xls", "round1.txt", "round1.parquet", "round1"])
def test_issue23_a_sheet_is_xlsx_or_csv(event, tmp_path, name):
    out = tmp_path / name
    said = run("event", "sheet", event, "--round", 1, "--out", out, code=1)
    assert f"Error: cannot write the results sheet to {str(out)!r}: a sheet is .xlsx or .csv" \
        in said
    assert not out.exists()
