"""How the program names people (event.people): the id, then the players file's name."""

from __future__ import annotations

from event_support import pairs_knockout, run, seated_event, set_results, swiss_cup, write

from guandan_dup.event import EventFolder
from guandan_dup.event.entrants import demo_players
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
    assert (f"leader {people_of(folder).team(team)} ({leader['match_points']:g} 场分, "
            f"{leader['level_points']:.2f} 级差分; 级差分换算表 线性 linear).") in out
    assert people_of(folder).team(team) == f"team {team} {people_of(folder).team_names[team]}"


def test_event_seat_reads_out_the_byes_and_every_table_with_names(tmp_path):
    directory = tmp_path / "event"
    players = tmp_path / "p.csv"
    demo_players(9).to_csv(players, index=False)
    run("event", "init", directory, "--players", players, "--tables-per-group", 2,
        "--sets-per-round", 2, "--boards-per-set", 2, "--rounds", 2)
    run("event", "deal", directory, "--round", 1, "--quiet")
    lines = run("event", "seat", directory, "--round", 1).splitlines()
    folder = EventFolder.open(directory)
    people = people_of(folder)
    bye = folder.read(1, "byes")["player"].iloc[0]
    expected = [f"Byes: {people.player(bye)}"] + [
        f"Table {r['table']}: N {people.player(r['north'])} · E {people.player(r['east'])} · "
        f"S {people.player(r['south'])} · W {people.player(r['west'])}"
        for r in folder.read(1, "seating").to_dict("records")]
    assert lines[1:4] == expected and " " in expected[0].removeprefix("Byes: ")


def test_event_seat_of_a_pairs_event_reads_out_pairs(tmp_path):
    directory = tmp_path / "event"
    players = tmp_path / "p.csv"
    demo_players(10).assign(pair=[f"D{i // 2 + 1}" for i in range(10)]).to_csv(players,
                                                                                index=False)
    run("event", "init", directory, "--kind", "pairs", "--players", players,
        "--tables-per-group", 2, "--sets-per-round", 2, "--boards-per-set", 2, "--rounds", 2)
    run("event", "deal", directory, "--round", 1, "--quiet")
    lines = run("event", "seat", directory, "--round", 1).splitlines()
    folder = EventFolder.open(directory)
    people = people_of(folder)
    pair_of = people.pair_by_player()
    bye = folder.read(1, "byes")["player"]
    assert len(bye) == 2 and pair_of[bye.iloc[0]] == pair_of[bye.iloc[1]]
    expected = [f"Byes: {people.pair(pair_of[bye.iloc[0]])}"] + [
        f"Table {r['table']}: {people.pair(pair_of[r['north']])} (N-S) v "
        f"{people.pair(pair_of[r['east']])} (E-W)"
        for r in folder.read(1, "seating").to_dict("records")]
    assert lines[1:4] == expected and " / " in expected[0]
