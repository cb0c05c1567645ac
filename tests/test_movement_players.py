"""The players file: UTF-8 with or without BOM, Chinese names, every problem at once."""

import pandas as pd
import pytest

from guandan_dup.errors import GuandanError
from guandan_dup.movement.players import InvalidPlayersError, load_players, load_seeding


def write(tmp_path, text, encoding="utf-8"):
    path = tmp_path / "players.csv"
    path.write_text(text, encoding=encoding)
    return path


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig"])
def test_chinese_names_read_with_or_without_bom(tmp_path, encoding):
    players = load_players(write(tmp_path, "id,name\n1,王伟\n2,李娜\n", encoding))
    assert players["name"].tolist() == ["王伟", "李娜"]
    assert players["player"].tolist() == ["1", "2"]
    assert players["seed"].isna().all()


def test_seed_and_pair_columns_are_kept(tmp_path):
    players = load_players(write(tmp_path, "id,name,seed,pair\na,甲,2,X\nb,乙,1,X\n"), "pairs")
    assert players["seed"].tolist() == [2, 1]
    assert players["pair"].tolist() == ["X", "X"]


def test_missing_columns_are_named(tmp_path):
    with pytest.raises(InvalidPlayersError) as error:
        load_players(write(tmp_path, "player,名称\na,甲\n"))
    message = str(error.value)
    assert "column 'id': missing column (found: player, 名称)" in message
    assert "column 'name'" in message


def test_pairs_need_a_pair_column(tmp_path):
    with pytest.raises(InvalidPlayersError, match="column 'pair': missing column"):
        load_players(write(tmp_path, "id,name\na,甲\n"), "pairs")


def test_players_problems_are_reported_in_the_same_form_as_results_problems(tmp_path):
    with pytest.raises(InvalidPlayersError) as error:
        load_players(write(tmp_path, "id,name\na,甲\n"), "pairs")
    assert str(error.value).splitlines() == [
        "1 problem in the players file; nothing was written:",
        "  players.csv, column 'pair': missing column (found: id, name)",
    ]


def test_every_bad_row_is_listed_with_its_line(tmp_path):
    path = write(tmp_path, "id,name,seed\na,甲,1\n,乙,2\na,丙,x\n")
    with pytest.raises(InvalidPlayersError) as error:
        load_players(path)
    problems = [str(p) for p in error.value.problems]
    assert problems == [
        "players.csv, row 3, column 'id': value '': empty id",
        "players.csv, row 2, column 'id': value 'a': this id is on more than one line",
        "players.csv, row 4, column 'id': value 'a': this id is on more than one line",
        "players.csv, row 4, column 'seed': value 'x': expected a whole number >= 1 (1 = best)",
    ]


def test_issue9_item12_empty_names_and_negative_or_repeated_seeds_are_refused(tmp_path):
    path = write(tmp_path, "id,name,seed\na,甲,1\nb,,2\nc,丙,-3\nd,丁,2\ne,戊,0\nf,己,1.5\ng,庚,\n")
    with pytest.raises(InvalidPlayersError) as error:
        load_players(path)
    assert [str(p) for p in error.value.problems] == [
        "players.csv, row 3, column 'name': value '': empty name: every player needs one",
        "players.csv, row 3, column 'seed': value '2': this seed is on more than one line",
        "players.csv, row 4, column 'seed': value '-3': expected a whole number >= 1 (1 = best)",
        "players.csv, row 5, column 'seed': value '2': this seed is on more than one line",
        "players.csv, row 6, column 'seed': value '0': expected a whole number >= 1 (1 = best)",
        "players.csv, row 7, column 'seed': value '1.5': expected a whole number >= 1 (1 = best)",
    ]


def test_seeding_list_must_name_known_players(tmp_path):
    path = tmp_path / "seeding.csv"
    path.write_text("id\nb\nz\n", encoding="utf-8")
    with pytest.raises(InvalidPlayersError, match="value 'z': not in the players file"):
        load_seeding(path, pd.Series(["a", "b"]))


def test_issue23_a_gbk_file_is_read_as_excel_on_chinese_windows_saves_it(tmp_path):
    players = load_players(write(tmp_path, "id,name\n1,王伟\n", "gbk"))
    assert players["name"].tolist() == ["王伟"]


def test_a_file_neither_utf8_nor_gbk_is_refused_with_a_hint_to_save_it_as_utf8(tmp_path):
    path = tmp_path / "players.csv"
    path.write_bytes(b"id,name\n1,\x80\n")
    with pytest.raises(GuandanError, match="save it as 'CSV UTF-8 \\(comma delimited\\)'"):
        load_players(path)


def test_issue21_a_players_file_id_or_name_must_be_visible_text(tmp_path):
    path = tmp_path / "players.csv"
    path.write_text("id,name\nP1,王伟\n\u200b,李娜\nP3,\u200b\u200b\n", encoding="utf-8")
    with pytest.raises(InvalidPlayersError) as caught:
        load_players(path)
    assert [(p.row, p.column, p.rule) for p in caught.value.problems] == [
        (3, "id", "the id has nothing visible (only spaces or invisible characters)"),
        (4, "name", "the name has nothing visible (only spaces or invisible characters)")]
