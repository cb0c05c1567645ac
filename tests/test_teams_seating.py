"""Seating a team round (seed 000 art. 19.2, 29.2; SPEC 8): tables, rooms, lineups."""

import pandas as pd
import pytest

from guandan_dup.teams import default_lineups, load_lineups, matches_frame, seating_frame
from guandan_dup.teams.registration import InvalidTeamsError

PLAYERS = pd.DataFrame({
    "player": [f"{t}{i}" for t in "ABC" for i in range(1, 6)],
    "team": [t for t in (1, 2, 3) for _ in range(5)],
})


def test_art29_2_home_sits_east_west_in_the_open_room_and_north_south_in_the_closed():
    matches = matches_frame(4, [(2, 1), (3, None)])
    assert matches.values.tolist() == [[4, 1, 2, 1, 1, 2], [4, 2, 3, pd.NA, pd.NA, pd.NA]]
    seating = seating_frame(matches, default_lineups(4, [1, 2], PLAYERS))
    assert seating[["table", "north", "east", "south", "west"]].values.tolist() == [
        [1, "A1", "B1", "A2", "B2"],  # open room: away (team 1) N-S, home (team 2) E-W
        [2, "B3", "A3", "B4", "A4"],  # closed room: home N-S, away E-W
    ]


def test_art29_2_match_m_plays_at_tables_m_and_m_plus_the_number_of_matches():
    matches = matches_frame(1, [(1, 2), (3, 4), (5, 6)])
    assert matches[["open_table", "closed_table"]].values.tolist() == [[1, 4], [2, 5], [3, 6]]


def test_art19_2_lineups_of_a_team_with_a_bye_wait_for_another_round(tmp_path):
    path = tmp_path / "lineups.csv"
    path.write_text("round,team,room,player_1,player_2\n"
                    "1,1,open,A5,A2\n1,1,closed,A3,A1\n1,3,open,C1,C2\n", encoding="utf-8")
    lineups = load_lineups(path, 1, [1, 2], PLAYERS).set_index(["team", "room"])
    assert lineups.loc[(1, "open"), ["player_1", "player_2"]].tolist() == ["A5", "A2"]
    assert lineups.loc[(2, "closed"), ["player_1", "player_2"]].tolist() == ["B3", "B4"]
    assert 3 not in lineups.index.get_level_values("team")


def test_art19_2_every_lineup_problem_is_listed_in_line_order(tmp_path):
    path = tmp_path / "lineups.csv"
    path.write_text("round,team,room,player_1,player_2\n"
                    "1,2,open,B1,B1\n"        # line 2: a player twice in one pair
                    "1,2,closed,B2,B3\n"
                    "1,1,open,A1,B5\n"        # line 4: another team's player
                    "1,1,closed,A2,A1\n"      # line 5: A1 again, in the other room
                    "1,Tianjin,open,A1,A2\n"  # line 6: no team's label nor number
                    "1,1,lounge,A1,A2\n"      # line 7: no such room
                    "R1,1,open,A1,A2\n",      # line 8: not a round number
                    encoding="utf-8")
    with pytest.raises(InvalidTeamsError) as caught:
        load_lineups(path, 1, [1, 2], PLAYERS, numbers={"Beijing": 1, "Nanjing": 2})
    assert [(p.row, p.column, p.value) for p in caught.value.problems] == [
        (2, "player_2", "B1"), (4, "player_2", "B5"), (5, "player_2", "A1"),
        (6, "team", "Tianjin"), (7, "room", "lounge"), (8, "round", "R1")]
    rules = [p.rule for p in caught.value.problems]
    assert rules[0] == ("team 2 names this player twice (also line 2): each of the four "
                        "seats needs its own player")
    assert rules[2].startswith("team 1 names this player twice (also line 4)")
    assert rules[1] == "not registered for team 1 (registered for team 2; art. 19.2)"
    assert rules[3] == ("names no team of the event: write the team's number (1 to 3), "
                        "#number, its label in the players file or its name")


def test_teams_a_lineup_names_its_team_by_label_number_or_hash_number(tmp_path):
    """One identity per team: the players file's label is as good as the number."""
    path = tmp_path / "lineups.csv"
    path.write_text("round,team,room,player_1,player_2\n"
                    "1,Nanjing,open,B5,B2\n1,Nanjing,closed,B3,B1\n"
                    "1,#1,open,A4,A3\n1,1,closed,A2,A1\n", encoding="utf-8")
    lineups = load_lineups(path, 1, [1, 2], PLAYERS, numbers={"Beijing": 1, "Nanjing": 2})
    assert lineups.values.tolist() == [
        [1, 1, "open", "A4", "A3"], [1, 1, "closed", "A2", "A1"],
        [1, 2, "open", "B5", "B2"], [1, 2, "closed", "B3", "B1"]]
