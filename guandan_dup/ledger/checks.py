"""Checking a ledger entry against the event: every problem found, at once.

Each problem names the CLI option (``--table``), the value given and what was expected, so
the message reads the same from Python and from ``event ledger add``.
"""

from __future__ import annotations

import math

import pandas as pd

from ..errors import NotationError, Problem
from ..levels import LEVEL_NAMES
from ..reading import text_problem
from ..results.masks import possible_levels
from ..wording import numbered, spans, words
from .context import Context
from .kinds import (
    ALWAYS,
    AMOUNTS,
    FIELDS,
    TEAM_FIELDS,
    active,
    fouled_tables,
    option,
    split_result,
    utc,
)
from .penalties import SCALES, amount_limit, decimal_problem

MAX_MINUTES = 24 * 60
"""Minutes late or over time beyond a day are a typing mistake, not a decision."""
MAX_AHEAD = pd.Timedelta(days=366)
"""An ``ends`` time more than a year after the decision is a typing slip (9999 for 2026)."""
MAX_TEAM_PLAYERS = 6
"""A team has 4 to 6 registered players (SPEC 8): a late entry may not make a 7th."""

# Table-level decisions the team scorer has no place for: it scores matches from the rooms'
# results and the ledger's match adjustments, so these would be recorded and silently ignored.
MATCH_SCORED = frozenset({"assigned", "artificial", "not-played", "fouled"})


def _given(fields: dict) -> set[str]:
    given = {k for k, v in fields.items() if v is not None and v is not False}
    if given & set(AMOUNTS):
        given = (given - set(AMOUNTS)) | {"amount"}
    return given


def _shape_problems(context: Context, fields: dict) -> list[Problem]:
    """The kind, the round and which fields are given: the checks every kind shares."""
    kind, round_no = fields["kind"], fields["round"]
    problem = _problem_maker()
    if kind not in FIELDS:
        return [problem("kind", kind, f"expected one of {words(FIELDS, 'or')}")]
    out = []
    if not isinstance(round_no, int) or not 1 <= round_no <= context.rounds:
        out.append(problem("round", round_no,
                           f"the plan has {spans('round', range(1, context.rounds + 1))}"))
    if context.by_team and kind in MATCH_SCORED:
        out.append(problem("kind", kind, "a team event scores whole matches, so a table's set "
                           "cannot be decided alone: record `absent` or `excused --team T`, or "
                           "write the rooms' codes (A+/A-/A) in the results file (teams.md)"))
    elif kind in context.not_applied:
        out.append(problem("kind", kind, context.not_applied[kind]))
    if not str(fields.get("reason") or "").strip():
        out.append(problem("reason", fields.get("reason"), "every decision needs a reason"))
    required, optional = (TEAM_FIELDS if context.by_team else FIELDS)[kind]
    given = _given(fields) - ALWAYS
    out += [problem(f, None, f"{kind} needs {option(f)}") for f in sorted(required - given)]
    out += [
        problem(f, fields.get(f), f"{option(f)} does not apply to {kind} in "
                f"{'an' if context.kind[:1] in 'aeiou' else 'a'} {context.kind} event")
        for f in sorted(given - required - optional)
    ]
    if sum(fields.get(a) is not None for a in AMOUNTS) > 1:
        out.append(problem("points", None, "give one of --points, --match-points, "
                           "--level-points, --scale"))
    if round_no in context.final_rounds and not fields.get("override"):
        out.append(problem("round", round_no, "this round is final (its correction deadline, "
                           "art. 48, has passed); add --override to change it"))
    return out


def _problem_maker():
    def problem(field: str, value, rule: str) -> Problem:
        return Problem("ledger entry", None, option(field), value, rule)
    return problem


def _place_problems(context: Context, ledger: pd.DataFrame, fields: dict) -> list[Problem]:
    """Table, set and tables against the plan's round."""
    problem, out = _problem_maker(), []
    round_no, table, set_no = fields["round"], fields.get("table"), fields.get("set")
    if round_no not in range(1, context.rounds + 1):
        return out
    if table is not None and table not in context.tables(round_no):
        out.append(problem("table", table, f"round {round_no} has "
                           f"{spans('table', context.tables(round_no))}"))
    elif set_no is not None and set_no not in context.sets(round_no):
        out.append(problem("set", set_no, f"round {round_no} plays "
                           f"{numbered('set', context.sets(round_no))}"))
    elif table is not None and set_no is not None and set_no not in context.sets_of_table(
            round_no, table):
        out.append(problem("set", set_no, f"table {table} plays "
                           f"{numbered('set', context.sets_of_table(round_no, table))} in round "
                           f"{round_no}"))
    if fields.get("tables") is not None and set_no in context.sets(round_no):
        try:
            tables = fouled_tables(fields["tables"])
        except NotationError as error:
            return [*out, problem("tables", fields["tables"], str(error))]
        playing = context.tables_of_set(round_no, set_no)
        if not set(tables) <= set(playing):
            out.append(problem("tables", fields["tables"], f"set {set_no} is played at "
                               f"{spans('table', playing)} in round {round_no}"))
        elif set(tables) == set(playing):
            out.append(problem("tables", fields["tables"], "a fouled group is some of the "
                               "tables, not all (the others are the field it is factored to)"))
        rows = active(ledger)
        rows = rows[(rows["kind"] == "fouled") & (rows["round"] == round_no)
                    & (rows["set"] == set_no)]
        for rid, text in zip(rows["id"], rows["tables"], strict=True):
            if set(fouled_tables(text)) & set(tables):
                out.append(problem("tables", fields["tables"], f"ledger row {rid} already has "
                                   f"tables {text} of set {set_no} in a fouled group; withdraw "
                                   "it first"))
    return out


def _value_problems(context: Context, ledger: pd.DataFrame, fields: dict) -> list[Problem]:
    """Values: sides, minutes, results, players, teams and amounts."""
    problem, out, kind = _problem_maker(), [], fields["kind"]
    if fields.get("side") is not None and fields["side"] not in ("NS", "EW"):
        out.append(problem("side", fields["side"], "expected NS or EW"))
    minutes = fields.get("minutes")
    if minutes is not None and not (minutes > 0 and math.isfinite(minutes)):
        out.append(problem("minutes", minutes, "expected minutes above 0"))
    elif minutes is not None and minutes > MAX_MINUTES:
        out.append(problem("minutes", minutes, f"expected at most {MAX_MINUTES} minutes (a "
                           "day); a longer absence is `absent`"))
    elif kind == "late" and context.by_team and minutes is not None and minutes > 10:
        out.append(problem("minutes", minutes, "over 10 minutes is a forfeit (art. 32.3): in a "
                           "team event record it as `absent --team T` (art. 34)"))
    elif kind == "overtime" and minutes is not None and minutes > 10:
        out.append(problem("minutes", minutes, "art. 33 covers up to 10 minutes over time; "
                           "give a penalty (--scale or points) for more"))
    if fields.get("at") is not None:
        try:
            at = utc(fields["at"])
        except (ValueError, TypeError):
            out.append(problem("at", fields["at"], "expected a time such as "
                               "2026-05-01T15:30+08:00 (UTC without a zone)"))
        else:
            now = fields.get("now")
            if now is not None and at > now + MAX_AHEAD:
                out.append(problem("at", fields["at"], f"is more than {MAX_AHEAD.days} days "
                                   "after this decision: a round's scheduled end falls "
                                   "within the event (a typing slip would keep the round "
                                   "provisional for ever)"))
    if fields.get("result") is not None:
        out += _result_problems(context, fields)
    out += _who_problems(context, ledger, fields)
    places = {"points": 2, "match_points": 1, "level_points": 2}
    for name, digits in places.items():
        if fields.get(name) is not None:
            why = decimal_problem(fields[name], digits, halves=name == "match_points",
                                  limit=amount_limit(name, context.rounds))
            if why:
                out.append(problem(name, fields[name], why))
    if kind == "penalty" and not context.by_team and fields.get("amount_kind") in (
            "match_points", "level_points"):
        out.append(problem("points", None, "场分/级差分 are for team events; give --points"))
    if kind == "penalty" and context.by_team and fields.get("amount_kind") == "points":
        out.append(problem("points", fields["points"], "team events take 场分 or 级差分: give "
                           "--match-points or --level-points"))
    if fields.get("scale") is not None and fields["scale"] not in SCALES:
        out.append(problem("scale", fields["scale"], "art. 52 has scales 1, 2, 3, 4"))
    return out


def _result_problems(context: Context, fields: dict) -> list[Problem]:
    """A result that cannot be read, or assigned levels no set can end with: the same mask
    of possible (NS, EW) levels that results validation uses (A+/A+ and 2/2 never end a
    set of at least one board)."""
    problem, kind, text = _problem_maker(), fields["kind"], fields["result"]
    try:
        levels = split_result(text, kind)
    except NotationError as error:
        return [problem("result", text, str(error))]
    if kind != "assigned":  # a correction's levels are the results file's, checked there
        return []
    ns, ew = levels
    possible = possible_levels(None, context.three_failures_reset, (0, 0))
    if possible[ns, ew]:
        return []
    return [problem("result", text, f"no set starting at 2/2 ends with NS at {LEVEL_NAMES[ns]}"
                    f" and EW at {LEVEL_NAMES[ew]} (only the winner of a board moves up, so "
                    "one side ends above 2 and at most one at A+): assign levels a set can end "
                    "with, e.g. A+/5")]


def _team_problems(context: Context, ledger: pd.DataFrame, fields: dict) -> list[Problem]:
    """A team that is no team, an absence of the team with the bye, a 7th player entered."""
    problem, out, kind, team = _problem_maker(), [], fields["kind"], fields.get("team")
    if team is None:
        return out
    if team not in context.teams:
        return [problem("team", team, "is not a team of this event")]
    if kind in ("absent", "excused") and team in context.byes.get(fields["round"], ()):
        out.append(problem("team", team, f"has the bye in round {fields['round']}: it has no "
                           "match to be absent from"))
    if kind == "enter":
        rows = active(ledger)
        entered = rows[(rows["kind"] == "enter") & (rows["team"] == team)]
        size = sum(t == team for t in context.team_of.values()) + len(
            set(entered["player"].dropna()) - set(context.team_of))
        if size >= MAX_TEAM_PLAYERS:
            out.append(problem("team", team, f"has {size} players already: a team has 4 to "
                               f"{MAX_TEAM_PLAYERS} registered players (SPEC 8)"))
    return out


def _who_problems(context: Context, ledger: pd.DataFrame, fields: dict) -> list[Problem]:
    """Players that are not registered (or already are), repeat withdrawals, substitutes
    who may not take the seat, and the team checks."""
    problem, out, kind = _problem_maker(), [], fields["kind"]
    registered = set(context.players)
    rows = active(ledger)
    entered = set(rows.loc[rows["kind"] == "enter", "player"].dropna())
    known = registered | entered
    player, replaced = fields.get("player"), fields.get("for_player")
    if player is not None and not str(player).strip():
        out.append(problem("player", player, "expected a player id (it is empty)"))
        player = None
    elif player is not None and kind in ("enter", "substitute") and (
            why := text_problem(str(player))):
        out.append(problem("player", player, f"a new player's id {why}"))
        player = None
    name = fields.get("name")
    if kind == "enter" and name is not None and (why := text_problem(str(name))):
        out.append(problem("name", name, f"a player's name {why}"))
    if player is not None and kind == "enter" and player in known:
        out.append(problem("player", player, "is already registered"))
    elif player is not None and kind not in ("enter", "substitute") and player not in known:
        out.append(problem("player", player, "is not a registered player"))
    if kind == "withdraw" and player is not None:
        gone = rows[(rows["kind"] == "withdraw") & (rows["player"] == player)]
        if len(gone):
            out.append(problem("player", player,
                               f"already withdrew from round {int(gone['round'].iloc[0])}"))
    if replaced is not None and replaced not in known:
        out.append(problem("for_player", replaced, "is not a registered player"))
    if kind == "substitute" and player is not None and player == replaced:
        out.append(problem("player", player, "cannot substitute for themselves"))
    elif kind == "substitute" and player in context.seated.get(fields["round"], ()):
        out.append(problem("player", player, f"plays in round {fields['round']} (the round's "
                           "seating has them at a table), so cannot also take another's seat"))
    elif kind == "substitute" and context.by_team and replaced in known:
        mine = context.team_of.get(replaced)
        if context.team_of.get(player) != mine:
            out.append(problem("player", player, f"only players registered for team {mine} "
                               "may substitute in it (art. 19.2)"))
    return out + _team_problems(context, ledger, fields)


def entry_problems(context: Context, ledger: pd.DataFrame, entry: dict,
                   now: pd.Timestamp | None = None) -> list[Problem]:
    """Everything wrong with ``entry`` (a kind, a round, a reason and ledger fields), a
    decision taken at ``now`` (its scheduled end, ``at``, is checked against it)."""
    problems = _shape_problems(context, entry)
    if entry["kind"] in FIELDS:
        amount = [a for a in AMOUNTS if entry.get(a) is not None]
        checked = entry | {"amount_kind": amount[0] if amount else None, "now": now}
        problems += _place_problems(context, ledger, entry)
        problems += _value_problems(context, ledger, checked)
    return problems
