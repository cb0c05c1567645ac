"""What every team format shares (SPEC 8): the teams and their files, the plan's team
options, lineups and the two rooms of a match, the 级差分 conversion table.

Files of a team event, beside the usual ones: ``teams.parquet`` (team, label, name),
``conversion.csv`` (a director's own 级差分 table; presets are named in event.toml only),
and per round ``matches``, ``lineups``, ``match_results`` and ``team_standings`` (a
knockout: ``bracket`` instead of standings). Each step writes its files in one
``replace_files`` call.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd
import pyarrow as pa

from ...errors import GuandanError, InvalidPlanError
from ...reading import read_parquet
from ...teams import ConversionTable, default_lineups, load_lineups, preset, resolve, seating_frame
from ...teams.awards import parse_awards
from ...teams.conversion import PRESETS, load
from ...teams.registration import (
    load_team_names,
    load_team_players,
    load_team_seeding,
    number_teams,
)
from ...wording import plural, quoted, team_caption, words
from ..cards import ROOM_NAMES, Room
from ..entrants import demo_teams
from ..folder import EventFolder, parquet_bytes
from ..ledger import effects
from ..people import people_of
from ..plan import EventPlan
from ..seat import CARDS, substituting, table_cards
from ..walkovers import withdrawal_notes
from .base import EventFormat, InitRequest

CONVERSION_FILE = "conversion.csv"


@dataclass(frozen=True)
class SeededFrom:
    """The stage a team knockout was seeded from (``--seed-from``, ``formats.stages``):
    its ``folder`` relative to the knockout's (a copy of both folders keeps the link), its
    ``name`` and ``format``, and ``teams``: each knockout team's number in that stage,
    knockout team 1's first. Written in event.toml as ``[seeded_from]``."""

    folder: str
    name: str
    format: str
    teams: tuple[int, ...]

    def to_dict(self) -> dict:
        return {"folder": self.folder, "name": self.name, "format": self.format,
                "teams": list(self.teams)}

    @classmethod
    def from_dict(cls, data) -> SeededFrom:
        """From event.toml's ``[seeded_from]`` table; ``InvalidPlanError`` if it is not one."""
        try:
            made = cls(str(data["folder"]), str(data["name"]), str(data["format"]),
                       tuple(int(t) for t in data["teams"]))
        except (KeyError, TypeError, ValueError):
            raise InvalidPlanError(
                f"event plan: seeded_from = {data!r}: expected a table with folder, name, "
                "format and teams (the stage the knockout was seeded from)") from None
        return made

    def earlier(self, team: int) -> int | None:
        """Knockout team ``team``'s number in the earlier stage."""
        return self.teams[team - 1] if 1 <= team <= len(self.teams) else None


@dataclass(frozen=True)
class TeamOptions:
    """A team event's part of the plan: how many ``teams``, the 级差分 ``conversion``
    table's name and the ``awards`` of artificial matches that differ from SPEC 8's
    (``teams.awards``); a knockout seeded from an earlier stage, that stage
    (``seeded_from``)."""

    teams: int
    conversion: str
    awards: str = ""
    seeded_from: SeededFrom | None = None

    def to_dict(self) -> dict:
        data = {"teams": self.teams, "conversion": self.conversion, "awards": self.awards}
        if self.seeded_from is not None:  # other events' event.toml stays as it was
            data["seeded_from"] = self.seeded_from.to_dict()
        return data


def conversion_of(folder: EventFolder) -> ConversionTable:
    """The event's 级差分 table: the folder's own conversion.csv, else the named preset."""
    own = folder.path / CONVERSION_FILE
    if own.exists():
        return load(own, name=folder.plan.options.conversion)
    return preset(folder.plan.options.conversion)


def teams_of(folder: EventFolder) -> pd.DataFrame:
    """teams.parquet: team number, label (the players file's team), name."""
    return read_parquet(folder.path / "teams.parquet", "event file").to_pandas()


@dataclass(frozen=True)
class TeamSeating:
    """A seated round: its matches, lineups and tables, and any rematch it could not avoid."""

    matches: pd.DataFrame
    lineups: pd.DataFrame
    seating: pd.DataFrame
    warnings: list[str] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=dict)
    """Team number -> name, for the lines a director reads out."""
    notes: list[str] = field(default_factory=list)
    """What the director announces besides the matches (a withdrawn team's forfeit)."""

    def team(self, number: int) -> str:
        return team_caption(number, self.names.get(int(number), ""))

    def summary(self) -> list[str]:
        lines = [
            f"Match {m.match}: {self.team(m.home)} (home) v {self.team(m.away)}, open room "
            f"table {m.open_table}, closed room table {m.closed_table}"
            for m in self.matches[self.matches["away"].notna()].itertuples()
        ]
        lines += [f"Bye: {self.team(m.home)}" for m in self.matches[self.matches["away"].isna()]
                  .itertuples()]
        return lines + self.notes + [f"Warning: {w}" for w in self.warnings]


def match_rooms(matches: pd.DataFrame, names: dict[int, str]) -> dict[int, Room]:
    """Table -> its match, room and both teams (``cards.Room``: "第2场 Match 2", "开室 open
    room", "主队 5 北京队", "客队 2 南京队"), for the table cards and the printed pages:
    players know their team's name better than its number."""
    rooms = {}
    for m in matches[matches["away"].notna()].itertuples():
        home, away = (f"{int(t)} {names.get(int(t), '')}".rstrip() for t in (m.home, m.away))
        for table, room in ((m.open_table, "open"), (m.closed_table, "closed")):
            rooms[int(table)] = Room(f"第{m.match}场 Match {m.match}", ROOM_NAMES[room],
                                     f"主队 {home}", f"客队 {away}")
    return rooms


def seat_matches(
    folder: EventFolder,
    round_no: int,
    matches: pd.DataFrame,
    lineups: str | os.PathLike | None = None,
    warnings: list[str] | None = None,
    extra: dict[Path, bytes] | None = None,
    metadata: dict[bytes, bytes] | None = None,
    with_cards: bool = True,
) -> TeamSeating:
    """Seat a round's ``matches`` with their lineups and write them, with ``extra`` files
    of the same step (a knockout's bracket), in one ``replace_files``; ``metadata`` goes
    into matches.parquet (a Swiss round: the order it was paired from)."""
    real = matches[matches["away"].notna()]
    playing = sorted({int(t) for t in real["home"]} | {int(t) for t in real["away"]})
    players = folder.players()
    teams = teams_of(folder)
    numbers = people_of(folder).team_numbers()
    chosen = lineups_without_substitutes(folder, round_no, playing, players, lineups, numbers)
    seating = seating_frame(matches, chosen)
    no_byes = pd.DataFrame({"player": pd.Series(dtype="str")})
    team_names = dict(zip(teams["team"].astype(int), teams["name"], strict=True))
    arrow = pa.Table.from_pandas(matches, preserve_index=False)
    files = {
        folder.file(round_no, "matches"): parquet_bytes(
            arrow.replace_schema_metadata((arrow.schema.metadata or {}) | (metadata or {}))),
        folder.file(round_no, "lineups"): parquet_bytes(chosen),
        folder.file(round_no, "seating"): parquet_bytes(seating),
        **(extra or {}),
    }
    if with_cards:
        files |= table_cards(folder, round_no, seating, no_byes,
                             match_rooms(matches, team_names))
    folder.replace_files(files, remove=() if with_cards else [folder.file(round_no, CARDS)])
    return TeamSeating(matches, chosen, seating, warnings or [], team_names)


def lineups_without_substitutes(folder: EventFolder, round_no: int, playing: list[int],
                                players: pd.DataFrame, lineups, numbers) -> pd.DataFrame:
    """The round's lineups (the director's file, else each team's first four players) with
    no player the ledger has substitute in the round: a substitute sits in the seat of the
    player replaced, so is never in a lineup too, whichever of the two came first. The
    default leaves them out; a lineups file naming one, or a team left with fewer than four
    players, is refused."""
    subs = substituting(folder, round_no)
    if lineups is not None:
        chosen = load_lineups(lineups, round_no, playing, players, numbers)
    else:
        free = players[~players["player"].isin(subs)]
        short = [t for t in playing if (free["team"] == t).sum() < 4]
        if short:
            raise GuandanError(
                f"{words(people_of(folder).team(t) for t in short)} "
                f"{plural('has', len(short), 'have')} fewer than four players for round "
                f"{round_no} once the ledger's substitutes ({words(sorted(subs))}) sit in the "
                "seats of those "
                "they replace; nothing was written. A substitute comes from a team's fifth "
                "or sixth player: withdraw the substitute row")
        chosen = default_lineups(round_no, playing, free)
    named = sorted((set(chosen["player_1"]) | set(chosen["player_2"])) & subs)
    if named:
        raise GuandanError(
            f"the lineups of round {round_no} name {people_of(folder).players(named)}, whom "
            "the ledger has "
            "substitute for another player that round (they sit in that player's seat); "
            "nothing was written. Name the player replaced in the lineup instead")
    return chosen


class TeamFormat(EventFormat):
    """A team event: teams of 4 to 6 registered players, one set a round, each match in
    two rooms (open: home E-W; closed: home N-S), scored by 场分 and 级差分."""

    kind = "teams"
    option_keys = ("teams", "conversion", "awards")
    by_team = True
    rehearsal_title = "Team rehearsal 团体赛演练"

    def options_from(self, data: dict) -> TeamOptions:
        if "seeded_from" in data:
            data = data | {"seeded_from": SeededFrom.from_dict(data["seeded_from"])}
        try:
            return TeamOptions(**data)
        except TypeError:
            raise InvalidPlanError(f"event plan: a team event needs teams and conversion "
                                   f"(given: {sorted(data)})") from None

    def option_problems(self, plan: EventPlan) -> list[str]:
        options = plan.options
        if not isinstance(options, TeamOptions):
            return [f"options = {options!r}: a team event needs its teams and conversion"]
        out = []
        if not isinstance(options.teams, int) or options.teams < 2:
            out.append(f"teams = {options.teams!r}: a team event needs at least 2 teams")
        if not isinstance(options.conversion, str) or not options.conversion:
            out.append(f"conversion = {options.conversion!r}: name the 级差分 conversion "
                       "table (e.g. linear)")
        if not isinstance(options.awards, str):
            out.append(f"awards = {options.awards!r}: expected text such as 'swiss_bye=1+15'")
        else:
            try:
                parse_awards(options.awards)
            except GuandanError as error:
                out.append(f"awards = {options.awards!r}: {error}")
        if plan.sets_per_round != 1 or plan.schedule or plan.rotate_partners:
            out.append("a team event plays one set per round, the same in every match")
        elif not out and plan.tables_per_group != 2 * (options.teams // 2):
            out.append(f"tables_per_group = {plan.tables_per_group!r}: a team event of "
                       f"{options.teams} teams plays in one group of {2 * (options.teams // 2)} "
                       "tables")
        return out

    def tables(self, plan: EventPlan) -> int:
        return 2 * (plan.options.teams // 2)

    def registered_teams(self, path: Path, request: InitRequest, key: bytes,
                         qualified: list[str] | None = None,
                         earlier_names: dict[str, str] | None = None,
                         earlier_players: pd.DataFrame | None = None):
        """(registered players, team labels best first or ``None`` for a lot, the plan's
        options, the files beside event.toml) of a new team event; ``qualified`` (labels,
        best first: a finished stage's top teams) seeds it and only their players are
        registered. ``earlier_names`` (label -> name: that stage's) name the teams as they
        were named there, unless ``--team-names`` names them; ``earlier_players`` (that
        stage's players) are the players when no ``--players`` file is given."""
        table = resolve(request.conversion or "linear")
        players = (load_team_players(request.players) if request.players is not None
                   else earlier_players)
        labels = list(dict.fromkeys(players["label"]))
        names = dict(earlier_names or {}) | (load_team_names(request.team_names, labels)
                                             if request.team_names is not None else {})
        seeded = (load_team_seeding(request.seeding, labels)
                  if request.seeding is not None else None)
        if qualified is not None:
            missing = [t for t in qualified if t not in labels]
            if request.seeding is not None or missing:
                raise InvalidPlanError(
                    "give --seeding or --seed-from, not both" if not missing else
                    f"{plural('team', len(missing))} {quoted(missing)} "
                    f"{plural('goes', len(missing), 'go')} through from the earlier stage "
                    f"but {plural('has', len(missing), 'have')} no players in the players "
                    "file")
            players = players[players["label"].isin(qualified)].reset_index(drop=True)
            labels, seeded = list(qualified), list(qualified)
        numbered, teams = number_teams(players, key, seeded, names)
        files = {
            path / "players.parquet": parquet_bytes(numbered),
            path / "teams.parquet": parquet_bytes(teams),
        }
        if table is not PRESETS.get(table.name):
            files[path / CONVERSION_FILE] = table.to_csv().encode("utf-8")
        options = TeamOptions(len(labels), table.name, request.awards or "")
        return len(numbered), seeded, options, files

    def team_plan(self, path: Path, request: InitRequest, players: int, rounds: int,
                  seeded: list[str] | None, options: TeamOptions) -> EventPlan:
        return EventPlan(
            name=request.name or path.resolve().name,
            kind="teams",
            players=players,
            tables_per_group=max(2 * (options.teams // 2), 1),
            sets_per_round=1,
            boards_per_set=request.boards_per_set,
            rounds=rounds,
            seeding="list" if seeded else "lot",
            correction_minutes=request.correction_minutes,
            format=self.format,
            options=options,
        )

    def seat(self, folder, round_no, lineups, with_cards=True):
        """Pair or draw the round's matches and seat them; a withdrawn team is announced:
        not paired, or the match it forfeits (``event.walkovers``)."""
        matches, warnings, metadata, extra = self.pair_round(folder, round_no)
        seating = seat_matches(folder, round_no, matches, lineups, warnings, extra, metadata,
                               with_cards)
        notes = withdrawal_notes(matches, effects(folder), round_no, seating.team)
        return replace(seating, notes=notes)

    def pair_round(self, folder: EventFolder, round_no: int):
        """(matches, warnings, matches.parquet metadata, extra files of the step)."""
        raise NotImplementedError

    def demo_request(self, scratch, entrants, boards_per_set, **shape):
        players, names = demo_teams(entrants)
        files = scratch / "players.csv", scratch / "teams.csv"
        for frame, file in zip((players, names), files, strict=True):
            file.write_text(frame.to_csv(index=False), encoding="utf-8")
        return InitRequest(files[0], boards_per_set, team_names=files[1], **shape)
