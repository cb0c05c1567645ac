"""Issue 9 item 11: results from a spreadsheet (.csv, .xlsx) get the Parquet file's checks
and exactly its messages, but for the row (issue 23): a spreadsheet's problem numbers its row
as the sheet shows it (the header is row 1) and names the table and set of the row."""

import re

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from event_support import KEY, players_csv, set_results
from openpyxl import Workbook
from typer.testing import CliRunner

from guandan_dup.cli import app
from guandan_dup.errors import InvalidResultsError
from guandan_dup.event import create_event, deal_round, seat_event_round
from guandan_dup.results import load_results

SEATS = {"north": ["p1", "p5"], "east": ["p2", "p6"], "south": ["p3", "p7"],
         "west": ["p4", "p8"]}
GOOD = {"round": [1, 1], "table": [1, 2], "set": [1, 1], **SEATS,
        "ns_level": ["3", "10"], "ew_level": ["2", "2"]}


def as_parquet(path, columns):
    pq.write_table(pa.table(columns), path.with_suffix(".parquet"))
    return path.with_suffix(".parquet")


def as_csv(path, columns, encoding="utf-8-sig"):
    """As Excel saves 'CSV UTF-8': a byte-order mark and CRLF line ends."""
    frame = pd.DataFrame(columns)
    path = path.with_suffix(".csv")
    path.write_bytes(frame.to_csv(index=False, lineterminator="\r\n").encode(encoding))
    return path


def as_xlsx(path, columns, numbers=True):
    """A workbook whose first sheet holds the results; with ``numbers`` every cell that looks
    like a number is typed as one (as Excel does), levels included."""
    book = Workbook()
    sheet = book.active
    sheet.append(list(columns))
    for row in zip(*columns.values(), strict=True):
        sheet.append([_typed(v) if numbers else v for v in row])
    book.create_sheet("notes").append(["not read"])
    path = path.with_suffix(".xlsx")
    book.save(path)
    return path


def _typed(value):
    try:
        return float(value) if "." in str(value) else int(value)
    except (TypeError, ValueError):
        return value


WRITERS = {"parquet": as_parquet, "csv": as_csv, "xlsx": as_xlsx}


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_issue9_item11_a_spreadsheet_reads_as_the_parquet_file(tmp_path, fmt):
    expected = load_results(as_parquet(tmp_path / "r", GOOD)).sets
    got = load_results(WRITERS[fmt](tmp_path / "r", GOOD)).sets
    pd.testing.assert_frame_equal(got, expected)
    assert got["ns_level"].tolist() == [1, 8], "the level typed as the number 10 is '10'"


def test_issue9_item11_xlsx_with_text_cells_and_a_plain_csv_read_alike(tmp_path):
    expected = load_results(as_parquet(tmp_path / "r", GOOD)).sets
    text_sheet = as_xlsx(tmp_path / "t", GOOD, numbers=False)
    plain = as_csv(tmp_path / "plain", GOOD, encoding="utf-8")
    for path in (text_sheet, plain):
        pd.testing.assert_frame_equal(load_results(path).sets, expected)


BAD = {
    "fraction": {**GOOD, "table": [1, 1.5]},
    "unknown_level": {**GOOD, "ns_level": ["3", "Z"]},
    "empty_cell": {**GOOD, "north": ["p1", None]},
    "two_tables": {**GOOD, "north": ["p1", "p1"]},
    "missing_column": {k: v for k, v in GOOD.items() if k != "west"},
    "too_large": {**GOOD, "set": [1, 10**12]},
    "no_rows": {k: [] for k in GOOD},
}


def messages(path):
    with pytest.raises(InvalidResultsError) as caught:
        load_results(path)
    return [str(p).replace(str(path), "FILE") for p in caught.value.problems]


def parquet_form(message):
    """A spreadsheet's message as the Parquet file's of the same rows says it: the data row
    counted from 1 (the sheet's row less its header), without the table and set."""
    return re.sub(r"row (\d+)(?: \([^)]*\))?", lambda m: f"row {int(m[1]) - 1}", message)


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("case", sorted(BAD))
def test_issue9_item11_a_spreadsheet_gets_the_parquet_messages(tmp_path, case):
    expected = messages(as_parquet(tmp_path / "r", BAD[case]))
    assert expected
    for fmt in ("csv", "xlsx"):
        got = messages(WRITERS[fmt](tmp_path / "r", BAD[case]))
        assert [parquet_form(m) for m in got] == expected, fmt


def test_issue23_a_csv_neither_utf8_nor_gbk_is_refused_with_save_as_utf8(tmp_path):
    path = tmp_path / "r.csv"
    path.write_bytes(b"round,table\r\n1,\x80\r\n")
    (problem,) = messages(path)
    assert problem.startswith("FILE: is neither UTF-8 nor GBK (GB18030) text (")
    assert problem.endswith("save it as 'CSV UTF-8 (comma delimited)' (Excel) or with the "
                            "encoding UTF-8 (WPS), and ingest it again")


def test_issue9_item11_a_file_that_is_no_results_file_says_which_kinds_are(tmp_path):
    path = tmp_path / "r.txt"
    path.write_text("round,table\n1,1\n", encoding="utf-8")
    (problem,) = messages(path)
    assert "results files are Parquet, .csv or .xlsx" in problem
    broken = tmp_path / "r.xlsx"
    broken.write_bytes(b"not a zip")
    assert messages(broken)[0].startswith("FILE: cannot be read as an xlsx workbook")


@pytest.mark.filterwarnings("error")
def test_issue9_item5_huge_numbers_in_a_csv_are_named_as_written(tmp_path):
    """Above 2**63 and 1e20 in integer columns: the Parquet file's messages (the value as
    written, not the float it was read as), no warning, no traceback."""
    huge = {**GOOD, "set": [1, 2**63 + 1], "table": ["1e20", "2"]}
    parquet = {**GOOD, "set": pa.array([1, 2**63 + 1], pa.uint64()),
               "table": pa.array([1e20, 2.0])}
    csv = messages(as_csv(tmp_path / "r", huge))
    assert [parquet_form(m) for m in csv] == messages(as_parquet(tmp_path / "r", parquet))
    assert sorted(csv) == [
        "FILE, row 2 (set 1), column 'table': value 1e+20: must be at most 1,000,000,000",
        "FILE, row 3 (table 2), column 'set': value 9223372036854775809: must be at most "
        "1,000,000,000",
    ]


def test_issue9_item11_results_on_a_later_sheet_are_read(tmp_path):
    """Issue 9 pointed to a later sheet; since issue 21 item 7 the one visible sheet with the
    results columns is read wherever it stands (test_results_sheets.py)."""
    book = Workbook()
    book.active.title = "cover"
    later = book.create_sheet("round 1")
    for values in [list(GOOD), *zip(*GOOD.values(), strict=True)]:
        later.append(list(values))
    book.save(tmp_path / "r.xlsx")
    expected = load_results(as_parquet(tmp_path / "r", GOOD)).sets
    pd.testing.assert_frame_equal(load_results(tmp_path / "r.xlsx").sets, expected)


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_issue9_item11_a_column_named_twice_is_refused_naming_both(tmp_path, fmt):
    columns = {**GOOD, "Table ": ["2", "1"]}  # the same name once stripped and lower-cased
    (problem,) = messages(WRITERS[fmt](tmp_path / "r", columns))
    assert problem == ("FILE: has two columns named 'table' (columns 2 and 10): keep one and "
                       "ingest again")


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_issue9_item11_event_ingest_takes_a_spreadsheet(tmp_path, fmt):
    csv = players_csv(tmp_path / "players.csv", 8)
    folder = create_event(tmp_path / "e", csv, 2, 1, 2, 1, key=KEY)
    deal_round(folder, 1)
    seat_event_round(folder, 1)
    results = set_results(folder, 1)
    columns = {k: results[k].tolist() for k in results.columns}
    wrong = {**columns, "north": list(reversed(columns["north"]))}
    bad = WRITERS[fmt](tmp_path / "bad", wrong)
    refused = CliRunner().invoke(app, ["event", "ingest", str(folder.path), str(bad),
                                       "--round", "1"])
    parquet = as_parquet(tmp_path / "bad", wrong)
    same = CliRunner().invoke(app, ["event", "ingest", str(folder.path), str(parquet),
                                    "--round", "1"])
    assert refused.exit_code == same.exit_code == 1
    assert parquet_form(refused.output.replace(bad.name, "F")) == same.output.replace(
        parquet.name, "F")
    assert "row 2, column 'north'" in refused.output
    good = WRITERS[fmt](tmp_path / "good", columns)
    taken = CliRunner().invoke(app, ["event", "ingest", str(folder.path), str(good),
                                     "--round", "1"])
    assert taken.exit_code == 0 and "Every table of the round has results" in taken.output
    assert folder.missing_results(1) == []


PHONES = {**GOOD, "north": [13800138000, 13900139000], "east": [2, 6], "south": [3, 7],
          "west": [4, 8]}


@pytest.mark.parametrize("fmt", ["parquet", "csv", "xlsx"])
def test_issue21_a_long_number_as_a_player_id_is_read_as_its_digits(tmp_path, fmt):
    """An id is a name, not a count: an 11-digit phone number typed as a number is the id
    "13800138000" (the seating then says whether that player sits there), never the
    typing-slip limit of table and set numbers."""
    sets = load_results(WRITERS[fmt](tmp_path / "r", PHONES)).sets
    assert sets["north"].tolist() == ["13800138000", "13900139000"]
    assert sets["east"].tolist() == ["2", "6"]


def test_issue21_a_player_id_a_float_cannot_hold_exactly_says_so(tmp_path):
    floats = {**GOOD, "north": pa.array([2.0**60, 1.5])}
    assert messages(as_parquet(tmp_path / "r", floats)) == [
        "FILE, row 1, column 'north': value 1.152921504606847e+18: is too large to be an "
        "exact id as a number (the file stores it as a float, which rounds it): save the ids "
        "as text",
        "FILE, row 2, column 'north': value 1.5: is not a player id: a number with a fraction "
        "(save the ids as text)",
    ]
