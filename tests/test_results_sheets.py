"""Issue 21 item 7: the sheet of a workbook that is read is the one the director sees (the one
visible sheet with the results columns), never a hidden one; two candidates are refused by
name, and the ingest says which sheet it read."""

import zipfile

import pytest
from event_support import KEY, players_csv, set_results
from openpyxl import Workbook
from typer.testing import CliRunner

from guandan_dup.cli import app
from guandan_dup.errors import InvalidResultsError
from guandan_dup.event import create_event, deal_round, seat_event_round
from guandan_dup.levels import LEVEL_NAMES
from guandan_dup.results import load_results

HEADER = ["round", "table", "set", "north", "east", "south", "west", "ns_level", "ew_level"]


def row(ns_level):
    return [1, 1, 1, "p1", "p2", "p3", "p4", ns_level, 2]


def workbook(path, *sheets, active=None):
    """``sheets``: (title, rows, state); the first replaces the default sheet."""
    book = Workbook()
    for i, (title, rows, state) in enumerate(sheets):
        sheet = book.active if i == 0 else book.create_sheet()
        sheet.title = title
        for values in rows:
            sheet.append(values)
        sheet.sheet_state = state
    book.active = active if active is not None else next(
        i for i, (_, _, state) in enumerate(sheets) if state == "visible")
    book.save(path)
    return path


def problems(path):
    with pytest.raises(InvalidResultsError) as caught:
        load_results(path)
    return [str(p).replace(str(path), "FILE") for p in caught.value.problems]


def test_issue21_item7_a_hidden_first_sheet_is_not_read(tmp_path):
    path = workbook(tmp_path / "r.xlsx", ("old levels", [HEADER, row(5)], "hidden"),
                    ("results", [HEADER, row(3)], "visible"))
    read = load_results(path)
    assert [LEVEL_NAMES[i] for i in read.sets["ns_level"]] == ["3"], "the visible sheet's"
    assert read.warnings == [f"{path}: read sheet 'results', the one visible sheet with the "
                             "results columns (not read: hidden 'old levels')"]


def test_issue21_item7_a_notes_sheet_in_front_is_skipped_and_named(tmp_path):
    path = workbook(tmp_path / "r.xlsx", ("notes", [["written by the scorer"]], "visible"),
                    ("round 1", [HEADER, row(3)], "visible"))
    read = load_results(path)
    assert len(read.sets) == 1
    assert read.warnings == [f"{path}: read sheet 'round 1', the one visible sheet with the "
                             "results columns (not read: 'notes')"]


def test_issue21_item7_two_visible_results_sheets_are_refused_by_name(tmp_path):
    path = workbook(tmp_path / "r.xlsx", ("round 1", [HEADER, row(3)], "visible"),
                    ("round 2", [HEADER, row(4)], "visible"), ("old", [HEADER], "hidden"))
    assert problems(path) == [
        "FILE: has 2 visible sheets with results columns ('round 1', 'round 2'): which one "
        "holds the results? Hide or delete the others, or save that sheet as a file of its "
        "own, and ingest again"]


def test_issue21_item7_an_empty_template_beside_the_results_is_skipped_and_named(tmp_path):
    """A blank copy of the scoresheet (its header, no row) is no second candidate; two
    sheets with results still are."""
    path = workbook(tmp_path / "r.xlsx", ("template", [HEADER, [None] * 9], "visible"),
                    ("round 1", [HEADER, row(3)], "visible"))
    ingested = load_results(path)
    assert ingested.sets["ns_level"].tolist() == [1]
    assert ingested.warnings == [
        f"{path}: read sheet 'round 1', the one visible sheet with the results columns (not "
        "read: 'template' (a header without results))"]


def test_issue21_item7_results_only_on_a_hidden_sheet_are_refused(tmp_path):
    path = workbook(tmp_path / "r.xlsx", ("cover", [["round 1 results"]], "visible"),
                    ("old levels", [HEADER, row(5)], "hidden"))
    assert problems(path) == [
        "FILE: has results columns only on hidden sheets ('old levels'), and hidden sheets "
        "are not read: unhide the sheet with this round's results (or copy them to a visible "
        "sheet) and ingest again"]


def test_issue21_item7_without_results_columns_the_sheet_shown_on_opening_is_read(tmp_path):
    path = workbook(tmp_path / "r.xlsx", ("a", [["x"], ["1"]], "visible"),
                    ("b", [["round", "table"], ["1", "1"]], "visible"), active=1)
    (problem,) = problems(path)
    assert problem.startswith("FILE: has neither ns_level/ew_level"), problem


def test_issue21_item7_event_ingest_says_which_sheet_it_read(tmp_path):
    csv = players_csv(tmp_path / "players.csv", 8)
    folder = create_event(tmp_path / "e", csv, 2, 1, 2, 1, key=KEY)
    deal_round(folder, 1)
    seat_event_round(folder, 1)
    results = set_results(folder, 1)
    stale = results.assign(ns_level="A")
    path = workbook(tmp_path / "r.xlsx",
                    ("old levels", [list(stale), *stale.values.tolist()], "hidden"),
                    ("results", [list(results), *results.values.tolist()], "visible"))
    taken = CliRunner().invoke(app, ["event", "ingest", str(folder.path), str(path),
                                     "--round", "1"])
    assert taken.exit_code == 0, taken.output
    assert "Warning: " in taken.output and "read sheet 'results'" in taken.output
    stored = folder.read(1, "results").sort_values(["table", "set"])
    expected = results.sort_values(["table", "set"])
    assert [LEVEL_NAMES[i] for i in stored["ns_level"]] == expected["ns_level"].tolist()


def test_issue21_a_formula_with_no_saved_value_is_named_not_empty(tmp_path):
    """openpyxl, like other programs, saves a formula without computing it: read for its
    value the cell is empty, but the director sees a number in Excel."""
    path = workbook(tmp_path / "r.xlsx", ("results", [
        HEADER, [1, 1, 1, "p1", "p2", "p3", "p4", "=2+1", 2],
        [1, 2, 1, "p5", "p6", "p7", "p8", 4, "=1+1"]], "visible"))
    assert problems(path) == [
        "FILE: has formulas with no saved value on sheet 'results': H2 (column "
        "'ns_level'), I3 (column 'ew_level'); the workbook was written by a program "
        "that does not compute formulas: open it in Excel or WPS, save it (the values are then "
        "stored) and ingest it again"]


def test_issue21_an_empty_cell_without_a_formula_is_still_empty(tmp_path, monkeypatch):
    """And the workbook is parsed once: without a formula there is no second pass."""
    import openpyxl

    opened = []
    load = openpyxl.load_workbook
    monkeypatch.setattr(openpyxl, "load_workbook", lambda *a, **k: opened.append(k) or load(
        *a, **k))
    path = workbook(tmp_path / "r.xlsx", ("results", [HEADER, row(None)], "visible"))
    assert problems(path) == [
        "FILE, row 2 (table 1, set 1), column 'ns_level': is empty; a value is required (or an "
        "adjusted code "
        "for a table that did not play)"]
    assert len(opened) == 1


def test_issue21_a_formula_with_its_saved_value_reads_as_the_value(tmp_path):
    """As Excel saves it: the formula and its value (put in the XML here)."""
    made = workbook(tmp_path / "made.xlsx", ("results", [HEADER, row("=2+1")], "visible"))
    path = tmp_path / "r.xlsx"
    with zipfile.ZipFile(made) as old, zipfile.ZipFile(path, "w") as new:
        for info in old.infolist():
            data = old.read(info.filename)
            new.writestr(info, data.replace(b"<f>2+1</f><v />", b"<f>2+1</f><v>3</v>"))
    assert [LEVEL_NAMES[i] for i in load_results(path).sets["ns_level"]] == ["3"]
