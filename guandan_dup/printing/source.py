"""What every printed kind reads of a seated round, gathered once from the event folder.

The kinds draw; this module reads: the plan, the seating (one row per table, or per table
and set under partner rotation), the byes, the players' names, each table's entry link and
PIN (``event.access``, the links ``event seat`` put on the HTML cards) and, in a team event,
each table's room caption. A round not seated is refused with the command that seats it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import pandas as pd

from ..errors import GuandanError
from ..event.access import TableLink, round_links
from ..event.cards import Room
from ..event.folder import EventFolder
from ..event.plan import EventPlan


@dataclass(frozen=True)
class RoundSource:
    """One seated round of an event folder, as the printed kinds need it."""

    folder: EventFolder
    round_no: int
    seating: pd.DataFrame
    byes: pd.DataFrame

    @property
    def plan(self) -> EventPlan:
        return self.folder.plan

    @cached_property
    def names(self) -> dict[str, str]:
        """Player id -> name (the id when the players file gave no name)."""
        players = self.folder.players()
        return {str(p): str(n) if isinstance(n, str) and n.strip() else str(p)
                for p, n in zip(players["player"], players["name"], strict=True)}

    @cached_property
    def links(self) -> dict[int, TableLink]:
        """Table -> its entry link and PIN for the round (after any revocation)."""
        return round_links(self.folder, self.round_no, self.seating["table"])

    @cached_property
    def rooms(self) -> dict[int, Room]:
        """Table -> its match, room and teams in a team event (players know their team's
        name better than its number); else empty."""
        matches = self.folder.read(self.round_no, "matches")
        if matches is None:
            return {}
        from ..event.formats.team_matches import match_rooms, teams_of

        teams = teams_of(self.folder)
        names = dict(zip(teams["team"].astype(int), teams["name"].astype(str), strict=True))
        return match_rooms(matches, names)

    @cached_property
    def captions(self) -> dict[int, str]:
        """Table -> its match, room and teams on one line (``Room.caption``); else empty."""
        return {table: room.caption for table, room in self.rooms.items()}

    def tables(self) -> list[tuple[int, int, pd.DataFrame]]:
        """(group, table, its seating rows) in table order: one row, or one per set."""
        return [(int(group), int(table), rows) for (group, table), rows
                in self.seating.groupby(["group", "table"], sort=True)]

    def sets_of(self, row: pd.Series) -> list[int]:
        """The sets a seating row plays: its own set under partner rotation, else its
        group's sets of the round."""
        if "set" in row:
            return [int(row["set"])]
        return self.plan.sets_of_group(self.round_no, int(row["group"]))


def seated_round(folder: EventFolder, round_no: int) -> RoundSource:
    """``round_no`` of ``folder`` as the printed kinds read it; refused for a round not in
    the plan or not seated yet."""
    folder.plan.check_round(round_no)
    seating, byes = (folder.read(round_no, name) for name in ("seating", "byes"))
    if seating is None:
        raise GuandanError(f"round {round_no} is not seated yet, so there is nothing to print "
                           f"for it; run `guandan-dup event seat {folder.path} --round "
                           f"{round_no}` first")
    no_byes = pd.DataFrame({"player": pd.Series(dtype="str")})  # a team round has none
    return RoundSource(folder, round_no, seating, no_byes if byes is None else byes)
