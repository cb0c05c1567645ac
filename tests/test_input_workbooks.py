"""Issue 23 item 2: the players, teams and lineups files (and a conversion table) may be
``.xlsx`` workbooks, read through the one workbook reader the results use
(:mod:`guandan_dup.workbooks`): the visible sheet whose header names the file's columns, a
title row above the header skipped, Chinese headers, and every problem numbering the
sheet's row (header on row 1, first data row 2) as a CSV's problems number its line."""

import zipfile

import pandas as pd
import pytest
from event_support import run
from openpyxl import Workbook

from guandan_dup.errors import GuandanError
from guandan_dup.event import EventFolder
from guandan_dup.movement.players import InvalidPlayersError, load_players
from guandan_dup.teams import load_lineups
from guandan_dup.teams.conversion import load as load_conversion
from guandan_dup.teams.registration import InvalidTeamsError, load_team_names, load_team_players

TITLE = ["上海市掼蛋俱乐部 会员名单"]
PLAYERS = [TITLE, ["编号", "姓名", "种子"]] + [[f"P{i:03d}", f"选手{i}", None]
                                               for i in range(1, 9)]


def workbook(path, *sheets, active=0):
    """A workbook of ``sheets`` (title, rows, state), as Excel saves it."""
    book = Workbook()
    book.remove(book.active)
    for title, rows, state in sheets:
        sheet = book.create_sheet(title)
        sheet.sheet_state = state
        for row in rows:
            sheet.append(row)
    book.active = active
    book.save(path)
    return path


def one_sheet(path, rows):
    return workbook(path, ("Sheet1", rows, "visible"))


def refusal(load, path):
    """The message of the ``GuandanError`` that ``load(path)`` raises."""
    with pytest.raises(GuandanError) as caught:
        load(path)
    return str(caught.value)


def problems(error, load, path):
    with pytest.raises(error) as caught:
        load(path)
    return [str(p) for p in caught.value.problems]


def test_issue23_a_players_xlsx_with_a_title_row_and_chinese_headers_goes_through_event_init(
        tmp_path):
    path = one_sheet(tmp_path / "players.xlsx", PLAYERS)
    out = run("event", "init", tmp_path / "e", "--players", path, "--tables-per-group", 1,
              "--sets-per-round", 1, "--boards-per-set", 2, "--rounds", 1)
    assert "8 players" in out, out
    players = EventFolder.open(tmp_path / "e").players()
    assert sorted(players["player"]) == [f"P{i:03d}" for i in range(1, 9)]
    assert dict(zip(players["player"], players["name"], strict=True))["P003"] == "选手3"


# A problem names the sheet's row: title on row 1, header on row 2, so the i-th player is on
# row i + 2; a cover sheet in front and a hidden old list are not read.
PLAYER_PROBLEMS = {
    "empty_name_on_sheet_row_5": (
        [TITLE, ["编号", "姓名"], ["P1", "王伟"], ["P2", "李娜"], ["P3", None]],
        "players.xlsx, row 5, column 'name': value '': empty name: every player needs one"),
    "id_twice_rows_3_and_4_after_a_blank_row": (
        [TITLE, ["id", "name"], ["P1", "王伟"], ["P1", "李娜"], [], ["P3", "张三"]],
        "players.xlsx, row 3, column 'id': value 'P1': this id is on more than one line"),
    "seed_typed_full_width_is_read_and_a_bad_one_named": (
        [["编号", "姓名", "种子"], ["P1", "王伟", "１"], ["P2", "李娜", "x"]],
        "players.xlsx, row 3, column 'seed': value 'x': expected a whole number >= 1 "
        "(1 = best)"),
}


@pytest.mark.parametrize("case", sorted(PLAYER_PROBLEMS))
def test_issue23_a_problem_in_a_players_xlsx_names_the_sheet_row(tmp_path, case):
    rows, expected = PLAYER_PROBLEMS[case]
    path = workbook(tmp_path / "players.xlsx", ("说明", [["请勿修改"]], "visible"),
                    ("旧名单", [["编号", "姓名"], ["X1", None]], "hidden"),
                    ("名单", rows, "visible"))
    assert problems(InvalidPlayersError, load_players, path)[0] == expected


def test_issue23_a_players_xlsx_missing_a_column_says_which_it_has(tmp_path):
    path = one_sheet(tmp_path / "players.xlsx", [["编号", "名"], ["P1", "王伟"]])
    assert problems(InvalidPlayersError, load_players, path) == [
        "players.xlsx, column 'name': missing column (found: id, 名)"]


def test_issue23_two_visible_players_sheets_are_refused_by_name(tmp_path):
    rows = [["id", "name"], ["P1", "王伟"]]
    path = workbook(tmp_path / "players.xlsx", ("A", rows, "visible"), ("B", rows, "visible"))
    assert refusal(load_players, path) == (
        f"cannot read {str(path)!r}: it has 2 visible sheets with columns 'id', 'name' "
        "('A', 'B'): which one holds the data? Hide or delete the others, or save that sheet "
        "as a file of its own, and try again")


TEAMS = [["报名表"], ["编号", "姓名", "队伍"]] + [[f"A{i}", f"甲{i}", "上海"] for i in range(1, 5)]
LINEUP_PLAYERS = pd.DataFrame({"player": [f"{t}{i}" for t in "AB" for i in range(1, 5)],
                               "team": [t for t in (1, 2) for _ in range(4)]})


def test_issue23_a_teams_xlsx_is_read_and_its_problems_name_the_sheet_row(tmp_path):
    good = one_sheet(tmp_path / "teams.xlsx", TEAMS)
    assert load_team_players(good)["label"].tolist() == ["上海"] * 4
    bad = one_sheet(tmp_path / "bad.xlsx", [*TEAMS, ["A1", "乙", "北京"]])
    assert problems(InvalidTeamsError, load_team_players, bad)[0] == (
        "bad.xlsx, row 7, column 'id': value 'A1': player also in team '上海' (line 3): a "
        "player plays for one team")
    names = one_sheet(tmp_path / "names.xlsx", [["队", "名字"], ["上海", "上海一队"]])
    assert load_team_names(names, ["上海"]) == {"上海": "上海一队"}


def test_issue23_a_lineups_xlsx_is_read_and_its_problems_name_the_sheet_row(tmp_path):
    rows = [["第1轮出场表"], ["轮次", "队", "室", "选手1", "选手2"],
            [1, 1, "open", "A3", "A4"], [1, 1, "closed", "A1", "A2"],
            [1, 2, "open", "B1", "B2"], [1, 2, "closed", "B3", "B4"]]
    lineups = load_lineups(one_sheet(tmp_path / "lineups.xlsx", rows), 1, [1, 2],
                           LINEUP_PLAYERS)
    assert lineups[lineups["team"] == 1]["player_1"].tolist() == ["A3", "A1"]
    rows[4] = [1, 2, "open", "B1", "A2"]
    with pytest.raises(InvalidTeamsError) as caught:
        load_lineups(one_sheet(tmp_path / "bad.xlsx", rows), 1, [1, 2], LINEUP_PLAYERS)
    assert str(caught.value.problems[0]) == (
        "bad.xlsx, row 5, column 'player_2': value 'A2': not registered for team 2 "
        "(registered for team 1; art. 19.2)")


def test_issue23_a_conversion_table_xlsx_is_read(tmp_path):
    rows = [["margin", "winner", "loser"]] + [[m, 10 + m, 10 - m] for m in range(0, 11)] + [
        [m, 20, 0] for m in range(11, 27)]
    rows[1] = [0, 10, 10]
    table = load_conversion(one_sheet(tmp_path / "级差分.xlsx", rows))
    assert table.name == "级差分"


def damaged(path):
    """A players workbook cut short: a zip with no central directory."""
    one_sheet(path, PLAYERS)
    path.write_bytes(path.read_bytes()[:900])
    return path


def entity_bomb(path):
    """A players workbook whose sheet declares XML entities."""
    source = one_sheet(path.with_name("sound.xlsx"), PLAYERS)
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(path, "w") as new:
        for info in old.infolist():
            data = old.read(info.filename)
            if info.filename == "xl/worksheets/sheet1.xml":
                body = data.split(b"?>", 1)[1] if data.startswith(b"<?xml") else data
                data = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]>' + body
            new.writestr(info, data)
    return path


@pytest.mark.parametrize(("make", "expected"), [
    pytest.param(damaged, "cannot be read as an xlsx workbook: it is damaged or not a "
                 "workbook (", id="cut_short"),
    pytest.param(entity_bomb, "cannot be read as an xlsx workbook: its XML declares entities",
                 id="entity_bomb"),
    pytest.param(lambda p: p.write_text("id,name\nP1,王伟\n") and p,
                 "cannot be read as an xlsx workbook: it is damaged or not a workbook (File "
                 "is not a zip file); open it in Excel or WPS, save it again as .xlsx, and "
                 "try again", id="a_csv_named_xlsx"),
])
def test_issue23_a_damaged_players_xlsx_is_one_director_friendly_error(tmp_path, make,
                                                                        expected):
    path = make(tmp_path / "players.xlsx")
    out = run("event", "init", tmp_path / "e", "--players", path, "--tables-per-group", 1,
              "--sets-per-round", 1, "--boards-per-set", 2, "--rounds", 1, code=1)
    assert f"Error: {str(path)!r} {expected}" in out, out
    assert "Traceback" not in out and not (tmp_path / "e").exists()
