"""The director's decisions as the players see them: penalties and adjustments, each with the
article and the reason the director gave.

A penalty that only moves a total is invisible to the player it hits unless something says
so, and so is a result the director set (assigned, artificial, not played, a late start's
levels). This module lays the ledger's decisions in force out as one table, a row per
decision and per set, player or team it concerns, for the exports (``decisions-round-R``
and the standings) and the site (the standings and each player's page). It reads the
replayed ``Effects``, never the raw rows alone, so a withdrawn row or one a later row
overrides is not listed. An adjustment of a set not every table has played (``public``) is
left out, as its traveller is: the assigned levels would tell the late table how it went.
"""

from __future__ import annotations

from collections.abc import Collection

import pandas as pd

from ..ledger import Effects, active
from ..ledger.describe import describe
from ..levels import LEVEL_NAMES

COLUMNS = ["round", "set", "table", "player", "team", "kind", "points", "match_points",
           "level_points", "result", "decision", "article", "reason", "ledger_id"]
"""``points``: percentage points off a player's average (individual and pairs events);
``match_points`` and ``level_points``: 场分 and 级差分 off a team's totals; ``result``: the
levels or codes the decision gives the table's set, "NS x / EW y" (a spreadsheet would read
"K/5" as a date); ``decision``: what it does, in words."""


def sides(ns, ew) -> str:
    """Both directions' levels or codes as one cell no spreadsheet takes for a date.

    >>> sides("K", "5")
    'NS K / EW 5'
    """
    return f"NS {ns} / EW {ew}"


def _level_pairs(frame: pd.DataFrame, ns: str, ew: str) -> list[str]:
    return [sides(LEVEL_NAMES[int(n)], LEVEL_NAMES[int(e)])
            for n, e in zip(frame[ns], frame[ew], strict=True)]


def _adjustments(decided: Effects) -> pd.DataFrame:
    """Each result the ledger sets, a row per (round, set, table), with what it gives."""
    parts = [
        decided.start_levels.assign(result=_level_pairs(decided.start_levels, "ns_start",
                                                        "ew_start")),
        decided.assigned.assign(result=_level_pairs(decided.assigned, "ns_level", "ew_level")),
        decided.artificial.assign(result=[sides(n, e) for n, e in zip(
            decided.artificial["ns_adjusted"], decided.artificial["ew_adjusted"],
            strict=True)]),
        decided.not_played.assign(result=""),
        decided.fouled.assign(result=""),
        decided.match_adjustments.assign(result=""),
    ]
    keep = ["round", "set", "table", "team", "result", "ledger_id"]
    return pd.concat([p.reindex(columns=keep) for p in parts if len(p)] or
                     [pd.DataFrame(columns=keep)], ignore_index=True)


def _penalties(decided: Effects) -> pd.DataFrame:
    """Each penalty in force, a row per player (a pairs penalty hits both) or team; a
    team's unit it does not take (0 场分 beside 3 级差分) left empty."""
    people = decided.penalties.assign(points=decided.penalties["points"].astype(float))
    teams = decided.team_penalties
    teams = teams.assign(**{unit: teams[unit].where(teams[unit] != 0)
                            for unit in ("match_points", "level_points")})
    keep = ["round", "player", "team", "points", "match_points", "level_points", "note",
            "article", "ledger_id"]
    return pd.concat([people.reindex(columns=keep),
                      teams.reindex(columns=keep)], ignore_index=True)


def decisions(ledger: pd.DataFrame, decided: Effects,
              public: Collection[tuple[int, int]]) -> pd.DataFrame:
    """The decisions in force (``decided``: ``ledger`` replayed) as ``COLUMNS``, in the
    order of round, set, table and row; adjustments of a (round, set) not in ``public``
    left out."""
    rows = active(ledger).set_index("id")
    adjusted = _adjustments(decided)
    shown = adjusted["set"].isna() | pd.Series(
        [(int(r), int(s)) in public if pd.notna(s) else True
         for r, s in zip(adjusted["round"], adjusted["set"], strict=True)],
        index=adjusted.index, dtype=bool)
    frame = pd.concat([adjusted[shown], _penalties(decided)], ignore_index=True)
    if frame.empty:
        return pd.DataFrame(columns=COLUMNS)
    source = rows.loc[frame["ledger_id"].astype(int)]
    said = [describe(row.rename(None)) for _, row in source.reset_index().iterrows()]
    note = frame["note"].fillna("") if "note" in frame else pd.Series("", index=frame.index)
    frame = frame.assign(
        kind=source["kind"].to_numpy(dtype=object),
        player=frame["player"].where(frame["player"].notna(), source["player"].to_numpy()),
        team=frame["team"].where(frame["team"].notna(), source["team"].to_numpy()),
        set=frame["set"].where(frame["set"].notna(), source["set"].to_numpy()),
        table=frame["table"].where(frame["table"].notna(), source["table"].to_numpy()),
        decision=[n or s for n, s in zip(note, said, strict=True)],
        article=source["article"].fillna("").to_numpy(dtype=object),
        reason=source["reason"].fillna("").to_numpy(dtype=object),
        result=frame["result"].fillna(""),
    )
    frame = frame.astype({"round": "int64", "set": "Int64", "table": "Int64", "team": "Int64",
                          "ledger_id": "int64", "points": "float64",
                          "match_points": "float64", "level_points": "float64"})
    return frame[COLUMNS].sort_values(["round", "set", "table", "ledger_id"],
                                      na_position="first", ignore_index=True)
