"""`event status` of a team event: its Next line at every step of the round loop (deal, seat,
ingest, score), through the CLI, in a Swiss with a bye each round."""

from event_support import run, set_results, swiss_cup, team_players, write

from guandan_dup.event import EventFolder


def next_line(directory) -> str:
    return run("event", "status", directory).splitlines()[-1]


def test_status_next_follows_a_team_event_through_every_step(tmp_path, monkeypatch):
    """Each Next line is the command to paste: the folder as the director typed it."""
    monkeypatch.chdir(tmp_path)
    directory = "cup"
    csv = team_players(tmp_path / "players.csv", [4, 4, 5, 4, 6])
    run("event", "init", directory, "--kind", "teams", "--format", "swiss", "--players", csv,
        "--rounds", 2, "--boards-per-set", 2)
    folder = EventFolder.open(directory)
    assert next_line(directory) == "Next: guandan-dup event deal cup --round 1"
    run("event", "deal", directory, "--round", 1, "--quiet")
    assert next_line(directory) == "Next: guandan-dup event seat cup --round 1"
    run("event", "seat", directory, "--round", 1)
    assert next_line(directory) == (
        "Next: guandan-dup event sheet cup --round 1 --out cup-round-1.xlsx, fill in its "
        "levels, then guandan-dup event ingest cup cup-round-1.xlsx --round 1")
    results = set_results(folder, 1, seed=1)
    assert sorted(results["table"]) == [1, 2, 3, 4], "two matches, a bye without tables"
    run("event", "ingest", directory, write(results[results["table"] != 3],
                                            tmp_path / "part.parquet"), "--round", 1)
    status = run("event", "status", directory)
    assert "3/4" in status and "set 1: table 3" in status
    assert status.splitlines()[-1] == (
        "Next: guandan-dup event ingest cup cup-round-1.xlsx --round 1 (1 set result still "
        "missing)")
    run("event", "ingest", directory, write(results, tmp_path / "r1.parquet"), "--round", 1)
    assert next_line(directory) == "Next: guandan-dup event score cup --round 1"
    run("event", "score", directory, "--round", 1)
    assert next_line(directory) == "Next: guandan-dup event deal cup --round 2"
    run("event", "seat", directory, "--round", 2)  # a team round may be seated before dealt
    assert next_line(directory) == "Next: guandan-dup event deal cup --round 2"
    run("event", "deal", directory, "--round", 2, "--quiet")
    assert next_line(directory) == (
        "Next: guandan-dup event sheet cup --round 2 --out cup-round-2.xlsx, fill in its "
        "levels, then guandan-dup event ingest cup cup-round-2.xlsx --round 2")
    run("event", "ingest", directory, write(set_results(folder, 2, seed=2),
                                            tmp_path / "r2.parquet"), "--round", 2)
    assert next_line(directory) == "Next: guandan-dup event score cup --round 2"
    run("event", "score", directory, "--round", 2)
    assert next_line(directory) == (
        "Next: guandan-dup event export cup, then guandan-dup event reveal cup")
    run("event", "reveal", directory)
    assert next_line(directory) == (
        "Next: nothing: the event is complete and its key is revealed")


def positions(folder, round_no):
    return folder.read(round_no, "team_standings").sort_values("position")["team"].tolist()


def test_status_asks_to_seat_again_a_swiss_round_paired_from_corrected_standings(tmp_path):
    directory, folder = swiss_cup(tmp_path, [4] * 6, 2)
    ingest = (f"Next: guandan-dup event sheet {directory} --round 2 --out cup-round-2.xlsx, "
              f"fill in its levels, then guandan-dup event ingest {directory} cup-round-2.xlsx "
              "--round 2")
    run("event", "ingest", directory, write(set_results(folder, 1, seed=1),
                                            tmp_path / "r1.parquet"), "--round", 1)
    run("event", "score", directory, "--round", 1)
    first = positions(folder, 1)
    run("event", "seat", directory, "--round", 2)
    assert next_line(directory) == ingest
    run("event", "ingest", directory, write(set_results(folder, 1, seed=2),
                                            tmp_path / "fix.parquet"), "--round", 1)
    assert next_line(directory).startswith(f"Next: guandan-dup event score {directory} "
                                           "--round 1")
    run("event", "score", directory, "--round", 1)
    assert positions(folder, 1) != first, "the correction moved the teams"
    assert next_line(directory) == (
        f"Next: guandan-dup event seat {directory} --round 2 (round 1's standings changed "
        "since this round was paired)")
    run("event", "seat", directory, "--round", 2)
    assert next_line(directory) == ingest
