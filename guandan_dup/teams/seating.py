"""A round's matches, lineups and table seating (SPEC 8, seed 000 art. 19.2, 29).

With M matches in a round, match m's open room is table m and its closed room table M + m.
The home team sits E-W in the open room and N-S in the closed room; the away team the
other way round (art. 29.2). A lineup names each team's pair for each room; by default a
team plays its first four registered players, 1-2 in the open room and 3-4 in the closed.
Only registered players may play for a team (art. 19.2).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from ..errors import Problem
from ..reading import read_table_with
from .registration import InvalidTeamsError, team_of_cell, team_rule

LINEUP_COLUMNS = ("round", "team", "room", "player_1", "player_2")
ROOMS = ("open", "closed")
ROOM_SIDES = {"open": ("away", "home"), "closed": ("home", "away")}
"""Room -> (the side of the match sitting N-S, the side sitting E-W), art. 29.2: the rule
``seating_frame`` seats by, and the pages that say who sits where follow."""


def matches_frame(round_no: int, pairs: Sequence[tuple[int, int | None]]) -> pd.DataFrame:
    """The matches table of a round from (home, away) pairs in match order; a pair whose
    ``away`` is None is a bye (no tables), listed after the matches."""
    played = [(h, a) for h, a in pairs if a is not None]
    byes = [h for h, a in pairs if a is None]
    count = len(played)
    rows = [(round_no, m, h, a, m, count + m) for m, (h, a) in enumerate(played, 1)]
    rows += [(round_no, count + i, h, None, None, None) for i, h in enumerate(byes, 1)]
    frame = pd.DataFrame(rows, columns=["round", "match", "home", "away", "open_table",
                                        "closed_table"])
    return frame.astype({"round": "int64", "match": "int64", "home": "int64", "away": "Int64",
                         "open_table": "Int64", "closed_table": "Int64"})


def default_lineups(round_no: int, teams: Sequence[int], players: pd.DataFrame) -> pd.DataFrame:
    """Each team's first four registered players (file order): 1-2 open, 3-4 closed."""
    rows = []
    for team in teams:
        ids = players.loc[players["team"] == team, "player"].astype(str).tolist()
        rows += [(round_no, team, "open", *ids[0:2]), (round_no, team, "closed", *ids[2:4])]
    return lineup_frame(rows)


def lineup_frame(rows: list[tuple]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=list(LINEUP_COLUMNS))
    return frame.astype({"round": "int64", "team": "int64", "room": "str", "player_1": "str",
                         "player_2": "str"})


def load_lineups(
    path: str | os.PathLike,
    round_no: int,
    teams: Sequence[int],
    players: pd.DataFrame,
    numbers: Mapping[str, int] | None = None,
) -> pd.DataFrame:
    """The lineups of ``round_no`` from a director's CSV or xlsx file (``LINEUP_COLUMNS``;
    rows of other rounds, and of a team with a bye, are ignored, so one file may hold the
    whole event),
    the default for teams it does not name. Every problem is listed: a round that is not a
    number (such a row would be ignored unseen), an unknown team or room, a team naming one
    room only or a room twice, a player not registered for that team (art. 19.2), a player
    twice in a team's lineup. A ``team`` cell names its team by docs/teams.md's one rule
    (``team_of_cell``): its number, ``#number``, its label in the players file or its name,
    given by ``numbers`` (``team_keys``: label or name -> team number)."""
    file = Path(path).name
    frame = read_table_with(path, LINEUP_COLUMNS, InvalidTeamsError,
                            numbers=("round", "room", "player_1", "player_2"))
    team_of = dict(zip(players["player"].astype(str), players["team"], strict=True))
    frame = frame.assign(line=frame.index)
    unreadable = ~frame["round"].str.fullmatch(r"[1-9][0-9]*")
    problems = [Problem(file, row.line, "round", row.round, "expected a round number (1, 2, ...)")
                for row in frame[unreadable].itertuples()]
    given = {}
    frame = frame[frame["round"] == str(round_no)]
    registered = set(players["team"].astype(int))
    for row in frame.itertuples():
        team, why = team_of_cell(row.team, registered, numbers or {})
        if team is None:
            problems.append(Problem(file, row.line, "team", row.team, team_rule(why, registered)))
            continue
        if team not in teams:
            continue  # a team with a bye this round: its lineup waits for another round
        if row.room not in ROOMS:
            problems.append(Problem(file, row.line, "room", row.room, "expected open or closed"))
            continue
        if (team, row.room) in given:
            problems.append(Problem(file, row.line, "room", row.room,
                                    f"team {team}'s {row.room} room is on two lines"))
            continue
        for column in ("player_1", "player_2"):
            player = getattr(row, column)
            if team_of.get(player) != team:
                where = ("registered for team " + str(team_of[player]) if player in team_of
                         else "not a registered player")
                problems.append(Problem(file, row.line, column, player,
                                        f"not registered for team {team} ({where}; art. 19.2)"))
        given[(team, row.room)] = (row.line, row.player_1, row.player_2)
    for team in sorted({t for t, _ in given}):
        rooms = [given.get((team, room)) for room in ROOMS]
        if None in rooms:
            line = next(r for r in rooms if r is not None)[0]
            problems.append(Problem(file, line, "room", None,
                                    f"team {team} names one room only: give both"))
            continue
        problems += _twice(file, team, rooms)
    if problems:
        raise InvalidTeamsError(sorted(problems, key=lambda p: p.row))
    rows = [(round_no, team, room, *given[(team, room)][1:])
            for team in teams for room in ROOMS if (team, room) in given]
    named = {team for team, _ in given}
    default = default_lineups(round_no, [t for t in teams if t not in named], players)
    return pd.concat([lineup_frame(rows), default], ignore_index=True).sort_values(
        ["team", "room"], key=lambda c: c.map({"open": 0, "closed": 1}) if c.name == "room"
        else c, ignore_index=True)


def _twice(file: str, team: int, rooms: list[tuple]) -> list[Problem]:
    """A player named a second time in a team's lineup, at the line and column of the repeat
    (``rooms``: the open and closed rooms' (line, player_1, player_2))."""
    first: dict[str, int] = {}
    problems = []
    for line, *pair in rooms:
        for column, player in zip(("player_1", "player_2"), pair, strict=True):
            if player in first:
                problems.append(Problem(file, line, column, player,
                                        f"team {team} names this player twice (also line "
                                        f"{first[player]}): each of the four seats needs its "
                                        "own player"))
            first.setdefault(player, line)
    return problems


def seating_frame(matches: pd.DataFrame, lineups: pd.DataFrame) -> pd.DataFrame:
    """``round, group, table, north, east, south, west`` of the round's tables: home E-W in
    the open room, N-S in the closed room; player_1 sits N or E, player_2 S or W."""
    pair = {(r.team, r.room): (r.player_1, r.player_2) for r in lineups.itertuples()}
    rows = []
    for m in matches[matches["away"].notna()].itertuples():
        team = {"home": m.home, "away": int(m.away)}
        for room, table in (("open", m.open_table), ("closed", m.closed_table)):
            ns, ew = (pair[(team[side], room)] for side in ROOM_SIDES[room])
            rows.append((m.round, 1, int(table), ns[0], ew[0], ns[1], ew[1]))
    frame = pd.DataFrame(rows, columns=["round", "group", "table", "north", "east", "south",
                                        "west"])
    frame = frame.astype({"round": "int64", "group": "int64", "table": "int64"})
    return frame.sort_values("table", ignore_index=True)
