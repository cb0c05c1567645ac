"""The art. 49 order of team standings (SPEC 8, seed 000 art. 49): each criterion deciding a
tie on its own, the recursion of tied subgroups, shared ranks."""

import pandas as pd
import pytest

from guandan_dup.teams import standings_after, team_standings
from guandan_dup.teams.matches import match_results_frame

SEED = b"k" * 32


def frame(*rows):
    """Rows (round, team, opponent, levels, 场分, 级差分); levels None for an artificial one.
    Each team's rows are given, so both sides of a match appear where both are ranked."""
    return match_results_frame([
        (r, i, t, o, True, lv, int(mp * 2), int(lp * 100))
        for i, (r, t, o, lv, mp, lp) in enumerate(rows, 1)
    ])


def order(table):
    return table.sort_values("position")["team"].tolist()


def labels(table):
    return table.sort_values("position")["rank_label"].tolist()


def test_art49_match_points_first_then_level_points():
    table = standings_after(frame(
        (1, 1, 2, 3, 2, 16), (1, 2, 1, -3, 0, 10),
        (1, 3, 4, 1, 2, 14), (1, 4, 3, -1, 0, 12),
    ), 1, [1, 2, 3, 4], "swiss", SEED)
    assert order(table) == [1, 3, 4, 2]  # 1 and 3 on 场分 2 by 级差分; 4 before 2 likewise
    assert labels(table) == ["1", "2", "3", "4"]


@pytest.mark.parametrize("winner, loser", [(1, 2), (2, 1)])
def test_art49_2_two_teams_tied_are_ordered_by_their_match(winner, loser):
    # 1 and 2 tie on 场分 (2), 级差分 (26), wins (1) and 级差 (0); only their match differs.
    table = standings_after(frame(
        (1, winner, loser, 2, 2, 15), (1, loser, winner, -2, 0, 11),
        (2, winner, 3, -2, 0, 11), (2, loser, 4, 2, 2, 15),
    ), 2, [1, 2], "swiss", SEED)
    assert order(table) == [winner, loser] and labels(table) == ["1", "2"]


def test_art49_three_way_tie_skips_head_to_head_and_the_pair_left_uses_it():
    # 1, 2, 3 tie on 场分 2; 3 leads on 级差分, leaving 1 and 2 tied from criterion 2 on:
    # they are exactly two now, so their match decides (1 beat 2) although 2 has more 级差.
    table = standings_after(frame(
        (1, 1, 2, 1, 2, 14), (1, 2, 1, -1, 0, 12),
        (2, 1, 7, -1, 0, 12), (2, 2, 8, 9, 2, 14),
        (1, 3, 9, 5, 2, 30),
    ), 2, [1, 2, 3], "swiss", SEED)
    assert order(table) == [3, 1, 2]


def test_art49_three_way_tie_on_level_points_goes_by_wins_not_head_to_head():
    # All three on 场分 2 and 级差分 26: head-to-head is skipped for three teams, so 1's win
    # over 2 does not count; wins (1, 1, 0) put 3 last and the pair 1-2, split by wins and
    # not by 级差分, goes on to 级差, where 2 is ahead.
    table = standings_after(frame(
        (1, 1, 2, 1, 2, 14), (1, 2, 1, -1, 0, 12),
        (2, 1, 7, -1, 0, 12), (2, 2, 8, 9, 2, 14),
        (1, 3, 9, 0, 1, 13), (2, 3, 6, 0, 1, 13),
    ), 2, [1, 2, 3], "swiss", SEED)
    assert order(table) == [2, 1, 3]


def test_art49_3_matches_won_before_levels():
    table = standings_after(frame(
        (1, 1, 5, 0, 1, 13), (2, 1, 6, 0, 1, 13),
        (1, 2, 7, 1, 2, 14), (2, 2, 8, -1, 0, 12),
    ), 2, [1, 2], "swiss", SEED)
    assert order(table) == [2, 1]


@pytest.mark.parametrize("fmt, expected", [("swiss", [1, 2]), ("round-robin", [2, 1])])
def test_art49_6_opponents_points_in_a_swiss_only(fmt, expected):
    # 1 and 2 equal on everything of their own; 1's opponent 3 scored more than 2's opponent
    # 4. In a round robin this is not used and the previous position (2 ahead) decides.
    table = standings_after(frame(
        (1, 1, 3, 1, 2, 14), (1, 2, 4, 1, 2, 14),
        (1, 3, 1, -1, 0, 12), (1, 4, 2, -1, 0, 12),
        (2, 3, 5, 2, 2, 15), (2, 4, 6, -2, 0, 11),
        (2, 1, 5, -1, 0, 12), (2, 2, 6, -1, 0, 12),
    ), 2, [1, 2], fmt, SEED, previous={2: 1, 1: 2})
    assert order(table) == expected
    assert table.set_index("team").loc[[1, 2], "opponent_points"].tolist() == [2, 0]


def test_art49_7_previous_position_then_no_shared_rank():
    rows = frame((1, 1, 9, 0, 1, 13), (1, 2, 8, 0, 1, 13))
    table = standings_after(rows, 1, [1, 2], "round-robin", SEED, previous={2: 1, 1: 2})
    assert order(table) == [2, 1] and labels(table) == ["1", "2"]


def test_art49_lot_orders_teams_equal_on_everything_who_share_a_rank():
    rows = frame(*[(1, t, 9, 0, 1, 13) for t in range(1, 7)])
    orders = set()
    for seed in range(8):
        table = standings_after(rows, 1, list(range(1, 7)), "swiss", seed)
        assert labels(table) == ["1="] * 6
        assert order(table) == order(standings_after(rows, 1, list(range(1, 7)), "swiss", seed))
        orders.add(tuple(order(table)))
    assert len(orders) > 1, "the lot depends on the seed"


def test_art49_shared_ranks_are_labelled_3_equals():
    table = standings_after(frame(
        (1, 1, 9, 5, 2, 18), (1, 2, 9, 3, 2, 16),
        (1, 3, 9, 0, 1, 13), (1, 4, 9, 0, 1, 13),
    ), 1, [1, 2, 3, 4], "swiss", SEED)
    assert labels(table) == ["1", "2", "3=", "3="]
    assert table.sort_values("position")["rank"].tolist() == [1, 2, 3, 3]


def test_team_standings_are_cumulative_and_carry_the_previous_position():
    rows = frame(
        (1, 1, 9, 0, 1, 13), (1, 2, 9, 0, 1, 13),
        (2, 1, 9, 0, 1, 13), (2, 2, 9, 0, 1, 13),
    )
    table = team_standings(rows, [1, 2, 3], "swiss", SEED)
    first, second = (table[table["round"] == r] for r in (1, 2))
    assert order(second)[:2] == order(first)[:2], "round 2's tie follows round 1's positions"
    assert labels(second) == ["1", "2", "3"]
    assert second.set_index("team").loc[3, ["played", "match_points"]].tolist() == [0, 0]
    assert list(table.columns) == [
        "round", "team", "played", "wins", "draws", "losses", "match_points", "level_points",
        "level_diff", "opponent_points", "rank", "rank_label", "position",
        "penalty_match_points", "penalty_level_points"]


@pytest.mark.parametrize("met, expected", [(True, [7, 5, 2]), (False, [7, 2, 5])])
def test_art49_the_worked_example_of_docs_teams(met, expected):
    """docs/teams.md: 7, 5 and 2 on 4 场分; 7 by 级差分, then 5 over 2 by their match (or 2
    over 5 by 级差 when they did not meet)."""
    opponent = (2, 5) if met else (15, 16)
    table = standings_after(frame(
        (1, 7, 8, 5, 2, 18), (2, 7, 9, 6, 2, 19), (3, 7, 10, -2, 0, 10.5),
        (1, 5, 11, 3, 2, 16), (2, 5, opponent[0], 1, 2, 14), (3, 5, 12, -1, 0, 13),
        (1, 2, 13, 4, 2, 17), (2, 2, opponent[1], -1, 0, 12), (3, 2, 14, 3, 2, 14),
    ), 3, [7, 5, 2], "swiss", SEED)
    assert order(table) == expected and labels(table) == ["1", "2", "3"]
    assert table.set_index("team").loc[[7, 5, 2], "level_points"].tolist() == [47.5, 43, 43]


def penalties(*rows):
    """Rows (round, team, 场分, 级差分) as the ledger's team_penalties (exact units)."""
    return pd.DataFrame([(r, t, int(mp * 2), int(lp * 100)) for r, t, mp, lp in rows],
                        columns=["round", "team", "match_halves", "level_hundredths"])


MATCH_ONE = ((1, 1, 2, 3, 2, 16), (1, 2, 1, -3, 0, 10), (1, 3, 4, 1, 2, 14),
             (1, 4, 3, -1, 0, 12))


@pytest.mark.parametrize("charged, expected_order, team_1", [
    # (penalties, order, team 1's (场分, 级差分, penalty 场分, penalty 级差分) shown)
    ((), [1, 3, 4, 2], (2, 16, 0, 0)),
    (((1, 1, 0, 3),), [3, 1, 4, 2], (2, 13, 0, 3)),          # art. 52 scale 2, first
    (((1, 1, 1, 0),), [3, 1, 4, 2], (1, 16, 1, 0)),          # scale 2, repeat: 1 场分
    (((1, 1, 2, 0),), [3, 1, 4, 2], (0, 16, 2, 0)),          # scale 1: 2 场分, 级差分 next
    (((1, 1, 0.5, 0), (1, 1, 0, 0.25)), [3, 1, 4, 2], (1.5, 15.75, 0.5, 0.25)),
    (((2, 1, 2, 0),), [1, 3, 4, 2], (2, 16, 0, 0)),          # round 2's: not yet in force
])
def test_art51_3_team_penalty_leaves_opponents_points(charged, expected_order, team_1):
    rows = frame(*MATCH_ONE)
    table = standings_after(rows, 1, [1, 2, 3, 4], "swiss", SEED, penalties=penalties(*charged))
    assert order(table) == expected_order
    mine = table.set_index("team")
    assert tuple(mine.loc[1, ["match_points", "level_points", "penalty_match_points",
                              "penalty_level_points"]]) == team_1
    plain = standings_after(rows, 1, [1, 2, 3, 4], "swiss", SEED).set_index("team")
    # art. 51.3: the opponent's 对手分 and every other team's figures stay as they were
    assert mine.loc[2, "opponent_points"] == plain.loc[2, "opponent_points"] == 2
    for team in (2, 3, 4):
        assert mine.loc[team, ["match_points", "level_points", "opponent_points"]].tolist() == \
            plain.loc[team, ["match_points", "level_points", "opponent_points"]].tolist()


def test_art52_scale_2_repeat_takes_a_match_point_from_its_round_on():
    rows = frame(*MATCH_ONE, (2, 1, 3, 1, 2, 14), (2, 3, 1, -1, 0, 12),
                 (2, 2, 4, 1, 2, 14), (2, 4, 2, -1, 0, 12))
    table = team_standings(rows, [1, 2, 3, 4], "swiss", SEED,
                           penalties=penalties((1, 1, 0, 3), (2, 1, 1, 0)))
    first, second = (table[table["round"] == r].set_index("team") for r in (1, 2))
    assert first.loc[1, ["penalty_match_points", "penalty_level_points"]].tolist() == [0, 3]
    assert second.loc[1, ["penalty_match_points", "penalty_level_points"]].tolist() == [1, 3]
    assert second.loc[1, ["match_points", "level_points"]].tolist() == [3, 27]
