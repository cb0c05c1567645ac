"""How the program names people to a director: the id the files keep, then the name the
players file gave ("P027 王伟", "D04 王伟 / 李芳", "team 3 南京队"), so that every line read out
at the venue says who it is about. One place, so the console, the CLI and the exports name a
player the same way; the words themselves (``caption``, ``team_caption``, ``words``) are
``guandan_dup.wording``'s, which rooms below the event folder use too."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import pandas as pd

from ..teams.registration import team_keys, team_of_cell, team_rule
from ..wording import caption, team_caption, words
from .folder import EventFolder


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

    def pair_name(self, pair) -> str:
        """"王伟 / 李芳": a pair's players' names."""
        return " / ".join(self.name(p) for p in self.pair_players.get(str(pair), ()))

    def pair(self, pair) -> str:
        """"D04 王伟 / 李芳"."""
        return caption(pair, self.pair_name(pair))

    def names(self) -> dict[str, str]:
        """Player id and pair id -> name ("王伟", "王伟 / 李芳"): what a seating's summary
        reads out beside the ids (``movement.Seating.names``)."""
        return self.player_names | {pair: self.pair_name(pair) for pair in self.pair_players}

    def pair_by_player(self) -> dict[str, str]:
        """Player id -> pair id (pairs events; empty otherwise): the pair each plays in."""
        return {p: pair for pair, ids in self.pair_players.items() for p in ids}

    def team(self, number) -> str:
        """"team 3 南京队" (see ``team_caption``)."""
        return team_caption(int(number), self.team_names.get(int(number), ""))

    def team_numbers(self) -> dict[str, int]:
        """The texts that name a team (its label, its unique name) -> its number
        (``team_keys``), for the cells of lineups and results files."""
        return team_keys(self.team_labels, self.team_names)

    def team_named(self, text) -> tuple[int | None, str | None]:
        """The team number ``text`` names (its number, ``#number`` or its players-file
        label: docs/teams.md's one rule, ``team_of_cell``) and None, or None and the rule
        to print."""
        team, why = team_of_cell(text, self.team_names, self.team_numbers())
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
