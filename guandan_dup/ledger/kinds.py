"""The kinds of ledger row, what each needs, and the parsers of their values.

``FIELDS`` (individual and pairs events) and ``TEAM_FIELDS`` (team events) give each kind's
required and optional fields; docs/formats.md has the same table for directors.
"""

from __future__ import annotations

import pandas as pd

from ..errors import NotationError
from ..levels import level_from_text
from ..results.schema import ADJUSTED_CODES

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
    "corrected": (frozenset({"table", "set"}), frozenset({"result"})),
    "open": (frozenset(), frozenset()),
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


def withdrawn_by(ledger: pd.DataFrame) -> dict[int, int]:
    """Each withdrawn row's id -> the id of the ``retract`` row that took it back."""
    retracts = ledger[(ledger["kind"] == "retract") & ledger["withdraws"].notna()]
    return dict(zip(retracts["withdraws"].astype(int), retracts["id"].astype(int), strict=True))


def active(ledger: pd.DataFrame) -> pd.DataFrame:
    """The rows in force: not retract rows, and not withdrawn by one."""
    withdrawn = set(withdrawn_by(ledger))
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
    """``"K/5"`` -> level indices (assigned, corrected) or ``"A+/A-"`` -> codes
    (artificial)."""
    parts = str(text).split("/")
    if len(parts) != 2:
        raise NotationError(f"result {text!r}: expected NS/EW, e.g. K/5 or A+/A-")
    if kind in ("assigned", "corrected"):
        return tuple(level_from_text(p) for p in parts)
    codes = tuple(p.strip().upper() for p in parts)
    if not set(codes) <= set(ADJUSTED_CODES):
        raise NotationError(f"result {text!r}: expected two of {', '.join(ADJUSTED_CODES)}")
    return codes


def utc(moment) -> pd.Timestamp:
    """A time as a UTC timestamp; a time without a zone is taken as UTC."""
    stamp = pd.Timestamp(moment)
    return stamp.tz_localize("UTC") if stamp.tzinfo is None else stamp.tz_convert("UTC")
