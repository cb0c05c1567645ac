"""A whole team event through the CLI (SPEC 8): init, deal, seat with lineups, ingest,
score, status, export; and init's refusals."""

import re

import pandas as pd
import pytest
from event_support import run, set_results, team_players, write
from typer.testing import CliRunner

from guandan_dup.cli.app import app
from guandan_dup.event import EventFolder
from guandan_dup.event.formats.team_matches import conversion_of

runner = CliRunner()


def forfeit(results, folder, round_no, match_no):
    """The director's way to record that the away team of a match did not come: both rooms
    adjusted, home team A+ and away A- (open room: home E-W; closed room: home N-S)."""
    match = folder.read(round_no, "matches").set_index("match").loc[match_no]
    codes = {int(match["open_table"]): "A-/A+", int(match["closed_table"]): "A+/A-"}
    results = results.copy()
    rows = results["table"].isin(codes)
    results.loc[rows, "adjusted"] = results.loc[rows, "table"].map(codes)
    results.loc[rows, ["ns_level", "ew_level"]] = None
    return results, (int(match.name), int(match["home"]), int(match["away"]))


def test_a_swiss_team_event_of_three_rounds(tmp_path):
    directory = tmp_path / "cup"
    csv = team_players(tmp_path / "players.csv", [4, 5, 4, 6, 4, 4])
    (tmp_path / "teams.csv").write_text("team,name\nT1,北京队\nT4,上海队\n", encoding="utf-8")
    (tmp_path / "seeding.csv").write_text("team\nT4\nT2\n", encoding="utf-8")
    out = run("event", "init", directory, "--kind", "teams", "--format", "swiss", "--players",
              csv, "--rounds", 3, "--boards-per-set", 3, "--conversion", "half", "--teams",
              tmp_path / "teams.csv", "--seeding", tmp_path / "seeding.csv")
    assert "6 teams, 27 players" in out and "conversion 'half'" in out
    folder = EventFolder.open(directory)
    teams = pd.read_parquet(directory / "teams.parquet")
    assert teams["label"].tolist()[:2] == ["T4", "T2"] and teams["name"].iloc[0] == "上海队"
    assert set(folder.players()["team"]) == set(range(1, 7))
    for r in (1, 2, 3):
        run("event", "deal", directory, "--round", r, "--quiet")
        args = []
        if r == 2:
            team_two = folder.players()[folder.players()["team"] == 2]["player"].tolist()
            lineup = tmp_path / "lineups.csv"
            lineup.write_text(
                "round,team,room,player_1,player_2\n"
                f"2,2,open,{team_two[4]},{team_two[1]}\n2,2,closed,{team_two[2]},{team_two[3]}\n",
                encoding="utf-8")
            args = ["--lineups", lineup]
        seated = run("event", "seat", directory, "--round", r, *args)
        assert "Match 1: team" in seated
        if r == 1:
            assert f"Match 1: team 1 上海队 (home) v team 4 {teams['name'].iloc[3]}," in seated
        matches = folder.read(r, "matches")
        assert list(matches.columns) == ["round", "match", "home", "away", "open_table",
                                         "closed_table"]
        results = set_results(folder, r, seed=r)
        if r == 3:
            results, (match_no, home, away) = forfeit(results, folder, 3, 2)
        run("event", "ingest", directory, write(results, tmp_path / f"r{r}.parquet"),
            "--round", r)
        assert f"Scored round {r}: 6 teams" in run("event", "score", directory, "--round", r)
    round_one = folder.read(1, "matches")
    assert round_one[["home", "away"]].values.tolist() == [[1, 4], [2, 5], [3, 6]]
    seating = folder.read(1, "seating").set_index("table")
    lineups = folder.read(1, "lineups").set_index(["team", "room"])
    assert seating.loc[1, "east"] == lineups.loc[(1, "open"), "player_1"], "home E-W open"
    assert seating.loc[4, "north"] == lineups.loc[(1, "closed"), "player_1"], "home N-S closed"
    assert team_two[4] in folder.read(2, "seating").values
    cards = (directory / "rounds" / "1" / "table-cards.html").read_text("utf-8")
    fourth = teams.set_index("team").loc[4, "name"]
    heading = cards.split('id="table-4"')[1].split("</h2>")[0]
    assert "第4桌 Table 4 · 第1场 Match 1 · 闭室 closed room" in heading, "Chinese first"
    assert re.findall(r'<span class="team">([^<]*)</span>', heading) == [
        "主队 1 上海队", f"客队 4 {fourth}"], "each team whole, in a span of its own"
    met = pd.concat([folder.read(r, "matches") for r in (1, 2, 3)])
    assert not met[["home", "away"]].apply(frozenset, axis=1).duplicated().any()
    results = folder.read(3, "match_results").set_index("team")
    assert results.loc[home, ["match_points", "level_points"]].tolist() == [2, 17]
    assert results.loc[away, ["match_points", "level_points"]].tolist() == [0, 0]
    assert list(folder.read(3, "match_results").columns) == [
        "round", "match", "team", "opponent", "home", "levels", "match_points", "level_points"]
    standings = folder.read(3, "team_standings")
    assert sorted(standings["position"]) == list(range(1, 7))
    assert standings["played"].tolist() == [3] * 6
    assert f"Next: guandan-dup event export {directory}" in run("event", "status", directory)
    run("event", "export", directory, "--format", "csv", "--format", "md", "--format", "xlsx",
        "--format", "html")
    exported = (directory / "exports" / "team-standings-round-3.md").read_text("utf-8")
    assert "conversion table: 减半 half" in exported and "场分 Match points" in exported
    csv_results = (directory / "exports" / "match-results-round-3.csv").read_text("utf-8")
    assert "主队场分 Home match points" in csv_results
    csv_standings = pd.read_csv(directory / "exports" / "team-standings-round-3.csv")
    named = csv_standings["级差分换算表 Conversion table"]
    assert named.iloc[0] == "减半 half" and named.iloc[1:].isna().all(), "named once, on row 1"
    xlsx = pd.read_excel(directory / "exports" / "match-results-round-3.xlsx")
    named = xlsx["级差分换算表 Conversion table"]
    assert named.iloc[0] == "减半 half" and named.iloc[1:].isna().all(), "named once, on row 1"
    run("event", "reveal", directory)
    assert "nothing: the event is complete" in run("event", "status", directory)


def test_a_round_robin_of_five_teams_with_the_directors_bye_award(tmp_path):
    directory = tmp_path / "rr"
    csv = team_players(tmp_path / "players.csv", [4] * 5)
    bad = run("event", "init", directory, "--kind", "teams", "--format", "round-robin",
              "--players", csv, "--rounds", 5, "--boards-per-set", 2, "--awards", "bye=1+13",
              code=1)
    assert "award 'bye=1+13': expected NAME=场分+级差分 with NAME one of swiss_bye" in bad
    run("event", "init", directory, "--kind", "teams", "--format", "round-robin", "--players",
        csv, "--rounds", 5, "--boards-per-set", 2, "--awards", "round_robin_bye=0.5+10")
    folder = EventFolder.open(directory)
    for r in range(1, 6):
        run("event", "deal", directory, "--round", r, "--quiet")
        run("event", "seat", directory, "--round", r)
        run("event", "ingest", directory, write(set_results(folder, r, seed=r),
                                                 tmp_path / f"r{r}.parquet"), "--round", r)
        run("event", "score", directory, "--round", r)
    byes = pd.concat([folder.read(r, "match_results") for r in range(1, 6)])
    byes = byes[byes["opponent"].isna()]
    assert sorted(byes["team"]) == [1, 2, 3, 4, 5]
    assert byes[["match_points", "level_points"]].drop_duplicates().values.tolist() == [[0.5, 10]]
    assert folder.read(5, "team_standings")["played"].tolist() == [4] * 5


REFUSALS = [
    ([3, 4], [], "3 players: a team has 4 to 6"),
    ([4, 7], [], "7 players: a team has 4 to 6"),
    ([4, 4], ["--seeding", "SEEDING"], "unknown team: not in the players file"),
    ([4, 4], ["--conversion", "BAD"], "margin 0 is a draw"),
    ([4, 4], ["--tables-per-group", 2], "a team event (Swiss) takes --rounds"),
    ([4, 4], ["--tables-per-group", 0], "leave out --tables-per-group"),  # 0 is given too
    ([4, 4, 4], ["--rounds", 4], "a swiss of 3 teams has at most 3 rounds"),
]


@pytest.mark.parametrize("sizes, extra, message", REFUSALS)
def test_init_refuses_bad_team_files_and_writes_nothing(tmp_path, sizes, extra, message):
    csv = team_players(tmp_path / "players.csv", sizes)
    (tmp_path / "seeding.csv").write_text("team\nT9\n", encoding="utf-8")
    (tmp_path / "bad.csv").write_text(
        "margin,winner,loser\n" + "".join(f"{m},{14 + m},{13 - m // 2}\n" for m in range(27)),
        encoding="utf-8")
    extra = [{"SEEDING": tmp_path / "seeding.csv", "BAD": tmp_path / "bad.csv"}.get(x, x)
             for x in extra]
    options = ["--rounds", 1, *extra] if "--rounds" not in extra else extra
    output = run("event", "init", tmp_path / "e", "--kind", "teams", "--format", "swiss",
                 "--players", csv, "--boards-per-set", 2, *options, code=1)
    assert message in output
    assert not (tmp_path / "e").exists()


def test_one_team_is_refused_with_that_one_reason(tmp_path):
    csv = team_players(tmp_path / "players.csv", [4])
    output = run("event", "init", tmp_path / "e", "--kind", "teams", "--format", "swiss",
                 "--players", csv, "--boards-per-set", 2, "--rounds", 1, code=1)
    assert output == ("Error: invalid event plan:\n"
                      "  teams = 1: a team event needs at least 2 teams\n")
    assert not (tmp_path / "e").exists()


def test_a_player_in_two_teams_is_refused(tmp_path):
    csv = team_players(tmp_path / "players.csv", [4, 4])
    text = csv.read_text("utf-8-sig").splitlines()
    text.append(text[1].replace(",T1", ",T2"))
    csv.write_text("\n".join(text) + "\n", encoding="utf-8")
    output = run("event", "init", tmp_path / "e", "--kind", "teams", "--format", "swiss",
                 "--players", csv, "--boards-per-set", 2, "--rounds", 1, code=1)
    assert "player also in team 'T1' (line 2): a player plays for one team" in output


def test_issue9_item12_a_team_players_file_with_an_empty_name_is_refused(tmp_path):
    csv = team_players(tmp_path / "players.csv", [4, 4])
    lines = csv.read_text("utf-8-sig").splitlines()
    player, _, team = lines[3].split(",")
    lines[3] = f"{player},,{team}"
    csv.write_text("\n".join(lines) + "\n", encoding="utf-8")
    output = run("event", "init", tmp_path / "e", "--kind", "teams", "--format", "swiss",
                 "--players", csv, "--boards-per-set", 2, "--rounds", 1, code=1)
    assert "players.csv, row 4, column 'name': value '': empty name: every player needs" in (
        " ".join(output.split()))
    assert not (tmp_path / "e").exists()


def test_a_lineup_with_an_unregistered_player_is_refused(tmp_path):
    directory = tmp_path / "e"
    csv = team_players(tmp_path / "players.csv", [4, 4])
    run("event", "init", directory, "--kind", "teams", "--format", "swiss", "--players", csv,
        "--rounds", 1, "--boards-per-set", 2)
    outsider = EventFolder.open(directory).players().set_index("team").loc[2, "player"].iloc[0]
    lineup = tmp_path / "l.csv"
    lineup.write_text(f"round,team,room,player_1,player_2\n1,1,open,{outsider},X9\n"
                      "1,7,open,A,B\n2,1,open,C,D\n", encoding="utf-8")
    output = run("event", "seat", directory, "--round", 1, "--lineups", lineup, code=1)
    assert "not registered for team 1 (registered for team 2; art. 19.2)" in output
    assert "'X9': not registered for team 1 (not a registered player" in output
    assert "team 1 names one room only" in output
    assert ("column 'team': value '7': names no team of the event: write the team's number "
            "(1 to 2), #number, its label in the players file or its name") in output
    assert "'C'" not in output, "rows of other rounds are ignored"
    assert not (directory / "rounds").exists()


def test_simulate_teams_plays_both_rooms_with_bots(tmp_path):
    out = run("simulate", "--teams", 5, "--rounds", 2, "--boards-per-set", 2, "--out",
              tmp_path / "sim", "--seed", 3, "--quiet")
    assert "Simulated 2 rounds of 5 teams (swiss)" in out
    folder = EventFolder.open(tmp_path / "sim")
    assert folder.plan.kind == "teams" and folder.rounds_scored() == [1, 2]
    assert sorted(folder.read(2, "results")["table"]) == [1, 2, 3, 4]
    byes = [folder.read(r, "matches").query("away.isna()")["home"].item() for r in (1, 2)]
    assert byes[0] != byes[1], "no team sits out twice while another has not"
    assert (tmp_path / "sim" / "exports" / "team-standings-round-2.html").exists()
    run("simulate", "--teams", 4, "--players", 8, "--rounds", 1, "--out", tmp_path / "x",
        code=1)


def test_demo_teams_prints_the_team_standings(tmp_path):
    result = runner.invoke(app, ["demo", "--teams", "--rounds", "1", "--dir",
                                 str(tmp_path / "d"), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "场分 MP" in result.output and "级差分 线性 linear" in result.output
    refused = run("demo", "--teams", "--players", 20, "--dir", tmp_path / "p", code=1)
    assert "Error: demo --teams plays 8 teams of 4 players: --players is for" in refused
    assert not (tmp_path / "p").exists()


def test_a_directors_conversion_table_is_kept_in_the_folder_under_its_name(tmp_path):
    table = tmp_path / "cup-2026.csv"
    table.write_text("margin,winner,loser\n" + "".join(
        f"{m},{13 + min(m, 10) * 1.25},{13 - min(m, 10)}\n" for m in range(27)), encoding="utf-8")
    csv = team_players(tmp_path / "players.csv", [4, 4])
    out = run("event", "init", tmp_path / "e", "--kind", "teams", "--format", "round-robin",
              "--players", csv, "--rounds", 1, "--boards-per-set", 2, "--conversion", table)
    assert "conversion 'cup-2026'" in out
    folder = EventFolder.open(tmp_path / "e")
    assert folder.plan.options.conversion == "cup-2026"
    assert conversion_of(folder).points(12) == (2550, 300)
    linear = tmp_path / "linear.csv"
    linear.write_text(table.read_text("utf-8"), encoding="utf-8")
    output = run("event", "init", tmp_path / "f", "--kind", "teams", "--format", "swiss",
                 "--players", csv, "--rounds", 1, "--boards-per-set", 2, "--conversion",
                 linear, code=1)
    assert "is named 'linear' like a preset" in output


def test_individual_events_still_need_their_tables_and_take_no_team_options(tmp_path):
    csv = team_players(tmp_path / "players.csv", [4, 4])
    output = run("event", "init", tmp_path / "e", "--players", csv, "--boards-per-set", 2,
                 "--rounds", 1, "--sets-per-round", 1, "--format", "swiss", code=1)
    assert "format 'swiss': only team events have it" in output
    assert not (tmp_path / "e").exists()
