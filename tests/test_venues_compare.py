"""Issue 24, ``compare_within = "venue"``: a set's results compared only among the tables of
one venue; event-wide (the default) otherwise. A small case checked by hand."""

from __future__ import annotations

import pandas as pd
import pytest
from event_support import run, write

from guandan_dup.event import EventFolder
from guandan_dup.event.entrants import demo_players

LEVELS = {1: ("5", "2"), 2: ("3", "2"), 3: ("4", "2"), 4: ("2", "3")}
"""Set 1 at tables 1-2 (venue A) and 3-4 (venue B): NS scores D = +3, +1, +2, -1."""

EXPECTED = {
    # event-wide: four results, n - 1 = 3 comparisons each; t3 (+2) beats +1 and -1
    "event": {1: 1.0, 2: 1 / 3, 3: 2 / 3, 4: 0.0},
    # by venue: each result compared with the other table of its venue only
    "venue": {1: 1.0, 2: 0.0, 3: 1.0, 4: 0.0},
}


def scored_rates(tmp_path, compare_within):
    players = demo_players(16).assign(venue=["A"] * 8 + ["B"] * 8)
    players.to_csv(tmp_path / "p.csv", index=False)
    directory = tmp_path / compare_within
    run("event", "init", directory, "--players", tmp_path / "p.csv", "--tables-per-group", 2,
        "--sets-per-round", 1, "--boards-per-set", 1, "--rounds", 1,
        "--compare-within", compare_within)
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1)
    folder = EventFolder.open(directory)
    seating = folder.read(1, "seating").assign(set=1)
    seating[["ns_level", "ew_level"]] = [LEVELS[t] for t in seating["table"]]
    write(seating, tmp_path / f"{compare_within}.parquet")
    run("event", "ingest", directory, tmp_path / f"{compare_within}.parquet", "--round", 1)
    run("event", "score", directory, "--round", 1)
    travellers = folder.read(1, "travellers")
    return folder, dict(zip(travellers["table"], travellers["ns_rate"], strict=True))


@pytest.mark.parametrize("compare_within", ["event", "venue"])
def test_issue24_compare_within_venue_rates_by_hand(tmp_path, compare_within):
    folder, rates = scored_rates(tmp_path, compare_within)
    assert folder.plan.compare_within == compare_within
    assert rates == pytest.approx(EXPECTED[compare_within])


def test_issue24_compare_within_venue_needs_venues(tmp_path):
    demo_players(8).to_csv(tmp_path / "p.csv", index=False)
    out = run("event", "init", tmp_path / "e", "--players", tmp_path / "p.csv",
              "--tables-per-group", 1, "--sets-per-round", 1, "--boards-per-set", 1,
              "--rounds", 1, "--compare-within", "venue", code=1)
    assert 'compare_within = "venue" needs venues' in out


def test_issue24_team_events_refuse_compare_within(tmp_path):
    from event_support import team_players

    path = team_players(tmp_path / "t.csv", [4, 4, 4, 4])
    out = run("event", "init", tmp_path / "e", "--players", path, "--kind", "teams",
              "--format", "swiss", "--boards-per-set", 2, "--rounds", 2,
              "--compare-within", "venue", code=1)
    assert "compares every set event-wide: leave out --compare-within" in out
    assert pd.read_csv(path, encoding="utf-8-sig").shape[0] == 16
