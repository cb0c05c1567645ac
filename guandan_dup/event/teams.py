"""Team events in the event folder (SPEC 8): init, seat and score hand off to here.

The folder steps (``create_event``, ``seat_event_round``, ``score_round``) check
``plan.kind == "teams"`` and call these; everything about matches comes from the
``teams`` room, which takes and returns tables. Files of a team event, beside the usual
ones: ``teams.parquet`` (team, label, name), ``conversion.csv`` (a director's own 级差分
table; presets are named in event.toml only), and per round ``matches``, ``lineups``,
``match_results`` and ``team_standings``. Each step writes its files in one
``replace_files`` call.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import GuandanError, InvalidPlanError
from ..knockout import rounds_needed
from ..movement import derive_seed
from ..reading import read_parquet
from ..reports.team_tables import team_reports
from ..teams import (
    ConversionTable,
    berger_round,
    default_lineups,
    home_first,
    load_lineups,
    matches_frame,
    preset,
    resolve,
    score_matches,
    seating_frame,
    swiss_round,
    team_standings,
)
from ..teams.awards import parse_awards
from ..teams.conversion import PRESETS, load
from ..teams.registration import (
    load_team_names,
    load_team_players,
    load_team_seeding,
    number_teams,
)
from ..teams.roundrobin import cycle_length
from . import cards
from .folder import RESULTS_DIGEST, EventFolder, parquet_bytes
from .plan import EventPlan

CONVERSION_FILE = "conversion.csv"
LOT_LABEL = "team standings tie-break lot"
CONVERSION_META = b"guandan_dup.conversion"
"""Team standings metadata key: the name of the conversion table they were scored with."""
PAIRED_FROM = b"guandan_dup.paired_from"
"""Swiss matches metadata key: the team order (positions after the previous round) the
round was paired from, so a pairing made from standings corrected since can be told."""


def max_rounds(fmt: str, teams: int) -> int:
    """A Swiss has no rematch-free round beyond n - 1 (n with byes); a round robin may
    run two cycles (a double round robin)."""
    if fmt == "swiss":
        return cycle_length(teams)
    return 2 * cycle_length(teams)


def team_event_files(
    path: Path,
    players_csv: str | os.PathLike,
    fmt: str,
    rounds: int | None,
    boards_per_set: int,
    key: bytes,
    conversion: str | os.PathLike = "linear",
    name: str | None = None,
    seeding: str | os.PathLike | None = None,
    team_names: str | os.PathLike | None = None,
    awards: str = "",
    qualified: list[str] | None = None,
) -> tuple[EventPlan, dict[Path, bytes]]:
    """The plan of a new team event and its files beside event.toml and the key, which
    ``create_event`` writes with them in one step; ``awards`` overrides awards of artificial
    matches (``teams.awards.parse_awards``).

    A knockout (``fmt="knockout"``) has as many rounds as its bracket needs; ``qualified``
    (team labels, best first: a finished stage's top teams) seeds it, and only the players
    of those teams are registered for it.
    """
    table = resolve(conversion)
    players = load_team_players(players_csv)
    labels = list(dict.fromkeys(players["label"]))
    names = load_team_names(team_names, labels) if team_names is not None else {}
    seeded = load_team_seeding(seeding, labels) if seeding is not None else None
    if qualified is not None:
        missing = [t for t in qualified if t not in labels]
        if seeding is not None or missing:
            raise InvalidPlanError(
                "give --seeding or --seed-from, not both" if not missing else
                f"team(s) {missing} go through from the earlier stage but have no players in "
                "the players file")
        players = players[players["label"].isin(qualified)].reset_index(drop=True)
        labels, seeded = list(qualified), list(qualified)
    if fmt == "knockout":
        rounds = rounds_needed(len(labels))
    elif len(labels) >= 2 and rounds > max_rounds(fmt, len(labels)):
        raise InvalidPlanError(
            f"rounds = {rounds}: a {fmt} of {len(labels)} teams has at most "
            f"{max_rounds(fmt, len(labels))} rounds"
            + (" without rematches" if fmt == "swiss" else " (two cycles)")
        )
    plan = EventPlan(
        name=name or path.resolve().name,
        kind="teams",
        players=len(players),
        tables_per_group=max(2 * (len(labels) // 2), 1),
        sets_per_round=1,
        boards_per_set=boards_per_set,
        rounds=rounds,
        seeding="list" if seeded else "lot",
        format=fmt,
        teams=len(labels),
        conversion=table.name,
        awards=awards,
    )
    numbered, teams = number_teams(players, key, seeded, names)
    files = {
        path / "players.parquet": parquet_bytes(numbered),
        path / "teams.parquet": parquet_bytes(teams),
    }
    if table is not PRESETS.get(table.name):
        files[path / CONVERSION_FILE] = table.to_csv().encode("utf-8")
    return plan, files


def conversion_of(folder: EventFolder) -> ConversionTable:
    """The event's 级差分 table: the folder's own conversion.csv, else the named preset."""
    own = folder.path / CONVERSION_FILE
    if own.exists():
        return load(own, name=folder.plan.conversion)
    return preset(folder.plan.conversion)


def teams_of(folder: EventFolder) -> pd.DataFrame:
    """teams.parquet: team number, label (the players file's team), name."""
    return read_parquet(folder.path / "teams.parquet", "event file").to_pandas()


def team_caption(number: int, name: str) -> str:
    """How a director reads a team out: its number, then its name when it has one."""
    return f"team {number}" + (f" {name}" if name and name != str(number) else "")


@dataclass(frozen=True)
class TeamSeating:
    """A seated round: its matches, lineups and tables, and any rematch it could not avoid."""

    matches: pd.DataFrame
    lineups: pd.DataFrame
    seating: pd.DataFrame
    warnings: list[str] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=dict)
    """Team number -> name, for the lines a director reads out."""

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
        return lines + [f"Warning: {w}" for w in self.warnings]


def previous_order(folder: EventFolder, round_no: int) -> list[int]:
    """Team numbers by position after the previous round (round 1: by team number)."""
    if round_no == 1:
        return list(range(1, folder.plan.teams + 1))
    standings = folder.read(round_no - 1, "team_standings")
    if standings is None or folder.scored_out_of_date(round_no - 1):
        state = "is not scored yet" if standings is None else "changed after it was scored"
        raise GuandanError(
            f"round {round_no - 1} {state}, so the Swiss pairing of round {round_no} cannot "
            f"be made; run `guandan-dup event score DIR --round {round_no - 1}` first"
        )
    return standings.sort_values("position")["team"].astype(int).tolist()


def _order_text(order: list[int]) -> bytes:
    return ",".join(map(str, order)).encode()


def pairing_out_of_date(folder: EventFolder, round_no: int) -> bool:
    """Whether round R's Swiss pairing was made from positions after round R-1 that differ
    from that round's standings now (its results were corrected and re-scored since)."""
    path = folder.file(round_no, "matches")
    if round_no == 1 or not path.exists():
        return False
    recorded = (pq.read_schema(path).metadata or {}).get(PAIRED_FROM)
    standings = folder.read(round_no - 1, "team_standings")
    if recorded is None or standings is None:
        return False
    return recorded != _order_text(
        standings.sort_values("position")["team"].astype(int).tolist())


def pair_round(
    folder: EventFolder, round_no: int
) -> tuple[pd.DataFrame, list[str], list[int] | None]:
    """The round's matches: Berger tables, or the Swiss pairing from the standings and the
    matches of the earlier rounds; with warnings naming any rematch, and the Swiss order
    (team numbers by position) it was paired from."""
    plan = folder.plan
    if plan.format == "round-robin":
        return matches_frame(round_no, berger_round(plan.teams, round_no)), [], None
    earlier = folder.read_rounds("matches", range(1, round_no))
    met, byes = set(), set()
    if earlier is not None:
        played = earlier[earlier["away"].notna()]
        met = {frozenset((int(h), int(a))) for h, a in zip(played["home"], played["away"],
                                                           strict=True)}
        byes = set(earlier.loc[earlier["away"].isna(), "home"].astype(int))
    order = previous_order(folder, round_no)
    pairing = swiss_round(order, met, byes, round_no)
    pairs = [home_first(p, round_no) for p in pairing.pairs]
    pairs += [(pairing.bye, None)] if pairing.bye is not None else []
    warnings = [f"teams {a} and {b} meet again: no pairing avoids every rematch"
                for a, b in pairing.rematches]
    return matches_frame(round_no, pairs), warnings, order


def room_captions(matches: pd.DataFrame, names: dict[int, str]) -> dict[int, str]:
    """Table -> "Match m 第m场 · open room 开室 · home 主队 5 北京队 v away 客队 2 南京队" for
    the table cards (players know their team's name better than its number)."""
    captions = {}
    for m in matches[matches["away"].notna()].itertuples():
        home, away = (f"{t} {names.get(int(t), '')}".rstrip() for t in (m.home, m.away))
        teams = f"home 主队 {home} v away 客队 {away}"
        captions[int(m.open_table)] = f"Match {m.match} 第{m.match}场 · open room 开室 · {teams}"
        captions[int(m.closed_table)] = (
            f"Match {m.match} 第{m.match}场 · closed room 闭室 · {teams}")
    return captions


def seat_team_round(
    folder: EventFolder, round_no: int, lineups: str | os.PathLike | None = None
) -> TeamSeating:
    """Write rounds/R/{matches,lineups,seating}.parquet and table-cards.html."""
    matches, warnings, order = pair_round(folder, round_no)
    return seat_matches(folder, round_no, matches, lineups, warnings, paired_from=order)


def seat_matches(
    folder: EventFolder,
    round_no: int,
    matches: pd.DataFrame,
    lineups: str | os.PathLike | None = None,
    warnings: list[str] | None = None,
    extra: dict[Path, bytes] | None = None,
    paired_from: list[int] | None = None,
) -> TeamSeating:
    """Seat a round's ``matches`` with their lineups and write them, with ``extra`` files
    of the same step (a knockout's bracket), in one ``replace_files``; ``paired_from`` is
    the team order a Swiss round was paired from (kept to spot a stale pairing)."""
    real = matches[matches["away"].notna()]
    playing = sorted({int(t) for t in real["home"]} | {int(t) for t in real["away"]})
    players = folder.players()
    teams = teams_of(folder)
    numbers = dict(zip(teams["label"], teams["team"].astype(int), strict=True))
    chosen = (default_lineups(round_no, playing, players) if lineups is None
              else load_lineups(lineups, round_no, playing, players, numbers))
    seating = seating_frame(matches, chosen)
    names = dict(zip(players["player"], players["name"], strict=True))
    no_byes = pd.DataFrame({"player": pd.Series(dtype="str")})
    team_names = dict(zip(teams["team"].astype(int), teams["name"], strict=True))
    html = cards.to_html(folder.plan, round_no, seating, no_byes, names,
                         room_captions(matches, team_names))
    arrow = pa.Table.from_pandas(matches, preserve_index=False)
    paired = {} if paired_from is None else {PAIRED_FROM: _order_text(paired_from)}
    folder.replace_files({
        folder.file(round_no, "matches"): parquet_bytes(
            arrow.replace_schema_metadata((arrow.schema.metadata or {}) | paired)),
        folder.file(round_no, "lineups"): parquet_bytes(chosen),
        folder.file(round_no, "seating"): parquet_bytes(seating),
        folder.file(round_no, "table-cards.html"): html.encode("utf-8"),
        **(extra or {}),
    })
    return TeamSeating(matches, chosen, seating, warnings or [], team_names)


@dataclass(frozen=True)
class TeamScored:
    """A scored round of a team event: every round's match results and standings so far."""

    match_results: pd.DataFrame
    standings: pd.DataFrame
    conversion: str
    warnings: list[str] = field(default_factory=list)

    def summary(self, round_no: int) -> str:
        current = self.standings[self.standings["round"] == round_no]
        leader = current.sort_values("position").iloc[0]
        return (f"Scored round {round_no}: {len(current)} teams; leader team {leader['team']} "
                f"({leader['match_points']:g} 场分, {leader['level_points']:.2f} 级差分; "
                f"conversion {self.conversion}).")


def score_team_round(
    folder: EventFolder, round_no: int, adjustments: pd.DataFrame | None = None,
    penalties: pd.DataFrame | None = None,
) -> TeamScored:
    """Write rounds/R/{match_results,team_standings}.parquet from rounds 1..R.

    ``adjustments`` (round, team, kind) are the director's forfeits and excused absences,
    ``penalties`` (round, team, match_halves, level_hundredths) the 场分 and 级差分 taken off
    teams' totals, e.g. from the ledger. ``score_round`` has checked the round and the
    later ones.
    """
    plan = folder.plan
    rounds = range(1, round_no + 1)
    unseated = [r for r in rounds if folder.read(r, "matches") is None]
    if unseated:
        raise GuandanError(f"round(s) {unseated} have no matches: seat them first")
    matches = folder.read_rounds("matches", rounds)
    results = folder.read_rounds("results", rounds)
    table = conversion_of(folder)
    scored = score_matches(matches, results, table, plan.format, adjustments,
                           parse_awards(plan.awards))
    standings = team_standings(scored, list(range(1, plan.teams + 1)), plan.format,
                               derive_seed(folder.key(), LOT_LABEL), last_round=round_no,
                               penalties=penalties)
    meta = {RESULTS_DIGEST: folder.results_digest(round_no), CONVERSION_META: table.name}
    out = {}
    for name, frame in (("match_results", scored), ("team_standings", standings)):
        arrow = pa.Table.from_pandas(frame[frame["round"] == round_no], preserve_index=False)
        out[folder.file(round_no, name)] = parquet_bytes(
            arrow.replace_schema_metadata((arrow.schema.metadata or {}) | meta))
    folder.replace_files(out)
    return TeamScored(scored, standings, table.name)


def team_round_reports(
    folder: EventFolder, round_no: int, fmt: str, penalties: pd.DataFrame | None = None
) -> dict[str, str | bytes]:
    """The round's team standings and match results as ``fmt`` (``event export``), with the
    ledger's ``team_penalties`` of rounds <= R listed under the standings."""
    teams = teams_of(folder)
    names = pd.Series(teams["name"].to_numpy(), index=teams["team"].astype(int))
    return team_reports(
        folder.read(round_no, "team_standings"), folder.read(round_no, "match_results"),
        folder.read(round_no, "matches"), names, round_no, folder.plan.conversion, fmt,
        None if penalties is None else penalties[penalties["round"] <= round_no])
