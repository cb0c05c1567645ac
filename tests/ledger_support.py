"""A small hand-made event for the ledger tests: 17 players, 4 tables, 2 rounds of 2 sets."""

from __future__ import annotations

from datetime import UTC, datetime

import pandas as pd

from guandan_dup.ledger import Context, empty
from guandan_dup.results import validate_sets

PLAYERS = tuple(f"p{i:02d}" for i in range(1, 18))  # p17 has the round-1 bye
TIME = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
PLANNED = pd.DataFrame(
    [(r, t, s) for r in (1, 2) for s in (2 * r - 1, 2 * r) for t in (1, 2, 3, 4)],
    columns=["round", "table", "set"],
)
LEVELS = {1: [("5", "2"), ("3", "2"), ("3", "2"), ("2", "4")],
          2: [("2", "3"), ("4", "2"), ("3", "3"), ("6", "2")],
          3: [("3", "2"), ("2", "5"), ("4", "2"), ("4", "4")],
          4: [("2", "4"), ("3", "2"), ("5", "2"), ("2", "3")]}


def context(kind: str = "individual", final=(), players=PLAYERS, **more) -> Context:
    return Context(kind, 2, PLANNED, tuple(players), final_rounds=frozenset(final),
                   by_team=kind == "teams", **more)


def seating() -> pd.DataFrame:
    """Round 1: table t holds p(4t-3)..p(4t); round 2: the same players one table on."""
    rows = []
    for r in (1, 2):
        for t in (1, 2, 3, 4):
            first = 4 * ((t - 1 + r - 1) % 4)
            rows.append((r, 1, t, *PLAYERS[first:first + 4]))
    return pd.DataFrame(rows, columns=["round", "group", "table", "north", "east", "south",
                                       "west"])


def results(rounds=(1, 2), skip=()) -> pd.DataFrame:
    """Normalised results for ``rounds``, without the (round, table, set) in ``skip``."""
    seats = seating()
    rows = []
    for r in rounds:
        for s in (2 * r - 1, 2 * r):
            for t, (ns, ew) in enumerate(LEVELS[s], 1):
                if (r, t, s) in skip:
                    continue
                who = seats[(seats["round"] == r) & (seats["table"] == t)].iloc[0]
                rows.append((r, 1, t, s, who.north, who.east, who.south, who.west, ns, ew))
    frame = pd.DataFrame(rows, columns=["round", "group", "table", "set", "north", "east",
                                        "south", "west", "ns_level", "ew_level"])
    return validate_sets(frame).sets


def ledger_of(*entries, ctx: Context | None = None):
    """A ledger built with ``add`` from (kind, round, fields) entries, all at ``TIME``."""
    from guandan_dup.ledger import add

    ledger = empty()
    for kind, round_no, fields in entries:
        ledger = add(ledger, ctx or context(), kind, round_no, fields.pop("reason", "test"),
                     time=TIME, command="test", **fields)
    return ledger
