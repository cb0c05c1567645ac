"""Issue 23 item 2: spreadsheets as Chinese clubs make them.

``score`` and ``event ingest`` (and the players, teams and lineups files) read a CSV saved as
GBK, full-width digits and letters from a Chinese input method, Chinese column headers, a
title row or blank rows above the header, and every problem numbers its row as the
spreadsheet shows it (the sheet's row, the CSV's line), naming the table and set.
"""

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from openpyxl import Workbook

from guandan_dup.errors import GuandanError, InvalidResultsError
from guandan_dup.headers import ALIASES, column_name
from guandan_dup.movement.players import InvalidPlayersError, load_players
from guandan_dup.results import load_results
from guandan_dup.teams import load_lineups
from guandan_dup.teams.registration import InvalidTeamsError, load_team_players

ENGLISH = ["round", "table", "set", "north", "east", "south", "west", "ns_level", "ew_level"]
CHINESE = ["轮次", "桌号", "局", "北", "东", "南", "西", "南北级数", "东西级数"]
ROWS = [[1, 1, 1, "p1", "p2", "p3", "p4", "K", "7"],
        [1, 2, 1, "p5", "p6", "p7", "p8", "10", "2"]]
FULL_WIDTH = [["１", "１", "１", "ｐ1", "p2", "p3", "p４", " Ｋ ", "７"],
              ["1", "２", "1", "p5", "p6", "p7", "p8", "１０", "\u3000２"]]


def write_csv(path, rows, encoding="utf-8-sig"):
    path.write_bytes("\r\n".join(",".join(map(str, row)) for row in rows).encode(encoding)
                     + b"\r\n")
    return path


def write_xlsx(path, rows):
    book = Workbook()
    for row in rows:
        book.active.append(row)
    book.save(path)
    return path


def expected_sets(tmp_path):
    return load_results(write_csv(tmp_path / "plain.csv", [ENGLISH, *ROWS])).sets


def problems(path):
    with pytest.raises(InvalidResultsError) as caught:
        load_results(path)
    return [str(p).replace(str(path), "FILE") for p in caught.value.problems]


@pytest.mark.parametrize("encoding, note", [
    ("utf-8", None), ("utf-8-sig", None),
    ("gbk", "read as GB18030 (GBK), as Excel on Chinese Windows saves CSV (it is not UTF-8)"),
    ("gb18030", "read as GB18030 (GBK), as Excel on Chinese Windows saves CSV (it is not "
                "UTF-8)"),
])
def test_issue23_a_csv_is_read_as_utf8_else_gbk_and_the_note_says_which(tmp_path, encoding,
                                                                        note):
    path = write_csv(tmp_path / "r.csv", [CHINESE, *ROWS], encoding)
    read = load_results(path)
    pd.testing.assert_frame_equal(read.sets, expected_sets(tmp_path))
    assert read.warnings == ([f"{path}: {note}"] if note else [])


@pytest.mark.parametrize("header, column", sorted(ALIASES.items()))
def test_issue23_a_chinese_header_names_its_column(header, column):
    assert column_name(header) == column
    assert column_name(f" {header}\u3000") == column  # spaces around, ideographic too


@pytest.mark.parametrize("header, column", [
    ("ＲＯＵＮＤ", "round"), ("Table ", "table"), ("ｎｓ＿ｌｅｖｅｌ", "ns_level"),
    ("桌　号", "桌 号"),  # NFKC makes the ideographic space a space, not nothing
])
def test_issue23_a_header_is_read_after_nfkc_trimming_and_lower_casing(header, column):
    assert column_name(header) == column


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_issue23_full_width_number_and_level_cells_read_as_plain(tmp_path, fmt):
    rows = [CHINESE, *FULL_WIDTH]
    path = (write_csv(tmp_path / "r.csv", rows, "gbk") if fmt == "csv"
            else write_xlsx(tmp_path / "r.xlsx", rows))
    pd.testing.assert_frame_equal(load_results(path).sets, expected_sets(tmp_path))


def test_issue23_full_width_finishing_orders_and_boards_read_as_plain(tmp_path):
    header = ["轮", "桌", "局号", "牌号", "北", "东", "南", "西", "游序"]
    plain = [[1, 1, 1, 1, "p1", "p2", "p3", "p4", "NS"], [1, 1, 1, 2, "p1", "p2", "p3", "p4",
                                                           "EWN"]]
    wide = [[1, 1, 1, "１", "p1", "p2", "p3", "p4", "ＮＳ"],
            [1, 1, 1, "２", "p1", "p2", "p3", "p4", " ＥＷＮ "]]
    english = ["round", "table", "set", "board", *ENGLISH[3:7], "finish"]
    expected = load_results(write_csv(tmp_path / "b.csv", [english, *plain])).sets
    got = load_results(write_csv(tmp_path / "w.csv", [header, *wide], "gbk")).sets
    pd.testing.assert_frame_equal(got, expected)


ABOVE = {
    "title_row": [["第3轮成绩"]],
    "title_and_blank_rows": [["2026 春季赛", "", "第3轮"], [], [""]],
    "blank_rows": [[], []],
    "title_naming_no_column": [["成绩表 (round 3)"], ["桌号 = table"]],
}


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
@pytest.mark.parametrize("case", sorted(ABOVE))
def test_issue23_the_header_is_the_first_row_naming_the_results_columns(tmp_path, fmt, case):
    rows = [*ABOVE[case], CHINESE, *ROWS]
    path = (write_csv(tmp_path / "r.csv", rows) if fmt == "csv"
            else write_xlsx(tmp_path / "r.xlsx", rows))
    pd.testing.assert_frame_equal(load_results(path).sets, expected_sets(tmp_path))


def test_issue23_an_xlsx_problem_names_the_sheet_row_and_the_table_and_set(tmp_path):
    """A workbook with a title row and Chinese headers: the header on sheet row 2, so the
    second results row is sheet row 4, as Excel shows it (and a blank row 3 is skipped)."""
    bad = [*ROWS[1][:7], "Ｘ", "2"]
    path = write_xlsx(tmp_path / "r.xlsx", [["第1轮成绩"], CHINESE, [], ROWS[0], bad])
    assert problems(path) == [
        "FILE, row 5 (table 2, set 1), column 'ns_level': value 'X': unknown level; expected "
        "one of 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A, A+"]


def test_issue23_a_csv_problem_names_its_line_and_the_table_and_set(tmp_path):
    """A GBK CSV with full-width values: the problem is on line 4 (title, header, row)."""
    bad = [*FULL_WIDTH[1][:7], "１０", ""]
    path = write_csv(tmp_path / "r.csv", [["第1轮成绩"], CHINESE, FULL_WIDTH[0], bad], "gbk")
    assert problems(path) == [
        "FILE, row 4 (table 2, set 1), column 'ew_level': is empty; a value is required (or an "
        "adjusted code for a table that did not play)"]


def test_issue23_a_parquet_file_keeps_counting_its_data_rows(tmp_path):
    columns = dict(zip(ENGLISH, map(list, zip(*ROWS, strict=True)), strict=True))
    columns["ns_level"] = ["K", "X"]
    path = tmp_path / "r.parquet"
    pq.write_table(pa.table(columns), path)
    assert problems(path) == [
        "FILE, row 2, column 'ns_level': value 'X': unknown level; expected one of 2, 3, 4, 5, "
        "6, 7, 8, 9, 10, J, Q, K, A, A+"]


PLAYERS_GBK = "选手名单\r\n编号,姓名,种子\r\nP1,王伟,２\r\nP2,李娜,１\r\n\r\nP3,,\r\n"


def test_issue23_a_players_file_in_gbk_with_chinese_headers_and_a_title_line(tmp_path):
    path = tmp_path / "players.csv"
    path.write_bytes(PLAYERS_GBK.replace("P3,,\r\n", "P3,张三,\r\n").encode("gbk"))
    players = load_players(path)
    assert players["player"].tolist() == ["P1", "P2", "P3"]
    assert players["name"].tolist() == ["王伟", "李娜", "张三"]
    assert players["seed"].tolist() == [2, 1, pd.NA]


def test_issue23_a_full_width_player_id_is_read_as_the_plain_id(tmp_path):
    rows = [["编号", "姓名"], ["Ｐ０３", "张敏"], ["P4", "李娜"]]
    path = write_csv(tmp_path / "players.csv", rows, "gbk")
    assert load_players(path)["player"].tolist() == ["P03", "P4"]


def test_issue23_a_players_file_problem_names_its_csv_line(tmp_path):
    """Title on line 1, header on line 2, a blank line 5: P3's empty name is on line 6."""
    path = tmp_path / "players.csv"
    path.write_bytes(PLAYERS_GBK.encode("gbk"))
    with pytest.raises(InvalidPlayersError) as caught:
        load_players(path)
    assert [str(p) for p in caught.value.problems] == [
        "players.csv, row 6, column 'name': value '': empty name: every player needs one"]


def test_issue23_a_teams_players_file_with_a_title_line_names_its_lines(tmp_path):
    path = tmp_path / "teams.csv"
    lines = ["报名表", "编号,姓名,队伍"] + [f"A{i},甲{i},上海" for i in range(1, 5)]
    path.write_bytes(("\r\n".join([*lines, "A1,乙,北京"]) + "\r\n").encode("gbk"))
    with pytest.raises(InvalidTeamsError) as caught:
        load_team_players(path)
    assert str(caught.value.problems[0]) == (
        "teams.csv, row 7, column 'id': value 'A1': player also in team '上海' (line 3): a "
        "player plays for one team")


def test_issue23_a_lineups_file_reads_full_width_rounds_and_names_its_lines(tmp_path):
    players = pd.DataFrame({"player": [f"{t}{i}" for t in "AB" for i in range(1, 5)],
                            "team": [t for t in (1, 2) for _ in range(4)]})
    path = tmp_path / "lineups.csv"
    path.write_text("第１轮出场表\n轮次,队,室,选手1,选手2\n１,1,open,A3,A4\n1,1,closed,A1,A2\n"
                    "1,2,open,B1,A2\n", encoding="utf-8")
    with pytest.raises(InvalidTeamsError) as caught:
        load_lineups(path, 1, [1, 2], players)
    assert [str(p) for p in caught.value.problems] == [
        "lineups.csv, row 5, column 'player_2': value 'A2': not registered for team 2 "
        "(registered for team 1; art. 19.2)",
        "lineups.csv, row 5, column 'room': team 2 names one room only: give both"]


def test_issue23_a_column_named_twice_in_two_languages_is_refused_naming_both(tmp_path):
    """姓名 is ``name``: a file with both cannot say which holds the names."""
    path = tmp_path / "players.csv"
    path.write_text("id,name,姓名\nP1,Wang,王伟\n", encoding="utf-8")
    with pytest.raises(GuandanError) as caught:
        load_players(path)
    assert str(caught.value) == (f"cannot read {str(path)!r}: it has two columns named "
                                 "'name' (columns 2 and 3): keep one")
    results = write_csv(tmp_path / "r.csv", [[*CHINESE, "table"], [*ROWS[0], "1"]])
    assert problems(results) == ["FILE: has two columns named 'table' (columns 2 and 10): "
                                 "keep one and ingest again"]


def test_issue23_the_results_sheet_is_found_by_a_header_below_its_title(tmp_path):
    """A cover sheet in front, and the results sheet's header on its row 3: that sheet is
    the one with results columns, and a template sheet (title and header, no rows) is not."""
    book = Workbook()
    book.active.title = "封面"
    book.active.append(["2026 春季赛"])
    template = book.create_sheet("模板")
    for row in (["第_轮成绩"], [], CHINESE):
        template.append(row)
    results = book.create_sheet("第1轮")
    for row in (["第1轮成绩"], [], CHINESE, *ROWS):
        results.append(row)
    book.save(tmp_path / "r.xlsx")
    read = load_results(tmp_path / "r.xlsx")
    pd.testing.assert_frame_equal(read.sets, expected_sets(tmp_path))
    assert read.warnings == [
        f"{tmp_path / 'r.xlsx'}: read sheet '第1轮', the one visible sheet with the results "
        "columns (not read: '封面', '模板' (a header without results))"]
