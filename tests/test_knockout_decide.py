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
