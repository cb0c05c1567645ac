"""Knockouts read the director's ledger (SPEC 9, 10): an absent pair or team loses its
match by forfeit (art. 34), a late side's opponents start higher (art. 32)."""

from __future__ import annotations

import pandas as pd
import pytest
from event_support import pairs_knockout, run, set_results, team_knockout_by_lot, write

from guandan_dup.event import EventFolder


def test_art34_an_absent_pair_loses_its_knockout_match_by_forfeit(tmp_path):
    directory = pairs_knockout(tmp_path, 4)
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1)
    folder = EventFolder.open(directory)
    out = run("event", "ledger", "add", directory, "absent", "--round", 1, "--table", 1,
              "--side", "NS", "--reason", "did not come", "--article", "34")
    assert "NS A-, EW A+ (forfeit)" in out
    results = set_results(folder, 1, seed=1)
    results = results[results["table"] == 2].assign(tiebreak="EW")
    results["tiebreak"] = results["tiebreak"].where(results["ns_level"] == results["ew_level"])
    run("event", "ingest", directory, write(results, tmp_path / "r1.parquet"), "--round", 1)
    run("event", "score", directory, "--round", 1)
    bracket = folder.read(1, "bracket").set_index("table")
    assert (bracket.loc[1, "decided_by"], bracket.loc[1, "winner"]) == (
        "forfeit", bracket.loc[1, "side_b"])
    assert bracket.loc[2, "decided_by"] != "forfeit"


def test_art32_a_late_side_in_a_knockout_raises_its_opponents_start(tmp_path):
    directory = pairs_knockout(tmp_path, 4)
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1)
    results = set_results(EventFolder.open(directory), 1, seed=1)
    results.loc[results["table"] == 1, ["ns_level", "ew_level"]] = ["2", "4"]
    run("event", "ledger", "add", directory, "late", "--round", 1, "--table", 1, "--set", 1,
        "--side", "NS", "--minutes", 7, "--reason", "traffic")
    out = run("event", "ingest", directory, write(results, tmp_path / "r1.parquet"),
              "--round", 1, code=1)
    assert "starting at 2/4" in out
    assert not EventFolder.open(directory).file(1, "results").exists()


def test_art34_an_absent_team_loses_its_knockout_match_by_forfeit(tmp_path):
    directory = team_knockout_by_lot(tmp_path, 4)
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1)
    folder = EventFolder.open(directory)
    matches = folder.read(1, "matches")
    forfeited, other = matches.iloc[0], matches.iloc[1]
    run("event", "ledger", "add", directory, "absent", "--round", 1, "--team",
        int(forfeited["away"]), "--reason", "did not come", "--article", "34")
    results = set_results(folder, 1, seed=1)
    rooms = [int(other["open_table"]), int(other["closed_table"])]
    results = results[results["table"].isin(rooms)].copy()
    results.loc[results["table"] == rooms[0], ["ns_level", "ew_level"]] = ["6", "2"]
    results.loc[results["table"] == rooms[1], ["ns_level", "ew_level"]] = ["3", "3"]
    run("event", "ingest", directory, write(results, tmp_path / "r1.parquet"), "--round", 1)
    run("event", "score", directory, "--round", 1)
    bracket = folder.read(1, "bracket").set_index("match")
    decided = bracket.loc[int(forfeited["match"])]
    assert (decided["decided_by"], decided["winner"]) == ("forfeit", str(forfeited["home"]))
    assert bracket.loc[int(other["match"]), "decided_by"] != "forfeit"
    scored = folder.read(1, "match_results")
    assert pd.notna(scored.loc[scored["match"] == other["match"], "levels"]).all()


PAIRS_UNUSED = [
    (("assigned", "--table", 1, "--set", 1, "--result", "A+/5"), "ingest the corrected result"),
    (("not-played", "--table", 1, "--set", 1), "a knockout match must be decided"),
    (("fouled", "--set", 1, "--tables", 1), "decided at its own table"),
    (("penalty", "--player", "P001", "--points", 5), "no standings to take points off"),
    (("overtime", "--player", "P001", "--minutes", 3), "no standings to take points off"),
]


@pytest.mark.parametrize(("entry", "says"), PAIRS_UNUSED, ids=[e[0][0] for e in PAIRS_UNUSED])
def test_spec10_a_pairs_knockout_refuses_a_decision_it_would_ignore(tmp_path, entry, says):
    """Recorded, such a row changed nothing (an assigned A+/5 left the match to the levels
    played; a not-played table's match was still decided by its results and meanwhile
    published the set): every room applies what the ledger decides, or it is refused."""
    directory = pairs_knockout(tmp_path, 4)
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1)
    out = run("event", "ledger", "add", directory, entry[0], "--round", 1, *entry[1:],
              "--reason", "x", code=1)
    assert f"value '{entry[0]}': " in out and says in out
    assert not (directory / "ledger.parquet").exists()


def test_spec10_a_team_knockout_refuses_a_penalty_it_would_ignore(tmp_path):
    directory = team_knockout_by_lot(tmp_path, 4)
    out = run("event", "ledger", "add", directory, "penalty", "--round", 1, "--team", 2,
              "--match-points", 2, "--reason", "x", code=1)
    assert "no standings to take points off" in out
