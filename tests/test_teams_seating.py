"""Seating a team round (seed 000 art. 19.2, 29.2; SPEC 8): tables, rooms, lineups."""

import pandas as pd

from guandan_dup.teams import default_lineups, load_lineups, matches_frame, seating_frame

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
