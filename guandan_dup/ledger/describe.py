"""One sentence per ledger row: what it changes, for ``event ledger add`` and ``list``; the
rows as ``list`` shows them, and the step that applies a new row.

>>> import pandas as pd
>>> row = pd.Series({"kind": "late", "round": 2, "table": 3, "set": 5, "side": "NS",
...                  "minutes": 4.0, "article": None})
>>> describe(row)
'round 2, table 3, set 5: NS late 4 minutes, so EW start at level 3 (art. 32)'
"""

from __future__ import annotations

import os
from collections.abc import Collection

import pandas as pd

from .kinds import active, withdrawn_by

LIST_COLUMNS = ("id", "time (UTC)", "kind", "decision", "reason", "status")
"""The columns of ``listing``: what ``event ledger list`` shows."""


def _at(row) -> str:
    parts = [f"round {int(row['round'])}"]
    for field in ("table", "set"):
        value = row.get(field)
        if value is not None and not pd.isna(value):
            parts.append(f"{field} {int(value)}")
    return ", ".join(parts)


def _other(side: str) -> str:
    return "EW" if side == "NS" else "NS"


def _late(row) -> str:
    minutes = float(row["minutes"])
    if minutes > 10:
        return (f"{row['side']} late {minutes:g} minutes: a forfeit, {row['side']} A-, "
                f"{_other(row['side'])} A+ (art. 32.3)")
    level = 3 if minutes <= 5 else 4
    return (f"{row['side']} late {minutes:g} minutes, so {_other(row['side'])} start at level "
            f"{level} (art. 32)")


def _who(row) -> str:
    return f"team {int(row['team'])}" if not pd.isna(row.get("team")) else str(row["player"])


def _penalty(row) -> str:
    who = _who(row)
    if row["kind"] == "overtime":
        return f"{who}: {float(row['minutes']):g} minutes over time (art. 33)"
    for column, unit in (("points", "percentage points off the cumulative average"),
                         ("match_points", "场分 (match points)"),
                         ("level_points", "级差分 (level points)")):
        if not pd.isna(row.get(column)):
            return f"{who}: -{row[column]} {unit}"
    return f"{who}: art. 52 scale {int(row['scale'])} (the step follows earlier offences)"


_SENTENCES = {
    "late": _late,
    "absent": lambda r: (f"team {int(r['team'])} absent: a forfeit (art. 34)"
                         if not pd.isna(r.get("team")) else
                         f"{r['side']} absent: {r['side']} A-, {_other(r['side'])} A+ (forfeit)"),
    "excused": lambda r: (f"team {int(r['team'])} excused (art. 36)"
                          if not pd.isna(r.get("team")) else
                          f"{r['side']} excused: {r['side']} A, {_other(r['side'])} A+ "
                          "(art. 36)"),
    "withdraw": lambda r: (f"{_who(r)} withdraws from this round on (leaves the movement)"),
    "substitute": lambda r: f"{r['player']} plays for {r['for_player']}",
    "enter": lambda r: f"{r['player']} enters from this round (joins the movement)",
    "assigned": lambda r: f"assigned result {r['result']} (NS/EW levels)",
    "artificial": lambda r: f"artificial result {r['result']}" + (
        ", or the player's own average if better" if r.get("variable") else ""),
    "not-played": lambda r: "not played: left out, the others Neuberg-adjusted",
    "fouled": lambda r: (f"tables {r['tables']} played other cards: compared among "
                         "themselves, factored to the field"),
    "penalty": _penalty,
    "overtime": _penalty,
    "ends": lambda r: f"scheduled end {pd.Timestamp(r['at']):%Y-%m-%d %H:%M} UTC",
    "override": lambda r: "a change after the correction deadline (art. 48)",
    "corrected": lambda r: "the result verified at the table corrected by the director" + (
        f": now {r['result']} (NS/EW levels)" if not pd.isna(r.get("result")) else ""),
    "open": lambda r: "the round starts: its boards are released to platforms",
    "retract": lambda r: f"withdraws row {int(r['withdraws'])}",
}


def describe(row: pd.Series) -> str:
    """What ``row`` changes, where, and under which article."""
    text = f"{_at(row)}: {_SENTENCES[row['kind']](row)}"
    article = row.get("article")
    if article is not None and not pd.isna(article) and article:
        text += f" [art. {article}]"
    return text


def row_status(ledger: pd.DataFrame) -> dict[int, str]:
    """Each row's id -> ``in force``, ``withdrawn by N`` (the retract row), or ``""`` for a
    retract row itself."""
    taken = withdrawn_by(ledger)
    live = set(active(ledger)["id"].astype(int))
    return {int(i): "in force" if i in live else (f"withdrawn by {taken[i]}" if i in taken
                                                    else "") for i in ledger["id"]}


def listing(ledger: pd.DataFrame, round_no: int | None = None) -> list[tuple[str, ...]]:
    """The ledger's rows (only ``round_no``'s if given) as text, one tuple of
    ``LIST_COLUMNS`` a row: id, time, kind, decision, reason and status."""
    status = row_status(ledger)
    if round_no is not None:
        ledger = ledger[ledger["round"] == round_no]
    return [(str(row["id"]), f"{row['time']:%Y-%m-%d %H:%M}", row["kind"], describe(row),
             str(row["reason"]), status[int(row["id"])]) for _, row in ledger.iterrows()]


def follow_up(kind: str, directory: str | os.PathLike, round_no: int,
              scored: Collection[int] = (), stale: Collection[int] = ()) -> str | None:
    """The step that applies a new row of ``kind`` about round ``round_no`` (its command),
    given the rounds ``scored`` and those the row left out of date (``stale``); None when
    nothing needs doing (an ``ends`` or ``open`` row).

    >>> follow_up("enter", "cup", 3)
    'The seating of round 3 and later follows it (`guandan-dup event seat cup --round 3`).'
    >>> print(follow_up("penalty", "cup", 2, [1, 2, 3], [2, 3]))  # doctest: +NORMALIZE_WHITESPACE
    Score round 2 again to apply it (`guandan-dup event score cup --round 2 --force`, then
    score round(s) 3 again).
    >>> follow_up("penalty", "cup", 2, scored=[1])
    'Round 2 is not scored yet: scoring it applies the decision.'
    >>> follow_up("late", "cup", 1, scored=[1])
    'It changes no figure of the rounds scored so far.'
    >>> follow_up("ends", "cup", 3) is None
    True
    """
    if kind in ("ends", "open"):
        return None
    if stale:
        first = min(stale)
        later = sorted(r for r in scored if r > first)
        then = f", then score round(s) {', '.join(map(str, later))} again" if later else ""
        return (f"Score round {first} again to apply it (`guandan-dup event score {directory} "
                f"--round {first}{' --force' if later else ''}`{then}).")
    if kind in ("withdraw", "enter"):
        return (f"The seating of round {round_no} and later follows it (`guandan-dup event "
                f"seat {directory} --round {round_no}`).")
    if round_no not in scored:
        return f"Round {round_no} is not scored yet: scoring it applies the decision."
    return "It changes no figure of the rounds scored so far."
