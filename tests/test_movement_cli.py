"""The move command: a seating (and byes.parquet beside it) from files outside an event."""

import pandas as pd
import pytest
from event_support import KEY, players_csv
from typer.testing import CliRunner
from write_support import disk_full, inode, record_writes

from guandan_dup.cli.app import app
from guandan_dup.deals.keys import write_key
from guandan_dup.movement import draw_lot, seat_round
from guandan_dup.movement.files import move

runner = CliRunner()


def run(*args, code=0):
    result = runner.invoke(app, ["move", *map(str, args)])
    assert result.exit_code == code, result.output
    return result.output


def standings_file(path, players, round_no=1):
    frame = pd.DataFrame({"round": round_no, "player": players,
                          "position": range(1, len(players) + 1)})
    frame.to_parquet(path, index=False)
    return path


def test_move_seats_the_next_round_from_standings_and_writes_byes_beside(tmp_path):
    players = [f"P{i:03d}" for i in range(1, 11)]
    standings = standings_file(tmp_path / "standings.parquet", players)
    byes_so_far = tmp_path / "old-byes.csv"
    byes_so_far.write_text("round,player\n1,P010\n", encoding="utf-8")
    out = tmp_path / "out" / "seating.parquet"
    output = run(standings, "--round", 1, "--tables-per-group", 1, "--out", out,
                 "--byes-so-far", byes_so_far)
    assert "Round 2: 2 tables in 2 groups" in output
    expected = seat_round(players, 1, ["P010"], round_no=2)
    pd.testing.assert_frame_equal(pd.read_parquet(out), expected.seating)
    assert pd.read_parquet(tmp_path / "out" / "byes.parquet")["player"].tolist() == [
        "P008", "P009"]


def test_move_round_one_by_lot_from_the_key(tmp_path):
    csv = players_csv(tmp_path / "players.csv", 8)
    write_key(tmp_path / "event.key", KEY)
    out = tmp_path / "seating.parquet"
    run("--round", 1, "--tables-per-group", 2, "--out", out, "--players", csv,
        "--key", tmp_path / "event.key")
    order = draw_lot([f"P{i:03d}" for i in range(1, 9)], KEY)
    assert pd.read_parquet(out)["north"].tolist() == [order[0], order[4]]


def test_move_pairs_avoids_earlier_opponents(tmp_path):
    csv = players_csv(tmp_path / "pairs.csv", 8, "pairs")  # pairs D001..D004
    standings = standings_file(tmp_path / "s.parquet", [f"P{i:03d}" for i in range(1, 9)])
    earlier = tmp_path / "r1.parquet"
    pd.DataFrame({"north": ["P001"], "east": ["P003"], "south": ["P002"], "west": ["P004"]}
                 ).to_parquet(earlier)
    out = tmp_path / "seating.parquet"
    run(standings, "--round", 1, "--tables-per-group", 2, "--out", out, "--kind", "pairs",
        "--pairs", csv, "--earlier-seating", earlier)
    seating = pd.read_parquet(out)
    assert seating[["north", "east"]].to_numpy().tolist() == [["P001", "P005"], ["P003", "P007"]]


def test_move_without_standings_or_seeding_is_refused(tmp_path):
    output = run("--round", 1, "--tables-per-group", 2, "--out", tmp_path / "s.parquet", code=1)
    assert "give --seeding FILE, or --players FILE and --key FILE" in output
    assert not (tmp_path / "s.parquet").exists()


def test_round_below_one_is_refused_and_writes_nothing(tmp_path):
    seeding = players_csv(tmp_path / "players.csv", 8)
    out = tmp_path / "s.parquet"
    output = run("--round", 0, "--tables-per-group", 2, "--out", out, "--seeding", seeding,
                 code=1)
    assert "--round 0: rounds are numbered from 1" in output
    assert not out.exists()


def test_round_naming_the_round_to_seat_is_also_understood(tmp_path):
    standings = standings_file(tmp_path / "s.parquet", [f"P{i}" for i in range(8)], round_no=1)
    out = tmp_path / "seating.parquet"
    assert "Round 2:" in run(standings, "--round", 2, "--tables-per-group", 2, "--out", out)
    assert "no standings of round 3" in run(standings, "--round", 3, "--tables-per-group", 2,
                                            "--out", out, code=1)


def test_move_with_partner_rotation_has_a_row_per_table_per_set(tmp_path):
    standings = standings_file(tmp_path / "s.parquet", [f"P{i}" for i in range(8)])
    out = tmp_path / "seating.parquet"
    run(standings, "--round", 1, "--tables-per-group", 2, "--out", out, "--rotate-partners",
        "--sets", "4,5,6")
    seating = pd.read_parquet(out)
    assert seating[["table", "set"]].to_numpy().tolist() == [
        [1, 4], [1, 5], [1, 6], [2, 4], [2, 5], [2, 6]]


def test_a_round_one_bye_missing_from_the_standings_is_still_seated(tmp_path):
    """SPEC 7: a player who sat out round 1 has no standing but plays round 2 (and the bye
    passes to the lowest placed who has not had one)."""
    players = [f"P{i:03d}" for i in range(1, 13)]  # P013 had the round-1 bye
    standings = standings_file(tmp_path / "standings.parquet", players)
    byes_so_far = tmp_path / "byes.csv"
    byes_so_far.write_text("round,player\n1,P013\n", encoding="utf-8")
    out = tmp_path / "seating.parquet"
    run(standings, "--round", 1, "--tables-per-group", 2, "--out", out,
        "--byes-so-far", byes_so_far)
    seated = pd.read_parquet(out)[["north", "east", "south", "west"]].to_numpy().ravel()
    assert "P013" in seated.tolist()
    assert pd.read_parquet(tmp_path / "byes.parquet")["player"].tolist() == ["P012"]


def test_a_pair_missing_from_the_standings_is_still_seated(tmp_path):
    csv = players_csv(tmp_path / "pairs.csv", 10, "pairs")  # D005 = P009, P010 had a bye
    standings = standings_file(tmp_path / "s.parquet", [f"P{i:03d}" for i in range(1, 9)])
    out = tmp_path / "seating.parquet"
    run(standings, "--round", 1, "--tables-per-group", 2, "--out", out, "--kind", "pairs",
        "--pairs", csv)
    seated = pd.read_parquet(out)[["north", "east", "south", "west"]].to_numpy().ravel()
    byes = pd.read_parquet(tmp_path / "byes.parquet")["player"].tolist()
    assert sorted(seated.tolist() + byes) == [f"P{i:03d}" for i in range(1, 11)]


def test_players_left_out_of_a_seeding_list_follow_by_lot_or_are_named(tmp_path):
    csv = players_csv(tmp_path / "players.csv", 8)
    seeding = tmp_path / "seeding.csv"
    seeding.write_text("id\nP008\nP007\n", encoding="utf-8")
    out = tmp_path / "seating.parquet"
    args = ["--round", 1, "--tables-per-group", 2, "--out", out, "--players", csv,
            "--seeding", seeding]
    refused = run(*args, code=1)
    assert "6 players of the players file are not in the seeding list" in refused
    assert "P001" in refused and not out.exists()
    write_key(tmp_path / "event.key", KEY)
    run(*args, "--key", tmp_path / "event.key")
    rest = draw_lot([f"P{i:03d}" for i in range(1, 7)], KEY)
    expected = seat_round(["P008", "P007", *rest], 2)
    pd.testing.assert_frame_equal(pd.read_parquet(out), expected.seating)


def test_a_bad_sets_list_is_an_error_not_a_traceback(tmp_path):
    standings = standings_file(tmp_path / "s.parquet", [f"P{i}" for i in range(8)])
    output = run(standings, "--round", 1, "--tables-per-group", 2, "--out",
                 tmp_path / "seating.parquet", "--rotate-partners", "--sets", "4,x", code=1)
    assert "--sets '4,x': expected set numbers >= 1 separated by commas" in output


def test_an_empty_byes_csv_is_an_error_naming_the_file_and_writes_nothing(tmp_path):
    standings = standings_file(tmp_path / "s.parquet", [f"P{i}" for i in range(8)])
    empty = tmp_path / "byes.csv"
    empty.write_bytes(b"")
    out = tmp_path / "out" / "seating.parquet"
    output = run(standings, "--round", 1, "--tables-per-group", 2, "--out", out,
                 "--byes-so-far", empty, code=1)
    assert f"Error: cannot read {str(empty)!r}: it is empty (no header line)" in output
    assert not out.parent.exists()


def test_a_missing_byes_csv_is_said_in_a_sentence(tmp_path):
    standings = standings_file(tmp_path / "s.parquet", [f"P{i}" for i in range(8)])
    missing = tmp_path / "byes.csv"
    output = run(standings, "--round", 1, "--tables-per-group", 2, "--out",
                 tmp_path / "seating.parquet", "--byes-so-far", missing, code=1)
    assert f"Error: cannot read {str(missing)!r}: it does not exist: check the path" in output


def test_issue20_the_seating_and_byes_are_synced_or_neither_is_written(tmp_path, monkeypatch):
    players = [f"P{i:03d}" for i in range(1, 11)]
    standings = standings_file(tmp_path / "standings.parquet", players)
    out = tmp_path / "out" / "seating.parquet"
    (tmp_path / "out").mkdir()
    events = record_writes(monkeypatch)
    move(out, 1, 1, standings=standings)
    seating, byes = inode(out), inode(tmp_path / "out" / "byes.parquet")
    assert [e[:2] for e in events] == [("sync file", seating), ("sync file", byes),
                                       ("replace", seating), ("replace", byes),
                                       ("sync dir", inode(tmp_path / "out"))]
    before = {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()}
    disk_full(monkeypatch, after=1)  # the seating synced, the byes not: neither is renamed
    with pytest.raises(OSError, match="No space left"):
        move(out, 2, 1, standings=standings_file(tmp_path / "standings.parquet",
                                                 players[::-1], round_no=2))
    assert {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()} == before
