"""What a round already knows, read once so an entry is checked without a file: the rooms,
tables, sets and boards, the names, the ledger's start levels (art. 32), the sets the ledger
decides, the round's deadline (art. 48) and whether it is open to platforms.

``load_facts`` reads the folder once per round into plain dictionaries (``RoundFacts``);
``watched`` names the files they come from, so ``live.round_files`` reads them again when
one changes. ``live.entries`` checks entries against them.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..event.finality import round_deadlines
from ..event.folder import EventFolder
from ..event.formats.knockout import Knockout
from ..event.formats.team_matches import teams_of
from ..event.ledger import effects, read_ledger, will_not_play_rows
from ..event.opening import open_rounds
from ..seats import SEAT_COLUMNS


@dataclass(frozen=True)
class Room:
    """A team match's room at a table (SPEC 8): open room home E-W, closed room home N-S."""

    match: int
    room: str  # "open" | "closed"
    home: int
    away: int | None
    other: int | None  # the other room's table
    names: tuple[str, str] = ("", "")  # home's and away's team names

    @property
    def ns_team(self) -> int | None:
        return self.away if self.room == "open" else self.home

    @property
    def ew_team(self) -> int | None:
        return self.home if self.room == "open" else self.away


@dataclass(frozen=True)
class TableFacts:
    """One table of a round: its group, sets in playing order, players per set (N E S W)."""

    table: int
    group: int
    sets: tuple[int, ...]
    seats: dict[int, tuple[str, str, str, str]]
    room: Room | None = None


@dataclass(frozen=True)
class RoundFacts:
    """What checking an entry of round ``round`` needs, read once from the folder."""

    round: int
    boards_per_set: int
    three_failures_reset: bool
    knockout: str  # "" | "pairs" | "teams"
    tables: dict[int, TableFacts]
    names: dict[str, str]
    starts: dict[tuple[int, int], tuple[int, int]]
    substitutes: dict[str, str]  # the player replaced -> who plays instead this round
    will_not_play: frozenset[tuple[int, int]]
    planned: tuple[tuple[int, int], ...]  # (table, set) the round expects, set by set
    deadline: pd.Timestamp | None  # art. 48: the round is final from then
    by_team: bool = False
    opened: pd.Timestamp | None = None  # issue 24: ``event open`` (platforms may push)

    def boards(self, set_no: int) -> range:
        first = (set_no - 1) * self.boards_per_set + 1
        return range(first, first + self.boards_per_set)

    def start(self, table: int, set_no: int) -> tuple[int, int]:
        return self.starts.get((table, set_no), (0, 0))

    def final(self, now: pd.Timestamp) -> bool:
        return self.deadline is not None and now >= self.deadline


def load_facts(folder: EventFolder, round_no: int) -> RoundFacts | None:
    """The round's facts, or ``None`` while it is not seated (pandas, once per change of
    the files they come from: ``watched``)."""
    plan = folder.plan
    plan.check_round(round_no)
    seating = folder.read(round_no, "seating")
    if seating is None:
        return None
    ledger = read_ledger(folder)
    decided = effects(folder, ledger)
    players = folder.players()
    names = dict(zip(players["player"].astype(str), players["name"].astype(str), strict=True))
    starts = decided.start_levels[decided.start_levels["round"] == round_no]
    subs = decided.substitutes[decided.substitutes["round"] == round_no]
    planned = tuple(folder.seated_results(round_no))
    sets_of: dict[int, list[int]] = {}
    for table, set_no in planned:
        sets_of.setdefault(table, []).append(set_no)
    by_set = "set" in seating.columns
    seats: dict[int, dict[int, tuple]] = {}
    for row in seating.to_dict("records"):
        players_at = tuple(str(row[c]) for c in SEAT_COLUMNS)
        table = int(row["table"])
        for set_no in ([int(row["set"])] if by_set else sets_of.get(table, [])):
            seats.setdefault(table, {})[set_no] = players_at
    rooms = _rooms(folder, round_no) if plan.event_format.by_team else {}
    tables = {
        t: TableFacts(t, plan.group_of_table(t), tuple(sorted(sets_of.get(t, []))),
                      seats.get(t, {}), rooms.get(t))
        for t in sorted(seats)
    }
    event_format = plan.event_format
    knockout = ("teams" if event_format.by_team else "pairs") if isinstance(
        event_format, Knockout) else ""
    return RoundFacts(
        round=round_no,
        boards_per_set=plan.boards_per_set,
        three_failures_reset=plan.three_failures_reset,
        knockout=knockout,
        tables=tables,
        names=names,
        starts={(int(t), int(s)): (int(n), int(e)) for t, s, n, e in zip(
            starts["table"], starts["set"], starts["ns_start"], starts["ew_start"],
            strict=True)},
        substitutes=dict(zip(subs["for_player"].astype(str), subs["player"].astype(str),
                             strict=True)),
        will_not_play=frozenset((t, s) for r, t, s in will_not_play_rows(folder, ledger)
                                if r == round_no),
        planned=planned,
        deadline=round_deadlines(folder, ledger).get(round_no),
        by_team=event_format.by_team,
        opened=open_rounds(ledger).get(round_no),
    )


def watched(folder_path, round_no: int) -> list:
    """The files ``load_facts`` reads for a round: a change to any makes them stale."""
    rounds = folder_path / "rounds" / str(round_no)
    return [folder_path / "event.toml", folder_path / "players.parquet",
            folder_path / "ledger.parquet", folder_path / "teams.parquet",
            rounds / "seating.parquet", rounds / "matches.parquet",
            rounds / "bracket.parquet", rounds / "scored.json"]


def _rooms(folder: EventFolder, round_no: int) -> dict[int, Room]:
    """Table -> its room of a team match (a bye has no table)."""
    matches = folder.read(round_no, "matches")
    if matches is None:
        return {}
    teams = teams_of(folder)
    name = dict(zip(teams["team"].astype(int), teams["name"].astype(str), strict=True))
    out = {}
    for m in matches[matches["away"].notna()].itertuples():
        home, away = int(m.home), int(m.away)
        names = (name.get(home, ""), name.get(away, ""))
        opened, closed = int(m.open_table), int(m.closed_table)
        out[opened] = Room(int(m.match), "open", home, away, closed, names)
        out[closed] = Room(int(m.match), "closed", home, away, opened, names)
    return out
