"""How the program names people to a director: the id the files keep, then the name the
players file gave ("P027 王伟", "D04 王伟 / 李芳", "team 3 南京队"), so that every line read out
at the venue says who it is about. One place, so the console, the CLI and the exports name a
player the same way."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import pandas as pd

from ..teams.registration import team_of_cell, team_rule
from .folder import EventFolder


def caption(key, name) -> str:
    """The id, then the name when there is one that says more than the id.

    >>> caption("P027", "王伟"), caption("P027", ""), caption("P027", "P027")
    ('P027 王伟', 'P027', 'P027')
    """
    key = str(key)
    name = "" if not isinstance(name, str) else name.strip()
    return key if not name or name == key else f"{key} {name}"


def words(items: Iterable, conjunction: str = "and") -> str:
    """A list as a director reads it: ``1``, ``1 and 2``, ``1, 2 and 3`` (never ``[1, 2]``).

    >>> words([2]), words([2, 3]), words(["csv", "md", "html"]), words([], "or")
    ('2', '2 and 3', 'csv, md and html', '')
    """
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


@dataclass(frozen=True)
class People:
    """An event's players, pairs and teams by id, with the names to say beside them."""

    player_names: dict[str, str]
    """Player id -> name (players without a name are absent)."""
    pair_players: dict[str, tuple[str, ...]]
    """Pair id -> its players' ids, in the players file's order (pairs events)."""
    team_names: dict[int, str]
    """Team number -> name (team events)."""
    team_labels: dict[int, str]
    """Team number -> the players file's label for it (team events)."""

    def name(self, player) -> str:
        """A player's name alone (the id when the players file gave none)."""
        return self.player_names.get(str(player)) or str(player)

    def player(self, player) -> str:
        """"P027 王伟"."""
        return caption(player, self.player_names.get(str(player)))

    def players(self, ids: Iterable, conjunction: str = "and") -> str:
        """"P029 王伟 and P030 李芳"."""
        return words([self.player(p) for p in ids], conjunction)

    def pair(self, pair) -> str:
        """"D04 王伟 / 李芳"."""
        ids = self.pair_players.get(str(pair), ())
        return caption(pair, " / ".join(self.name(p) for p in ids))

    def team(self, number) -> str:
        """"team 3 南京队" (see ``team_caption``)."""
        return team_caption(int(number), self.team_names.get(int(number), ""))

    def team_named(self, text) -> tuple[int | None, str | None]:
        """The team number ``text`` names (its number, ``#number`` or its players-file
        label: docs/teams.md's one rule, ``team_of_cell``) and None, or None and the rule
        to print."""
        numbers = {label: team for team, label in self.team_labels.items()}
        team, why = team_of_cell(text, self.team_names, numbers)
        return team, None if why is None else team_rule(why, self.team_names)

    def side(self, side) -> str:
        """A side named by the files (a player, a pair or a team number) read out."""
        text = str(side)
        if text in self.pair_players:
            return self.pair(text)
        if text in self.player_names:
            return self.player(text)
        if text.isdigit() and int(text) in self.team_names:
            return self.team(int(text))
        return text


def team_caption(number: int, name: str) -> str:
    """How a director reads a team out: its number, then its name when it has one."""
    return f"team {number}" + (f" {name}" if name and name != str(number) else "")


def people_of(folder: EventFolder) -> People:
    """The people of ``folder``'s players file (and teams file, in a team event)."""
    players = folder.players()
    names = {str(p): n.strip() for p, n in zip(players["player"], players["name"], strict=True)
             if isinstance(n, str) and n.strip()}
    pairs: dict[str, tuple[str, ...]] = {}
    if "pair" in players.columns:
        for pair, ids in players.groupby("pair", sort=False)["player"]:
            pairs[str(pair)] = tuple(str(p) for p in ids)
    team_names: dict[int, str] = {}
    team_labels: dict[int, str] = {}
    teams_file = folder.path / "teams.parquet"
    if teams_file.exists():
        teams = pd.read_parquet(teams_file)
        team_names = {int(t): str(n) for t, n in zip(teams["team"], teams["name"], strict=True)}
        if "label" in teams.columns:
            team_labels = {int(t): str(lb)
                           for t, lb in zip(teams["team"], teams["label"], strict=True)}
    return People(names, pairs, team_names, team_labels)
