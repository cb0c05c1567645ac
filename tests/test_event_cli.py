"""End to end through the CLI: an individual and a pairs event, every round of the loop."""

import os
from collections import Counter

import pytest
from event_support import players_csv, run, set_results, snapshot, write
from typer.testing import CliRunner

from guandan_dup.cli.app import app
from guandan_dup.event import EventFolder

runner = CliRunner()


def run_event(tmp_path, count, kind, tables_per_group, rounds=3):
    """init, then deal/seat/ingest/score every round, then status, export, reveal."""
    directory = tmp_path / kind
    csv = players_csv(tmp_path / "players.csv", count, kind, bom=True)
    out = run("event", "init", directory, "--players", csv, "--tables-per-group",
              tables_per_group, "--sets-per-round", 2, "--boards-per-set", 3, "--rounds", rounds,
              "--kind", kind, "--name", "测试赛")
    key = (directory / "event.key").read_bytes()
    assert key.strip().decode() not in out and key not in out.encode()
    assert EventFolder.open(directory).commitment in out
    assert os.stat(directory / "event.key").st_mode & 0o777 == 0o600
    for r in range(1, rounds + 1):
        run("event", "deal", directory, "--round", r, "--quiet")
        run("event", "seat", directory, "--round", r)
        results = write(set_results(EventFolder.open(directory), r, seed=r),
                        tmp_path / f"round{r}.parquet")
        assert "Every table of the round has results" in run(
            "event", "ingest", directory, results, "--round", r)
        assert f"Scored round {r}" in run("event", "score", directory, "--round", r)
    status = run("event", "status", directory)
    assert status.splitlines()[-1] == (
        f"Next: guandan-dup event export {directory}, then guandan-dup event reveal {directory}")
    run("event", "export", directory, "--format", "csv", "--format", "html")
    revealed = run("event", "reveal", directory)
    assert "Marked the key as revealed" in revealed
    assert key.strip().decode() not in revealed and str(directory / "event.key") in revealed
    assert "nothing: the event is complete" in run("event", "status", directory)
    return EventFolder.open(directory)


def test_individual_event_of_three_rounds(tmp_path):
    folder = run_event(tmp_path, 18, "individual", tables_per_group=2)
    plan = folder.plan
    assert (plan.tables(), plan.groups(), folder.key_revealed) == (4, 2, True)
    byes = folder.read_rounds("byes", range(1, 4))
    assert len(byes) == 6 and byes["player"].is_unique, "two byes a round, never twice"
    for r in (1, 2, 3):
        standings = folder.read(r, "standings")
        assert set(standings["round"]) == {r}
        assert set(folder.read(r, "scores")["round"]) == {r}
        assert sorted(folder.read(r, "travellers")["set"].unique()) == plan.sets_of_round(r)
    order = folder.read(1, "standings").sort_values("position")["player"].tolist()
    seated = [p for p in order if p not in set(folder.read(2, "byes")["player"])]
    first = folder.read(2, "seating").iloc[0]
    assert [first.north, first.east, first.west, first.south] == seated[:4], "SPEC 7 pattern"
    exports = sorted(p.name for p in folder.exports_dir.iterdir())
    assert "standings-round-3.html" in exports and "travellers-round-1.csv" in exports
    cards = (folder.round_dir(2) / "table-cards.html").read_text(encoding="utf-8")
    name = players_name(folder, first.north)
    assert f"{name} <span class=\"id\">{first.north}</span>" in cards


def players_name(folder, player):
    players = folder.players()
    return players.loc[players["player"] == player, "name"].item()


def test_pairs_event_of_three_rounds_never_repeats_opponents(tmp_path):
    folder = run_event(tmp_path, 16, "pairs", tables_per_group=2)
    players = folder.players()
    pair_of = dict(zip(players["player"], players["pair"], strict=True))
    seatings = folder.read_rounds("seating", range(1, 4))
    meetings = Counter(
        frozenset((pair_of[n], pair_of[e])) for n, e in zip(seatings["north"], seatings["east"],
                                                            strict=True)
    )
    assert max(meetings.values()) == 1
    assert (seatings["south"].map(pair_of) == seatings["north"].map(pair_of)).all()


def test_seating_before_the_previous_round_is_scored_is_refused(tmp_path):
    directory = tmp_path / "e"
    csv = players_csv(tmp_path / "players.csv", 8)
    run("event", "init", directory, "--players", csv, "--tables-per-group", 1,
        "--sets-per-round", 1, "--boards-per-set", 2, "--rounds", 2)
    out = runner.invoke(app, ["event", "seat", str(directory), "--round", "2"])
    assert out.exit_code == 1
    assert "round 1 is not scored yet, so round 2 cannot be seated" in out.output


def test_init_refuses_an_existing_event_and_bad_players(tmp_path):
    csv = players_csv(tmp_path / "players.csv", 8)
    args = ["event", "init", tmp_path / "e", "--players", csv, "--tables-per-group", 1,
            "--sets-per-round", 1, "--boards-per-set", 2, "--rounds", 2]
    run(*args)
    assert "already holds an event" in run(*args, code=1)
    bad = tmp_path / "bad.csv"
    bad.write_text("id,name\na,甲\na,乙\n", encoding="utf-8")
    out = run(*(args[:2] + [tmp_path / "f", "--players", bad] + args[5:]), code=1)
    assert "value 'a': this id is on more than one line" in out
    assert not (tmp_path / "f").exists()


@pytest.mark.parametrize("seeded", [True, False])
def test_round_one_follows_the_seeding_list_or_the_lot(tmp_path, seeded):
    csv = players_csv(tmp_path / "players.csv", 8)
    seeding = tmp_path / "seeding.csv"
    seeding.write_text("id\nP008\nP007\n", encoding="utf-8")
    extra = ["--seeding", seeding] if seeded else []
    run("event", "init", tmp_path / "e", "--players", csv, "--tables-per-group", 1,
        "--sets-per-round", 1, "--boards-per-set", 2, "--rounds", 1, *extra)
    folder = EventFolder.open(tmp_path / "e")
    order = folder.players().sort_values("seed")["player"].tolist()
    assert sorted(order) == [f"P{i:03d}" for i in range(1, 9)]
    assert folder.plan.seeding == ("list" if seeded else "lot")
    if seeded:
        assert order[:2] == ["P008", "P007"]


def test_steps_out_of_order_are_refused_with_a_message_and_change_nothing(tmp_path):
    """Score before ingest, seat round 2 early, deal twice, ingest an unseated round, reveal
    mid-event: each says what to do, exits 1 without a traceback and touches no file."""
    directory = tmp_path / "e"
    csv = players_csv(tmp_path / "players.csv", 13, bom=True)
    run("event", "init", directory, "--players", csv, "--tables-per-group", 2,
        "--sets-per-round", 2, "--boards-per-set", 3, "--rounds", 2)
    run("event", "deal", directory, "--round", 1, "--quiet")
    steps = {
        ("event", "score", directory, "--round", 1): "round 1 has no results yet",
        ("event", "seat", directory, "--round", 2): "round 1 is not scored yet",
        ("event", "deal", directory, "--round", 1, "--quiet"): "round 1 is already dealt",
        ("event", "ingest", directory, csv, "--round", 1): "round 1 is not seated yet",
        ("event", "reveal", directory): "still to play: round 1 set 1: tables 1-3;",
        ("event", "deal", directory, "--round", 3, "--quiet"): "round 3 is not in the plan",
    }
    before = snapshot(directory)
    for args, message in steps.items():
        result = runner.invoke(app, [str(a) for a in args])
        assert (result.exit_code, result.exception.__class__) == (1, SystemExit), args
        assert message in result.output and "Traceback" not in result.output, result.output
        assert snapshot(directory) == before, args
