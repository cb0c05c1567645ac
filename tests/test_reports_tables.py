"""Ranking tables and travellers as a director posts them: headers, "1=", 2-decimal percents."""

import io

import openpyxl
import pandas as pd
import pytest
from scoring_support import make_sets

from guandan_dup.errors import GuandanError
from guandan_dup.reports import Section, ranking_table, render, traveller_sections
from guandan_dup.reports.tables import PERCENT_COLUMNS, load_names
from guandan_dup.scoring import score

# Set 1: D = +1, 0, 0 -> NS: +1 beats both -> 1; each 0 ties one of two -> 1/4.
# Set 2 (round 2): only A B C D play, D = +13 alone -> 1/2 for both sides.
# A (NS, sets 1 and 2): round 2 50.00, cumulative (1 + 1/2) / 2 = 75.00; B: 50.00, 25.00.
# E G I K (NS set 1) 1/4, F H J L 3/4. Round 2: E G score A 0.50, F H A- 0.40, so
# F: (3/4 + 2/5) / 2 = 57.50; I J K L have a bye and keep 25.00 / 75.00.
SETS = make_sets([
    (1, 1, 1, 1, "A", "B", "C", "D", "3", "2", None),
    (1, 1, 2, 1, "E", "F", "G", "H", "2", "2", None),
    (1, 1, 3, 1, "I", "J", "K", "L", "2", "2", None),
    (2, 1, 1, 2, "A", "B", "C", "D", "A+", "2", None),
    (2, 1, 2, 2, "E", "F", "G", "H", None, None, "A/A-"),
])
SCORED = score(SETS)
HEADERS = ["名次 Rank", "选手 Player", "局数 Sets", "本轮 Round %", "累计 Total %"]


def text_table(fmt, round_=2, names=None):
    table = ranking_table(SCORED.standings, round_, names)
    return render([Section("Standings", table)], fmt, "Standings", PERCENT_COLUMNS)


def test_ranking_table_has_bilingual_headers_ties_and_two_decimal_percents():
    csv = pd.read_csv(io.StringIO(text_table("csv")), dtype=str, keep_default_na=False)
    assert list(csv.columns) == HEADERS
    a = csv.set_index("选手 Player").loc["A"]
    assert a.tolist() == ["1=", "2", "50.00", "75.00"]
    j = csv.set_index("选手 Player").loc["J"]
    assert j.tolist() == ["1=", "1", "", "75.00"]  # a bye: no round average
    f = csv.set_index("选手 Player").loc["F"]
    assert f.tolist() == ["5=", "2", "40.00", "57.50"]
    b = csv.set_index("选手 Player").loc["B"]
    assert b.tolist() == ["9=", "2", "50.00", "25.00"]


def test_percentages_are_rounded_to_two_decimals():
    table = ranking_table(score(make_sets([
        (1, 1, t, 1, f"n{t}", f"e{t}", f"s{t}", f"w{t}", ns, "2", None)
        for t, ns in enumerate(["2", "3", "4", "5"], 1)])).standings, 1)
    # Four tables D = 0, 1, 2, 3: NS 0, 1/3, 2/3, 1.
    text = render([Section("x", table)], "csv", "x", PERCENT_COLUMNS)
    csv = pd.read_csv(io.StringIO(text), dtype=str)
    assert {"33.33", "66.67", "100.00", "0.00"} <= set(csv["累计 Total %"])


def test_names_column_from_a_players_file(tmp_path):
    (tmp_path / "players.csv").write_text("player,name\nA,张三\nB,李|四\n", encoding="utf-8")
    names = load_names(tmp_path / "players.csv")
    md = text_table("md", names=names)
    assert "| 名次 Rank | 选手 Player | 姓名 Name | 局数 Sets |" in md
    assert "| 1= | A | 张三 | 2 | 50.00 | 75.00 |" in md
    assert "李\\|四" in md


def test_names_file_saved_by_excel_with_a_byte_order_mark(tmp_path):
    (tmp_path / "players.csv").write_text("player,name\nA,张三\n", encoding="utf-8-sig")
    assert load_names(tmp_path / "players.csv").to_dict() == {"A": "张三"}


def test_names_file_without_a_name_column_is_refused(tmp_path):
    (tmp_path / "players.csv").write_text("player,full\nA,x\n", encoding="utf-8")
    with pytest.raises(GuandanError, match="has no column 'name'"):
        load_names(tmp_path / "players.csv")


def test_html_escapes_names_and_right_aligns_percentages():
    names = pd.Series({"A": "<b>Ann</b>"})
    html = text_table("html", names=names)
    assert "&lt;b&gt;Ann&lt;/b&gt;" in html and "<b>Ann" not in html
    assert '<td class="num">75.00</td>' in html
    assert "<th>名次 Rank</th>" in html


def test_xlsx_opens_with_openpyxl_with_numeric_two_decimal_percents():
    book = openpyxl.load_workbook(io.BytesIO(text_table("xlsx")))
    sheet = book.active
    rows = list(sheet.iter_rows(values_only=True))
    assert list(rows[0]) == HEADERS
    first = rows[1]
    assert first[0] == "1=" and first[4] == 75.0
    assert sheet.cell(2, 5).number_format == "0.00"


def test_travellers_show_every_table_with_both_rates_per_set():
    sections = traveller_sections(SCORED.travellers, 1)
    assert [s.heading for s in sections] == ["第1局 Set 1"]
    md = render(sections, "md", "Travellers", PERCENT_COLUMNS)
    assert "| 1 | 1 | 1 | A | B | C | D | 3 | 2 | 1 | 100.00 | 0.00 |" in md
    assert "| 1 | 1 | 2 | E | F | G | H | 2 | 2 | 0 | 25.00 | 75.00 |" in md
    assert "调整 Adjusted" not in md, "no table of the round has an artificial result"
    artificial = traveller_sections(SCORED.travellers, 2, 2)[0].table
    assert artificial.iloc[1][["调整 Adjusted", "南北 NS %", "东西 EW %"]].tolist() == [
        "A/A-", 50.0, 40.0]


def test_travellers_xlsx_has_one_sheet_per_set():
    two_sets = score(pd.concat([SETS, SETS.assign(set=3)])).travellers
    data = render(traveller_sections(two_sets, 1), "xlsx", "T", PERCENT_COLUMNS)
    assert openpyxl.load_workbook(io.BytesIO(data)).sheetnames == ["第1局 Set 1", "第3局 Set 3"]


@pytest.mark.parametrize(("call", "message"), [
    (lambda: ranking_table(SCORED.standings, 7),
     "round 7 has no standings: rounds 1 and 2 scored"),
    (lambda: traveller_sections(SCORED.travellers, 1, 2), "set 2 was not played in round 1"),
    (lambda: render([], "pdf", "x", PERCENT_COLUMNS), "unknown format 'pdf'"),
])
def test_report_errors_name_what_was_asked(call, message):
    with pytest.raises(GuandanError, match=message):
        call()


def test_percentages_round_half_up_like_a_director():
    # Rates 1/32 = 3.125 % and 3/32 = 9.375 %: half up gives 3.13 and 9.38 (half to even
    # would give 3.12 and 9.38); 1/800 = 0.125 % is not exact in binary and still gives 0.13.
    standings = pd.DataFrame({
        "round": 1, "player": ["a", "b", "c"], "sets": 1, "round_avg": [1 / 32, 3 / 32, 1 / 800],
        "cumulative": [1 / 32, 3 / 32, 1 / 800], "rank": [2, 1, 3], "rank_label": ["2", "1", "3"],
        "position": [2, 1, 3]})
    table = ranking_table(standings, 1)
    assert table["累计 Total %"].tolist() == [9.38, 3.13, 0.13]
    csv = render([Section("x", table)], "csv", "x", PERCENT_COLUMNS)
    assert csv.splitlines()[1:] == ["1,b,1,9.38,9.38", "2,a,1,3.13,3.13", "3,c,1,0.13,0.13"]
