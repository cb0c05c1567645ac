"""Scoring a team match (SPEC 8, seed 000 art. 26.6, 29.2, 34-37, 47): 场分 and 级差分 from
the two rooms' levels, the conversion presets and a director's table, artificial matches."""

from pathlib import Path

import pandas as pd
import pytest

from guandan_dup.errors import GuandanError
from guandan_dup.levels import level_from_text
from guandan_dup.teams import (
    ArtificialAwards,
    Award,
    InvalidConversionError,
    matches_frame,
    preset,
    score_matches,
)
from guandan_dup.teams.conversion import PRESETS, hundredths_text, load


def room(table, ns, ew, adjusted=None, round_no=1):
    levels = (None, None) if adjusted else (level_from_text(ns), level_from_text(ew))
    return {"round": round_no, "table": table, "set": round_no, "ns_level": levels[0],
            "ew_level": levels[1], "adjusted": adjusted}


def results(*rooms):
    columns = ["round", "table", "set", "ns_level", "ew_level", "adjusted"]
    return pd.DataFrame(list(rooms), columns=columns).astype(
        {"ns_level": "Int8", "ew_level": "Int8"})


ONE_MATCH = matches_frame(1, [(1, 2)])  # team 1 home: open table 1 (home E-W), closed table 2


def scored(open_room, closed_room, conversion="linear", **kwargs):
    table = score_matches(ONE_MATCH, results(open_room, closed_room), preset(conversion),
                          **kwargs)
    return table.set_index("team")


# open room (N-S away, E-W home), closed room (N-S home, E-W away), home levels L,
# linear home/away, half home/away
ART47 = [
    (("5", "K"), ("A+", "2"), 21, (26, 0), (23.5, 2.5)),
    (("2", "3"), ("2", "3"), 0, (13, 13), (13, 13)),
    (("A+", "2"), ("2", "A+"), -26, (0, 26), (0, 26)),
    (("4", "2"), ("2", "2"), -2, (11, 15), (12, 14)),
    (("2", "A"), ("A", "2"), 24, (26, 0), (25, 1)),
    (("7", "8"), ("2", "2"), 1, (14, 12), (13.5, 12.5)),
]


@pytest.mark.parametrize("open_levels, closed_levels, levels, linear, half", ART47)
def test_art47_match_points_and_level_points_from_two_rooms(
    open_levels, closed_levels, levels, linear, half
):
    for name, points in (("linear", linear), ("half", half)):
        table = scored(room(1, *open_levels), room(2, *closed_levels), name)
        assert table.loc[1, "levels"] == levels and table.loc[2, "levels"] == -levels
        assert (table.loc[1, "level_points"], table.loc[2, "level_points"]) == points
        expected = (2, 0) if levels > 0 else (0, 2) if levels < 0 else (1, 1)
        assert (table.loc[1, "match_points"], table.loc[2, "match_points"]) == expected
        assert table.loc[1, "home"] and not table.loc[2, "home"]


def test_art47_presets_side_by_side():
    linear, half = preset("linear"), preset("half")
    assert [linear.points(m) for m in (0, 1, 13, 14, 26)] == [
        (1300, 1300), (1400, 1200), (2600, 0), (2600, 0), (2600, 0)]
    assert [half.points(m) for m in (0, 1, 13, 26)] == [
        (1300, 1300), (1350, 1250), (1950, 650), (2600, 0)]


def custom_csv(tmp_path, rows, name="cup-2026.csv"):
    path = tmp_path / name
    path.write_text("margin,winner,loser\n" + "".join(f"{m},{w},{x}\n" for m, w, x in rows),
                    encoding="utf-8")
    return path


def test_art47_a_directors_table_is_used_and_named(tmp_path):
    rows = [(m, 10 + min(m, 10) + 0.25 * (m > 20), 10 - min(m, 10)) for m in range(27)]
    table = load(custom_csv(tmp_path, rows))
    assert table.name == "cup-2026"
    assert table.points(21) == (2025, 0) and table.points(-3) == (700, 1300)
    assert load(tmp_path / "cup-2026.csv").to_csv() == load(
        custom_csv(tmp_path, [(m, float(w), x) for m, w, x in rows], "again.csv")).to_csv()


def test_art47_an_invalid_table_lists_every_problem(tmp_path):
    rows = [(m, 13 + m // 2, 13 - m // 2) for m in range(27) if m != 9]
    rows[0] = (0, 14, 13)
    rows[5] = (5, 12, 15)
    with pytest.raises(InvalidConversionError) as caught:
        load(custom_csv(tmp_path, rows))
    rules = [(p.column, p.value, p.rule.split(":")[0]) for p in caught.value.problems]
    assert rules == [
        ("margin", "9", "missing"),
        ("loser", "13", "margin 0 is a draw"),
        ("winner", "13", "margin 1"),  # less than the 14 at margin 0
        ("winner", "12", "margin 5"),  # less than the loser
        ("winner", "12", "margin 5"),  # less than at margin 4
        ("loser", "15", "margin 5"),  # more than at margin 4
    ]
    bad = custom_csv(tmp_path, [(0, "x", 13), (27, 13, 13), (1, 13.123, -1), (1, 13, 13)],
                     "bad.csv")
    with pytest.raises(InvalidConversionError) as caught:
        load(bad)
    assert [(p.row, p.column) for p in caught.value.problems] == [
        (2, "winner"), (3, "margin"), (4, "winner"), (4, "loser"), (5, "margin"),
        (None, "margin")]
    assert caught.value.problems[-1].value == "2-26"


def test_art47_unreadable_cells_and_broken_order_are_listed_together(tmp_path):
    rows = [(m, 13 + m // 2, 13 - m // 2) for m in range(27) if m not in (7, 8, 20)]
    rows[2] = (2, "x", 12)  # unreadable: this row is left out of the order rules
    rows[3] = (3, 12, 13)  # the winner below the loser
    rows[8] = (10, 16, 9.5)  # margin 9 gives 17 and 9: the winner falls, the loser rises
    with pytest.raises(InvalidConversionError) as caught:
        load(custom_csv(tmp_path, rows, "mixed.csv"))
    assert [(p.row, p.column, p.value, p.rule.split(":")[0])
            for p in caught.value.problems] == [
        (4, "winner", "x", "expected a number >= 0 with at most two decimals"),
        (None, "margin", "7-8, 20", "missing"),
        (5, "winner", "12", "margin 3"),
        (10, "winner", "16", "margin 10"),
        (10, "loser", "9.5", "margin 10"),
    ]


# how the two rooms were adjusted (NS/EW codes), home award, away award
ADJUSTED_MATCHES = [
    ("A-/A+", "A+/A-", (2, 17), (0, 0)),      # away forfeits (art. 34)
    ("A+/A-", "A-/A+", (0, 0), (2, 17)),      # home forfeits
    ("A+/A", "A/A+", (1, 13), (2, 17)),       # home absent, excused (art. 36)
    ("A/A", "A/A", (1, 13), (1, 13)),         # not played: a draw
    ("A+/A-", "A+/A-", None, None),           # rooms disagree: refused
]


@pytest.mark.parametrize("open_code, closed_code, home, away", ADJUSTED_MATCHES)
def test_art34_art36_a_whole_match_adjusted_in_both_rooms(open_code, closed_code, home, away):
    rooms = room(1, "", "", open_code), room(2, "", "", closed_code)
    if home is None:
        with pytest.raises(GuandanError, match="both rooms are adjusted"):
            scored(*rooms)
        return
    table = scored(*rooms)
    assert tuple(table.loc[1, ["match_points", "level_points"]]) == home
    assert tuple(table.loc[2, ["match_points", "level_points"]]) == away
    assert table["levels"].isna().all()


def test_art37_boards_not_duplicated_is_a_draw_of_1_and_13():
    table = scored(room(1, "5", "K"), room(2, "", "", "A+/A-"))
    assert table[["match_points", "level_points"]].values.tolist() == [[1, 13], [1, 13]]
    assert table["levels"].isna().all()


# adjustment rows (team, kind), team 1's award, team 2's award
ADJUSTMENTS = [
    ([(2, "forfeit")], (2, 17), (0, 0)),
    ([(1, "excused")], (1, 13), (2, 17)),
    ([(1, "forfeit"), (2, "forfeit")], (0, 0), (0, 0)),
]


@pytest.mark.parametrize("rows, first, second", ADJUSTMENTS)
def test_art34_art36_match_adjustments_override_the_rooms(rows, first, second):
    adjustments = pd.DataFrame([(1, t, k) for t, k in rows], columns=["round", "team", "kind"])
    table = score_matches(ONE_MATCH, results(), preset("linear"), adjustments=adjustments)
    table = table.set_index("team")
    assert tuple(table.loc[1, ["match_points", "level_points"]]) == first
    assert tuple(table.loc[2, ["match_points", "level_points"]]) == second


def test_an_adjustment_for_a_team_without_a_match_is_refused():
    adjustments = pd.DataFrame([(1, 3, "forfeit"), (1, 1, "late"), (2, 5, "forfeit")],
                               columns=["round", "team", "kind"])
    with pytest.raises(GuandanError) as caught:
        score_matches(ONE_MATCH, results(), preset("linear"), adjustments=adjustments)
    assert "team 3 has no match in round 1" in str(caught.value)
    assert "kind 'late'" in str(caught.value)
    assert "team 5" not in str(caught.value), "round 2 is not scored here"


@pytest.mark.parametrize("fmt, award", [("swiss", (1.5, 17)), ("round-robin", (0, 0))])
def test_art26_bye_scores_in_a_swiss_only(fmt, award):
    matches = matches_frame(1, [(1, 2), (3, None)])
    table = score_matches(matches, results(room(1, "2", "3"), room(2, "3", "2")),
                          preset("linear"), fmt).set_index("team")
    assert tuple(table.loc[3, ["match_points", "level_points"]]) == award
    assert pd.isna(table.loc[3, "opponent"]) and pd.isna(table.loc[3, "levels"])


def test_awards_are_configurable():
    awards = ArtificialAwards(not_duplicated=Award.of("0.5", "12.5"))
    table = scored(room(1, "5", "K"), room(2, "", "", "A+/A-"), awards=awards)
    assert table["level_points"].tolist() == [12.5, 12.5]
    with pytest.raises(GuandanError, match="halves"):
        Award.of("0.3", "1")


def test_missing_rooms_are_listed():
    matches = matches_frame(1, [(1, 2), (3, 4)])
    with pytest.raises(GuandanError) as caught:
        score_matches(matches, results(room(1, "2", "3")), preset("linear"))
    text = str(caught.value)
    assert "match 1 (team 1 v team 2): no result for table 3 (closed room)" in text
    assert "match 2 (team 3 v team 4): no result for table 2 (open room) and table 4" in text


def test_art47_the_presets_table_in_docs_teams_is_the_code_s():
    doc = (Path(__file__).resolve().parent.parent / "docs" / "teams.md").read_text("utf-8")
    rows = [line.strip("|").split("|") for line in doc.splitlines()
            if line.startswith("| ") and line.split("|")[1].strip().isdigit()]
    linear, half = PRESETS["linear"], PRESETS["half"]
    expected = [[str(m), *(hundredths_text(t[m]) for t in (
        linear.winner, linear.loser, half.winner, half.loser))] for m in range(27)]
    assert [[cell.strip() for cell in row] for row in rows[:27]] == expected
