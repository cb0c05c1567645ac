"""Issue 25 items 1 and 3: ``event ledger add``, ``list`` and ``withdraw`` name the people a
row concerns ("P005 王伟", "team 3 南京队", a pair), say its effect once, and close with the
step that applies it: paste-ready, about the row's own round (a late start before its round
is scored applies when it is scored, never "score round 1 again")."""

import pytest
from event_support import players_csv, run, seated_event, set_results, swiss_cup, write

from guandan_dup.event import EventFolder
from guandan_dup.event.people import people_of

SCORE_1 = "Score round 1 again to apply it (`guandan-dup event score event --round 1`)."
WHEN_2 = ("It applies when round 2 is scored (`guandan-dup event score event --round 2`, once "
          "its results are in).")
SEAT_2 = "The seating of round 2 and later follows it (`guandan-dup event seat event --round 2`)."


@pytest.fixture
def scored(tmp_path, monkeypatch):
    """``event`` (17 players, 2 rounds) with round 1 scored, run from its parent folder as a
    director would; the event's people."""
    seated_event(tmp_path)
    monkeypatch.chdir(tmp_path)
    folder = EventFolder.open("event")
    run("event", "ingest", "event", write(set_results(folder, 1, seed=1), tmp_path / "r1.parquet"),
        "--round", 1)
    run("event", "score", "event", "--round", 1)
    return people_of(folder)


def add(*args):
    return run("event", "ledger", "add", "event", *args, "--reason", "x").splitlines()


@pytest.mark.parametrize(("args", "lines"), [
    (("penalty", "--round", 1, "--player", "P005", "--points", 2), [
        "Ledger row 1: round 1: {P005}: -2 percentage points off the cumulative average",
        SCORE_1]),
    (("penalty", "--round", 1, "--player", "P005", "--points", 1), [
        "Ledger row 1: round 1: {P005}: -1 percentage point off the cumulative average",
        SCORE_1]),
    (("penalty", "--round", 1, "--player", "P005", "--scale", 2), [
        "Ledger row 1: round 1: {P005}: art. 52 scale 2, first offence: -3 percentage points "
        "off the cumulative average", SCORE_1]),
    (("overtime", "--round", 1, "--player", "P005", "--minutes", 4), [
        "Ledger row 1: round 1: {P005}: 4 minutes over time (art. 33): -1 percentage point "
        "off the cumulative average", SCORE_1]),
    (("late", "--round", 2, "--table", 3, "--set", 3, "--side", "NS", "--minutes", 4), [
        "Ledger row 1: round 2, table 3, set 3: NS late 4 minutes, so EW start at level 3 "
        "(art. 32)", WHEN_2]),
    (("withdraw", "--round", 2, "--player", "P005"), [
        "Ledger row 1: round 2: {P005} withdraws from this round on (leaves the movement)",
        SEAT_2]),
    (("substitute", "--round", 2, "--player", "X1", "--for", "P005"), [
        "Ledger row 1: round 2: X1 plays for {P005}", WHEN_2]),
    (("enter", "--round", 2, "--player", "P099", "--name", "新人"), [
        "Ledger row 1: round 2: P099 新人 enters from this round (joins the movement)",
        SEAT_2]),
])
def test_issue25_ledger_add_names_the_player_and_says_the_effect_once(scored, args, lines):
    assert add(*args) == [line.replace("{P005}", scored.player("P005")) for line in lines]
    assert " " in scored.player("P005"), "the players file names P005"


def test_issue25_a_late_start_before_its_round_is_scored_applies_when_it_is(scored):
    """Round 1 out of date (a penalty) is not the step of a row about round 2."""
    add("penalty", "--round", 1, "--player", "P005", "--points", 2)
    assert add("late", "--round", 2, "--table", 3, "--set", 3, "--side", "EW", "--minutes",
               7)[-1] == WHEN_2


def test_issue25_a_repeat_on_a_scale_says_its_step_once(scored):
    add("penalty", "--round", 1, "--player", "P005", "--scale", 2)
    assert add("penalty", "--round", 1, "--player", "P005", "--scale", 2)[0] == (
        f"Ledger row 2: round 1: {scored.player('P005')}: art. 52 scale 2, second offence: -5 "
        "percentage points off the cumulative average")


def test_issue25_withdraw_and_list_name_the_people_of_the_row(scored):
    add("penalty", "--round", 1, "--player", "P005", "--points", 2)
    run("event", "score", "event", "--round", 1)
    out = run("event", "ledger", "withdraw", "event", 1, "--reason", "wrong player")
    assert out.splitlines() == [
        f"Ledger row 2: round 1: withdraws row 1 (round 1: {scored.player('P005')}: -2 "
        "percentage points off the cumulative average)", SCORE_1]
    listed = run("event", "ledger", "list", "event")
    assert (f"round 1: {scored.player('P005')}: -2 percentage points off the cumulative "
            "average") in listed


def test_issue25_a_pairs_penalty_says_the_pair_it_comes_off(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run("event", "init", "event", "--kind", "pairs", "--players",
        players_csv(tmp_path / "p.csv", 16, "pairs"), "--tables-per-group", 4,
        "--sets-per-round", 1, "--boards-per-set", 2, "--rounds", 2)
    people = people_of(EventFolder.open("event"))
    assert add("penalty", "--round", 1, "--player", "P003", "--points", 2) == [
        f"Ledger row 1: round 1: {people.player('P003')}: -2 percentage points off the "
        f"cumulative average (off both players of pair {people.pair('D002')})",
        "It applies when round 1 is scored (`guandan-dup event score event --round 1`, once "
        "its results are in)."]


@pytest.mark.parametrize(("args", "said"), [
    (("penalty", "--match-points", 1), "{team}: -1 场分 (match points)"),
    (("penalty", "--scale", 2), "{team}: art. 52 scale 2, first offence: -3 级差分 (level "
                                "points)"),
    (("overtime", "--minutes", 7), "{team}: 7 minutes over time (art. 33): -2 级差分 (level "
                                   "points)"),
    (("absent",), "{team} absent: a forfeit (art. 34)"),
])
def test_issue25_a_team_row_names_the_team(tmp_path, args, said):
    directory, folder = swiss_cup(tmp_path, [4] * 4, 2)
    out = run("event", "ledger", "add", directory, args[0], "--round", 1, "--team", 2,
              *args[1:], "--reason", "x")
    team = people_of(folder).team(2)
    assert out.splitlines()[0] == f"Ledger row 1: round 1: {said.format(team=team)}"
    assert team != "team 2", "the teams file names team 2"
