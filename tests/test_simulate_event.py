"""``guandan-dup simulate --event DIR --rounds 2-3``: bots play rounds of an existing event.

The event is made by ``event init`` as a director makes it; the bots' rounds go through its
own deal, seat, ingest and score steps, in order, never over results, and never silently
after results the bots did not play.
"""

from __future__ import annotations

import shutil

import pytest
from event_support import board_results, players_csv, run, snapshot, team_players, write

from guandan_dup.event import EventFolder

INIT = ("--tables-per-group", 4, "--sets-per-round", 1, "--boards-per-set", 2, "--rounds", 3)


def new_event(tmp_path, name="event"):
    """A 3-round individual event of 9 players (2 tables, one bye), as ``event init`` makes
    it: nothing dealt, nothing played."""
    directory = tmp_path / name
    run("event", "init", directory, "--players", players_csv(tmp_path / "p.csv", 9), *INIT)
    return directory


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """The event with rounds 1-2 played by the bots, and what ``simulate`` printed."""
    directory = new_event(tmp_path_factory.mktemp("sim-event"))
    output = run("simulate", "--event", directory, "--rounds", "1-2", "--seed", 4, "--quiet")
    return directory, output


@pytest.fixture
def copy(played, tmp_path):
    """A copy of the played event, as a director copies a folder to rehearse on."""
    return shutil.copytree(played[0], tmp_path / "copy")


def test_the_rounds_asked_are_dealt_seated_ingested_and_scored(played):
    directory, output = played
    folder = EventFolder.open(directory)
    for r in (1, 2):
        seating = folder.read(r, "seating")
        results = folder.read(r, "results")
        assert sorted(set(results["table"])) == sorted(seating["table"]) == [1, 2]
        assert folder.file(r, "standings").exists()
        assert (directory / f"playlog-round-{r}.parquet").exists()
    assert not folder.round_dir(3).exists()
    assert f"Simulated rounds 1-2 of 'event' (individual event, 9 players) in {directory}" in output
    assert "Leader after round 2: " in output
    assert (f"Next: guandan-dup simulate --event {directory} --rounds 3 (the round left); "
            f"guandan-dup event status {directory}") in output


def test_a_later_run_plays_the_next_round_and_finishes_the_day(copy):
    output = run("simulate", "--event", copy, "--rounds", "3", "--quiet")
    assert "Simulated round 3 of 'event'" in output
    assert (f"Results and play log: {copy}/results-round-3.parquet, "
            f"{copy}/playlog-round-3.parquet") in output
    folder = EventFolder.open(copy)
    assert folder.rounds_scored() == [1, 2, 3]
    assert f"Next: guandan-dup event reveal {copy}" in run("event", "status", copy)


def test_without_rounds_the_bots_play_every_round_left(copy):
    assert "Simulated round 3 of" in run("simulate", "--event", copy, "--quiet")
    assert "nothing is left to rehearse" in run("simulate", "--event", copy, code=1)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rounds", "2"], "round 2 already holds results"),
        (["--rounds", "2-3"], "or play the rounds after it, `--rounds 3`"),
        (["--rounds", "1"], "rehearses on a copy of the event folder"),
        (["--rounds", "3-1"], "'3-1': a range goes from its first round to its last (1-3)"),
        (["--rounds", "x"], "--rounds 'x': expected a round (2) or a range of rounds (2-3)"),
        (["--rounds", "4"], "--rounds '4': 'event' has rounds 1-3"),
        (["--rounds", "3", "--players", "8"], "leave out --players"),
        (["--rounds", "3", "--out", "elsewhere", "--boards-per-set", "3"],
         "leave out --boards-per-set and --out"),
    ],
)
def test_simulate_event_refusals_change_nothing(copy, args, message):
    before = snapshot(copy)
    result = run("simulate", "--event", copy, *args, "--quiet", code=1)
    assert message in " ".join(result.split()), result
    assert snapshot(copy) == before


def test_rounds_are_played_in_order(tmp_path):
    directory = new_event(tmp_path)
    output = run("simulate", "--event", directory, "--rounds", "2-3", code=1)
    assert "round 1 has no results yet, and rounds are played in order" in output
    assert f"guandan-dup simulate --event {directory} --rounds 1-3" in output
    assert not EventFolder.open(directory).round_dir(1).exists()


def director_round_1(directory, score=True):
    """Round 1 dealt, seated and ingested by the director's commands (results the bots did
    not play), and scored unless ``score`` is false."""
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1)
    results = write(board_results(EventFolder.open(directory), 1), directory.parent / "r1.parquet")
    run("event", "ingest", directory, results, "--round", 1)
    if score:
        run("event", "score", directory, "--round", 1)


def test_an_unfinished_earlier_round_is_refused_with_its_next_step(tmp_path):
    directory = new_event(tmp_path)
    director_round_1(directory, score=False)
    output = " ".join(run("simulate", "--event", directory, "--rounds", "2", code=1).split())
    assert "round 1 is not finished, and round 2 is seated from it" in output
    assert f"First: `guandan-dup event score {directory} --round 1`" in output


def test_results_the_bots_did_not_play_need_force_on_a_copy(tmp_path):
    directory = new_event(tmp_path)
    director_round_1(directory)
    output = " ".join(run("simulate", "--event", directory, "--rounds", "2", code=1).split())
    assert "round 1 holds results the bots did not play" in output
    assert f"`cp -r {directory} {directory}-rehearsal`" in output
    assert not EventFolder.open(directory).round_dir(2).exists()
    run("simulate", "--event", directory, "--rounds", "2", "--force", "--quiet")
    assert EventFolder.open(directory).rounds_scored() == [1, 2]


def test_a_new_event_takes_a_number_of_rounds_and_a_folder(tmp_path):
    output = run("simulate", "--players", 8, "--rounds", "1-2", "--out", tmp_path / "x", code=1)
    assert "a new event plays rounds 1 to N, give --rounds N" in output
    output = run("simulate", "--players", 8, "--rounds", 2, code=1)
    assert "give --out DIR, a new folder for the simulated event" in output


@pytest.mark.parametrize(
    ("init", "players", "rounds", "last"),
    [
        (("--kind", "teams", "--format", "swiss", "--rounds", 2), "teams", "1-2",
         "Leader after round 2: team "),
        (("--kind", "pairs", "--tables-per-group", 2, "--sets-per-round", 1, "--rounds", 2),
         "pairs", "1", "Leader after round 1: "),
        (("--kind", "pairs", "--format", "knockout"), "pairs", "1", "Bracket after round 1: "),
        (("--kind", "pairs", "--format", "knockout"), "pairs", "1-3", "Winner: D"),
    ],
)
def test_every_format_is_played_by_its_own_steps(tmp_path, init, players, rounds, last):
    """A team Swiss, a pairs event and a pairs knockout (extra boards for a level match),
    part of the way and to its winner."""
    csv = (team_players(tmp_path / "p.csv", [4] * 4) if players == "teams"
           else players_csv(tmp_path / "p.csv", 16, "pairs"))
    directory = tmp_path / "event"
    run("event", "init", directory, "--players", csv, "--boards-per-set", 2, *init)
    output = run("simulate", "--event", directory, "--rounds", rounds, "--quiet")
    assert last in output
    folder = EventFolder.open(directory)
    assert folder.rounds_scored() == list(range(1, int(rounds[-1]) + 1))
