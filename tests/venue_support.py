"""Helpers for the venue tests (issue 24): an individual event of two venues of odd sizes,
played round by round through the CLI."""

from __future__ import annotations

from event_support import run, set_results, write

from guandan_dup.event import EventFolder
from guandan_dup.event.entrants import demo_players

VENUES = {"淮安": 9, "南京": 14}
"""Two venues of odd sizes: one bye in 淮安 (2 tables), two in 南京 (3 tables)."""


def venue_players(tmp_path, header="场地"):
    """``tmp_path / "p.csv"``: the ``VENUES`` players, lines shuffled, venue under ``header``."""
    players = demo_players(sum(VENUES.values()))
    players[header] = [v for v, n in VENUES.items() for _ in range(n)]
    players.sample(frac=1, random_state=1).to_csv(tmp_path / "p.csv", index=False)
    return tmp_path / "p.csv"


def venue_event(tmp_path, rounds=3):
    directory = tmp_path / "event"
    run("event", "init", directory, "--players", venue_players(tmp_path),
        "--tables-per-group", 2, "--sets-per-round", 2, "--boards-per-set", 2,
        "--rounds", rounds)
    return directory


def play(directory, tmp_path, rounds):
    folder = EventFolder.open(directory)
    for r in rounds:
        run("event", "deal", directory, "--round", r, "--quiet")
        run("event", "seat", directory, "--round", r)
        write(set_results(folder, r, r), tmp_path / f"r{r}.parquet")
        run("event", "ingest", directory, tmp_path / f"r{r}.parquet", "--round", r)
        run("event", "score", directory, "--round", r)
    return folder
