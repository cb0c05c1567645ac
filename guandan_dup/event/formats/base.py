"""The protocol every kind of event implements: what each step of the folder means for it.

The folder's steps (``event.create``, ``seat``, ``ingest``, ``score``, ``export``,
``publish``, ``status``, ``rehearse``) know no kind of event by name: each asks the plan's
``EventFormat`` for its part, and the format answers with the rooms that hold the game's
logic (``movement``, ``scoring``, ``teams``, ``knockout``). ``InitRequest`` is what a
director asks ``event init`` for; each format takes the options that shape its kind of
event and refuses the others.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pandas as pd

from ...errors import InvalidPlanError, Problem
from ...wording import words
from ..plan import NoOptions
from ..publish import publish_site

SHAPE_OPTIONS = {
    "tables_per_group": "--tables-per-group",
    "sets_per_round": "--sets-per-round",
    "rounds": "--rounds",
    "rotate_partners": "--rotate-partners",
    "conversion": "--conversion",
    "team_names": "--team-names",
    "awards": "--awards",
    "seed_from": "--seed-from",
    "top": "--top",
    "force": "--force",
}
"""``InitRequest`` fields that only some formats take, with their ``event init`` options."""


@dataclass(frozen=True)
class InitRequest:
    """What ``event init`` is asked for: the players file and the plan's options (``None``
    or false where not given; each format says which it takes)."""

    players: str | os.PathLike | None
    """The players file; ``None`` only for a team knockout seeded from a stage (its
    players)."""
    boards_per_set: int
    tables_per_group: int | None = None
    sets_per_round: int | None = None
    rounds: int | None = None
    rotate_partners: bool = False
    name: str | None = None
    seeding: str | os.PathLike | None = None
    conversion: str | os.PathLike | None = None
    team_names: str | os.PathLike | None = None
    awards: str | None = None
    seed_from: str | os.PathLike | None = None
    top: int | None = None
    correction_minutes: int = 30
    compare_within: str = "event"
    force: bool = False
    """Seed from a stage still in its correction time (art. 48; a team knockout's)."""

    def given(self) -> list[str]:
        """The shape options given, in ``SHAPE_OPTIONS`` order (a 0 is given: the plan
        refuses it, with the value, rather than it going unnoticed)."""
        return [f.name for f in fields(self) if f.name in SHAPE_OPTIONS
                and getattr(self, f.name) is not None and getattr(self, f.name) is not False]


@dataclass(frozen=True)
class Provisional:
    """A round's figures for the live scoreboard (``live.board``), computed in memory from
    the folder's stored results and ledger, counting only the (round, set)s it was given:
    the public ones (SPEC 10). Each frame's columns are the board's fields, in order."""

    standings: pd.DataFrame
    """One row per entrant, best first: ``position``, ``rank``, ``rank_label``, the entrant
    (``player``; a team event's ``team``; a knockout's ``side``), ``name``, then the
    format's figures."""
    matches: pd.DataFrame | None = None
    """A knockout's round: its matches and how far each one is; ``None`` otherwise."""


class EventFormat:
    """One kind of event. Subclasses set the class attributes and implement the steps.

    ``kind`` and ``format`` are the plan's words for it (``format`` empty for an event
    reseated by standing); ``title`` names it for a director ("team event (Swiss)");
    ``takes`` and ``needs`` are the ``InitRequest`` shape options it takes and needs;
    ``option_keys`` its own keys of event.toml (its ``options``);
    ``standings_name`` the round file that says a round is scored (and records the
    digest of the results it was scored from); ``by_team`` whether the ledger's decisions
    concern teams and whole matches (SPEC 8) rather than players and a table's set;
    ``rehearsal_title`` how a rehearsed event of the format is named; ``shape_note`` what
    a refusal of ``event init`` options adds about where the shape comes from;
    ``ledger_not_applied`` the ledger kinds the format has no use for, each with what to
    record instead: ``event ledger add`` refuses them rather than record a decision that
    would change nothing.
    """

    kind: str = ""
    format: str = ""
    title: str = ""
    takes: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()
    option_keys: tuple[str, ...] = ()
    standings_name: str = "standings"
    by_team: bool = False
    rehearsal_title: str = "Rehearsal 演练"
    shape_note: str = ""
    ledger_not_applied: Mapping[str, str] = MappingProxyType({})
    by_venue: bool = False
    """Whether the format can keep each venue's players at its own tables (the plan's
    ``venues``)."""

    def __repr__(self) -> str:
        return f"format_named({self.kind!r}, {self.format!r})"

    # The plan -----------------------------------------------------------------------------

    def options_from(self, data: dict) -> Any:
        """The format's part of the plan from its event.toml keys."""
        return NoOptions()

    def option_problems(self, plan) -> list[str]:
        """What is wrong with the plan's ``options`` and the common keys this format rules
        out (a format without options takes only ``NoOptions``)."""
        out = [] if isinstance(plan.options, NoOptions) else [
            f"options = {plan.options!r}: a {self.title} has no options of its own"]
        if plan.rotate_partners and "rotate_partners" not in self.takes:
            out.append("rotate_partners = true: partners rotate only in individual events")
        elif plan.rotate_partners and plan.schedule:
            out.append("rotate_partners = true needs every group to play the same sets")
        if plan.venues and not self.by_venue:
            out.append(f"venues: {_article(self.title)} {self.title} cannot seat by venue")
        return out

    def plan_problems(self, plan) -> list[str]:
        """What makes ``plan`` inconsistent for this format, once its options are sound."""
        return plan.shape_problems()

    def tables(self, plan) -> int:
        """Tables in play each round."""
        return plan.players // 4

    def tables_of_set(self, plan, round_no: int, set_no: int) -> list[int]:
        """The tables that should return a result for ``set_no`` in ``round_no``."""
        return plan.grouped_tables_of_set(round_no, set_no)

    # event init ---------------------------------------------------------------------------

    def check_request(self, request: InitRequest) -> None:
        """Refuse shape options this format does not take, or lacks."""
        given = request.given()
        if request.players is None and request.seed_from is None:
            raise InvalidPlanError("give --players: the CSV or .xlsx file of the players (id, "
                                   "name, and as the event needs: seed, pair, team, venue)")
        if request.compare_within != "event" and not self.by_venue:
            raise InvalidPlanError(f"{_article(self.title)} {self.title} compares every set "
                                   "event-wide: leave out --compare-within")
        wrong = [SHAPE_OPTIONS[o] for o in given if o not in self.takes]
        missing = [SHAPE_OPTIONS[o] for o in self.needs if o not in given]
        if wrong or missing:
            takes = words(SHAPE_OPTIONS[o] for o in self.takes) or "no shape options"
            todo = ([f"leave out {words(wrong)}"] if wrong else []) + (
                [f"give {words(missing)}"] if missing else [])
            raise InvalidPlanError(f"{_article(self.title)} {self.title} takes {takes}"
                                   f"{self.shape_note}: {'; '.join(todo)}")

    def create(self, path: Path, request: InitRequest, key: bytes) -> tuple[Any, dict]:
        """The new event's plan and its files beside event.toml and the key (players.parquet
        and the format's own), which ``create_event`` writes with them in one step."""
        raise NotImplementedError

    def created(self, plan, where: str) -> str:
        """What ``event init`` tells the director it made (in the folder ``where``)."""
        raise NotImplementedError

    # The round loop -----------------------------------------------------------------------

    def seat(self, folder, round_no: int, lineups: str | os.PathLike | None,
             with_cards: bool = True):
        """Seat ``round_no`` and write its files (the table cards only ``with_cards``);
        returns a seating with ``summary()``."""
        raise NotImplementedError

    def result_problems(self, folder, located, round_no: int, file: str) -> list[Problem]:
        """What the format adds to ingestion's checks (``located`` has ``file_row``)."""
        return []

    def score(self, folder, round_no: int, override: bool, command: str):
        """Score ``round_no`` and write its files; returns its scoring, with ``warnings``."""
        raise NotImplementedError

    def score_lines(self, folder, scored, round_no: int) -> list[str]:
        """What ``event score`` tells the director of the round it scored (the leader named:
        ``event.people``)."""
        raise NotImplementedError

    # Publication --------------------------------------------------------------------------

    def round_reports(self, folder, round_no: int, fmt: str, context) -> dict[str, str | bytes]:
        """The round's exports other than travellers, by name (``standings``...), as
        ``fmt``; ``context`` is the export's ``ExportContext``."""
        raise NotImplementedError

    def event_reports(self, folder, formats: Sequence[str]) -> dict[Path, bytes]:
        """Exports of the whole event (a knockout's bracket and places)."""
        return {}

    def exportable_unscored(self, folder) -> bool:
        """Whether something is worth exporting before a round is scored (a drawn bracket)."""
        return False

    def write_site(self, folder, out_dir, lang: str, show_progress: bool) -> Path:
        """Write the results site; returns its index.html (``event.publish``)."""
        return publish_site(folder, out_dir, lang, show_progress)

    def site_tables(self, folder) -> dict:
        """Tables the format adds to the players' site (a knockout's bracket and places)."""
        return {}

    def provisional(self, folder, round_no: int,
                    counted: frozenset[tuple[int, int]]) -> Provisional:
        """Round R's standings as scoring would give them now, counting only the (round,
        set)s of ``counted`` (the live scoreboard's public sets, ``live.board``); nothing
        is written. Ranks and labels are the scoring's own."""
        raise NotImplementedError

    # Status and rehearsal -----------------------------------------------------------------

    def status_notes(self, folder) -> tuple[str, ...]:
        """Lines ``event status`` adds for this format."""
        return ()

    def reseat_because(self, folder, round_no: int) -> str | None:
        """Why a seated round without results is to be seated again (it was paired from
        standings corrected since, the ledger withdrew a player it seats), or None."""
        return None

    def demo_request(self, scratch: Path, entrants: int, boards_per_set: int, **shape):
        """An ``InitRequest`` of made-up entrants (files written into ``scratch``) for a
        rehearsal: ``entrants`` players, pairs or teams as the format counts them."""
        raise NotImplementedError

    def final_standings(self, folder):
        """The rehearsed event's final table, with names (``event.rehearse``)."""
        raise NotImplementedError


def _article(noun: str) -> str:
    return "an" if noun[:1] in "aeiou" else "a"
