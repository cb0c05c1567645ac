"""What the ledger is checked against: the event's shape as plain values, no folder.

The event side builds it from the plan, the players file and the clock (``event.ledger``);
tests build it by hand. ``planned`` lists every (round, table, set) the plan expects.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import pandas as pd


@dataclass(frozen=True)
class Context:
    """An event's shape for checking and replaying ledger rows.

    ``kind`` is individual, pairs or teams; ``planned`` has the columns round, table, set;
    ``players`` the registered ids; ``pair_of`` (pairs) and ``team_of`` (teams) map a player
    to their pair or team; ``final_rounds`` are past their correction deadline (art. 48).
    """

    kind: str
    rounds: int
    planned: pd.DataFrame
    players: tuple[str, ...]
    pair_of: Mapping[str, str] = field(default_factory=dict)
    team_of: Mapping[str, int] = field(default_factory=dict)
    final_rounds: frozenset[int] = frozenset()
    by_team: bool = False
    """Whether decisions concern teams and whole matches (a team event, SPEC 8) rather than
    players and a table's set: the event's format says so (``EventFormat.by_team``)."""
    seated: Mapping[int, frozenset[str]] = field(default_factory=dict)
    """Round -> the players its seating puts at a table (rounds not yet seated are absent):
    a player who plays a round cannot also substitute in it (SPEC 10)."""
    byes: Mapping[int, frozenset[int]] = field(default_factory=dict)
    """Round -> the teams with a bye (no match, no tables): such a team cannot be absent."""
    not_applied: Mapping[str, str] = field(default_factory=dict)
    """Kind -> why the event's format applies no row of it, and what to record instead (a
    knockout has no standings to take a penalty off): ``add`` refuses such a row."""
    three_failures_reset: bool = False
    """Whether three failures at A reset a side to 2: with it, results validation's mask
    says which levels an assigned result may give (of a set of any length: an assigned
    result is the director's judgement of how the set would have ended)."""

    @property
    def teams(self) -> frozenset[int]:
        return frozenset(self.team_of.values())

    def tables(self, round_no: int) -> list[int]:
        return sorted(set(self.planned.loc[self.planned["round"] == round_no, "table"]))

    def sets(self, round_no: int) -> list[int]:
        return sorted(set(self.planned.loc[self.planned["round"] == round_no, "set"]))

    def sets_of_table(self, round_no: int, table: int) -> list[int]:
        rows = self.planned[(self.planned["round"] == round_no) & (self.planned["table"] == table)]
        return sorted(rows["set"])

    def tables_of_set(self, round_no: int, set_no: int) -> list[int]:
        rows = self.planned[(self.planned["round"] == round_no) & (self.planned["set"] == set_no)]
        return sorted(rows["table"])

    def partners(self, player: str) -> list[str]:
        """The player and, in a pairs event, their partner: who a penalty on them hits."""
        pair = self.pair_of.get(player)
        if pair is None:
            return [player]
        return sorted(p for p, q in self.pair_of.items() if q == pair)
