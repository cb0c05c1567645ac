"""A team knockout (seed 000 art. 29.1, 49.2; SPEC 9): the bracket from the ``knockout``
room, the matches scored by the ``teams`` room.

Teams are numbered by seeding (``--seed-from`` a finished Swiss or round robin: its final
positions), so the bracket's entries are the team numbers and the better-placed team of a
match is its home team. A round's matches.parquet lists the bracket's matches under the
bracket's match numbers (byes without tables); the played ones have their open room at
table m and closed room at table M + m, m counting the played matches (bracket.parquet's
``table`` is the open room). Scoring writes the match results (场分, 级差分), the round's
travellers (every room compared on the round's deals), the decided bracket and, after the
last round, places.parquet.
"""

from __future__ import annotations

from dataclasses import replace

import pandas as pd

from ...errors import InvalidPlanError, Problem
from ...knockout import round_bracket, rounds_needed
from ...knockout.teams import team_outcomes
from ...teams import score_matches
from ...wording import team_caption
from ..folder import EventFolder, parquet_bytes
from ..ledger import effects
from ..people import people_of
from ..walkovers import match_adjustments
from .knockout import Knockout, public_rounds
from .stages import seeded_lines, seeding_from, stage_links, stage_note
from .team_matches import TeamFormat, conversion_of, teams_of


class TeamKnockout(Knockout, TeamFormat):
    """A seeded bracket of teams (1 v n, 2 v n-1, ...), each match in two rooms, decided by
    场分, then 级差分, then 级差, then extra boards."""

    title = "team knockout"
    takes = ("conversion", "team_names", "awards", "seed_from", "top", "force")
    option_keys = (*TeamFormat.option_keys, "seeded_from")
    rooms = 2

    def check_request(self, request):
        super().check_request(request)
        if request.top is not None and request.seed_from is None:
            raise InvalidPlanError("--top needs --seed-from: the stage whose top teams go "
                                   "through")
        if request.force and request.seed_from is None:
            raise InvalidPlanError("--force needs --seed-from: it seeds from a stage still in "
                                   "its correction time (art. 48)")

    def option_problems(self, plan):
        out = super().option_problems(plan)
        seeded = getattr(plan.options, "seeded_from", None)
        if seeded is not None and len(seeded.teams) != plan.options.teams:
            out.append(f"seeded_from.teams = {list(seeded.teams)!r}: one earlier number for "
                       f"each of the {plan.options.teams} teams")
        return out

    def created(self, plan, where):
        lines = [super().created(plan, where)]
        if plan.options.seeded_from is not None:
            lines += seeded_lines(EventFolder.open(where))
        return "\n".join(lines)

    def site_tables(self, folder):
        return super().site_tables(folder) | {"stages": stage_links(folder)}

    def status_notes(self, folder):
        return (*super().status_notes(folder), *stage_note(folder))

    def entries(self, plan):
        return plan.options.teams

    def layout(self, plan):
        return "seeded"

    def create(self, path, request, key):
        seeding = (seeding_from(request.seed_from, request.top, path, request.force)
                   if request.seed_from is not None else None)
        players, seeded, options, files = self.registered_teams(
            path, request, key, seeding and seeding.labels, seeding and seeding.names,
            seeding and seeding.players)
        if seeding is not None:
            options = replace(options, seeded_from=seeding.seeded_from)
        rounds = rounds_needed(options.teams)
        return self.team_plan(path, request, players, rounds, seeded, options), files

    def entry_order(self, folder):
        """Team numbers as text, 1 first: the seeding order."""
        return [str(t) for t in range(1, folder.plan.options.teams + 1)]

    def side_names(self, folder):
        teams = teams_of(folder)
        return dict(zip(teams["team"].astype(str), teams["name"].astype(str), strict=True))

    def side_captions(self, folder):
        teams = teams_of(folder)
        return {str(t): team_caption(int(t), name)
                for t, name in zip(teams["team"], teams["name"], strict=True)}

    def result_texts(self, folder, rounds):
        """(round, open room) -> a team match's result as its winner reads it
        (``match_text``), of rounds whose set is public only (both rooms of every match
        play it)."""
        rounds = public_rounds(folder, rounds)
        scored = folder.read_rounds("match_results", rounds)
        matches = folder.read_rounds("matches", rounds)
        brackets = folder.read_rounds("bracket", rounds)
        if scored is None or matches is None:
            return {}
        winners = {} if brackets is None or "winner" not in brackets else {
            (int(r), int(t)): w for r, t, w in zip(brackets["round"], brackets["table"],
                                                    brackets["winner"], strict=True)
            if pd.notna(t) and pd.notna(w)}
        return match_texts(scored, matches, winners, self.side_names(folder))

    def round_texts(self, folder, round_no, results, tables, outcomes):
        winners = {(round_no, int(t)): w for t, w in zip(outcomes["table"],
                                                          outcomes["winner"], strict=True)}
        texts = match_texts(tables["match_results"], folder.read(round_no, "matches"),
                            winners, self.side_names(folder))
        return {table: text for (_, table), text in texts.items()}

    def plan_round(self, folder, round_no):
        """Round R's bracket and its matches (``teams`` MATCH_COLUMNS)."""
        self.check_seatable(folder, round_no)
        earlier = folder.read_rounds("bracket", range(1, round_no))
        bracket = round_bracket(self.entry_order(folder), "seeded", round_no, earlier)
        played = int(bracket["side_b"].notna().sum())
        matches = pd.DataFrame({
            "round": bracket["round"],
            "match": bracket["match"],
            "home": bracket["side_a"].astype(int),
            "away": pd.to_numeric(bracket["side_b"]).astype("Int64"),
            "open_table": bracket["table"],
            "closed_table": bracket["table"] + played,
        })
        return bracket, matches.astype({"round": "int64", "match": "int64", "home": "int64"})

    def pair_round(self, folder, round_no):
        bracket, matches = self.plan_round(folder, round_no)
        return matches, [], {}, {folder.file(round_no, "bracket"): parquet_bytes(bracket)}

    def result_problems(self, folder, located, round_no, file):
        """Matches the file leaves undecidable (level without a tiebreak naming a team), with
        the rooms already stored; on the file's rows."""
        stored = folder.read(round_no, "results")
        if stored is not None:
            stored = stored[~stored["table"].isin(located["table"])]
        rows = pd.concat([f for f in (stored, located) if f is not None], ignore_index=True)
        _, _, problems = decide(folder, round_no, rows)
        matches = folder.read(round_no, "matches")
        rooms = {int(t): (int(o), int(c)) for o, c in zip(matches["open_table"],
                                                         matches["closed_table"], strict=True)
                 if not pd.isna(o) for t in (o, c)}  # either room's table -> (open, closed)
        line = dict(zip(located["table"].astype(int), located["file_row"], strict=True))
        out = []
        for table, column, value, rule in problems:
            open_room, closed_room = rooms.get(table, (table, table))
            row = line.get(table, line.get(closed_room if table == open_room else open_room))
            out.append(Problem(file, None if row is None else int(row), column, value,
                               f"match at tables {open_room} and {closed_room}: {rule}"))
        return out

    def outcomes(self, folder, round_no, results):
        outcomes, scored, problems = decide(folder, round_no, results)
        return outcomes, {"match_results": scored}, problems


def match_texts(scored: pd.DataFrame, matches: pd.DataFrame, winners: dict[tuple, str],
                names: dict[str, str]) -> dict[tuple[int, int], str]:
    """(round, open room) -> ``match_text`` of each played match in the match results
    ``scored`` of the rounds of ``matches``; ``winners`` maps (round, open room) to the
    winning team's number as text, where decided, ``names`` a number to its name."""
    table = {(m.round, m.match): m.open_table for m in matches.itertuples()}
    texts = {}
    for (r, m), rows in scored.groupby(["round", "match"]):
        home = rows[rows["home"].eq(True).fillna(False)].to_dict("records")
        away = rows[rows["home"].eq(False).fillna(False)].to_dict("records")  # a bye: none
        if home and away:
            key = (int(r), int(table[(r, m)]))
            winner = winners.get(key)
            texts[key] = match_text(home[0], away[0], winner, names.get(str(winner), ""))
    return texts


def match_text(home: dict, away: dict, winner: str | None = None, name: str = "") -> str:
    """A team match as its winner (team number ``winner``, named ``name``) reads it: the
    name, the winner's 场分 first and its 级差 margin, ``南京队 2 : 0 (+6)``; while no
    winner is known, the home team's (a level match: the same either way).

    >>> home = {"team": 3, "match_points": 0.0, "levels": -6}
    >>> away = {"team": 5, "match_points": 2.0, "levels": 6}
    >>> match_text(home, away, "5", "南京队"), match_text(home, away)
    ('南京队 2 : 0 (+6)', '0 : 2 (-6)')
    """
    first, second = (away, home) if winner == str(away["team"]) else (home, away)
    text = f"{first['match_points']:g} : {second['match_points']:g}"
    if not pd.isna(first["levels"]):
        text = f"{text} ({int(first['levels']):+d})"
    return f"{name or winner} {text}" if winner is not None else text


def _tiebreaks(folder: EventFolder, matches: pd.DataFrame, results: pd.DataFrame) -> tuple:
    """match -> team named in a ``tiebreak`` cell of either room (its number, ``#number`` or
    its label: docs/teams.md), match -> that cell as written (problems quote it), and the
    problems of cells naming no team or two."""
    if "tiebreak" not in results:
        return {}, {}, []
    people = people_of(folder)
    match_of = {int(t): int(m) for m, o, c in zip(matches["match"], matches["open_table"],
                                                   matches["closed_table"], strict=True)
                if not pd.isna(o) for t in (o, c)}
    named, written, problems = {}, {}, []
    for table, value in zip(results["table"], results["tiebreak"], strict=True):
        if isinstance(value, str) and value.strip():
            team, rule = people.team_named(value)
            if team is None:
                problems.append((int(table), "tiebreak", value, rule))
            elif int(table) in match_of:
                named[match_of[int(table)]] = team
                written[match_of[int(table)]] = value.strip()
    return named, written, problems


def decide(folder: EventFolder, round_no: int, results: pd.DataFrame) -> tuple:
    """(outcomes by open table, match results, problems as (table, column, value, rule)) of
    the round's matches whose two rooms are in ``results`` or that the ledger decides (a
    team ``absent``: the match is a forfeit, its rooms need no results)."""
    matches = folder.read(round_no, "matches")
    adjusted = match_adjustments(folder, effects(folder))
    adjusted = adjusted[adjusted["round"] == round_no]
    tables = set(results["table"].astype(int))
    ready = matches[matches["away"].isna() | (matches["open_table"].isin(tables)
                                              & matches["closed_table"].isin(tables))
                    | matches["home"].isin(adjusted["team"])
                    | matches["away"].isin(adjusted["team"])]
    scored = score_matches(ready, results, conversion_of(folder), "knockout",
                           adjusted[["round", "team", "kind"]])
    named, written, problems = _tiebreaks(folder, ready, results)
    outcomes, found = team_outcomes(ready, scored, named)
    open_table = dict(zip(ready["match"], ready["open_table"], strict=True))
    problems += [(int(open_table[m]), column, written.get(m, value) if value is not None
                  else value, rule) for m, column, value, rule in found]
    return outcomes, scored, problems
