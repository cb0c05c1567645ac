"""Events reseated by standing (SPEC 6, 7): individual and pairs events, scored by score
rates, the players' standings after every round seating the next.

``ByStanding`` holds what the two share (the plan's groups and sets, creation from a
players file, scoring with the ledger, the standings export, the rehearsal's final
table); ``Individual`` and ``Pairs`` say only how a round is seated.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from ...errors import GuandanError, InvalidPlanError, Problem
from ...ledger import registered
from ...movement import Seating, seeded_then_lot, seeding_order
from ...movement.groups import awkward, group_sizes, suggested_tables_per_group
from ...movement.players import load_players, load_seeding
from ...ranking import standing_ranks
from ...reports.tables import standings_document
from ...scoring.venues import venue_slug, venues_of
from ...seats import SEAT_COLUMNS
from ...wording import counted, event_command, pasteable, plural, words
from ..entrants import demo_players
from ..folder import EVENT_TOML, EventFolder, parquet_bytes
from ..ledger import effects, event_context, read_ledger
from ..people import people_of
from ..plan import EventPlan
from ..score import players_scoring, score_players
from ..seat import (
    away_players,
    refuse_lineups,
    round_order,
    substituting,
    write_player_seating,
)
from .base import EventFormat, InitRequest, Provisional


def round_one_order(players: pd.DataFrame, key: bytes, seeding: list[str] | None) -> list[str]:
    """Seeded players in seeding order, then the unseeded ones by lot.

    In a pairs event a pair stands where its better seeded (or better drawn) player stands,
    and its two players follow each other.
    """
    if seeding is None:
        seeding = seeding_order(players[players["seed"].notna()])
    order = seeded_then_lot(players["player"], seeding, key)
    if "pair" not in players.columns:
        return order
    pair_of = dict(zip(players["player"], players["pair"], strict=True))
    members = players.groupby("pair", sort=False)["player"].agg(list)
    pairs = pd.Series([pair_of[p] for p in order]).drop_duplicates()
    return [p for pair in pairs for p in members[pair]]


def registered_players(kind: str, request: InitRequest, key: bytes) -> tuple[pd.DataFrame, bool]:
    """The players file read for ``kind`` with the round-1 order fixed once as its ``seed``
    column (seeding list, else the file's seeds, then the lot); and whether any seed was
    given (the plan's ``seeding``)."""
    players = load_players(request.players, kind)
    seeded = load_seeding(request.seeding, players["player"]) if request.seeding else None
    seeded_any = bool(seeded) or bool(players["seed"].notna().any())
    order = round_one_order(players, key, seeded)
    players["seed"] = players["player"].map({p: i for i, p in enumerate(order, 1)}).astype("int64")
    return players.sort_values("seed", ignore_index=True), seeded_any


SEATED_FROM = b"guandan_dup.seated_from"
"""Seating metadata key: the players (best first) a round was seated from, as JSON."""


def seated_ids(seating: pd.DataFrame) -> set[str]:
    """Every player a seating puts at a table."""
    return {str(p) for column in SEAT_COLUMNS for p in seating[column] if not pd.isna(p)}


def venue_sizes(players: pd.DataFrame) -> tuple[tuple[str, int], ...]:
    """The plan's ``venues``: each venue of the players table with its player count, sorted
    by name (code point order, so the same file gives the same table numbers whatever
    order its lines are in); ``()`` without a venue column."""
    if "venue" not in players:
        return ()
    return tuple((str(v), int(n)) for v, n in players["venue"].value_counts().sort_index().items())


def seat_by_venue(folder: EventFolder, order: list[str], seat_field) -> Seating:
    """``seat_field(order, venue)`` called for each venue of the plan with that venue's
    players of ``order`` (best first), its tables and groups renumbered to the venue's own
    (``EventPlan.venue_tables``); without venues, once for the whole field (venue ``None``)."""
    plan = folder.plan
    if not plan.venues:
        return seat_field(order, None)
    players = folder.players()
    venue_of = dict(zip(players["player"], players["venue"], strict=True))
    parts = []
    for venue, tables in plan.venue_tables().items():
        mine = [p for p in order if venue_of.get(p) == venue]
        try:
            part = seat_field(mine, venue)
        except InvalidPlanError as error:
            raise InvalidPlanError(f"venue {venue!r}: {error}") from None
        offset = plan.group_of_table(tables.start) - 1
        parts.append(replace(part, seating=part.seating.assign(
            table=part.seating["table"] + (tables.start - 1),
            group=part.seating["group"] + offset)))
    return replace(parts[0], **{name: pd.concat([getattr(p, name) for p in parts],
                                                ignore_index=True)
                                for name in ("seating", "byes", "repeats")})


def venues_note(plan) -> str:
    """`` (venues 南京 tables 1-3, 淮安 tables 4-5)`` for an event with venues, else ""."""
    if not plan.venues:
        return ""
    return " (venues " + ", ".join(f"{v} tables {t.start}-{t.stop - 1}"
                                   for v, t in plan.venue_tables().items()) + ")"


def venue_tables(venues) -> list[int]:
    """The tables of each venue (one number for an event in one room)."""
    return [players // 4 for _, players in venues]


def group_words(tables: list[int], size: int) -> str:
    """``one group of 7 tables``, ``groups of 4 and 3 tables``: what ``size`` tables a
    group makes of each venue's ``tables``."""
    sizes = [n for venue in tables for n in group_sizes(venue, size)]
    if len(sizes) == 1:
        return f"one group of {counted(sizes[0], 'table')}"
    runs = sorted(set(sizes), reverse=True)
    return f"groups of {words(runs)} {plural('table', max(runs))}"


def groups_advice(plan, where: str) -> list[str]:
    """A line when the plan's tables per group leave a last group of fewer than half a
    full one's tables (``movement.groups.awkward``): the size that does not, and how to
    take it before round 1 is dealt (event.toml's ``tables_per_group``, docs/
    director-guide.md, "Create the event")."""
    tables = venue_tables(plan.venues or (("", plan.players),))
    if not awkward(tables, plan.tables_per_group):
        return []
    size = suggested_tables_per_group(tables, plan.tables_per_group)
    toml = pasteable(str(Path(where) / EVENT_TOML))
    return [f"Note: --tables-per-group {plan.tables_per_group} makes "
            f"{group_words(tables, plan.tables_per_group)}: a last group of less than half "
            f"a full one seats its few players only among themselves; --tables-per-group "
            f"{size} makes "
            f"{group_words(tables, size)} (set tables_per_group = {size} in {toml} before "
            "round 1 is dealt)."]


class ByStanding(EventFormat):
    """An event of players (or pairs) reseated by standing after every round."""

    takes = ("tables_per_group", "sets_per_round", "rounds")
    needs = ("tables_per_group", "sets_per_round", "rounds")
    pairs = False
    """Whether entrants play in fixed pairs (the players file's ``pair``)."""
    by_venue = True

    def tables(self, plan):
        if plan.venues:
            return sum(players // 4 for _, players in plan.venues)
        return plan.players // 4

    def create(self, path, request: InitRequest, key: bytes):
        players, seeded = registered_players(self.kind, request, key)
        self.check_entrants(players)
        plan = EventPlan(
            name=request.name or path.resolve().name,
            kind=self.kind,
            players=len(players),
            tables_per_group=request.tables_per_group,
            sets_per_round=request.sets_per_round,
            boards_per_set=request.boards_per_set,
            rounds=request.rounds,
            rotate_partners=request.rotate_partners,
            seeding="list" if seeded else "lot",
            correction_minutes=request.correction_minutes,
            venues=venue_sizes(players),
            compare_within=request.compare_within,
        )
        return plan, {path / "players.parquet": parquet_bytes(players)}

    def check_entrants(self, players: pd.DataFrame) -> None:
        """Refuse a players file the format cannot seat (a pair without two players)."""

    def check_request(self, request):
        """Refused as every format refuses; without ``--tables-per-group``, with the size
        the players file suggests (``movement.groups``), when it can be read."""
        try:
            super().check_request(request)
        except InvalidPlanError as error:
            if request.tables_per_group is not None or request.players is None:
                raise
            try:
                players = load_players(request.players, self.kind)
            except GuandanError:
                raise error from None
            tables = venue_tables(venue_sizes(players) or (("", len(players)),))
            size = suggested_tables_per_group(tables)
            raise InvalidPlanError(
                f"{error} ({len(players)} players make {counted(sum(tables), 'table')}: "
                f"--tables-per-group {size} makes {group_words(tables, size)})") from None

    def created(self, plan, where):
        return "\n".join([
            f"Created {plan.kind} event {plan.name!r} in {where}: "
            f"{counted(plan.players, 'player')}, {counted(plan.tables(), 'table')} in "
            f"{counted(plan.groups(), 'group')}{venues_note(plan)}, "
            f"{counted(plan.rounds, 'round')} of {counted(plan.sets_per_round, 'set')} of "
            f"{counted(plan.boards_per_set, 'board')}.",
            self.byes_line(plan),
            *groups_advice(plan, where)])

    def byes_line(self, plan) -> str:
        """How many sit out (轮空) each round: the players beyond a multiple of 4 (in a pairs
        event, a pair beyond an even number), in each venue."""
        unit, size = ("pair", 2) if self.pairs else ("player", 4)
        per = 4 // size  # players an entrant is
        venues = plan.venues or (("", plan.players),)
        count = {v: n // per % size for v, n in venues}
        byes = sum(count.values())
        entrants = plan.players // per
        fill = (f"{counted(entrants, unit)} fill {counted(plan.tables(), 'table')}"
                f"{'' if self.pairs else ' of 4'}")
        if not byes:
            return f"No byes: {fill}."
        where = (", " + words(f"{n} in {v}" for v, n in count.items() if n)
                 if plan.venues else "")
        return (f"Each round {counted(byes, unit)} {plural('has', byes, 'have')} a bye (轮空)"
                f"{where}: {fill}.")

    def plan_seating(self, folder: EventFolder, round_no: int, order: list[str],
                     away: set[str]) -> Seating:
        """The seating of ``round_no`` from the players in ``order`` (best first), those
        ``away`` (the ledger's withdrawals and later entries) left out."""
        raise NotImplementedError

    def seating_order(self, folder: EventFolder, round_no: int) -> tuple[list[str], set[str]]:
        """(the players round R is seated from, best first; those the ledger keeps away:
        withdrawn, entering later, or substituting for another that round)."""
        missing = away_players(folder, round_no) | substituting(folder, round_no)
        return [p for p in round_order(folder, round_no) if p not in missing], missing

    def seat(self, folder, round_no, lineups, with_cards=True):
        refuse_lineups(lineups)
        order, missing = self.seating_order(folder, round_no)
        seating = self.plan_seating(folder, round_no, order, missing)
        written = write_player_seating(folder, round_no, seating,
                                       metadata={SEATED_FROM: json.dumps(order).encode()},
                                       with_cards=with_cards)
        people = people_of(folder)
        return replace(written, names=people.names(), pairs=people.pair_by_player())

    def reseat_because(self, folder, round_no):
        """A seated round without results is to be seated again when the ledger keeps a
        player it seats away (withdrawn since), or when the order it was seated from (the
        previous round's standings, ``SEATED_FROM``) has changed since: seated the other
        way round, the two commands would have given another seating."""
        path = folder.file(round_no, "seating")
        if not path.exists() or folder.has_results(round_no):
            return None
        seated = seated_ids(folder.read(round_no, "seating"))
        away = sorted(seated & away_players(folder, round_no))
        if away:
            return (f"the ledger keeps {people_of(folder).players(away)} out of it since it "
                    "was seated")
        subs = sorted(seated & substituting(folder, round_no))
        if subs:
            return (f"the ledger has {people_of(folder).players(subs)} substitute in it since "
                    "it was seated, so not at a table of their own")
        recorded = (pq.read_schema(path).metadata or {}).get(SEATED_FROM)
        try:
            order, _ = self.seating_order(folder, round_no)
        except GuandanError:
            return None  # the previous round is to be scored first: status says so
        if recorded is not None and recorded != json.dumps(order).encode():
            return f"round {round_no - 1}'s standings changed since this round was seated"
        return None

    def result_problems(self, folder, located, round_no, file):
        """Results naming a player the ledger keeps out of the round (withdrawn from it or
        before): the seating they were checked against predates the withdrawal, and a
        withdrawal recorded after such a result is refused (``check_stored_results``), so
        the order of the two commands never changes the outcome."""
        away = away_players(folder, round_no)
        people = people_of(folder) if away else None
        return [
            Problem(file, int(row["file_row"]), seat, row[seat],
                    f"the ledger withdraws {people.player(row[seat])} from round {round_no} "
                    f"(`event ledger list`), so they cannot play in it: seat the round again "
                    f"(`{event_command(folder.path, 'seat', round_no)}`), or, if they did play, "
                    "withdraw that row and "
                    "record the withdrawal from a later round")
            for seat in SEAT_COLUMNS
            for row in located[located[seat].isin(away)].to_dict("records")
        ] if away else []

    def score(self, folder, round_no, override, command):
        return score_players(folder, round_no, override, command)

    def score_lines(self, folder, scored, round_no):
        standings = scored.standings[scored.standings["round"] == round_no]
        leader = standings.sort_values("position").iloc[0]
        return [f"Scored round {round_no}: {len(standings)} players; leader "
                f"{people_of(folder).player(leader['player'])} ({leader['cumulative']:.2%})."]

    def provisional(self, folder, round_no, counted):
        """The standings after the last round with a counted set (``players_scoring``);
        before any set counts, every registered player with 0 sets and no average, all
        sharing rank 1 in seeding order, as the scoring lists a player yet to play."""
        ledger = read_ledger(folder)
        scored = players_scoring(folder, round_no, ledger, counted).standings
        if len(scored):
            table = scored[scored["round"] == scored["round"].max()]
        else:
            context = event_context(folder, ledger)
            players = set(registered(context, effects(folder, ledger), round_no))
            seeded = folder.players().sort_values("seed", kind="stable")
            ids = [p for p in seeded["player"].astype(str) if p in players]
            ranks, labels = standing_ranks(np.zeros(len(ids), np.int64))
            table = pd.DataFrame({"player": ids, "sets": 0, "cumulative": np.nan,
                                  "rank": ranks, "rank_label": labels.to_pylist(),
                                  "position": range(1, len(ids) + 1)})
        players = folder.players().set_index("player")
        table = table.sort_values("position").assign(
            name=lambda t: t["player"].map(players["name"]))
        venue = []
        if "venue" in players:
            table, venue = table.assign(venue=table["player"].map(players["venue"])), ["venue"]
        return Provisional(table[["position", "rank", "rank_label", "player", "name", *venue,
                                  "cumulative", "sets"]].reset_index(drop=True))

    def round_reports(self, folder, round_no, fmt, context):
        """The round's standings and, in an event with venues, each venue's standings
        ranked within it (``standings-venue-V-round-R``)."""
        standings = folder.read(round_no, "standings")
        decisions = context.decisions_until(round_no)
        reports = {"standings": standings_document(
            standings, round_no, fmt, context.names, context.standings_note, decisions)}
        for venue in venues_of(standings):
            reports[f"standings-venue-{venue_slug(venue)}"] = standings_document(
                standings, round_no, fmt, context.names, context.standings_note, decisions,
                venue=venue)
        return reports

    def demo_request(self, scratch, entrants, boards_per_set, **shape):
        csv = scratch / "players.csv"
        players = demo_players(entrants, pairs=self.pairs)
        csv.write_text(players.to_csv(index=False), encoding="utf-8")
        return InitRequest(csv, boards_per_set, **shape)

    def final_standings(self, folder):
        names = folder.players()[["player", "name"]]
        last = folder.plan.rounds
        return folder.read(last, "standings").merge(names, on="player", how="left")
