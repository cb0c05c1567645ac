"""What both knockouts share (SPEC 9, seeds 003 and 000 art. 29.1, 49.2): the bracket.

Round R plays set R at every table, so all matches of a round play the same deals. Seating
round R reads the decided brackets of rounds 1..R-1 from rounds/*/bracket.parquet; scoring
round R decides its matches from its results (levels, extra boards, forfeits), completes
rounds/R/bracket.parquet, writes the round's travellers (the tables compared on the shared
deals, for the results pages) and, after the last round, places.parquet at the top. The
bracket and the places are exports and a page of the site; ``PairsKnockout`` and
``TeamKnockout`` say who the sides are and how a match is decided.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np
import pandas as pd
import pyarrow as pa

from ...errors import GuandanError, InvalidResultsError, Problem
from ...knockout import (
    BRACKET_COLUMNS,
    KnockoutError,
    Source,
    complete,
    final_places,
    rounds_needed,
    sources,
    tables_per_round,
)
from ...reading import read_parquet
from ...reports.knockout import bracket_report, places_report
from ...scoring import score
from ...wording import event_command
from ..folder import PLACES, RESULTS_DIGEST, EventFolder, parquet_bytes
from ..ledger import read_ledger, scoring_metadata
from ..publish import public_sets
from ..score import empty_results, write_scored
from .base import EventFormat, Provisional

#: Columns of ``bracket_view``: bracket.parquet's plus names, the set and the result.
VIEW_COLUMNS = ["round", "match", "places", "table", "set", "side_a", "side_a_name", "side_b",
                "side_b_name", "from_a", "from_b", "result", "winner", "winner_name",
                "decided_by"]

#: Columns of ``Knockout.provisional``'s matches: the live scoreboard's fields of a match.
LIVE_MATCH_COLUMNS = ["match", "places", "table", "side_a", "side_a_name", "side_b",
                      "side_b_name", "state", "result", "winner", "winner_name", "decided_by"]
#: Columns of ``Knockout.provisional``'s standings: the final places.
LIVE_PLACES_COLUMNS = ["position", "rank", "rank_label", "side", "name"]


@dataclass(frozen=True)
class KnockoutRound:
    """A scored knockout round: its decided bracket, the places after the last round."""

    round: int
    bracket: pd.DataFrame
    places: pd.DataFrame | None
    warnings: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    """Side -> how the director reads it out (a team's number alone says little: "team 3
    南京队"); a side not in it is read as it is (a pair id)."""

    def side(self, side: str) -> str:
        return self.names.get(str(side), str(side))

    def summary(self) -> list[str]:
        lines = [f"Scored knockout round {self.round}:"]
        lines += [
            f"  match {m.match} ({m.places}): {self.side(m.side_a)} v {self.side(m.side_b)}, "
            f"{self.side(m.winner)} wins ({m.decided_by})" if m.decided_by != "bye" else
            f"  match {m.match} ({m.places}): {self.side(m.side_a)} has a bye"
            for m in self.bracket.itertuples()
        ]
        if self.places is not None:
            lines.append("Final places: " + ", ".join(
                f"{p.place_label} {self.side(p.side)}" for p in self.places.head(8).itertuples()
            ) + " (all in places.parquet)")
        return lines


class Knockout(EventFormat):
    """A bracket of pairs or teams, one set a round, places 1-8 played out."""

    format = "knockout"
    standings_name = "travellers"
    """A knockout's rounds have no standings, only travellers (every table compared on
    the round's deals), which carry the digest of the results they were scored from."""
    rooms = 1
    """Tables a match is played at."""
    shape_note = " (its rounds, tables and sets follow from its entries)"
    ledger_not_applied = MappingProxyType({
        "assigned": "a knockout match is decided by its table's levels: ingest the corrected "
                    "result (`event ingest`), or give the match to the side that advances "
                    "with `artificial --result A+/A-` (or A-/A+)",
        "not-played": "a knockout match must be decided, since one side advances: record "
                      "`absent` for the side that did not play, or `artificial --result "
                      "A+/A-` (or A-/A+)",
        "fouled": "a knockout match is decided at its own table, never compared with "
                  "others: ingest the result as played, or decide the match with "
                  "`artificial`",
        "penalty": "a knockout has no standings to take points off: a match is won at the "
                   "table (decide it with `absent` or `artificial` if the offence costs it)",
        "overtime": "a knockout has no standings to take points off (art. 33's penalty is "
                    "级差分 off a total)",
    })
    """Kinds a knockout decides nothing with (``EventFormat.ledger_not_applied``)."""

    def entries(self, plan) -> int:
        """Sides in the bracket."""
        raise NotImplementedError

    def layout(self, plan) -> str:
        """``seeded`` (1 v n, ...) or drawn by ``lot``."""
        raise NotImplementedError

    def plan_problems(self, plan):
        out = []
        if plan.rounds != rounds_needed(self.entries(plan)):
            out.append(f"rounds = {plan.rounds}: a knockout of {self.entries(plan)} entries "
                       f"has {rounds_needed(self.entries(plan))} rounds")
        if plan.sets_per_round != 1:
            out.append(f"sets_per_round = {plan.sets_per_round}: a knockout match is one set")
        if plan.tables_per_group < plan.tables() or plan.schedule or plan.rotate_partners:
            out.append("a knockout plays in one group, without a [[schedule]] or rotation")
        return out

    def tables_of_set(self, plan, round_no, set_no):
        tables = tables_per_round(self.entries(plan), self.layout(plan))[
            plan.check_round(round_no)]
        return list(range(1, self.rooms * tables + 1)) if set_no == round_no else []

    def created(self, plan, where):
        rounds, boards = plan.rounds, plan.boards_per_set
        return (f"Created {plan.kind} knockout {plan.name!r} in {where}: "
                f"{self.entries(plan)} entries ({self.layout(plan)}), {rounds} "
                f"round{'s' * (rounds > 1)} of one set of {boards} board{'s' * (boards > 1)}.")

    # The sides --------------------------------------------------------------------------

    def entry_order(self, folder: EventFolder) -> list[str]:
        """The bracket's entries in seeding (or drawn) order."""
        raise NotImplementedError

    def side_names(self, folder: EventFolder) -> dict[str, str]:
        """Side -> its name on the bracket: a pair's players ("王伟 / 李芳"), a team's name."""
        raise NotImplementedError

    def side_captions(self, folder: EventFolder) -> dict[str, str]:
        """Side -> how a director reads it out when its id alone says little (a pair: "D04
        王伟 / 李芳", a team: "team 3 南京队"); a side not in it is read as its id."""
        return {}

    def result_texts(self, folder: EventFolder, rounds: range) -> dict[tuple[int, int], str]:
        """(round, bracket table) -> the result shown for that match, for the rounds of
        ``rounds`` whose set is public only (``public_rounds``)."""
        raise NotImplementedError

    # The round loop -----------------------------------------------------------------------

    def plan_round(self, folder: EventFolder, round_no: int) -> tuple[pd.DataFrame, object]:
        """Round R's bracket and what seats it (a seating, or a team round's matches)."""
        raise NotImplementedError

    def outcomes(self, folder: EventFolder, round_no: int, results: pd.DataFrame):
        """(the decided matches for ``knockout.complete``, the round files the decision
        adds by name (a team match's results), problems as (table, column, value, rule))
        of round R's stored ``results`` with the ledger's decisions."""
        raise NotImplementedError

    def decide_round(self, folder: EventFolder, round_no: int, override: bool = False,
                     command: str = ""):
        """Decide round R's matches and write the decided bracket, the files its decision
        adds, the travellers (every table compared on the round's deals) and, after the
        last round, places.parquet; returns the decided bracket and the final places.
        Deciding a final round again so that any of them changes needs ``override`` (art.
        48, ``score.write_scored``)."""
        bracket = folder.read(round_no, "bracket")
        results = folder.read(round_no, "results")
        if bracket is None or results is None:
            raise GuandanError(f"round {round_no} is not seated or has no results yet")
        outcomes, tables, problems = self.outcomes(folder, round_no, results)
        if problems:
            stored = str(folder.file(round_no, "results"))
            raise InvalidResultsError([Problem(stored, None, c, v, f"table {t}: {rule}")
                                       for t, c, v, rule in problems])
        done = complete(bracket.drop(columns=["winner", "decided_by"], errors="ignore"),
                        outcomes)
        tables["travellers"] = score(results, folder.plan.expected_tables(round_no)).travellers
        meta = {RESULTS_DIGEST: folder.results_digest(round_no),
                **scoring_metadata(folder, round_no, read_ledger(folder))}
        files = {folder.file(round_no, "bracket"): parquet_bytes(done)}
        for name, frame in tables.items():
            arrow = pa.Table.from_pandas(frame, preserve_index=False)
            files[folder.file(round_no, name)] = parquet_bytes(
                arrow.replace_schema_metadata((arrow.schema.metadata or {}) | meta))
        places = None
        if round_no == folder.plan.rounds:
            everything = pd.concat([folder.read_rounds("bracket", range(1, round_no)), done],
                                   ignore_index=True)
            places = final_places(everything, self.entry_order(folder))
            files[folder.path / PLACES] = parquet_bytes(places)
        write_scored(folder, round_no, files, override, command)
        return done, places

    def check_seatable(self, folder: EventFolder, round_no: int) -> None:
        folder.check_seats_from(round_no, f"round {round_no}'s bracket")

    def score(self, folder, round_no, override, command):
        done, places = self.decide_round(folder, round_no, override, command)
        return KnockoutRound(round_no, done, places, self.stale_next_round(folder, round_no),
                             self.side_captions(folder))

    def score_lines(self, folder, scored, round_no):
        return scored.summary()

    def stale_next_round(self, folder: EventFolder, round_no: int) -> list[str]:
        """A warning when round R+1 was seated from winners that a correction has changed."""
        seated = folder.read(round_no + 1, "bracket") if round_no < folder.plan.rounds else None
        if seated is None:
            return []
        try:
            fresh, _ = self.plan_round(folder, round_no + 1)
        except KnockoutError:
            return []
        columns = ["match", "side_a", "side_b"]
        if fresh[columns].equals(seated[columns]):
            return []
        return [f"round {round_no + 1} was seated from round {round_no}'s earlier winners; "
                f"seat it again (`{event_command(folder.path, 'seat', round_no + 1)}`)"]

    def round_texts(self, folder: EventFolder, round_no: int, results: pd.DataFrame,
                    tables: dict[str, pd.DataFrame], outcomes: pd.DataFrame) -> dict[int, str]:
        """Bracket table -> the result shown for its match, from round R's stored
        ``results``, the files its decision adds and the decided matches (``outcomes``:
        table, winner), for a public round."""
        raise NotImplementedError

    def provisional(self, folder, round_no, counted):
        """Round R's matches (``LIVE_MATCH_COLUMNS``), decided in memory as scoring
        decides them (``outcomes``), each one's ``state``: ``bye``; ``playing`` until the
        round's set is public (``counted``: every match plays the same deals); then
        ``decided``, with its result and winner, or ``undecided`` when its results decide
        nothing yet (``event score`` names the problem). The standings are the final places
        (``knockout.final_places``) once the last round is decided and public, else none:
        a knockout has no standings along the way."""
        bracket = folder.read(round_no, "bracket")
        places = pd.DataFrame(columns=LIVE_PLACES_COLUMNS)
        if bracket is None:
            return Provisional(places, pd.DataFrame(columns=LIVE_MATCH_COLUMNS))
        bracket = bracket[BRACKET_COLUMNS]
        bye = bracket["side_b"].isna()
        winner = bracket["side_a"].where(bye).astype(object)
        decided_by = pd.Series(np.where(bye, "bye", None), index=bracket.index, dtype=object)
        texts: dict[int, str] = {}
        public = (round_no, round_no) in counted
        if public:
            stored = folder.read(round_no, "results")
            results = empty_results() if stored is None else stored
            outcomes, tables, _ = self.outcomes(folder, round_no, results)
            given = outcomes.set_index("table")
            winner = winner.where(bye, bracket["table"].map(given["winner"]).astype(object))
            decided_by = decided_by.where(bye, bracket["table"].map(given["decided_by"]))
            texts = self.round_texts(folder, round_no, results, tables, outcomes)
        state = np.select([bye, winner.notna()], ["bye", "decided"],
                          "undecided" if public else "playing")
        names = self.side_names(folder)
        matches = bracket.assign(
            side_a_name=bracket["side_a"].map(names), side_b_name=bracket["side_b"].map(names),
            state=state, result=[texts.get(int(t), "") if pd.notna(t) else ""
                                 for t in bracket["table"]],
            winner=winner, winner_name=winner.map(names), decided_by=decided_by)
        if round_no == folder.plan.rounds and public and (matches["state"] != "undecided").all():
            done = complete(bracket, outcomes)
            earlier = folder.read_rounds("bracket", range(1, round_no))
            final = final_places(pd.concat([earlier, done], ignore_index=True)
                                 if earlier is not None else done, self.entry_order(folder))
            places = final.assign(position=range(1, len(final) + 1), rank=final["place"],
                                  rank_label=final["place_label"],
                                  name=final["side"].map(names))[LIVE_PLACES_COLUMNS]
        return Provisional(places, matches[LIVE_MATCH_COLUMNS].reset_index(drop=True))

    # Publication and status ---------------------------------------------------------------

    def round_reports(self, folder, round_no, fmt, context):
        return {}  # no standings: the bracket and the places say who stands where

    def event_reports(self, folder, formats):
        view, places = bracket_view(folder), places_view(folder)
        title, kind = folder.plan.name, folder.plan.kind
        files = {}
        for fmt in formats:
            reports = {"bracket": bracket_report(view, fmt, title, kind)}
            if places is not None:
                reports["places"] = places_report(places, fmt, title, kind)
            for what, report in reports.items():
                data = report.encode("utf-8") if isinstance(report, str) else report
                files[folder.exports_dir / f"{what}.{fmt}"] = data
        return files

    def exportable_unscored(self, folder):
        return folder.read(1, "bracket") is not None  # a draw is worth posting before play

    def site_tables(self, folder):
        return {"bracket": bracket_view(folder), "places": places_view(folder)}

    def status_notes(self, folder):
        plan = folder.plan
        entries = self.entries(plan)
        notes = [f"Knockout of {entries} {plan.kind} ({self.layout(plan)}): {plan.rounds} "
                 f"rounds, places 1-{min(entries, 8)} played out"]
        for r in range(1, plan.rounds + 1):
            bracket = folder.read(r, "bracket")
            if bracket is not None:
                done = 0 if "winner" not in bracket else int(bracket["winner"].notna().sum())
                notes.append(f"Round {r}: {done} of {len(bracket)} matches decided "
                             f"(rounds/{r}/bracket.parquet)")
        places_path = folder.path / PLACES
        if places_path.exists():
            places = read_parquet(places_path, "places file").to_pandas()
            winner = str(places["side"].iloc[0])
            notes.append(f"Places: {PLACES}; winner "
                         f"{self.side_captions(folder).get(winner, winner)}")
        return tuple(notes)

    def final_standings(self, folder):
        return places_view(folder)


def knockout_of(folder: EventFolder) -> Knockout:
    """The folder's knockout format (a ``GuandanError`` for an event of another format)."""
    event_format = folder.plan.event_format
    if not isinstance(event_format, Knockout):
        raise GuandanError(f"{folder.plan.name!r} is not a knockout")
    return event_format


def public_rounds(folder: EventFolder, rounds: range) -> list[int]:
    """The rounds of ``rounds`` whose one set (set R, played at every table of round R) is
    public (``publish.public_sets``, SPEC 10). Every match of a round plays the same deals,
    so a match's levels, winner or 场分 published while another table still plays them
    would tell that table how the deals went: they wait for the whole set."""
    public = public_sets(folder, rounds)
    return [r for r in rounds if (r, r) in public]


def bracket_view(folder: EventFolder) -> pd.DataFrame:
    """The whole bracket (``VIEW_COLUMNS``), in round and match order: the seated rounds'
    matches, and those still to come with where their sides will come from (``from_a``,
    ``from_b``: ``"winner R.M"``, ``"loser R.M"``), so the tree can be printed before play.
    A played match's result, winner and how it was decided show only once its round's set
    is public (``public_rounds``); a bye, known from the draw, shows at once."""
    plan, knockout = folder.plan, knockout_of(folder)
    rounds = range(1, plan.rounds + 1)
    brackets = folder.read_rounds("bracket", rounds)
    if brackets is None:
        brackets = pd.DataFrame(columns=["round", "match", "table", "side_a", "side_b",
                                         "places"])
    for column in ("winner", "decided_by"):
        if column not in brackets:
            brackets[column] = pd.NA
    brackets = _without_pending(brackets, public_rounds(folder, rounds))
    coming = sources(knockout.entries(plan), knockout.layout(plan))
    coming = coming[~coming["round"].isin(brackets["round"])]
    entry = {Source("entry", i).to_text(): side
             for i, side in enumerate(knockout.entry_order(folder), 1)}
    coming = coming.assign(
        side_a=coming["from_a"].map(entry), side_b=coming["from_b"].map(entry),
        from_a=coming["from_a"].where(~coming["from_a"].isin(entry)),
        from_b=coming["from_b"].where(~coming["from_b"].isin(entry)),
        winner=pd.NA, decided_by=pd.NA,
    )
    texts = knockout.result_texts(folder, rounds)
    names = knockout.side_names(folder)
    whole = pd.concat([brackets.assign(from_a=pd.NA, from_b=pd.NA), coming], ignore_index=True)
    view = whole.assign(
        set=whole["round"],
        side_a_name=whole["side_a"].map(names),
        side_b_name=whole["side_b"].map(names),
        winner_name=whole["winner"].map(names),
        result=[texts.get((r, t), "") if pd.notna(t) else ""
                for r, t in zip(whole["round"], whole["table"], strict=True)],
    )
    return view[VIEW_COLUMNS].sort_values(["round", "match"], ignore_index=True)


def _without_pending(brackets: pd.DataFrame, public: list[int]) -> pd.DataFrame:
    """``brackets`` with the winner and decided_by of played matches of rounds not in
    ``public`` left empty (a bye's stay: the draw made them public)."""
    bye = brackets["decided_by"].astype(object).isin(["bye"])
    hidden = ~brackets["round"].isin(public) & ~bye
    return brackets.assign(
        winner=brackets["winner"].astype(object).where(~hidden, pd.NA),
        decided_by=brackets["decided_by"].astype(object).where(~hidden, pd.NA),
    )


def places_view(folder: EventFolder) -> pd.DataFrame | None:
    """places.parquet with names, or ``None`` before the last round is scored and its set
    public (the places say who won the final, ``public_rounds``)."""
    path = folder.path / PLACES
    last = folder.plan.rounds
    if not path.exists() or not public_rounds(folder, range(last, last + 1)):
        return None
    places = read_parquet(path, "places file").to_pandas()
    return places.assign(name=places["side"].map(knockout_of(folder).side_names(folder)))
