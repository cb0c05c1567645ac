"""Adding to the ledger: one checked row per decision, and withdrawing one by another row.

``add`` and ``withdraw`` return a new table and never change the one given; every problem
with an entry is listed at once (``LedgerError``). What each kind needs is
``kinds.FIELDS``.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pandas as pd
import pyarrow as pa

from ..errors import Problem
from .checks import entry_problems
from .context import Context
from .kinds import active, option, utc
from .schema import COLUMNS, SCHEMA, LedgerError, from_arrow


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
    now = utc(time if time is not None else datetime.now(UTC))
    problems = entry_problems(context, ledger, entry, now)
    if problems:
        raise LedgerError(problems)
    return _appended(ledger, entry, now, command)


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
    def problem(field: str, value, rule: str) -> Problem:
        return Problem("ledger entry", None, option(field), value, rule)

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
