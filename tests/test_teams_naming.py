"""How a team is named in a file (docs/teams.md): ``#N`` is team number N; ``N`` is team
number N or the team labelled ``N``, refused when those are two different teams."""

import pandas as pd
import pytest
from event_support import run, set_results, team_players, write

from guandan_dup.event import EventFolder
from guandan_dup.event.entrants import demo_teams
from guandan_dup.event.formats.team_matches import teams_of
from guandan_dup.teams import load_lineups
from guandan_dup.teams.registration import InvalidTeamsError, team_of_cell

NUMBERS = {"3": 1, "1": 2, "2": 3, "北京": 4}  # label -> number: labels that are digits


@pytest.mark.parametrize(
    ("cell", "team", "why"),
    [
        ("3", None, "could be team 3 (its number) or team 1 (its label is '3'): write #3 or #1"),
        ("1", None, "could be team 1 (its number) or team 2 (its label is '1'): write #1 or #2"),
        ("#3", 3, None),
        (" #1 ", 1, None),
        ("4", 4, None),              # no team is labelled 4
        ("北京", 4, None),
        ("#9", None, "names no team number"),
        ("9", None, "names no team of the event"),
        ("上海", None, "names no team of the event"),
    ],
)
def test_teams_a_cell_naming_two_teams_is_refused(cell, team, why):
    assert team_of_cell(cell, [1, 2, 3, 4], NUMBERS) == (team, why)


def test_teams_a_label_that_is_its_own_number_is_not_ambiguous():
    assert team_of_cell("2", [1, 2], {"2": 2, "x": 1}) == (2, None)


PLAYERS = pd.DataFrame({"player": [f"{t}{i}" for t in "ABC" for i in range(1, 5)],
                        "team": [t for t in (1, 2, 3) for _ in range(4)]})


@pytest.mark.parametrize(
    ("cell", "problem"),
    [("2", "could be team 2 (its number) or team 1 (its label is '2'): write #2 or #1"),
     ("#2", None)],
)
def test_teams_a_lineup_team_cell_naming_two_teams_is_refused(tmp_path, cell, problem):
    path = tmp_path / "lineups.csv"
    path.write_text("round,team,room,player_1,player_2\n"
                    f"1,{cell},open,B3,B4\n1,{cell},closed,B1,B2\n", encoding="utf-8")
    numbers = {"2": 1, "1": 2, "3": 3}
    if problem is None:
        lineups = load_lineups(path, 1, [1, 2], PLAYERS, numbers).set_index(["team", "room"])
        assert lineups.loc[(2, "open"), "player_1"] == "B3"
    else:
        with pytest.raises(InvalidTeamsError) as caught:
            load_lineups(path, 1, [1, 2], PLAYERS, numbers)
        assert [(p.row, p.column, p.value, p.rule) for p in caught.value.problems] == [
            (2, "team", cell, problem), (3, "team", cell, problem)]


def digit_knockout(tmp_path):
    """A team knockout of four teams labelled 1..4 and seeded 3, 1, 2, 4 (so team number 1
    is labelled 3), round 1 seated, match 1 level."""
    players, _ = demo_teams(4)
    players["team"] = players["team"].str[-1]  # T01 -> "1"
    players.to_csv(tmp_path / "players.csv", index=False)
    (tmp_path / "seeding.csv").write_text("team\n3\n1\n2\n4\n", encoding="utf-8")
    directory = tmp_path / "ko"
    run("event", "init", directory, "--kind", "teams", "--format", "knockout", "--players",
        tmp_path / "players.csv", "--boards-per-set", 3, "--seeding", tmp_path / "seeding.csv")
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1)
    folder = EventFolder.open(directory)
    match = folder.read(1, "matches").iloc[0]
    results = set_results(folder, 1)
    rooms = results["table"].isin([int(match["open_table"]), int(match["closed_table"])])
    results.loc[rooms, ["ns_level", "ew_level"]] = "3"
    return directory, folder, match, results


def test_teams_a_knockout_tiebreak_naming_two_teams_is_refused(tmp_path):
    directory, folder, match, results = digit_knockout(tmp_path)
    label = dict(zip(teams_of(folder)["team"], teams_of(folder)["label"], strict=True))
    number_of = {v: k for k, v in label.items()}
    away = int(match["away"])
    assert label == {1: "3", 2: "1", 3: "2", 4: "4"}
    team = next(t for t in (away, int(match["home"])) if label[t] != str(t))
    cell = str(team)
    results["tiebreak"] = None
    results.loc[results["table"] == int(match["closed_table"]), "tiebreak"] = cell
    out = run("event", "ingest", directory, write(results, tmp_path / "r1.parquet"), "--round",
              1, code=1)
    assert (f"column 'tiebreak': value '{cell}': match at tables {int(match['open_table'])} "
            f"and {int(match['closed_table'])}: could be team {team} (its number) or team "
            f"{number_of[cell]} (its label is '{cell}'): write #{team} or "
            f"#{number_of[cell]}") in out, out
    results.loc[results["table"] == int(match["closed_table"]), "tiebreak"] = f"#{away}"
    run("event", "ingest", directory, write(results, tmp_path / "r1.parquet"), "--round", 1)
    run("event", "score", directory, "--round", 1)
    bracket = folder.read(1, "bracket")
    assert away in set(bracket["winner"].dropna().astype(int))


def test_teams_a_tiebreak_typed_as_a_number_is_the_cell_of_its_digits(tmp_path):
    """A Parquet tiebreak column of integers names a team as the text of its digits does
    (the same rule, ambiguity included), not a type error."""
    directory, folder, match, results = digit_knockout(tmp_path)
    label = dict(zip(teams_of(folder)["team"], teams_of(folder)["label"], strict=True))
    closed = results["table"] == int(match["closed_table"])
    ambiguous = next(t for t in (int(match["away"]), int(match["home"])) if label[t] != str(t))
    unique = next((t for t in (int(match["away"]), int(match["home"]))
                   if str(t) not in label.values() or label[t] == str(t)), None)
    results["tiebreak"] = pd.array([ambiguous if c else None for c in closed], "Int64")
    out = run("event", "ingest", directory, write(results, tmp_path / "r1.parquet"), "--round",
              1, code=1)
    assert f"value '{ambiguous}': match at tables" in out and "could be team" in out
    assert "has type" not in out
    if unique is not None:
        results["tiebreak"] = pd.array([unique if c else None for c in closed], "Int64")
        run("event", "ingest", directory, write(results, tmp_path / "r1.parquet"), "--round", 1)


def test_one_identity_per_team_event_seat_takes_lineups_by_label(tmp_path):
    """`event seat --lineups` with the players file's labels (T1, T2) seats those teams."""
    directory = tmp_path / "cup"
    run("event", "init", directory, "--kind", "teams", "--format", "swiss", "--players",
        team_players(tmp_path / "players.csv", [5, 4]), "--rounds", 1, "--boards-per-set", 2)
    folder = EventFolder.open(directory)
    number = dict(zip(teams_of(folder)["label"], teams_of(folder)["team"], strict=True))
    players = folder.players()
    t1 = players.loc[players["team"] == number["T1"], "player"].tolist()
    (tmp_path / "l.csv").write_text(
        "round,team,room,player_1,player_2\n"
        f"1,T1,open,{t1[4]},{t1[0]}\n1,T1,closed,{t1[1]},{t1[2]}\n", encoding="utf-8")
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1, "--lineups", tmp_path / "l.csv")
    lineups = folder.read(1, "lineups").set_index(["team", "room"])
    assert lineups.loc[(number["T1"], "open"), ["player_1", "player_2"]].tolist() == [
        t1[4], t1[0]]
