"""Issue 24, venues: the players file's venue column, kept by ``event init``; each venue's
players seated at its own consecutive tables, round 1 by lot and later rounds by standing;
formats that pair entrants event-wide refuse a venue column."""

from __future__ import annotations

import pandas as pd
import pytest
from event_support import run, team_players
from venue_support import VENUES, play, venue_event, venue_players

from guandan_dup.event import EventFolder
from guandan_dup.event.entrants import demo_players
from guandan_dup.seats import SEAT_COLUMNS


def test_issue24_venue_column_survives_init(tmp_path):
    out = run("event", "init", tmp_path / "e2", "--players", venue_players(tmp_path),
              "--tables-per-group", 2, "--sets-per-round", 2, "--boards-per-set", 2,
              "--rounds", 3)
    assert "5 tables in 3 groups (venues 南京 tables 1-3, 淮安 tables 4-5)" in out
    folder = EventFolder.open(venue_event(tmp_path))
    players = folder.players()
    assert players.groupby("venue").size().to_dict() == VENUES
    # sorted by name (code point order): 南 U+5357 before 淮 U+6DEE
    assert folder.plan.venues == (("南京", 14), ("淮安", 9))
    assert folder.plan.tables() == 3 + 2
    assert folder.plan.venue_tables() == {"南京": range(1, 4), "淮安": range(4, 6)}
    # groups of 2 tables within each venue: 南京 1-2, 3; 淮安 4-5
    assert [list(folder.plan.tables_of_group(g)) for g in range(1, 4)] == [[1, 2], [3], [4, 5]]
    assert EventFolder.open(folder.path).plan == folder.plan  # event.toml round-trips


def test_issue24_players_stay_at_their_venue_tables_for_three_rounds(tmp_path):
    folder = play(venue_event(tmp_path), tmp_path, (1, 2, 3))
    venue_of = folder.players().set_index("player")["venue"]
    for r in (1, 2, 3):
        seating = folder.read(r, "seating")
        for row in seating.itertuples():
            venues = {venue_of[getattr(row, seat)] for seat in SEAT_COLUMNS}
            expected = "南京" if row.table <= 3 else "淮安"
            assert venues == {expected}, (r, row)
            assert row.group == folder.plan.group_of_table(row.table)
        byes = folder.read(r, "byes")
        assert byes["player"].map(venue_of).value_counts().to_dict() == {"南京": 2, "淮安": 1}
        seated = {p for c in SEAT_COLUMNS for p in seating[c]} | set(byes["player"])
        assert seated == set(venue_of.index)


def test_issue24_second_round_follows_the_standing_within_each_venue(tmp_path):
    folder = play(venue_event(tmp_path, rounds=2), tmp_path, (1, 2))
    venue_of = folder.players().set_index("player")["venue"]
    standings = folder.read(1, "standings").sort_values("position")
    byes = set(folder.read(2, "byes")["player"])
    seating = folder.read(2, "seating")
    for venue, tables in folder.plan.venue_tables().items():
        ranked = [p for p in standings["player"] if venue_of[p] == venue and p not in byes]
        first = seating[seating["table"] == tables.start].iloc[0]
        # the venue's best four at its first table, a and d North-South
        assert (first["north"], first["east"], first["west"], first["south"]) == tuple(ranked[:4])


def test_issue24_pairs_event_seats_pairs_by_venue(tmp_path):
    players = demo_players(16, pairs=True)
    players["venue"] = ["A"] * 8 + ["B"] * 8
    players.to_csv(tmp_path / "p.csv", index=False)
    directory = tmp_path / "event"
    run("event", "init", directory, "--players", tmp_path / "p.csv", "--kind", "pairs",
        "--tables-per-group", 2, "--sets-per-round", 1, "--boards-per-set", 2, "--rounds", 2)
    folder = play(directory, tmp_path, (1, 2))
    venue_of = folder.players().set_index("player")["venue"]
    for r in (1, 2):
        for row in folder.read(r, "seating").itertuples():
            assert {venue_of[getattr(row, s)] for s in SEAT_COLUMNS} == {
                "A" if row.table <= 2 else "B"}


def test_issue24_a_pair_at_two_venues_is_refused(tmp_path):
    players = demo_players(8, pairs=True)
    players["venue"] = ["A", "B"] + ["A"] * 6
    players.to_csv(tmp_path / "p.csv", index=False)
    out = run("event", "init", tmp_path / "e", "--players", tmp_path / "p.csv", "--kind",
              "pairs", "--tables-per-group", 1, "--sets-per-round", 1, "--boards-per-set", 1,
              "--rounds", 1, code=1)
    assert "pair 'D001' has players at two venues: a pair plays at one" in out


@pytest.mark.parametrize("counts, message", [
    ({"A": 8, "B": 3}, "venue 'B' has 3 players: a venue needs at least 4"),
])
def test_issue24_a_venue_without_a_table_is_refused(tmp_path, counts, message):
    players = demo_players(sum(counts.values()))
    players["venue"] = [v for v, n in counts.items() for _ in range(n)]
    players.to_csv(tmp_path / "p.csv", index=False)
    out = run("event", "init", tmp_path / "e", "--players", tmp_path / "p.csv",
              "--tables-per-group", 1, "--sets-per-round", 1, "--boards-per-set", 1,
              "--rounds", 1, code=1)
    assert message in out


def test_issue24_team_events_refuse_a_venue_column(tmp_path):
    path = team_players(tmp_path / "t.csv", [4, 4, 4, 4])
    frame = pd.read_csv(path, encoding="utf-8-sig").assign(venue="A")
    frame.to_csv(path, index=False)
    out = run("event", "init", tmp_path / "e", "--players", path, "--kind", "teams",
              "--format", "swiss", "--boards-per-set", 2, "--rounds", 2, code=1)
    assert "a team event cannot seat by venue" in out


def test_issue24_pairs_knockout_refuses_a_venue_column(tmp_path):
    players = demo_players(8, pairs=True).assign(venue="A")
    players.to_csv(tmp_path / "p.csv", index=False)
    out = run("event", "init", tmp_path / "e", "--players", tmp_path / "p.csv", "--kind",
              "pairs", "--format", "knockout", "--boards-per-set", 2, code=1)
    assert "a pairs knockout cannot seat by venue" in out
