"""How the program names people (event.people): the id, then the players file's name."""

from __future__ import annotations

from event_support import pairs_knockout, run, seated_event, set_results, swiss_cup, write

from guandan_dup.event import EventFolder
from guandan_dup.event.people import people_of


def test_a_player_is_read_out_by_id_then_name(tmp_path):
    people = people_of(EventFolder.open(seated_event(tmp_path)))
    assert people.player("P001") == "P001 王伟"
    assert people.players(["P001", "P002"]) == "P001 王伟 and P002 李艳"
    assert people.player("P999") == "P999"


def test_a_pair_is_read_out_by_id_then_its_two_names(tmp_path):
    people = people_of(EventFolder.open(pairs_knockout(tmp_path, 4)))
    assert people.pair("D001") == "D001 王伟 / 李艳"
    assert people.side("D001") == "D001 王伟 / 李艳"


def test_a_team_is_read_out_by_number_then_name(tmp_path):
    _, folder = swiss_cup(tmp_path, [4, 4, 4, 4], 2, dealt=(1,))
    people = people_of(folder)
    label = people.team_labels[1]  # numbers are drawn by lot; no names file: name = label
    assert people.team(1) == f"team 1 {label}"
    assert people.side("1") == f"team 1 {label}"


def test_event_score_names_the_leader(tmp_path):
    directory = seated_event(tmp_path)
    folder = EventFolder.open(directory)
    run("event", "ingest", directory, write(set_results(folder, 1), tmp_path / "r1.parquet"),
        "--round", 1)
    out = run("event", "score", directory, "--round", 1)
    leader = folder.read(1, "standings").sort_values("position").iloc[0]
    name = folder.players().set_index("player").loc[leader["player"], "name"]
    assert (f"Scored round 1: 17 players; leader {leader['player']} {name} "
            f"({leader['cumulative']:.2%}).") in out.splitlines()


def test_event_score_names_the_leading_team(tmp_path):
    directory, folder = swiss_cup(tmp_path, [4, 4, 4, 4], 2, dealt=(1,))
    run("event", "ingest", directory, write(set_results(folder, 1), tmp_path / "r1.parquet"),
        "--round", 1)
    out = run("event", "score", directory, "--round", 1)
    leader = folder.read(1, "team_standings").sort_values("position").iloc[0]
    team = int(leader["team"])
    assert f"leader {people_of(folder).team(team)} (" in out
    assert people_of(folder).team(team) == f"team {team} {people_of(folder).team_names[team]}"
