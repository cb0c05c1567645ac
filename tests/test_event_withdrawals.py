"""Withdrawals in events of matches (issue 21 item 5; seed 000 art. 34, 35; SPEC 10): a team
or pair that withdrew leaves the movement, and every match it is still seated in is a
forfeit its opponent wins, announced when the round is seated. In individual and pairs
events a withdrawal and the results of the round it names agree whatever their order, and a
round seated before the ledger or the standings changed is to be seated again."""

from __future__ import annotations

import re

import pandas as pd
from event_support import (
    pairs_knockout,
    run,
    seated_event,
    set_results,
    swiss_cup,
    team_knockout_by_lot,
    team_players,
    write,
)

from guandan_dup.event import EventFolder, event_status
from guandan_dup.event.people import people_of
from guandan_dup.event.publish import public_sets


def withdraw(directory, round_no, *who) -> str:
    return run("event", "ledger", "add", directory, "withdraw", "--round", round_no, *who,
               "--reason", "left the venue")


def play(directory, tmp_path, round_no, keep=lambda results: results):
    """Ingest ``keep`` of the round's random results and score the round."""
    results = keep(set_results(EventFolder.open(directory), round_no, seed=round_no))
    run("event", "ingest", directory, write(results, tmp_path / f"r{round_no}.parquet"),
        "--round", round_no)
    return run("event", "score", directory, "--round", round_no)


def test_art26_a_swiss_pairs_a_withdrawn_team_no_more_and_the_bye_rule_holds(tmp_path):
    directory, _ = swiss_cup(tmp_path, [4] * 6, 2)
    play(directory, tmp_path, 1)
    withdraw(directory, 2, "--team", 3)
    out = run("event", "seat", directory, "--round", 2)
    matches = EventFolder.open(directory).read(2, "matches")
    assert 3 not in set(matches["home"]) | set(matches["away"].dropna().astype(int))
    assert matches["away"].isna().sum() == 1  # five teams: one bye, by art. 26.6
    assert re.search(r"team 3 \w+ withdrew from round 2 \(ledger row 1\): not paired", out)


def test_art35_in_a_round_robin_a_withdrawn_team_forfeits_its_matches(tmp_path):
    directory = tmp_path / "rr"
    run("event", "init", directory, "--kind", "teams", "--format", "round-robin", "--players",
        team_players(tmp_path / "players.csv", [4] * 4), "--rounds", 3, "--boards-per-set", 2)
    for r in (1, 2):
        run("event", "deal", directory, "--round", r, "--quiet")
    run("event", "seat", directory, "--round", 1)
    play(directory, tmp_path, 1)
    withdraw(directory, 2, "--team", 2)
    out = run("event", "seat", directory, "--round", 2)
    folder = EventFolder.open(directory)
    matches = folder.read(2, "matches")
    mine = matches[(matches["home"] == 2) | (matches["away"] == 2)].iloc[0]
    other = int(mine["away"]) if int(mine["home"]) == 2 else int(mine["home"])
    assert re.search(rf"team 2 \w+ withdrew from round 2 \(ledger row 1\): forfeits match "
                     rf"{mine['match']}, team {other} \w+ wins it \(art. 35\)", out)
    rooms = {int(mine["open_table"]), int(mine["closed_table"])}
    play(directory, tmp_path, 2, keep=lambda r: r[~r["table"].isin(rooms)])
    scored = EventFolder.open(directory).read(2, "match_results")
    points = scored.set_index("team")[["match_points", "level_points"]]
    assert points.loc[other].tolist() == [2.0, 17.0] and points.loc[2].tolist() == [0.0, 0.0]
    assert public_sets(EventFolder.open(directory), [2]) == {(2, 2)}


def test_art35_a_withdrawn_team_knockout_team_loses_its_match(tmp_path):
    directory = team_knockout_by_lot(tmp_path, 4)
    run("event", "deal", directory, "--round", 1, "--quiet")
    withdraw(directory, 1, "--team", 4)
    out = run("event", "seat", directory, "--round", 1)
    matches = EventFolder.open(directory).read(1, "matches")
    mine = matches[(matches["home"] == 4) | (matches["away"] == 4)].iloc[0]
    rooms = {int(mine["open_table"]), int(mine["closed_table"])}
    assert re.search(r"team 4 \w+ withdrew from round 1 \(ledger row 1\): forfeits match", out)
    out = play(directory, tmp_path, 1, keep=lambda r: r[~r["table"].isin(rooms)])
    bracket = EventFolder.open(directory).read(1, "bracket")
    match = bracket[bracket["match"] == mine["match"]].iloc[0]
    assert int(match["winner"]) == int(mine["home"]) and match["winner"] != "4"


def test_art35_a_pair_whose_player_withdrew_loses_its_knockout_match(tmp_path):
    directory = pairs_knockout(tmp_path, 4)
    run("event", "deal", directory, "--round", 1, "--quiet")
    players = EventFolder.open(directory).players()
    player = players.loc[players["pair"] == "D002", "player"].iloc[0]
    withdraw(directory, 1, "--player", player)
    out = run("event", "seat", directory, "--round", 1)
    bracket = EventFolder.open(directory).read(1, "bracket")
    mine = bracket[(bracket["side_a"] == "D002") | (bracket["side_b"] == "D002")].iloc[0]
    other = mine["side_b"] if mine["side_a"] == "D002" else mine["side_a"]
    people = people_of(EventFolder.open(directory))
    assert (f"{people.pair('D002')} withdrew from round 1 (ledger row 1): {people.pair(other)} "
            "advances (art. 35)") in out.splitlines()
    played = sorted(set(bracket["table"].dropna().astype(int)) - {int(mine["table"])})
    state = event_status(EventFolder.open(directory))
    assert state.rounds[0].missing_words() == f"set 1: table {played[0]}", (
        "its table owes no result")
    def others(results):
        results = results[results["table"] != mine["table"]]
        level = results["ns_level"] == results["ew_level"]  # extra boards: NS won them
        return results.assign(tiebreak=level.map({True: "NS", False: None}))

    play(directory, tmp_path, 1, keep=others)
    decided = EventFolder.open(directory).read(1, "bracket")
    assert decided.loc[decided["match"] == mine["match"], "winner"].iloc[0] == other
    assert pd.notna(decided["winner"]).all()


def test_spec10_a_withdrawal_after_scoring_makes_the_round_it_forfeits_out_of_date(tmp_path):
    """A round robin team withdrawn from round 1 after round 1 was scored forfeits its
    match of round 1: that round's scoring is out of date (issue 21 item 4), as for any
    ledger decision that changes it."""
    directory = tmp_path / "rr"
    run("event", "init", directory, "--kind", "teams", "--format", "round-robin", "--players",
        team_players(tmp_path / "players.csv", [4] * 4), "--rounds", 3, "--boards-per-set", 2)
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1)
    play(directory, tmp_path, 1)
    assert "a ledger decision changed it" not in run("event", "status", directory)
    withdraw(directory, 1, "--team", 2)
    assert run("event", "status", directory).splitlines()[-1] == (
        f"Next: guandan-dup event score {directory} --round 1 (a ledger decision changed it)")
    run("event", "score", directory, "--round", 1)
    scored = EventFolder.open(directory).read(1, "match_results").set_index("team")
    assert scored.loc[2, ["match_points", "level_points"]].tolist() == [0.0, 0.0]


def seated_round_two(tmp_path):
    """The 17-player event with round 1 played and scored, round 2 dealt and seated."""
    directory = seated_event(tmp_path, rounds=2)
    play(directory, tmp_path, 1)
    run("event", "deal", directory, "--round", 2, "--quiet")
    run("event", "seat", directory, "--round", 2)
    return directory


def test_art35_a_player_withdrawn_after_seating_plays_no_set_of_the_round(tmp_path):
    directory = seated_round_two(tmp_path)
    folder = EventFolder.open(directory)
    gone = folder.read(2, "seating").iloc[0]["north"]
    withdraw(directory, 2, "--player", gone)
    assert run("event", "status", directory).strip().splitlines()[-1] == (
        f"Next: guandan-dup event seat {directory} --round 2 (the ledger keeps "
        f"{people_of(folder).player(gone)} out of it since it was seated)")
    results = write(set_results(folder, 2, seed=2), tmp_path / "r2.parquet")
    out = run("event", "ingest", directory, results, "--round", 2, code=1)
    assert (f"value '{gone}': the ledger withdraws {people_of(folder).player(gone)} from "
            "round 2 (`event ledger list`), so they cannot play in it: seat the round again "
            f"(`guandan-dup event seat {directory} --round 2`)") in out
    assert not folder.file(2, "results").exists()
    run("event", "seat", directory, "--round", 2)
    assert gone not in set(folder.read(2, "seating")[["north", "east", "south", "west"]]
                           .to_numpy().ravel())
    play(directory, tmp_path, 2)


def test_art35_withdrawing_a_player_who_has_results_in_the_round_is_refused(tmp_path):
    directory = seated_event(tmp_path, rounds=2)
    folder = EventFolder.open(directory)
    run("event", "ingest", directory, write(set_results(folder, 1, seed=1),
                                            tmp_path / "r1.parquet"), "--round", 1)
    played = folder.read(1, "seating").iloc[0]["north"]
    out = run("event", "ledger", "add", directory, "withdraw", "--round", 1, "--player",
              played, "--reason", "ill", code=1)
    assert (f"{people_of(folder).player(played)} already has results in round 1 table 1, "
            "which a withdrawal from round 1 on contradicts") in out
    assert not (directory / "ledger.parquet").exists()
    withdraw(directory, 2, "--player", played)  # from the first round not played: fine


def test_spec10_a_round_seated_before_the_standings_it_follows_changed_is_seated_again(
        tmp_path):
    directory = seated_round_two(tmp_path)
    folder = EventFolder.open(directory)
    assert "Next: guandan-dup event sheet" in run("event", "status", directory)
    run("event", "ingest", directory, write(set_results(folder, 1, seed=7),
                                            tmp_path / "fix.parquet"), "--round", 1)
    run("event", "score", directory, "--round", 1)
    assert run("event", "status", directory).strip().splitlines()[-1] == (
        f"Next: guandan-dup event seat {directory} --round 2 (round 1's standings changed "
        "since this round was seated)")
    run("event", "seat", directory, "--round", 2)
    assert "Next: guandan-dup event sheet" in run("event", "status", directory)
