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
from typing import Protocol

import pandas as pd

from ..wording import caption, event_command, numbered, plural, team_caption
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


class Names(Protocol):
    """How the sentences name people: ``event.people.People`` names them "P017 何军" and
    "team 3 南京队"; without one (``IDS``) a player is their id and a team its number."""

    def player(self, player) -> str: ...

    def team(self, number) -> str: ...


class _Ids:
    def player(self, player) -> str:
        return str(player)

    def team(self, number) -> str:
        return team_caption(int(number), "")


IDS: Names = _Ids()


def _who(row, names: Names) -> str:
    return names.team(row["team"]) if not pd.isna(row.get("team")) else names.player(
        row["player"])


_UNITS = {"points": ("percentage point", "off the cumulative average"),
          "match_points": ("场分", "(match points)"), "level_points": ("级差分", "(level points)")}


def amount(column: str, value) -> str:
    """A penalty's amount in its unit, as the director reads it.

    >>> amount("points", "1"), amount("match_points", "0.5")
    ('-1 percentage point off the cumulative average', '-0.5 场分 (match points)')
    """
    unit, tail = _UNITS[column]
    if column == "points":
        unit = plural(unit, 1 if str(value) == "1" else 2)
    return f"-{value} {unit} {tail}"


def _penalty(row, names: Names, decided: str | None) -> str:
    who = _who(row, names)
    if row["kind"] == "overtime":
        return f"{who}: {float(row['minutes']):g} minutes over time (art. 33)" + (
            f": {decided}" if decided else "")
    for column in _UNITS:
        if not pd.isna(row.get(column)):
            return f"{who}: {amount(column, row[column])}"
    return f"{who}: " + (decided or f"art. 52 scale {int(row['scale'])} (the step follows "
                                    "earlier offences)")


def _side_or_team(row, names: Names, what: str) -> str | None:
    return None if pd.isna(row.get("team")) else f"{names.team(row['team'])} {what}"


_SENTENCES = {
    "late": lambda r, n: _late(r),
    "absent": lambda r, n: (_side_or_team(r, n, "absent: a forfeit (art. 34)") or
                            f"{r['side']} absent: {r['side']} A-, {_other(r['side'])} A+ "
                            "(forfeit)"),
    "excused": lambda r, n: (_side_or_team(r, n, "excused (art. 36)") or
                             f"{r['side']} excused: {r['side']} A, {_other(r['side'])} A+ "
                             "(art. 36)"),
    "withdraw": lambda r, n: f"{_who(r, n)} withdraws from this round on (leaves the movement)",
    "substitute": lambda r, n: f"{n.player(r['player'])} plays for {n.player(r['for_player'])}",
    "enter": lambda r, n: (f"{caption(r['player'], r.get('name'))} enters from this round "
                           "(joins the movement)"),
    "assigned": lambda r, n: f"assigned result {r['result']} (NS/EW levels)",
    "artificial": lambda r, n: f"artificial result {r['result']}" + (
        ", or the player's own average if better" if r.get("variable") else ""),
    "not-played": lambda r, n: "not played: left out, the others Neuberg-adjusted",
    "fouled": lambda r, n: (f"tables {r['tables']} played other cards: compared among "
                            "themselves, factored to the field"),
    "penalty": lambda r, n: _penalty(r, n, None),
    "overtime": lambda r, n: _penalty(r, n, None),
    "ends": lambda r, n: f"scheduled end {pd.Timestamp(r['at']):%Y-%m-%d %H:%M} UTC",
    "override": lambda r, n: "a change after the correction deadline (art. 48)",
    "corrected": lambda r, n: "the result verified at the table corrected by the director" + (
        f": now {r['result']} (NS/EW levels)" if not pd.isna(r.get("result")) else ""),
    "open": lambda r, n: "the round starts: its boards are released to platforms",
    "retract": lambda r, n: f"withdraws row {int(r['withdraws'])}",
}


def describe(row: pd.Series, names: Names = IDS, decided: str | None = None) -> str:
    """What ``row`` changes, where, and under which article, naming people with ``names``
    ("P017 何军"). ``decided`` is what the replayed ledger made of a penalty given by its
    scale or an overtime (``event.ledger.what_it_does``: "art. 52 scale 2, first offence:
    -3 percentage points ..."), said in place of the general rule."""
    sentence = (_penalty(row, names, decided) if decided is not None
                else _SENTENCES[row["kind"]](row, names))
    text = f"{_at(row)}: {sentence}"
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


def listing(ledger: pd.DataFrame, round_no: int | None = None,
            names: Names = IDS) -> list[tuple[str, ...]]:
    """The ledger's rows (only ``round_no``'s if given) as text, one tuple of
    ``LIST_COLUMNS`` a row: id, time, kind, decision (people named by ``names``), reason and
    status."""
    status = row_status(ledger)
    if round_no is not None:
        ledger = ledger[ledger["round"] == round_no]
    return [(str(row["id"]), f"{row['time']:%Y-%m-%d %H:%M}", row["kind"], describe(row, names),
             str(row["reason"]), status[int(row["id"])]) for _, row in ledger.iterrows()]


def follow_up(kind: str, directory: str | os.PathLike, round_no: int,
              scored: Collection[int] = (), stale: Collection[int] = ()) -> str | None:
    """The step that applies a new row of ``kind`` about round ``round_no`` (its command,
    paste-ready), given the rounds ``scored`` and those out of date (``stale``); None when
    nothing needs doing (an ``ends`` or ``open`` row). A row changes its round and the later
    ones only, so an earlier round out of date for another reason is not this row's step
    (``event status`` says so).

    >>> follow_up("enter", "cup", 3)
    'The seating of round 3 and later follows it (`guandan-dup event seat cup --round 3`).'
    >>> print(follow_up("penalty", "cup", 2, [1, 2, 3], [2, 3]))  # doctest: +NORMALIZE_WHITESPACE
    Score round 2 again to apply it (`guandan-dup event score cup --round 2 --force`, then
    score round 3 again).
    >>> print(follow_up("late", "cup", 2, scored=[1], stale=[1]))  # doctest: +NORMALIZE_WHITESPACE
    It applies when round 2 is scored (`guandan-dup event score cup --round 2`, once its
    results are in).
    >>> follow_up("late", "cup", 1, scored=[1])
    'It changes no figure of the rounds scored so far.'
    >>> follow_up("ends", "cup", 3) is None
    True
    """
    if kind in ("ends", "open"):
        return None
    stale = sorted(r for r in stale if r >= round_no)
    if stale:
        first = stale[0]
        later = sorted(r for r in scored if r > first)
        then = f", then score {numbered('round', later)} again" if later else ""
        force = ("--force",) if later else ()
        return (f"Score round {first} again to apply it "
                f"(`{event_command(directory, 'score', first, *force)}`{then}).")
    if kind in ("withdraw", "enter"):
        return (f"The seating of round {round_no} and later follows it "
                f"(`{event_command(directory, 'seat', round_no)}`).")
    if round_no not in scored:
        return (f"It applies when round {round_no} is scored "
                f"(`{event_command(directory, 'score', round_no)}`, once its results are in).")
    return "It changes no figure of the rounds scored so far."
