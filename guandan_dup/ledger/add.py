"""Adding to the ledger: one checked row per decision, and withdrawing one by another row.

``add`` and ``withdraw`` return a new table and never change the one given; every problem
with an entry is listed at once (``LedgerError``). What each kind needs is ``FIELDS``.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pandas as pd
import pyarrow as pa

from ..errors import NotationError, Problem
from ..levels import level_from_text
from ..results.schema import ADJUSTED_CODES
from .context import Context
from .penalties import SCALES, decimal_problem
from .schema import COLUMNS, SCHEMA, LedgerError, from_arrow

# kind -> (required fields, optional fields), for individual and pairs events; team events
# differ where ``TEAM_FIELDS`` says. "amount" is one of the penalty amounts.
FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "late": (frozenset({"table", "set", "side", "minutes"}), frozenset({"player"})),
    "absent": (frozenset({"table", "side"}), frozenset({"set", "player"})),
    "excused": (frozenset({"table", "side"}), frozenset({"set", "player"})),
    "withdraw": (frozenset({"player"}), frozenset()),
    "substitute": (frozenset({"player", "for_player"}), frozenset()),
    "enter": (frozenset({"player"}), frozenset({"name"})),
    "assigned": (frozenset({"table", "set", "result"}), frozenset()),
    "artificial": (frozenset({"table", "set", "result"}), frozenset({"variable"})),
    "not-played": (frozenset({"table", "set"}), frozenset()),
    "fouled": (frozenset({"set", "tables"}), frozenset()),
    "penalty": (frozenset({"player", "amount"}), frozenset({"table", "set"})),
    "overtime": (frozenset({"player", "minutes"}), frozenset({"table", "set"})),
    "ends": (frozenset({"at"}), frozenset()),
    "override": (frozenset(), frozenset()),
}
TEAM_FIELDS = FIELDS | {
    "absent": (frozenset({"team"}), frozenset()),
    "excused": (frozenset({"team"}), frozenset()),
    "withdraw": (frozenset({"team"}), frozenset()),
    "enter": (frozenset({"player", "team"}), frozenset({"name"})),
    "penalty": (frozenset({"team", "amount"}), frozenset({"table", "set"})),
    "overtime": (frozenset({"team", "minutes"}), frozenset({"table", "set"})),
}
KINDS = (*FIELDS, "retract")
AMOUNTS = ("points", "match_points", "level_points", "scale")
ALWAYS = frozenset({"kind", "round", "reason", "article", "override"})
OPTION = {"for_player": "--for", "amount": "--points/--scale"}


def option(field: str) -> str:
    """The CLI option of a field, for messages: ``for_player`` -> ``--for``."""
    return OPTION.get(field, "--" + field.replace("_", "-"))


def active(ledger: pd.DataFrame) -> pd.DataFrame:
    """The rows in force: not retract rows, and not withdrawn by one."""
    withdrawn = set(ledger.loc[ledger["kind"] == "retract", "withdraws"].dropna().astype(int))
    keep = (ledger["kind"] != "retract") & ~ledger["id"].astype(int).isin(withdrawn)
    return ledger[keep]


def fouled_tables(text: str) -> list[int]:
    """``"3,4,7"`` -> ``[3, 4, 7]``; ``NotationError`` for anything else."""
    try:
        tables = [int(t) for t in str(text).replace(" ", "").split(",")]
    except ValueError:
        raise NotationError(f"tables {text!r}: expected table numbers like 3,4,7") from None
    if len(set(tables)) != len(tables) or min(tables) < 1:
        raise NotationError(f"tables {text!r}: expected distinct table numbers like 3,4,7")
    return tables


def split_result(text: str, kind: str) -> tuple:
    """``"K/5"`` -> level indices (assigned) or ``"A+/A-"`` -> codes (artificial)."""
    parts = str(text).split("/")
    if len(parts) != 2:
        raise NotationError(f"result {text!r}: expected NS/EW, e.g. K/5 or A+/A-")
    if kind == "assigned":
        return tuple(level_from_text(p) for p in parts)
    codes = tuple(p.strip().upper() for p in parts)
    if not set(codes) <= set(ADJUSTED_CODES):
        raise NotationError(f"result {text!r}: expected two of {', '.join(ADJUSTED_CODES)}")
    return codes


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
        return [problem("kind", kind, f"expected one of {', '.join(FIELDS)}")]
    out = []
    if not isinstance(round_no, int) or not 1 <= round_no <= context.rounds:
        out.append(problem("round", round_no, f"the plan has rounds 1..{context.rounds}"))
    if not str(fields.get("reason") or "").strip():
        out.append(problem("reason", fields.get("reason"), "every decision needs a reason"))
    required, optional = (TEAM_FIELDS if context.kind == "teams" else FIELDS)[kind]
    given = _given(fields) - ALWAYS
    out += [problem(f, None, f"{kind} needs {option(f)}") for f in sorted(required - given)]
    out += [
        problem(f, fields.get(f), f"{option(f)} does not apply to {kind} in a "
                f"{context.kind} event")
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
        out.append(problem("table", table, f"round {round_no} has tables "
                           f"{', '.join(map(str, context.tables(round_no)))}"))
    elif set_no is not None and set_no not in context.sets(round_no):
        out.append(problem("set", set_no, f"round {round_no} plays sets "
                           f"{', '.join(map(str, context.sets(round_no)))}"))
    elif table is not None and set_no is not None and set_no not in context.sets_of_table(
            round_no, table):
        out.append(problem("set", set_no, f"table {table} plays sets "
                           f"{context.sets_of_table(round_no, table)} in round {round_no}"))
    if fields.get("tables") is not None and set_no in context.sets(round_no):
        try:
            tables = fouled_tables(fields["tables"])
        except NotationError as error:
            return [*out, problem("tables", fields["tables"], str(error))]
        playing = context.tables_of_set(round_no, set_no)
        if not set(tables) <= set(playing):
            out.append(problem("tables", fields["tables"], f"set {set_no} is played at tables "
                               f"{', '.join(map(str, playing))} in round {round_no}"))
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
    if minutes is not None and not minutes > 0:
        out.append(problem("minutes", minutes, "expected minutes above 0"))
    elif kind == "overtime" and minutes is not None and minutes > 10:
        out.append(problem("minutes", minutes, "art. 33 covers up to 10 minutes over time; "
                           "give a penalty (--scale or points) for more"))
    if fields.get("at") is not None:
        try:
            utc(fields["at"])
        except (ValueError, TypeError):
            out.append(problem("at", fields["at"], "expected a time such as "
                               "2026-05-01T15:30+08:00 (UTC without a zone)"))
    if fields.get("result") is not None:
        try:
            split_result(fields["result"], kind)
        except NotationError as error:
            out.append(problem("result", fields["result"], str(error)))
    out += _who_problems(context, ledger, fields)
    places = {"points": 2, "match_points": 1, "level_points": 2}
    for name, digits in places.items():
        if fields.get(name) is not None:
            why = decimal_problem(fields[name], digits, halves=name == "match_points")
            if why:
                out.append(problem(name, fields[name], why))
    if kind == "penalty" and context.kind != "teams" and fields.get("amount_kind") in (
            "match_points", "level_points"):
        out.append(problem("points", None, "场分/级差分 are for team events; give --points"))
    if kind == "penalty" and context.kind == "teams" and fields.get("amount_kind") == "points":
        out.append(problem("points", fields["points"], "team events take 场分 or 级差分: give "
                           "--match-points or --level-points"))
    if fields.get("scale") is not None and fields["scale"] not in SCALES:
        out.append(problem("scale", fields["scale"], "art. 52 has scales 1, 2, 3, 4"))
    return out


def _who_problems(context: Context, ledger: pd.DataFrame, fields: dict) -> list[Problem]:
    problem, out, kind = _problem_maker(), [], fields["kind"]
    registered = set(context.players)
    rows = active(ledger)
    entered = set(rows.loc[rows["kind"] == "enter", "player"].dropna())
    known = registered | entered
    player, replaced, team = fields.get("player"), fields.get("for_player"), fields.get("team")
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
    if kind == "substitute" and context.kind == "teams" and replaced in known:
        mine = context.team_of.get(replaced)
        if context.team_of.get(player) != mine:
            out.append(problem("player", player, f"only players registered for team {mine} "
                               "may substitute in it (art. 19.2)"))
    if team is not None and kind != "enter" and team not in context.teams:
        out.append(problem("team", team, "is not a team of this event"))
    return out


def add(
    ledger: pd.DataFrame,
    context: Context,
    kind: str,
    round: int,
    reason: str,
    time: datetime | None = None,
    command: str = "",
    **fields,
) -> pd.DataFrame:
    """``ledger`` with one more row for this decision, after checking it against ``context``.

    ``fields`` are ledger columns (``table``, ``set``, ``player``, ``side``, ``minutes``,
    ``result``, ``points``, ...); ``None`` means not given. Raises ``LedgerError`` listing
    every problem; ``time`` defaults to now (UTC).
    """
    unknown = sorted(set(fields) - set(COLUMNS))
    if unknown:
        raise TypeError(f"unknown ledger fields {unknown}")
    entry = {"kind": kind, "round": round, "reason": reason, **fields}
    amount = [a for a in AMOUNTS if fields.get(a) is not None]
    problems = _shape_problems(context, entry)
    if kind in FIELDS:
        checked = entry | {"amount_kind": amount[0] if amount else None}
        problems += _place_problems(context, ledger, entry)
        problems += _value_problems(context, ledger, checked)
    if problems:
        raise LedgerError(problems)
    return _appended(ledger, entry, time, command)


def _appended(ledger: pd.DataFrame, entry: dict, time: datetime | None,
              command: str) -> pd.DataFrame:
    row = dict.fromkeys(COLUMNS) | entry
    row["id"] = int(ledger["id"].max()) + 1 if len(ledger) else 1
    row["time"] = utc(time if time is not None else datetime.now(UTC))
    row["command"] = command
    row["variable"] = bool(row.get("variable") or False)
    row["override"] = bool(row.get("override") or False)
    if row.get("at") is not None:
        row["at"] = utc(row["at"])
    new = from_arrow(pa.Table.from_pylist([row], schema=SCHEMA))
    return pd.concat([ledger, new], ignore_index=True) if len(ledger) else new


def utc(moment) -> pd.Timestamp:
    """A time as a UTC timestamp; a time without a zone is taken as UTC."""
    stamp = pd.Timestamp(moment)
    return stamp.tz_localize("UTC") if stamp.tzinfo is None else stamp.tz_convert("UTC")


def withdraw(
    ledger: pd.DataFrame,
    context: Context,
    row_id: int,
    reason: str,
    time: datetime | None = None,
    command: str = "",
    override: bool = False,
) -> pd.DataFrame:
    """``ledger`` with a ``retract`` row taking back row ``row_id`` (nothing is deleted)."""
    problem = _problem_maker()
    target = ledger[ledger["id"] == row_id]
    problems = []
    if target.empty:
        problems.append(problem("withdraws", row_id, "the ledger has no row with this id"))
    elif target["kind"].iloc[0] == "retract":
        problems.append(problem("withdraws", row_id, "a withdrawal cannot be withdrawn; add "
                                "the decision again instead"))
    elif row_id not in set(active(ledger)["id"]):
        problems.append(problem("withdraws", row_id, "is already withdrawn"))
    if not str(reason or "").strip():
        problems.append(problem("reason", reason, "every decision needs a reason"))
    round_no = int(target["round"].iloc[0]) if len(target) else 0
    if round_no in context.final_rounds and not override:
        problems.append(problem("round", round_no, "this round is final (art. 48); add "
                                "--override to withdraw a decision about it"))
    if problems:
        raise LedgerError(problems)
    entry = {"kind": "retract", "round": round_no, "reason": reason, "withdraws": row_id,
             "override": override}
    return _appended(ledger, entry, time, command)
