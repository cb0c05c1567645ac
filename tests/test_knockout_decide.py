"""Deciding a pairs knockout match (seed 003 rule 八.(一)4, seed 000 art. 49.2; SPEC 9)."""

from __future__ import annotations

import pandas as pd
import pytest

from guandan_dup.knockout import pair_outcome, pair_outcomes
from guandan_dup.levels import level_from_text


def row(ns: str | None, ew: str | None, tiebreak=None, adjusted: str | None = None) -> dict:
    ns_adj, ew_adj = adjusted.split("/") if adjusted else (None, None)
    return {
        "ns_level": None if ns is None else level_from_text(ns),
        "ew_level": None if ew is None else level_from_text(ew),
        "ns_adjusted": ns_adj, "ew_adjusted": ew_adj, "tiebreak": tiebreak,
    }


@pytest.mark.parametrize(
    ("result", "side", "decided_by"),
    [
        (row("A+", "A"), "NS", "levels"),  # passing A wins at once (seed 003 rule 4)
        (row("9", "K"), "EW", "levels"),  # at the time limit the levels reached count
        (row("Q", "Q", "EW"), "EW", "extra boards"),  # art. 49.2
        (row("5", "5", "ns"), "NS", "extra boards"),
        (row(None, None, adjusted="A+/A-"), "NS", "forfeit"),
        (row(None, None, adjusted="A-/A"), "EW", "forfeit"),
    ],
)
def test_seed003_art49_who_wins_a_match(result, side, decided_by):
    assert pair_outcome(result) == (side, decided_by, [])


@pytest.mark.parametrize(
    ("result", "column", "says"),
    [
        (row("Q", "Q"), "tiebreak", "the levels are equal (Q each)"),
        (row("Q", "Q", "N"), "tiebreak", "expected NS or EW"),
        (row("A+", "A", "NS"), "tiebreak", "decided by the levels (A+ v A)"),
        (row(None, None, "EW", adjusted="A+/A-"), "tiebreak", "decided by a forfeit"),
        (row(None, None, adjusted="A/A"), "adjusted", "names no winner"),
    ],
)
def test_art49_a_match_that_cannot_be_decided_is_refused(result, column, says):
    [(named, _, rule)] = pair_outcome(result)[2]
    assert named == column and says in rule


def test_level_match_without_tiebreak_explains_extra_boards():
    (_, _, rule), = pair_outcome(row("7", "7"))[2]
    assert "extra boards" in rule and "art. 49.2" in rule and "NS or EW" in rule


def test_pair_outcomes_names_the_winning_pair_and_every_problem():
    results = pd.DataFrame(
        [
            {"table": 1, "north": "a1", "east": "b1", **row("K", "A")},
            {"table": 2, "north": "c1", "east": "d1", **row("3", "3")},
            {"table": 3, "north": "e1", "east": "f1", **row(None, None, adjusted="A-/A+")},
        ]
    )
    pair_of = {p + "1": p.upper() for p in "abcdef"}
    outcomes, problems = pair_outcomes(results, pair_of)
    assert outcomes.to_numpy().tolist() == [[1, "B", "levels"], [3, "F", "forfeit"]]
    assert [(t, c) for t, c, _, _ in problems] == [(2, "tiebreak")]


def test_tiebreak_column_is_carried_only_when_a_file_gives_it(tmp_path):
    """Other events' results tables stay as they were; a knockout's keeps who won the extra
    boards, from a set-level row or from any board row of the set."""
    from guandan_dup.results import load_results

    seats = {"round": 1, "set": 1, "north": "a", "east": "b", "south": "c", "west": "d"}
    plain = pd.DataFrame([{**seats, "table": 1, "ns_level": "5", "ew_level": "5"}])
    plain.to_parquet(tmp_path / "plain.parquet")
    assert "tiebreak" not in load_results(tmp_path / "plain.parquet").sets
    plain.assign(tiebreak="EW").to_parquet(tmp_path / "set.parquet")
    assert load_results(tmp_path / "set.parquet").sets["tiebreak"].tolist() == ["EW"]
    boards = pd.DataFrame([{**seats, "table": 1, "board": b, "finish": f, "tiebreak": t}
                           for b, f, t in [(1, "NES", None), (2, "ENW", "NS")]])
    boards.to_parquet(tmp_path / "boards.parquet")
    sets = load_results(tmp_path / "boards.parquet").sets
    assert sets[["ns_level", "ew_level", "tiebreak"]].to_numpy().tolist() == [[2, 2, "NS"]]  # 4 : 4
