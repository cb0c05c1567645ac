"""Issue 21, messages: a CSV as Excel writes it in other locales and encodings. UTF-16 is
named as such (not "probably GBK"), for results and for the players, teams and lineups files
that ``reading.read_csv`` reads."""

import pytest

from guandan_dup.errors import GuandanError, InvalidResultsError
from guandan_dup.movement.players import load_players
from guandan_dup.results import load_results

RESULTS = ("round,table,set,north,east,south,west,ns_level,ew_level\r\n"
           "1,1,1,p1,p2,p3,p4,3,2\r\n")
PLAYERS = "id,name\r\np1,王伟\r\np2,李娜\r\n"


def problems(path):
    with pytest.raises(InvalidResultsError) as caught:
        load_results(path)
    return [str(p).replace(str(path), "FILE") for p in caught.value.problems]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_issue21_a_utf16_results_csv_is_named_utf16(tmp_path, encoding):
    path = tmp_path / "r.csv"
    path.write_text(RESULTS, encoding=encoding, newline="")
    assert problems(path) == [
        "FILE: is UTF-16 text (as Excel's 'Unicode Text' saves it), not UTF-8: save it as "
        "'CSV UTF-8 (comma delimited)' (Excel) or with the encoding UTF-8 (WPS), and ingest it "
        "again"]


def test_issue21_a_utf16_players_file_is_named_utf16(tmp_path):
    path = tmp_path / "players.csv"
    path.write_text(PLAYERS, encoding="utf-16", newline="")
    with pytest.raises(GuandanError) as caught:
        load_players(path)
    assert str(caught.value) == (
        f"cannot read {str(path)!r}: it is UTF-16 text (as Excel's 'Unicode Text' saves it), "
        "not UTF-8: save it as 'CSV UTF-8 (comma delimited)' (Excel) or with the encoding "
        "UTF-8 (WPS)")


def test_issue23_a_gbk_file_is_read_and_said_so(tmp_path):
    path = tmp_path / "r.csv"
    path.write_bytes(RESULTS.replace("p1", "王伟").encode("gbk"))
    read = load_results(path)
    assert read.sets["north"].tolist() == ["王伟"]
    assert read.warnings == [f"{path}: read as GB18030 (GBK), as Excel on Chinese Windows "
                             "saves CSV (it is not UTF-8)"]


def test_issue21_a_semicolon_results_csv_is_read_and_said_so(tmp_path):
    comma = tmp_path / "comma.csv"
    comma.write_text(RESULTS, encoding="utf-8-sig", newline="")
    semicolon = tmp_path / "semicolon.csv"
    semicolon.write_text(RESULTS.replace(",", ";"), encoding="utf-8-sig", newline="")
    read = load_results(semicolon)
    assert read.sets.equals(load_results(comma).sets)
    assert read.warnings == [
        f"{semicolon}: read with ';' as the separator, as Excel writes CSV where the decimal "
        "mark is a comma (its header has no ',')"]


def test_issue21_a_semicolon_players_file_is_read(tmp_path):
    path = tmp_path / "players.csv"
    path.write_text(PLAYERS.replace(",", ";").replace("王伟", "Wang, Wei"), encoding="utf-8",
                    newline="")
    players = load_players(path)
    assert players["player"].tolist() == ["p1", "p2"]
    assert players["name"].tolist() == ["Wang, Wei", "李娜"]
