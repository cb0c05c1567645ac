"""Team events played as a Swiss or a round robin (SPEC 8; seed 000 art. 26, 29, 47-50):
every round's matches paired (积分编排, or Berger tables), scored in 场分 and 级差分, teams
ranked by art. 49 after every round, on a site of team pages.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ...errors import GuandanError, InvalidPlanError
from ...lots import derive_seed
from ...reports.site.teams import TeamSiteData, build_team_site
from ...reports.team_tables import conversion_name, team_reports
from ...seats import SEAT_COLUMNS
from ...teams import (
    ConversionTable,
    berger_round,
    home_first,
    matches_frame,
    score_matches,
    swiss_round,
)
from ...teams import team_standings as rank_teams
from ...teams.awards import parse_awards
from ...teams.matches import MATCH_COLUMNS, MATCH_RESULT_COLUMNS
from ...teams.roundrobin import cycle_length
from ...wording import counted, event_command, numbered, plural
from ..decisions import decisions
from ..finality import final
from ..folder import RESULTS_DIGEST, EventFolder, parquet_bytes
from ..ledger import effects, read_ledger, scoring_metadata
from ..people import People, people_of
from ..publish import counted_pending, public_sets, site_folder, stacked
from ..score import write_scored
from ..walkovers import match_adjustments, withdrawn_teams
from .base import Provisional
from .stages import stage_links
from .team_matches import TeamFormat, conversion_of, teams_of

LOT_LABEL = "team standings tie-break lot"
CONVERSION_META = b"guandan_dup.conversion"
"""Team standings metadata key: the name of the conversion table they were scored with."""
PAIRED_FROM = b"guandan_dup.paired_from"
"""Swiss matches metadata key: the team order (positions after the previous round) the
round was paired from, so a pairing made from standings corrected since can be told."""


@dataclass(frozen=True)
class TeamScored:
    """A scored round of a team event: every round's match results and standings so far."""

    match_results: pd.DataFrame
    standings: pd.DataFrame
    conversion: str
    warnings: list[str] = field(default_factory=list)

    def summary(self, round_no: int, people: People) -> str:
        current = self.standings[self.standings["round"] == round_no]
        leader = current.sort_values("position").iloc[0]
        return (f"Scored round {round_no}: {len(current)} teams; leader "
                f"{people.team(leader['team'])} "
                f"({leader['match_points']:g} 场分, {leader['level_points']:.2f} 级差分; "
                f"级差分换算表 {conversion_name(self.conversion, 'zh')}).")


class TeamLeague(TeamFormat):
    """A team event whose every team plays every round: a Swiss or a round robin."""

    standings_name = "team_standings"
    takes = ("rounds", "conversion", "team_names", "awards")
    needs = ("rounds",)

    def max_rounds(self, teams: int) -> int:
        """The most rounds the format can pair for ``teams``."""
        raise NotImplementedError

    def create(self, path, request, key):
        players, seeded, options, files = self.registered_teams(path, request, key)
        teams = options.teams
        if teams >= 2 and request.rounds > self.max_rounds(teams):
            raise InvalidPlanError(
                f"rounds = {request.rounds}: a {self.format} of {teams} teams has at most "
                f"{self.max_rounds(teams)} rounds {self.rounds_limit}")
        return self.team_plan(path, request, players, request.rounds, seeded, options), files

    def created(self, plan, where):
        teams = plan.options.teams
        byes = ("Each round 1 team has a bye (轮空): an odd number of teams." if teams % 2
                else "No byes: every team plays a match each round.")
        return (f"Created team event ({plan.format}) {plan.name!r} in {where}: "
                f"{counted(teams, 'team')}, {counted(plan.players, 'player')}, "
                f"{counted(plan.rounds, 'round')} of one set of "
                f"{counted(plan.boards_per_set, 'board')}; 级差分 conversion "
                f"{plan.options.conversion!r}.\n{byes}")

    def score(self, folder, round_no, override, command):
        decided = effects(folder)
        return score_team_round(folder, round_no, match_adjustments(folder, decided),
                                decided.team_penalties, override, command)

    def score_lines(self, folder, scored, round_no):
        return [scored.summary(round_no, people_of(folder))]

    def provisional(self, folder, round_no, counted):
        """The team standings after round R (art. 49, ``team_scoring``) from the rounds
        whose set is counted: 场分 ``match_points`` and 级差分 ``level_points`` (totals, the
        penalties off), ``played`` the matches counted."""
        decided = effects(folder)
        rounds = [r for r in range(1, round_no + 1)
                  if all((r, s) in counted for s in folder.plan.sets_of_round(r))]
        _, standings = team_scoring(folder, round_no, conversion_of(folder),
                                    match_adjustments(folder, decided), decided.team_penalties,
                                    rounds)
        teams = teams_of(folder)
        names = pd.Series(teams["name"].astype(str).to_numpy(), index=teams["team"].astype(int))
        table = standings[standings["round"] == round_no].sort_values("position")
        table = table.assign(name=table["team"].map(names))
        return Provisional(table[["position", "rank", "rank_label", "team", "name",
                                  "match_points", "level_points", "played"]]
                           .reset_index(drop=True))

    def round_reports(self, folder, round_no, fmt, context):
        return team_reports(
            folder.read(round_no, "team_standings"), folder.read(round_no, "match_results"),
            folder.read(round_no, "matches"), context.team_names, round_no,
            folder.plan.options.conversion, fmt, context.decisions_until(round_no),
            context.standings_note)

    def write_site(self, folder, out_dir, lang, show_progress):
        return build_team_site(gather_team_site(folder), site_folder(folder, out_dir), lang,
                               show_progress)

    def final_standings(self, folder):
        names = teams_of(folder)[["team", "name"]]
        return folder.read(folder.plan.rounds, "team_standings").merge(names, on="team",
                                                                       how="left")


class TeamSwiss(TeamLeague):
    """积分编排 (art. 26): round 1 by slide pairing, later rounds top down by standing,
    without rematches where any pairing avoids them."""

    format = "swiss"
    title = "team event (Swiss)"
    rounds_limit = "without rematches"

    def max_rounds(self, teams):
        return cycle_length(teams)  # no rematch-free round beyond n - 1 (n with byes)

    def pair_round(self, folder, round_no):
        earlier = folder.read_rounds("matches", range(1, round_no))
        met, byes = set(), set()
        if earlier is not None:
            played = earlier[earlier["away"].notna()]
            met = {frozenset((int(h), int(a))) for h, a in zip(played["home"], played["away"],
                                                               strict=True)}
            byes = set(earlier.loc[earlier["away"].isna(), "home"].astype(int))
        gone = withdrawn_teams(effects(folder), round_no)  # they leave the movement
        order = [t for t in previous_order(folder, round_no) if t not in gone]
        pairing = swiss_round(order, met, byes, round_no)
        pairs = [home_first(p, round_no) for p in pairing.pairs]
        pairs += [(pairing.bye, None)] if pairing.bye is not None else []
        warnings = [f"teams {a} and {b} meet again: no pairing avoids every rematch"
                    for a, b in pairing.rematches]
        return (matches_frame(round_no, pairs), warnings, {PAIRED_FROM: _order_text(order)},
                {})

    def reseat_because(self, folder, round_no):
        if self.pairing_out_of_date(folder, round_no) and not folder.has_results(round_no):
            return f"round {round_no - 1}'s standings changed since this round was paired"
        return None

    def pairing_out_of_date(self, folder, round_no):
        """Whether round R's pairing was made from positions after round R-1 that differ
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


class TeamRoundRobin(TeamLeague):
    """Berger tables (the circle method), one bye a round when the teams are odd; up to two
    cycles (a double round robin)."""

    format = "round-robin"
    title = "team event (round robin)"
    rounds_limit = "(two cycles)"

    def max_rounds(self, teams):
        return 2 * cycle_length(teams)

    def pair_round(self, folder, round_no):
        return matches_frame(round_no, berger_round(folder.plan.options.teams, round_no)), \
            [], {}, {}


def previous_order(folder: EventFolder, round_no: int) -> list[int]:
    """Team numbers by position after the previous round (round 1: by team number)."""
    if round_no == 1:
        return list(range(1, folder.plan.options.teams + 1))
    standings = folder.read(round_no - 1, "team_standings")
    if standings is None:
        raise GuandanError(
            f"round {round_no - 1} is not scored yet, so the Swiss pairing of round {round_no} "
            f"cannot be made; run `{event_command(folder.path, 'score', round_no - 1)}` first"
        )
    folder.check_seats_from(round_no, f"the Swiss pairing of round {round_no}")
    return standings.sort_values("position")["team"].astype(int).tolist()


def _order_text(order: list[int]) -> bytes:
    return ",".join(map(str, order)).encode()


def score_team_round(
    folder: EventFolder, round_no: int, adjustments: pd.DataFrame | None = None,
    penalties: pd.DataFrame | None = None, override: bool = False, command: str = "",
) -> TeamScored:
    """Write rounds/R/{match_results,team_standings}.parquet from rounds 1..R.

    ``adjustments`` (round, team, kind) are the director's forfeits and excused absences,
    ``penalties`` (round, team, match_halves, level_hundredths) the 场分 and 级差分 taken off
    teams' totals, e.g. from the ledger. ``score_round`` has checked the round and the
    later ones; re-scoring a final round so that its outputs change needs ``override``
    (art. 48, ``score.write_scored``).
    """
    rounds = range(1, round_no + 1)
    unseated = [r for r in rounds if folder.read(r, "matches") is None]
    if unseated:
        many = len(unseated)
        raise GuandanError(f"{numbered('round', unseated)} {plural('has', many, 'have')} no "
                           f"matches: seat {plural('it', many, 'them')} first (`"
                           f"{event_command(folder.path, 'seat', unseated[0])}`)")
    table = conversion_of(folder)
    scored, standings = team_scoring(folder, round_no, table, adjustments, penalties)
    meta = {RESULTS_DIGEST: folder.results_digest(round_no), CONVERSION_META: table.name,
            **scoring_metadata(folder, round_no, read_ledger(folder))}
    out = {}
    for name, frame in (("match_results", scored), ("team_standings", standings)):
        arrow = pa.Table.from_pandas(frame[frame["round"] == round_no], preserve_index=False)
        out[folder.file(round_no, name)] = parquet_bytes(
            arrow.replace_schema_metadata((arrow.schema.metadata or {}) | meta))
    write_scored(folder, round_no, out, override, command)
    return TeamScored(scored, standings, table.name)


def team_scoring(
    folder: EventFolder, round_no: int, table: ConversionTable,
    adjustments: pd.DataFrame | None = None, penalties: pd.DataFrame | None = None,
    rounds: Collection[int] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(match results, standings after every round 1..R) of the matches of ``rounds``
    (default: every round 1..R; the live scoreboard's: those whose set is public) scored
    with the 级差分 ``table``, in memory. A round left out counts as not yet played: its
    matches, byes and ``adjustments`` wait, its ``penalties`` stay in force."""
    plan = folder.plan
    rounds = range(1, round_no + 1) if rounds is None else sorted(rounds)
    matches = folder.read_rounds("matches", rounds)
    results = folder.read_rounds("results", rounds)
    if matches is None:
        matches = pd.DataFrame({c: pd.Series(dtype="int64") for c in MATCH_COLUMNS})
    if adjustments is not None:
        adjustments = adjustments[adjustments["round"].isin(rounds)]
    scored = score_matches(matches, pd.DataFrame() if results is None else results, table,
                           plan.format, adjustments, parse_awards(plan.options.awards))
    standings = rank_teams(scored, list(range(1, plan.options.teams + 1)), plan.format,
                           derive_seed(folder.key(), LOT_LABEL), last_round=round_no,
                           penalties=penalties)
    return scored, standings


def gather_team_site(folder: EventFolder) -> TeamSiteData:
    """Every table a team event's site shows, read once from the folder; boards, rooms'
    results and match results of rounds whose sets are public only (``publish.public_sets``),
    and standings only where they count no pending set (``publish.counted_pending``): the
    others are withheld, since a match's 场分 or a standing would give a pending room away;
    the director's decisions of public sets (``event.decisions``) and the rounds still in
    their correction time (art. 48: provisional standings)."""
    plan = folder.plan
    scored = folder.rounds_scored()
    planned = range(1, plan.rounds + 1)
    done = public_sets(folder, scored)
    ledger = read_ledger(folder)
    complete = {r: [s for s in plan.sets_of_round(r) if (r, s) in done] for r in scored}
    withheld = counted_pending(scored, plan.sets_of_round, done)
    public = [r for r in scored if set(complete[r]) == set(plan.sets_of_round(r))]
    boards = [
        frame[frame["set"].isin(complete[r])]
        for r in scored
        if complete[r] and (frame := folder.read(r, "boards")) is not None
    ]
    return TeamSiteData(
        name=plan.name,
        planned_rounds=plan.rounds,
        commitment=folder.commitment,
        key_hex=folder.key().hex() if folder.key_revealed else None,
        reveal_override=folder.reveal_override,
        conversion=plan.options.conversion,
        teams=teams_of(folder),
        players=folder.players(),
        rounds_scored=scored,
        standings={r: folder.read(r, "team_standings") for r in scored if r not in withheld},
        withheld=withheld,
        matches=stacked(folder, "matches", planned, MATCH_COLUMNS),
        match_results=stacked(folder, "match_results", public, MATCH_RESULT_COLUMNS),
        rooms=stacked(folder, "results", public, ("round", "table", *SEAT_COLUMNS,
                                                   "ns_level", "ew_level", "adjusted")),
        set_of_round={r: plan.sets_of_round(r)[0] for r in planned},
        complete_sets=frozenset(s for sets in complete.values() for s in sets),
        boards=pd.concat(boards, ignore_index=True) if boards else pd.DataFrame(
            columns=["set"]),
        boards_files={
            r: folder.file(r, "boards") for r in scored
            if set(complete[r]) == set(plan.sets_of_round(r)) and folder.file(
                r, "boards").exists()
        },
        decisions=decisions(ledger, effects(folder, ledger), done),
        correcting=frozenset(scored) - final(folder, ledger),
        stages=stage_links(folder),
    )
