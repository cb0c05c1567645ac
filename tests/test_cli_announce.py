"""``guandan-dup standings DIR`` and ``travellers DIR`` on an event folder (issue 25): the
rounds' stored tables with the people's names, for the director to read out; the latest
scored round unless ``--round`` says otherwise; the exports' publication rule."""

import pandas as pd
import pytest
from event_support import pairs_knockout, run, scored_cup, seated_event, set_results, write

from guandan_dup.event import EventFolder
from guandan_dup.event.people import people_of


@pytest.fixture
def scored(tmp_path):
    """The 17-player event with round 1 played and scored."""
    directory = seated_event(tmp_path)
    folder = EventFolder.open(directory)
    run("event", "ingest", directory, write(set_results(folder, 1, seed=1),
                                            tmp_path / "r1.parquet"), "--round", 1)
    run("event", "score", directory, "--round", 1)
    return directory


def names(directory):
    players = EventFolder.open(directory).players()
    return dict(zip(players["player"], players["name"], strict=True))


def test_standings_of_an_event_folder_name_every_player_of_the_latest_round(scored):
    out = run("standings", scored)
    standings = EventFolder.open(scored).read(1, "standings")
    called = names(scored)
    lines = out.splitlines()
    assert lines[0] == "# 第1轮后排名 Standings after round 1"
    assert "暂定 · provisional" in lines
    assert lines[4] == ("| 名次 Rank | 选手 Player | 姓名 Name | 局数 Sets | 本轮 Round % | "
                        "累计 Total % |")
    for row in standings.itertuples():
        played, total = ("" if pd.isna(v) else f"{v * 100:.2f}"
                         for v in (row.round_avg, row.cumulative))
        assert (f"| {row.rank_label} | {row.player} | {called[row.player]} | {row.sets} | "
                f"{played} | {total} |") in lines
    assert run("standings", scored, "--round", 1) == out


def test_travellers_of_an_event_folder_name_the_player_in_every_seat(scored):
    out = run("travellers", scored, "--set", 2)
    travellers = EventFolder.open(scored).read(1, "travellers")
    called = names(scored)
    lines = out.splitlines()
    assert lines[0] == "# 第1轮成绩单 Travellers, round 1"
    assert not [line for line in lines if line.startswith("| 1 |")], "set 2 only"
    for row in travellers[travellers["set"] == 2].itertuples():
        seats = " | ".join(f"{p} {called[p]}" for p in (row.north, row.east, row.south, row.west))
        assert any(line.startswith(f"| 2 | {row.group} | {row.table} | {seats} |")
                   for line in lines), seats


def test_an_event_folder_names_the_rounds_scored_when_asked_for_another(scored):
    out = run("standings", scored, "--round", 2, code=1)
    assert out.strip() == (f"Error: round 2 of {scored} is not scored (scored: round 1); "
                           f"score it with `guandan-dup event score {scored} --round 2`")


def test_an_event_folder_names_its_players_itself_so_names_is_refused(scored, tmp_path):
    out = run("standings", scored, "--names", tmp_path / "names.csv", code=1)
    assert out.strip() == (f"Error: {scored} is an event folder: it names its players from "
                           "its players file, so leave out --names")


def test_standings_counting_a_set_still_being_played_are_not_announced(tmp_path):
    directory = seated_event(tmp_path)
    folder = EventFolder.open(directory)
    frame = set_results(folder, 1, seed=1)
    partial = frame[~((frame["table"] == 3) & (frame["set"] == 2))]
    run("event", "ingest", directory, write(partial, tmp_path / "r1.parquet"), "--round", 1)
    run("event", "score", directory, "--round", 1, "--force")
    out = run("standings", directory, code=1)
    assert out.strip() == (
        "Error: round 1's standings count set 2, which some tables have still to play: "
        "announced now, they would tell those tables how the boards went. Announce them once "
        f"every table has played (`guandan-dup event status {directory}` says which tables "
        "are missing)")
    travellers = run("travellers", directory)
    rows = [line for line in travellers.splitlines() if line.startswith("| ")][2:]
    assert rows and all(row.startswith("| 1 | ") for row in rows), "set 1 only"
    assert "Round 1, set 2: pending (not every table has played it)" in travellers


def test_standings_of_a_team_event_are_its_team_standings_by_name(tmp_path):
    directory, folder = scored_cup(tmp_path)
    out = run("standings", directory)
    lines = out.splitlines()
    assert lines[0] == ("# 第1轮后团体排名 Team standings after round 1 · 级差分换算表 "
                        "conversion table: 线性 linear")
    teams = pd.read_parquet(directory / "teams.parquet").set_index("team")["name"]
    standings = folder.read(1, "team_standings")
    for row in standings.itertuples():
        assert any(line.startswith(f"| {row.rank_label} | {row.team} | {teams[row.team]} | ")
                   for line in lines)
    results = run("travellers", directory)
    assert results.splitlines()[0] == ("# 第1轮比赛结果 Match results, round 1 · 级差分换算表 "
                                       "conversion table: 线性 linear")


def test_standings_of_a_knockout_are_its_bracket_with_the_pairs_named(tmp_path):
    directory = pairs_knockout(tmp_path, 4)
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1)
    played = set_results(EventFolder.open(directory), 1, seed=3)
    level = played["ns_level"] == played["ew_level"]  # a level match goes to extra boards
    played["tiebreak"] = pd.Series("NS", played.index).where(level)
    run("event", "ingest", directory, write(played, tmp_path / "r1.parquet"), "--round", 1)
    run("event", "score", directory, "--round", 1)
    lines = run("standings", directory).splitlines()
    assert lines[0] == "# ko · 淘汰赛 Knockout"
    folder = EventFolder.open(directory)
    people = people_of(folder)
    assert "## 第1轮 Round 1" in lines and "## 第2轮 Round 2" in lines
    for row in folder.read(1, "bracket").itertuples():
        match = [line for line in lines if line.startswith(
            f"| 1 | {row.match} | 主赛 main | {row.table} | {people.pair(row.side_a)} | "
            f"{people.pair(row.side_b)} | ")]
        assert len(match) == 1 and f" | {people.pair(row.winner)} | " in match[0]
    out = run("event", "diff", directory, "--round", 1, code=1)
    assert out.strip() == (f"Error: a knockout has no standings to compare: `guandan-dup "
                           f"standings {directory}` prints its bracket and places")


def test_out_of_date_standings_are_refused_with_the_commands_that_score_them(scored, tmp_path):
    folder = EventFolder.open(scored)
    run("event", "seat", scored, "--round", 2)
    run("event", "ingest", scored, write(set_results(folder, 2, seed=2),
                                         tmp_path / "r2.parquet"), "--round", 2)
    run("event", "score", scored, "--round", 2)
    run("event", "ledger", "add", scored, "penalty", "--round", 1, "--player", "P001",
        "--points", 5, "--reason", "phone")
    out = run("standings", scored, code=1)
    assert out.strip() == (
        f"Error: round 1 was changed by a ledger decision after it was scored, so the "
        f"standings would be out of date: score it again first (`guandan-dup event score "
        f"{scored} --round 1 --force`, then `guandan-dup event score {scored} --round 2`)")
    assert "travellers would be out of date" in run("travellers", scored, "--round", 1, code=1)


@pytest.mark.parametrize("command", ["standings", "travellers"])
def test_a_folder_neither_scored_nor_an_event_says_what_to_give(tmp_path, command):
    out = run(command, tmp_path, code=1)
    assert out == (f"Error: '{tmp_path / command}.parquet' does not exist: give an event "
                   f"folder, or a folder written by 'guandan-dup score' (your results "
                   f"files, then '--out {tmp_path}')\n")
