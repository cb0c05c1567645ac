"""Checking a ledger as read from its file: a hand-edited ledger.parquet with the right
schema may still hold rows ``add`` would never write (SPEC 10).

``shape_problems`` needs the rows alone (a kind, an id, a reason, minutes that are numbers);
``event_problems`` the event's ``Context`` (a round of the plan, a registered player, a team,
amounts within bounds). Both return every problem, by the row's number in the file (1 for
the first row) and its column, so the director can find it.
"""

from __future__ import annotations

import math

import pandas as pd

from ..errors import Problem
from ..wording import spans
from .checks import MAX_MINUTES
from .context import Context
from .kinds import AMOUNTS, FIELDS, KINDS, TEAM_FIELDS
from .penalties import amount_limit, decimal_problem

#: Kinds whose ``player`` need not be registered: a late entry names a new player (added to
#: the players file), a substitute may come from outside an individual event.
NEW_PLAYER_KINDS = frozenset({"enter", "substitute"})


def _rows(ledger: pd.DataFrame):
    """(row number in the file, row) pairs."""
    return zip(range(1, len(ledger) + 1), (r for _, r in ledger.iterrows()), strict=False)


def shape_problems(ledger: pd.DataFrame, file: str) -> list[Problem]:
    """Rows no event could hold: an unknown kind, a missing or repeated id (a penalty would
    count twice), a missing reason, minutes that are not a number above 0 (NaN would read as
    a forfeit), a retract naming no row."""
    out = []
    seen: dict[int, int] = {}
    for row_no, row in _rows(ledger):
        if pd.isna(row["kind"]) or row["kind"] not in KINDS:
            out.append(Problem(file, row_no, "kind", row["kind"],
                               f"expected one of {', '.join(KINDS)}"))
        if pd.isna(row["id"]) or row["id"] < 1:
            out.append(Problem(file, row_no, "id", row["id"], "expected a row id 1, 2, ..."))
        elif int(row["id"]) in seen:
            out.append(Problem(file, row_no, "id", int(row["id"]), f"row {seen[int(row['id'])]}"
                               " has the same id: each decision has its own id, or it counts "
                               "twice"))
        else:
            seen[int(row["id"])] = row_no
        if pd.isna(row["reason"]) or not str(row["reason"]).strip():
            out.append(Problem(file, row_no, "reason", None if pd.isna(row["reason"])
                               else row["reason"], "every decision needs a reason"))
        minutes = row["minutes"]
        if not pd.isna(minutes) and not (math.isfinite(minutes) and 0 < minutes <= MAX_MINUTES):
            out.append(Problem(file, row_no, "minutes", minutes,
                               f"expected minutes above 0, at most {MAX_MINUTES}"))
        elif pd.isna(minutes) and row["kind"] in ("late", "overtime"):
            out.append(Problem(file, row_no, "minutes", None,
                               f"a {row['kind']} row needs its minutes"))
    kinds = {int(row["id"]): row["kind"] for _, row in ledger.iterrows()
             if not pd.isna(row["id"])}
    retracted: dict[int, int] = {}
    for row_no, row in _rows(ledger):
        if pd.isna(row["time"]):
            out.append(Problem(file, row_no, "time", None, "every row records when it was "
                               "added"))
        if row["kind"] != "retract":
            continue
        target = None if pd.isna(row["withdraws"]) else int(row["withdraws"])
        if target is None or target not in seen:
            out.append(Problem(file, row_no, "withdraws", row["withdraws"],
                               "names no row of the ledger"))
        elif pd.isna(row["id"]) or target >= int(row["id"]):
            out.append(Problem(file, row_no, "withdraws", target, "a withdrawal takes back "
                               "an earlier row, never itself or a later one"))
        elif kinds.get(target) == "retract":
            out.append(Problem(file, row_no, "withdraws", target, "names a withdrawal, "
                               "which cannot be withdrawn"))
        elif target in retracted:
            out.append(Problem(file, row_no, "withdraws", target, f"row {target} is already "
                               f"withdrawn (row {retracted[target]} of the file)"))
        else:
            retracted[target] = row_no
    return out


def _missing_fields(context: Context, row: pd.Series) -> list[str]:
    """The columns a row of its kind needs (``FIELDS``; a team event's ``TEAM_FIELDS``)
    that are empty: ``add`` never writes such a row."""
    fields = TEAM_FIELDS if context.by_team else FIELDS
    if row["kind"] not in fields:
        return []
    required, _ = fields[row["kind"]]
    out = [f for f in sorted(required - {"amount"}) if pd.isna(row[f])]
    if "amount" in required and all(pd.isna(row[a]) for a in AMOUNTS):
        out.append("points")
    return out


def event_problems(context: Context, ledger: pd.DataFrame, file: str) -> list[Problem]:
    """Rows that do not fit this event: a round beyond the plan, a player not registered, a
    team that is not one, an amount of points out of bounds."""
    out = []
    registered: set[str] = set()  # built at the first row naming a player (1M ids: 65 ms)
    for row_no, row in _rows(ledger):
        if pd.isna(row["round"]) or not 1 <= row["round"] <= context.rounds:
            out.append(Problem(file, row_no, "round", row["round"],
                               f"the plan has {spans('round', range(1, context.rounds + 1))}"))
        for column in ("player", "for_player"):
            who = row[column]
            new = column == "player" and row["kind"] in NEW_PLAYER_KINDS
            if not pd.isna(who) and not new and not registered:
                registered = set(context.players)
            if not pd.isna(who) and not new and who not in registered:
                out.append(Problem(file, row_no, column, who, "is not a registered player"))
        if not pd.isna(row["team"]) and int(row["team"]) not in context.teams:
            out.append(Problem(file, row_no, "team", int(row["team"]),
                               "is not a team of this event"))
        article = "an" if str(row["kind"])[:1] in "aeiou" else "a"
        out += [Problem(file, row_no, column, None,
                        f"{article} {row['kind']} row needs its {column}")
                for column in _missing_fields(context, row)]
        for column, places in (("points", 2), ("match_points", 1), ("level_points", 2)):
            if not pd.isna(row[column]):
                why = decimal_problem(row[column], places, halves=column == "match_points",
                                      limit=amount_limit(column, context.rounds))
                if why:
                    out.append(Problem(file, row_no, column, row[column], why))
    return out
