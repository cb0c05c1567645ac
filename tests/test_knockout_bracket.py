"""Knockout brackets (SPEC 9; seed 003 rule 八.(一)2-3, seed 000 art. 24, 29.1, 49.2).

Brackets of 5, 8, 12 and 16 entries are drawn out in full; hypothesis checks the invariants
(every entry placed once, places 1..8 played out, seeds 1 and 2 apart until the final) for
any size and any results.
"""

from __future__ import annotations

import random

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guandan_dup.errors import InvalidPlanError
from guandan_dup.knockout import (
    KnockoutError,
    complete,
    final_places,
    round_bracket,
    rounds_needed,
    seed_positions,
    tables_per_round,
)


def names(n: int) -> list[str]:
    return [f"S{i:02d}" for i in range(1, n + 1)]


def play_out(entries: list[str], layout: str, pick) -> pd.DataFrame:
    """Every round of a knockout, ``pick(side_a, side_b)`` naming each played match's winner."""
    decided = None
    for r in range(1, rounds_needed(len(entries)) + 1):
        bracket = round_bracket(entries, layout, r, decided)
        played = bracket[bracket["side_b"].notna()]
        outcomes = pd.DataFrame(
            {
                "table": played["table"].astype(int),
                "winner": [pick(a, b) for a, b in zip(played["side_a"], played["side_b"],
                                                      strict=True)],
                "decided_by": "levels",
            }
        )
        done = complete(bracket, outcomes)
        decided = done if decided is None else pd.concat([decided, done], ignore_index=True)
    return decided


def better(a: str, b: str) -> str:
    return min(a, b)


def matches(decided: pd.DataFrame, round_no: int, places: str = "main") -> list[tuple]:
    rows = decided[(decided["round"] == round_no) & (decided["places"] == places)]
    return [(a, None if pd.isna(b) else b) for a, b in zip(rows["side_a"], rows["side_b"],
                                                          strict=True)]


def test_standard_seed_positions():
    assert seed_positions(2) == [1, 2]
    assert seed_positions(4) == [1, 4, 2, 3]
    assert seed_positions(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


@pytest.mark.parametrize("n", [8, 16])
def test_art24_every_round_one_match_sums_to_the_same_seed_total(n):
    first = round_bracket(names(n), "seeded", 1)
    sums = {int(a[1:]) + int(b[1:]) for a, b in zip(first["side_a"], first["side_b"],
                                                    strict=True)}
    assert sums == {n + 1}


@pytest.mark.parametrize(
    ("n", "byes"),
    [(5, ["S01", "S02", "S03"]), (12, ["S01", "S02", "S03", "S04"]), (8, []), (16, [])],
)
def test_art24_byes_go_to_the_top_seeds(n, byes):
    first = round_bracket(names(n), "seeded", 1)
    assert sorted(first.loc[first["side_b"].isna(), "side_a"]) == byes
    assert first.loc[first["side_b"].isna(), "table"].isna().all()
    assert first["table"].dropna().tolist() == list(range(1, (n - len(byes)) // 2 + 1))


@pytest.mark.parametrize("n", [8, 12, 16])
def test_seed003_table_t_has_the_lots_pairs_2t_minus_1_and_2t(n):
    first = round_bracket(names(n), "lot", 1)
    played = first[first["side_b"].notna()].sort_values("table")
    assert [(a, b) for a, b in zip(played["side_a"], played["side_b"], strict=True)] == [
        (f"S{2 * t - 1:02d}", f"S{2 * t:02d}") for t in range(1, len(played) + 1)
    ]
    assert sorted(first.loc[first["side_b"].isna(), "side_a"]) == names(n)[len(played) * 2:]


def test_seed003_winners_of_tables_1_and_2_meet_next():
    decided = play_out(names(8), "lot", better)
    assert matches(decided, 2) == [("S01", "S03"), ("S05", "S07")]


def test_twelve_pairs_bye_holders_meet_round_one_winners():
    decided = play_out(names(12), "lot", better)
    assert matches(decided, 1) == [
        ("S09", None), ("S01", "S02"), ("S10", None), ("S03", "S04"),
        ("S11", None), ("S05", "S06"), ("S12", None), ("S07", "S08"),
    ]
    assert matches(decided, 2) == [("S01", "S09"), ("S03", "S10"), ("S05", "S11"),
                                   ("S07", "S12")]
    assert tables_per_round(12) == {1: 4, 2: 4, 3: 4, 4: 4}


@pytest.mark.parametrize("n", [5, 8, 12, 16])
def test_seeds_1_and_2_meet_in_the_final_when_the_better_seed_wins(n):
    decided = play_out(names(n), "seeded", better)
    assert matches(decided, rounds_needed(n)) == [("S01", "S02")]


def test_classification_matches_of_eight_entries():
    decided = play_out(names(8), "seeded", better)
    assert matches(decided, 2, "5-8") == [("S05", "S08"), ("S06", "S07")]
    assert matches(decided, 3, "3-4") == [("S03", "S04")]
    assert matches(decided, 3, "5-6") == [("S05", "S06")]
    assert matches(decided, 3, "7-8") == [("S07", "S08")]
    places = final_places(decided, names(8))
    assert places["side"].tolist() == names(8)
    assert places["place_label"].tolist() == [str(p) for p in range(1, 9)]


@pytest.mark.parametrize(
    ("n", "labels"),
    [
        (16, [str(p) for p in range(1, 9)] + ["9="] * 8),
        (12, [str(p) for p in range(1, 9)] + ["9="] * 4),
        (5, ["1", "2", "3", "4", "5"]),
        (32, [str(p) for p in range(1, 9)] + ["9="] * 8 + ["17="] * 16),
    ],
)
def test_seed003_places_1_to_8_played_out_earlier_losers_share(n, labels):
    places = final_places(play_out(names(n), "seeded", better), names(n))
    assert places["place_label"].tolist() == labels
    assert places["side"].tolist()[:8] == names(n)[:8]


def test_five_entries_the_quarter_final_loser_is_fifth_through_byes():
    decided = play_out(names(5), "seeded", better)
    assert matches(decided, 1) == [("S01", None), ("S04", "S05"), ("S02", None), ("S03", None)]
    assert matches(decided, 2, "5-8") == [("S05", None)]
    assert matches(decided, 3, "5-6") == [("S05", None)]
    assert matches(decided, 3, "7-8") == []


def test_a_round_before_the_last_one_is_decided_is_refused():
    first = round_bracket(names(4), "lot", 1)
    with pytest.raises(KnockoutError, match="round 1 match 1 is not decided yet"):
        round_bracket(names(4), "lot", 2, first)


def test_a_missing_result_and_a_winner_not_in_the_match_are_refused():
    first = round_bracket(names(4), "lot", 1)
    one = pd.DataFrame({"table": [1], "winner": ["S01"], "decided_by": ["levels"]})
    with pytest.raises(KnockoutError, match=r"round 1 has no result yet for table 2$"):
        complete(first, one)
    wrong = pd.DataFrame({"table": [1, 2], "winner": ["S01", "S01"], "decided_by": "levels"})
    with pytest.raises(KnockoutError, match="'S01' is neither side"):
        complete(first, wrong)


@pytest.mark.parametrize("entries", [["A"], ["A", "B", "A"]])
def test_too_few_or_repeated_entries_are_refused(entries):
    with pytest.raises(InvalidPlanError):
        round_bracket(entries, "lot", 1)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 40), layout=st.sampled_from(["seeded", "lot"]), seed=st.integers(0, 99))
def test_bracket_invariants_for_any_size_and_any_results(n, layout, seed):
    lot = random.Random(seed)
    decided = play_out(names(n), layout, lambda a, b: lot.choice([a, b]))
    places = final_places(decided, names(n))
    assert sorted(places["side"]) == names(n)  # every entry placed exactly once
    top = places[places["place"] <= 8]
    assert sorted(top["place"]) == list(range(1, min(n, 8) + 1))  # 1..8 played out, distinct
    assert places["place"].is_monotonic_increasing
    for r, rows in decided.groupby("round"):
        sides = pd.concat([rows["side_a"], rows["side_b"].dropna()])
        assert sides.is_unique  # nobody plays twice in a round
        assert rows["table"].dropna().tolist() == list(range(1, rows["table"].notna().sum() + 1))
        assert rows["match"].tolist() == list(range(1, len(rows) + 1))
        main = rows[rows["places"] == "main"]
        if layout == "seeded" and r < rounds_needed(n):
            assert not ((main["side_a"] == "S01") & (main["side_b"] == "S02")).any()
    first = decided[decided["round"] == 1]
    byes = sorted(first.loc[first["side_b"].isna(), "side_a"])
    size = 1 << (n - 1).bit_length()
    top = names(n)[: size - n] if layout == "seeded" else names(n)[n - (size - n):]
    assert byes == sorted(top)  # byes to the top seeds, or to the lot's last entries
    champion = places.loc[places["place"] == 1, "side"].item()
    final = decided[(decided["round"] == rounds_needed(n)) & (decided["places"] == "main")]
    assert final["winner"].item() == champion
