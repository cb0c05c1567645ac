"""Team registration: the players file with a ``team`` column, team names, team numbers.

A team is 4 to 6 registered players (SPEC 8). Team numbers 1..n follow the seeding list
(a CSV with a ``team`` column, best first), the other teams following in a lot drawn from
the event key, so the numbering cannot be known before the key exists and anyone can
check it once the key is revealed. Every problem in the files is listed at once.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Collection, Mapping
from pathlib import Path

import pandas as pd

from ..errors import Problem, ProblemsError
from ..lots import draw_lot
from ..reading import read_table_with, text_problem

MIN_PLAYERS, MAX_PLAYERS = 4, 6
TEAM_LOT_LABEL = "team numbers"


class InvalidTeamsError(ProblemsError):
    """Team files (players, team names, seeding, lineups) that cannot be used."""

    subject = "the team files"


def team_of_cell(text: str, teams: Collection[int],
                 numbers: Mapping[str, int]) -> tuple[int | None, str | None]:
    """The team a file's cell (or a ``--team`` option) names, by docs/teams.md's one rule,
    the same wherever a team is asked for: ``#3`` is always team number 3; ``南京`` is the
    team whose players-file label is ``南京``; ``3`` is team number 3 or the team labelled
    ``3``, and is refused when those are two different teams, since reading it either way
    could make the wrong team win silently. Returns (team, None) or (None, why not).

    ``teams``: the team numbers; ``numbers``: label -> team number.

    >>> team_of_cell("3", [1, 2, 3], {"3": 1, "x": 2, "y": 3})
    (None, "could be team 3 (its number) or team 1 (its label is '3'): write #3 or #1")
    >>> team_of_cell("#3", [1, 2, 3], {"3": 1}), team_of_cell("x", [1, 2], {"x": 2})
    ((3, None), (2, None))
    """
    text = str(text).strip()
    if text.startswith("#"):
        number = int(text[1:]) if text[1:].isdigit() else None
        return (number, None) if number in teams else (None, "names no team number")
    by_number = int(text) if text.isdigit() and int(text) in teams else None
    by_label = numbers.get(text)
    if by_number is not None and by_label is not None and by_number != by_label:
        return None, (f"could be team {by_number} (its number) or team {by_label} (its label "
                      f"is {text!r}): write #{by_number} or #{by_label}")
    if by_number is not None:
        return by_number, None
    if by_label is not None:
        return by_label, None
    return None, "names no team of the event"


def team_keys(labels: Mapping[int, str], names: Mapping[int, str]) -> dict[str, int]:
    """The texts that name a team, for ``team_of_cell``'s ``numbers``: each team's label in
    the players file, and its name (the teams file's, as the pages show it) where no other
    team has that name or label, so that a director who types "南京队" is understood.

    >>> team_keys({1: "T1", 2: "T2"}, {1: "南京队", 2: "T1"})
    {'T1': 1, 'T2': 2, '南京队': 1}
    """
    keys = {str(label): int(team) for team, label in labels.items()}
    counts = Counter(str(name) for name in names.values())
    for team, name in names.items():
        if counts[str(name)] == 1 and str(name) not in keys:
            keys[str(name)] = int(team)
    return keys


def team_rule(why: str, teams: Collection[int]) -> str:
    """What to print for a cell or option ``team_of_cell`` refused: its reason, and for one
    naming no team the three ways a team may be written, so the director can write it again.

    >>> team_rule("names no team of the event", [1, 2, 3])
    "names no team of the event: write the team's number (1 to 3), #number, its label in the \
players file or its name"
    """
    if why.startswith("could be") or not teams:
        return why
    return (f"{why}: write the team's number (1 to {max(teams)}), #number, its label in the "
            "players file or its name")


def load_team_players(path: str | os.PathLike) -> pd.DataFrame:
    """Players as (player, name, team label), file order kept; refuses an empty id, name or
    team,
    a player on two lines (naming both teams when they differ) and a team of fewer than 4
    or more than 6 players."""
    file = Path(path).name
    frame = read_table_with(path, ("id", "name", "team"), InvalidTeamsError, numbers=("id",))
    line = frame.index  # the CSV line (the sheet row) of each row
    problems = [Problem(file, int(n), c, "", f"empty {c}: every player needs one")
                for c in ("id", "name", "team") for n in line[frame[c] == ""]]
    problems += [Problem(file, int(n), c, v, f"the {c} {why}")
                 for c in ("id", "name", "team") for n, v in zip(line, frame[c], strict=True)
                 if v != "" and (why := text_problem(v))]
    first: dict[str, tuple[int, str]] = {}
    for n, pid, team in zip(line, frame["id"], frame["team"], strict=True):
        if pid == "":
            continue
        if pid in first:
            where, other = first[pid]
            rule = (f"player also in team {other!r} (line {where}): a player plays for one "
                    "team" if other != team else f"this id is also on line {where}")
            problems.append(Problem(file, int(n), "id", pid, rule))
        else:
            first[pid] = (int(n), team)
    if "venue" in frame.columns:
        problems.append(Problem(file, None, "venue", None,
                                "a team event cannot seat by venue (its matches pair teams "
                                "event-wide): leave the venue column out, or run one team "
                                "event per venue"))
    sizes = frame[frame["team"] != ""].groupby("team", sort=False).size()
    problems += [
        Problem(file, None, "team", team,
                f"{size} players: a team has {MIN_PLAYERS} to {MAX_PLAYERS} registered players")
        for team, size in sizes.items() if not MIN_PLAYERS <= size <= MAX_PLAYERS
    ]
    if problems:
        raise InvalidTeamsError(problems)
    return pd.DataFrame({"player": frame["id"], "name": frame["name"], "label": frame["team"]})


def load_team_names(path: str | os.PathLike, labels: list[str]) -> dict[str, str]:
    """Team label -> name from a CSV or xlsx file with ``team, name``; refuses unknown or
    repeated teams."""
    file = Path(path).name
    frame = read_table_with(path, ("team", "name"), InvalidTeamsError)
    problems = [Problem(file, int(i), "team", t, "not a team of the players file")
                for i, t in frame["team"].items() if t not in labels]
    problems += [Problem(file, int(i), "team", t, "this team is on two lines")
                 for i, t in frame["team"][frame["team"].duplicated()].items()]
    if problems:
        raise InvalidTeamsError(problems)
    return dict(zip(frame["team"], frame["name"], strict=True))


def load_team_seeding(path: str | os.PathLike, labels: list[str]) -> list[str]:
    """Team labels best first from a CSV or xlsx file with a ``team`` column; refuses
    unknown or repeated teams."""
    file = Path(path).name
    frame = read_table_with(path, ("team",), InvalidTeamsError)
    problems = [Problem(file, int(i), "team", t, "unknown team: not in the players file")
                for i, t in frame["team"].items() if t not in labels]
    problems += [Problem(file, int(i), "team", t, "this team is on two lines")
                 for i, t in frame["team"][frame["team"].duplicated()].items()]
    if problems:
        raise InvalidTeamsError(problems)
    return frame["team"].tolist()


def number_teams(
    players: pd.DataFrame, key: bytes, seeding: list[str] | None, names: dict[str, str]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(players with ``team`` numbers and ``seed``, teams table ``team, label, name``).

    Seeded teams take numbers 1.. in seeding order, the rest follow by a lot from ``key``.
    A player's ``seed`` orders the players file by team number, registration order within.
    """
    labels = list(dict.fromkeys(players["label"]))
    seeded = seeding or []
    order = seeded + draw_lot([t for t in labels if t not in seeded], key, TEAM_LOT_LABEL)
    number = {label: i for i, label in enumerate(order, 1)}
    teams = pd.DataFrame({
        "team": list(range(1, len(order) + 1)),
        "label": order,
        "name": [names.get(label, label) for label in order],
    }).astype({"team": "int64", "label": "str", "name": "str"})
    numbered = players.assign(team=players["label"].map(number).astype("int64"))
    numbered = numbered.assign(position=range(len(numbered))).sort_values(
        ["team", "position"], kind="stable", ignore_index=True)
    numbered["seed"] = pd.Series(range(1, len(numbered) + 1), dtype="Int64")
    return numbered[["player", "name", "seed", "team"]].astype(
        {"player": "str", "name": "str"}), teams
