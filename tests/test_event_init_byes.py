"""Issue 25 item 3: ``event init`` says how many sit out each round (轮空) and suggests
tables per group for the player count when none, or an awkward size, was given
(docs/director-guide.md, "Create the event")."""

import pytest
from event_support import players_csv, run, team_players

from guandan_dup.event.entrants import demo_players


def init(tmp_path, csv, *options, code=0):
    return run("event", "init", "cup", "--players", csv, "--boards-per-set", 4, *options,
               code=code)


SHAPE = ("--sets-per-round", 2, "--rounds", 3)


@pytest.mark.parametrize(("players", "kind", "per_group", "groups", "said"), [
    (30, "individual", 4, "2 groups", [
        "Each round 2 players have a bye (轮空): 30 players fill 7 tables of 4."]),
    (29, "individual", 7, "1 group", [
        "Each round 1 player has a bye (轮空): 29 players fill 7 tables of 4."]),
    (28, "individual", 4, "2 groups", ["No byes: 28 players fill 7 tables of 4."]),
    (30, "pairs", 4, "2 groups", ["Each round 1 pair has a bye (轮空): 15 pairs fill 7 tables."]),
    (30, "individual", 6, "2 groups", [
        "Each round 2 players have a bye (轮空): 30 players fill 7 tables of 4.",
        "Note: --tables-per-group 6 makes groups of 6 and 1 tables: a last group of less "
        "than half a full one seats its few players only among themselves; "
        "--tables-per-group 7 makes one group of 7 tables (set tables_per_group = 7 in "
        "cup/event.toml before round 1 is dealt)."]),
])
def test_issue25_init_says_the_byes_of_each_round_and_an_awkward_group(
        tmp_path, monkeypatch, players, kind, per_group, groups, said):
    monkeypatch.chdir(tmp_path)
    csv = players_csv(tmp_path / "players.csv", players, kind)
    out = init(tmp_path, csv, "--kind", kind, "--tables-per-group", per_group, *SHAPE)
    lines = [f"Created {kind} event 'cup' in cup: {players} players, 7 tables in {groups}, 3 "
             "rounds of 2 sets of 4 boards.", *said]
    assert out.splitlines()[:len(lines)] == lines
    assert out.splitlines()[len(lines)].startswith("Secret key: ")
    assert out.splitlines()[-1] == "Next: guandan-dup event deal cup --round 1"


def test_issue25_init_without_tables_per_group_suggests_a_size(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = init(tmp_path, players_csv(tmp_path / "players.csv", 30), *SHAPE, code=1)
    assert out.splitlines() == [
        "Error: an individual event takes --tables-per-group, --sets-per-round, --rounds and "
        "--rotate-partners: give --tables-per-group (30 players make 7 tables: "
        "--tables-per-group 7 makes one group of 7 tables)"]
    assert not (tmp_path / "cup").exists()


def test_issue25_init_counts_the_byes_of_each_venue(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    players = demo_players(35).assign(venue=["南京"] * 17 + ["淮安"] * 18)
    players.to_csv(tmp_path / "players.csv", index=False)
    out = init(tmp_path, tmp_path / "players.csv", "--tables-per-group", 4, *SHAPE)
    assert out.splitlines()[1] == (
        "Each round 3 players have a bye (轮空), 1 in 南京 and 2 in 淮安: 35 players fill 8 "
        "tables of 4.")


@pytest.mark.parametrize(("sizes", "line"), [
    ([4] * 5, "Each round 1 team has a bye (轮空): an odd number of teams."),
    ([4] * 6, "No byes: every team plays a match each round."),
])
def test_issue25_a_team_event_says_whether_a_team_sits_out(tmp_path, monkeypatch, sizes, line):
    monkeypatch.chdir(tmp_path)
    csv = team_players(tmp_path / "players.csv", sizes)
    out = init(tmp_path, csv, "--kind", "teams", "--format", "swiss", "--rounds", 3)
    assert out.splitlines()[1] == line
