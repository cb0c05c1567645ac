"""Standings worked by hand (SPEC 6: averages, shared ranks "1=", strict positions)."""

import numpy as np
import pandas as pd
import pytest
from scoring_support import make_sets

from guandan_dup.scoring import score
from guandan_dup.scoring.standings import STANDINGS_COLUMNS, draw_lots


def table(round_, table_no, set_no, players, ns, ew, group=1):
    return (round_, group, table_no, set_no, *players, ns, ew, None)


def rows_of(standings, round_):
    part = standings[standings["round"] == round_]
    return {r.player: (r.sets, r.rank, r.rank_label, r.position) for r in part.itertuples()}


# Round 1, set 1: table 1 (A B C D) D = +1; table 2 (E F G H) D = +1; table 3 (I J K L) D = 0.
# NS of tables 1, 2: beat 1 tie 1 -> 3/4; NS of table 3 -> 0; EW: 1/4, 1/4, 1.
# So J L (EW, table 3) 1; A C E G (NS, tables 1, 2) 3/4; B D F H 1/4; I K (NS, table 3) 0.
ROUND_1 = [
    table(1, 1, 1, "ABCD", "3", "2"),
    table(1, 2, 1, "EFGH", "3", "2"),
    table(1, 3, 1, "IJKL", "2", "2"),
]


def test_spec6_equal_averages_share_a_rank_the_next_is_skipped_and_labelled():
    standings = score(make_sets(ROUND_1)).standings
    got = rows_of(standings, 1)
    assert {p: got[p][1:3] for p in "JLACEGBDFHIK"} == {
        "J": (1, "1="), "L": (1, "1="),
        "A": (3, "3="), "C": (3, "3="), "E": (3, "3="), "G": (3, "3="),
        "B": (7, "7="), "D": (7, "7="), "F": (7, "7="), "H": (7, "7="),
        "I": (11, "11="), "K": (11, "11="),
    }
    assert sorted(standings["position"]) == list(range(1, 13))
    assert list(standings.columns) == list(STANDINGS_COLUMNS)


def test_spec6_a_player_alone_on_an_average_has_no_equals_sign():
    # Set 2: (A B I D) D = +5, (E F G H) D = 0, (J K C L) D = -3 -> NS 1, 0.5, 0; EW 0, 0.5, 1.
    # Totals over sets 1 and 2: L 1 + 1 = 2; A 3/4 + 1; E G 3/4 + 1/2; I K 0 + 1, J 1 + 0;
    # C 3/4 + 0, F H 1/4 + 1/2; B D 1/4 + 0.
    set_2 = [table(1, 1, 2, "ABID", "7", "2"), table(1, 2, 2, "EFGH", "2", "2"),
             table(1, 3, 2, "JKCL", "2", "5")]
    labels = score(make_sets(ROUND_1 + set_2)).standings.set_index("player")["rank_label"]
    assert labels[list("LAEGIKJCFHBD")].tolist() == [
        "1", "2", "3=", "3=", "5=", "5=", "5=", "8=", "8=", "8=", "11=", "11="]


def test_spec6_ties_are_decided_on_exact_values_not_float_sums():
    # Six tables per set: SR = MP / 10. Set 1 D = -6 -6 -2 -2 +1 +2 -> MP 1 1 5 5 8 10.
    # Set 2 D = -6 -5 -5 -1 -1 +2 -> MP 0 3 3 7 7 10.
    # Player X (NS t1 in set 1, NS t4 in set 2): 0.1 + 0.7; Y (NS t3, NS t2): 0.5 + 0.3.
    # Exactly equal averages 0.4, yet 0.1 + 0.7 != 0.5 + 0.3 in floating point.
    assert 0.1 + 0.7 != 0.5 + 0.3
    d1 = [("2", "8"), ("2", "8"), ("2", "4"), ("2", "4"), ("3", "2"), ("4", "2")]
    d2 = [("2", "8"), ("2", "7"), ("2", "7"), ("2", "3"), ("2", "3"), ("4", "2")]
    seats1 = {1: "X", 3: "Y"}
    seats2 = {4: "X", 2: "Y"}
    rows = [table(1, t, s, [seats.get(t, f"n{s}{t}"), f"e{s}{t}", f"s{s}{t}", f"w{s}{t}"],
                  ns, ew)
            for s, levels, seats in ((1, d1, seats1), (2, d2, seats2))
            for t, (ns, ew) in enumerate(levels, 1)]
    standings = score(make_sets(rows)).standings.set_index("player")
    assert standings.loc["X", "rank"] == standings.loc["Y", "rank"]
    assert standings.loc["X", "rank_label"].endswith("=")
    assert standings.loc["X", "cumulative"] == standings.loc["Y", "cumulative"] == 0.4


def test_spec6_position_breaks_ties_by_lot_then_by_previous_position():
    # Round 1: A C tie on 1 (NS, D = +1 against 0); the lot orders them.
    # Round 2: A and C again score the same, so round 1's position decides, not the lot.
    round_1 = [table(1, 1, 1, "ABCD", "3", "2"), table(1, 2, 1, "EFGH", "2", "2")]
    round_2 = [table(2, 1, 2, "ABCD", "3", "2"), table(2, 2, 2, "EFGH", "2", "2")]
    for seed in range(6):
        standings = score(make_sets(round_1 + round_2), seed=seed).standings
        lots = dict(zip("AC", draw_lots(seed, ["A", "C"]).tolist(), strict=True))
        first = rows_of(standings, 1)
        assert (first["A"][3] < first["C"][3]) == (lots["A"] < lots["C"])
        second = rows_of(standings, 2)
        assert (second["A"][3] < second["C"][3]) == (first["A"][3] < first["C"][3])


def test_equal_lots_fall_back_on_the_player_id(monkeypatch):
    # Two equal 64-bit lots cannot be found by hand: make every lot 0. As in ROUND_1, Q O
    # (EW, table 3) score 1, Z X V T 3/4, Y W U S 1/4, R P 0; each tie goes by id, not by
    # the order the players first appear in.
    monkeypatch.setattr(
        "guandan_dup.scoring.standings.draw_lots", lambda seed, ids: np.zeros(len(ids), np.uint64))
    rows = [table(1, 1, 1, "ZYXW", "3", "2"), table(1, 2, 1, "VUTS", "3", "2"),
            table(1, 3, 1, "RQPO", "2", "2")]
    standings = score(make_sets(rows)).standings
    assert standings["player"].tolist() == list("OQTVXZSUWYPR")


@pytest.mark.parametrize("lot", [
    pytest.param(lambda player: 255 - ord(player), id="lots alike but in their last bits"),
    pytest.param(lambda player: (255 - ord(player)) << 56, id="lots apart in their first bits"),
])
def test_a_tie_goes_by_the_whole_lot(monkeypatch, lot):
    # As in ROUND_1: Q O score 1, Z X V T 3/4, Y W U S 1/4, R P 0. The lots order each tie
    # backwards from the ids; lots that differ in their last bits only are ordered as surely
    # as lots that differ in their first (the ranking sorts by their first bits at first).
    monkeypatch.setattr("guandan_dup.scoring.standings.draw_lots",
                        lambda seed, ids: np.array([lot(i) for i in ids], np.uint64))
    rows = [table(1, 1, 1, "ZYXW", "3", "2"), table(1, 2, 1, "VUTS", "3", "2"),
            table(1, 3, 1, "RQPO", "2", "2")]
    standings = score(make_sets(rows)).standings
    assert standings["player"].tolist() == list("QOZXVTYWUSRP")


def test_the_lot_depends_on_the_seed():
    orders = {tuple(draw_lots(seed, ["A", "C"]).argsort()) for seed in range(12)}
    assert orders == {(0, 1), (1, 0)}


def test_previous_positions_break_ties_in_the_first_round_scored():
    sets = make_sets([table(3, 1, 7, "ABCD", "3", "2"), table(3, 2, 7, "EFGH", "2", "2")])
    for before in ({"A": 1, "C": 2}, {"A": 2, "C": 1}):
        got = rows_of(score(sets, previous_positions=before).standings, 3)
        assert (got["A"][3] < got["C"][3]) == (before["A"] < before["C"])


def test_spec6_cumulative_weighs_sets_equally_and_byes_keep_their_average():
    # Round 1 (sets 1, 2): A NS scores 1 then 0. Round 2 (set 3): A is away (bye), B plays.
    rows = [table(1, 1, 1, "ABCD", "3", "2"), table(1, 2, 1, "EFGH", "2", "2"),
            table(1, 1, 2, "ABCD", "2", "2"), table(1, 2, 2, "EFGH", "3", "2"),
            table(2, 1, 3, "EBGD", "3", "2"), table(2, 2, 3, "IFJH", "2", "2")]
    standings = score(make_sets(rows)).standings
    a = standings[standings["player"] == "A"].set_index("round")
    assert a.loc[1, ["sets", "round_avg", "cumulative"]].tolist() == [2, 0.5, 0.5]
    assert a.loc[2, "sets"] == 2 and pd.isna(a.loc[2, "round_avg"])
    assert a.loc[2, "cumulative"] == 0.5
    # E: 0 and 1 in round 1, then 1 in round 2 -> (0 + 1 + 1) / 3 over three sets.
    e = standings[standings["player"] == "E"].set_index("round")
    assert e.loc[2, ["sets", "round_avg", "cumulative"]].tolist() == pytest.approx([3, 1, 2 / 3])
    # I first plays in round 2: absent from round 1's standings.
    assert "I" not in set(standings.loc[standings["round"] == 1, "player"])


def test_empty_input_gives_empty_tables_with_the_contract_columns():
    scored = score(make_sets([]))
    assert scored.scores.empty and scored.standings.empty and scored.travellers.empty
    assert list(scored.standings.columns) == list(STANDINGS_COLUMNS)
