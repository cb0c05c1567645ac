"""The ledger's team penalties through the CLI (SPEC 10, art. 51-52): off the team's totals
in team_standings.parquet, its exports list them with reason and article."""

import pandas as pd
from event_support import run, set_results, swiss_cup, team_players, write

from guandan_dup.event import EventFolder
from guandan_dup.event.formats.team_matches import teams_of
from guandan_dup.event.ledger import read_ledger


def test_art51_3_a_team_penalty_in_the_ledger_comes_off_the_team_standings(tmp_path):
    directory, folder = swiss_cup(tmp_path, [4, 4, 4, 4], 3)
    run("event", "ingest", directory, write(set_results(folder, 1, seed=1),
                                            tmp_path / "r1.parquet"), "--round", 1)
    run("event", "score", directory, "--round", 1)
    plain = folder.read(1, "team_standings").set_index("team")
    run("event", "seat", directory, "--round", 2)
    run("event", "ingest", directory, write(set_results(folder, 2, seed=2),
                                            tmp_path / "r2.parquet"), "--round", 2)
    out = run("event", "ledger", "add", directory, "penalty", "--team", 3, "--match-points", 1,
              "--round", 2, "--reason", "slow play", "--article", "52")
    assert "-1 场分" in out
    run("event", "score", directory, "--round", 1)
    run("event", "score", directory, "--round", 2)
    first = folder.read(1, "team_standings").set_index("team")
    assert first.equals(plain), "a round-2 penalty leaves round 1 as it was"
    second = folder.read(2, "team_standings").set_index("team")
    results = folder.read_rounds("match_results", [1, 2])
    earned = results[results["team"] == 3]["match_points"].sum()
    assert second.loc[3, "match_points"] == earned - 1
    assert second.loc[3, ["penalty_match_points", "penalty_level_points"]].tolist() == [1, 0]
    # art. 51.3: every other team keeps its points, and 对手分 count team 3's points earned
    earned_by = results.groupby("team")["match_points"].sum()
    for team in (1, 2, 4):
        assert second.loc[team, "match_points"] == earned_by[team]
        met = results[(results["team"] == team) & results["opponent"].notna()]["opponent"]
        assert second.loc[team, "opponent_points"] == sum(earned_by[int(o)] for o in met)
    run("event", "export", directory, "--round", 2, "--format", "md")
    page = (directory / "exports" / "team-standings-round-2.md").read_text(encoding="utf-8")
    assert "判罚与调整 Penalties and adjustments" in page
    assert "slow play" in page and "罚场分" in page
    run("event", "site", directory, "--out", tmp_path / "site", "--quiet")
    site = (tmp_path / "site" / "standings" / "round-2.html").read_text(encoding="utf-8")
    assert 'id="decisions"' in site and "slow play" in site
    site = (tmp_path / "site" / "standings" / "round-1.html").read_text(encoding="utf-8")
    assert 'id="penalties"' not in site


def test_art52_a_team_warning_and_its_repeat_name_only_the_points_taken(tmp_path):
    directory, _ = swiss_cup(tmp_path, [4, 4, 4, 4], 3)
    first = run("event", "ledger", "add", directory, "penalty", "--team", 2, "--scale", 4,
                "--round", 1, "--reason", "slow play")
    second = run("event", "ledger", "add", directory, "penalty", "--team", 2, "--scale", 4,
                 "--round", 1, "--reason", "slow play again")
    decision, repeat = first.splitlines()[0], second.splitlines()[0]
    assert decision.endswith("first offence: warning"), decision
    assert repeat.endswith("second offence: -1 级差分 (level points)"), repeat
    assert "场分" not in repeat, repeat


def test_one_identity_per_team_the_ledger_takes_a_team_by_label_number_or_hash_number(
        tmp_path):
    directory, folder = swiss_cup(tmp_path, [4, 4, 4, 4], 3)
    label = dict(zip(teams_of(folder)["team"], teams_of(folder)["label"], strict=True))
    for given in (label[3], "3", "#3"):
        run("event", "ledger", "add", directory, "penalty", "--team", given, "--scale", 4,
            "--round", 1, "--reason", f"slow play ({given})")
    ledger = read_ledger(folder)
    assert ledger["team"].tolist() == [3, 3, 3]
    assert ledger["command"].iloc[0].split("--team ")[1].startswith(f"{label[3]} ")
    out = run("event", "ledger", "add", directory, "absent", "--team", "Tianjin", "--round", 1,
              "--reason", "no show", code=1)
    assert out.splitlines()[-1] == (
        "  ledger entry, column '--team': value 'Tianjin': names no team of the event: write "
        "the team's number (1 to 4), #number, its label in the players file or its name")
    assert len(read_ledger(folder)) == 3


def test_one_identity_per_team_the_ledger_takes_a_team_by_its_name_too(tmp_path):
    directory = tmp_path / "cup"
    names = tmp_path / "names.csv"
    names.write_text("team,name\nT1,南京队\nT2,苏州队\nT3,无锡队\nT4,T1\n", encoding="utf-8")
    run("event", "init", directory, "--kind", "teams", "--format", "swiss", "--players",
        team_players(tmp_path / "players.csv", [4, 4, 4, 4]), "--rounds", 2,
        "--boards-per-set", 3, "--team-names", names)
    folder = EventFolder.open(directory)
    teams = teams_of(folder).set_index("label")
    out = run("event", "ledger", "add", directory, "penalty", "--team", "苏州队", "--scale", 4,
              "--round", 1, "--reason", "slow play")
    assert f"team {teams.loc['T2', 'team']} 苏州队" in out.splitlines()[0]
    # "T1" is team T1's label and team T4's name: the label wins, as the rule says
    run("event", "ledger", "add", directory, "penalty", "--team", "T1", "--scale", 4,
        "--round", 1, "--reason", "slow play")
    assert read_ledger(folder)["team"].tolist() == [teams.loc["T2", "team"],
                                                    teams.loc["T1", "team"]]


def test_a_ledger_team_that_is_one_teams_number_and_anothers_label_is_refused(tmp_path):
    """Labels 1..4 numbered by lot: "2" could be two teams, so it names neither."""
    players = team_players(tmp_path / "players.csv", [4, 4, 4, 4])
    frame = pd.read_csv(players, encoding="utf-8-sig")
    frame.assign(team=frame["team"].str[1:]).to_csv(players, index=False)
    (tmp_path / "seeding.csv").write_text("team\n2\n1\n3\n4\n", encoding="utf-8")
    directory = tmp_path / "cup"
    run("event", "init", directory, "--kind", "teams", "--format", "swiss", "--players",
        players, "--rounds", 2, "--boards-per-set", 3, "--seeding", tmp_path / "seeding.csv")
    out = run("event", "ledger", "add", directory, "absent", "--team", "2", "--round", 1,
              "--reason", "no show", code=1)
    assert out.splitlines()[-1] == (
        "  ledger entry, column '--team': value '2': could be team 2 (its number) or team 1 "
        "(its label is '2'): write #2 or #1")
    run("event", "ledger", "add", directory, "absent", "--team", "#1", "--round", 1,
        "--reason", "no show")
    assert read_ledger(EventFolder.open(directory))["team"].tolist() == [1]


def test_the_consoles_ledger_form_takes_a_team_as_the_option_does():
    """The live console's form hands the team on as written, to be named by the same rule."""
    from starlette.datastructures import FormData

    from guandan_dup.live.console import ledger_fields

    assert ledger_fields(FormData([("team", " 南京 ")]))["team"] == "南京"
    assert ledger_fields(FormData([("team", "")]))["team"] is None
