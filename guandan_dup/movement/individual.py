"""Individual movement (SPEC 7): who sits where in a round, from a strict order of players.

Groups of T tables take 4T consecutive places each (group 1 the best); in a group, table t
takes places 4t-3..4t. At a table with places a < b < c < d the best and the worst are
partners (a North, d South) against b (East) and c (West), so every partnership is balanced.
Players beyond a multiple of 4 sit out (轮空): the lowest placed among those with the fewest
byes so far, so nobody gets a second bye while someone has none. When the number of seated
players is not a multiple of 4T the last group simply has fewer tables.

>>> s = seat_round([f"P{i}" for i in range(1, 10)], tables_per_group=1)
>>> s.seating[["group", "table", "north", "east", "south", "west"]].to_numpy().tolist()
[[1, 1, 'P1', 'P2', 'P4', 'P3'], [2, 2, 'P5', 'P6', 'P8', 'P7']]
>>> s.byes["player"].tolist()
['P9']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..errors import InvalidPlanError
from ..seats import SEAT_COLUMNS
from ..wording import caption, counted, numbered, plural, quoted, seats_line, words

#: Partner rotation within a round (SPEC 7 option): for each pattern, which of the table's
#: places a, b, c, d (indices 0..3) sit North, East, South, West.
ROTATION = {
    "ad-bc": (0, 1, 3, 2),
    "ac-bd": (0, 1, 2, 3),
    "ab-cd": (0, 2, 1, 3),
}


@dataclass(frozen=True)
class Seating:
    """One round's seating (round, group, table[, set], north, east, south, west), its byes
    (round, player) and, for pairs events, the unavoidable repeat meetings (round, ns, ew)."""

    seating: pd.DataFrame
    byes: pd.DataFrame
    repeats: pd.DataFrame = field(
        default_factory=lambda: pd.DataFrame({"round": [], "ns": [], "ew": []})
    )
    names: dict[str, str] = field(default_factory=dict)
    """Player id (and in a pairs event pair id) -> name, when the seating is an event's: the
    summary then names everyone and lists who sits where, table by table, for the director
    to read out."""
    pairs: dict[str, str] = field(default_factory=dict)
    """Player id -> pair id in a pairs event: the summary then reads out pairs ("D04 王伟 /
    李芳 (N-S) v ..."), as the players know themselves."""

    def summary(self) -> list[str]:
        """What a director reads after seating: tables and groups, byes, forced repeats and,
        with ``names``, the seating itself."""
        tables = self.seating
        lines = [
            f"Round {int(tables['round'].iloc[0])}: {counted(tables['table'].nunique(), 'table')}"
            f" in {counted(tables['group'].nunique(), 'group')}",
            f"Byes: {words(map(self.named, self.sitting_out())) or 'none'}",
        ]
        lines += [
            f"Unavoidable repeat: pair {self.named(r.ns)} meets pair {self.named(r.ew)} again"
            for r in self.repeats.itertuples()
        ]
        if self.names:
            lines += [self.table_line(row) for row in tables.to_dict("records")]
        return lines

    def sitting_out(self) -> list[str]:
        """Who has a bye, as the summary names them: players, or their pairs."""
        byes = [str(p) for p in self.byes["player"]]
        return list(dict.fromkeys(self.pairs.get(p, p) for p in byes)) if self.pairs else byes

    def named(self, player: str) -> str:
        """"P027 王伟" (the id alone when the players file gave no name)."""
        return caption(player, self.names.get(str(player)))

    def table_line(self, row: dict) -> str:
        """"Table 3: N P027 王伟 · E ... · S ... · W ..." (with the set under partner
        rotation, where each set has its own seating); in a pairs event "Table 3: D04 王伟 /
        李芳 (N-S) v D13 ... (E-W)"."""
        where = f"Table {row['table']}" + (f" set {row['set']}" if "set" in row else "")
        ns, ew = ({self.pairs.get(str(row[a])), self.pairs.get(str(row[b]))}
                  for a, b in (("north", "south"), ("east", "west")))
        if len(ns) == len(ew) == 1 and None not in ns | ew:
            return f"{where}: {self.named(ns.pop())} (N-S) v {self.named(ew.pop())} (E-W)"
        return f"{where}: {seats_line(row, self.named)}"


def check_order(order: Sequence[str], what: str = "player") -> np.ndarray:
    """The order as an array of ids; refuses empty and duplicate ids (they would seat twice)."""
    ids = np.asarray([str(p) for p in order], dtype=object)
    empty = [i + 1 for i, p in enumerate(ids) if not p.strip()]
    if empty:
        raise InvalidPlanError(f"empty {what} id at {numbered('place', empty)} of the order")
    dupes = sorted(p for p, n in Counter(ids.tolist()).items() if n > 1)
    if dupes:
        raise InvalidPlanError(f"{what} {plural('id', len(dupes))} {quoted(dupes)} "
                               f"{'appears' if len(dupes) == 1 else 'appear'} more than once "
                               "in the order")
    return ids


def choose_byes(order: np.ndarray, count: int, byes_so_far: Iterable[str] = ()) -> list[str]:
    """The ``count`` players who sit out: fewest byes so far first, then the lowest placed.

    Returned best placed first. ``byes_so_far`` lists one id per earlier bye (repeats count).
    """
    if count == 0:
        return []
    had = Counter(str(p) for p in byes_so_far)
    counts = np.array([had.get(p, 0) for p in order.tolist()])
    places = np.arange(len(order))
    chosen = np.lexsort((-places, counts))[:count]
    return order[np.sort(chosen)].tolist()


def group_and_table(tables: int, tables_per_group: int) -> tuple[np.ndarray, np.ndarray]:
    """Table numbers 1..tables through the event and the group of each (group 1 first)."""
    if tables_per_group < 1:
        raise InvalidPlanError(f"tables per group must be at least 1, got {tables_per_group!r}")
    table = np.arange(1, tables + 1)
    return (table - 1) // tables_per_group + 1, table


def byes_frame(round_: int, players: Sequence[str]) -> pd.DataFrame:
    return pd.DataFrame(
        {"round": np.full(len(players), round_, dtype="int64"), "player": pd.array(players, "str")}
    )


def seat_round(
    order: Sequence[str],
    tables_per_group: int,
    byes_so_far: Iterable[str] = (),
    round_no: int = 1,
    sets: Sequence[int] = (),
    rotate_partners: bool = False,
) -> Seating:
    """Seat round ``round_no`` from ``order`` (best first, strict).

    With ``rotate_partners`` the table's partnerships cycle ad-bc, ac-bd, ab-cd over
    ``sets`` (the round's sets, in playing order) and the seating has one row per table per
    set, with a ``set`` column; without it there is one row per table.
    """
    players = check_order(order)
    if len(players) < 4:
        raise InvalidPlanError(f"a round needs at least 4 players, got {len(players)}")
    if rotate_partners and not sets:
        raise InvalidPlanError("partner rotation needs the round's sets")
    byes = choose_byes(players, len(players) % 4, byes_so_far)
    seated = players[~np.isin(players, byes)].reshape(-1, 4)
    group, table = group_and_table(len(seated), tables_per_group)
    patterns = list(ROTATION.values()) if rotate_partners else [ROTATION["ad-bc"]]
    frames = []
    for i, set_ in enumerate(sets if rotate_partners else [None]):
        frame = {"round": np.full(len(table), round_no, dtype="int64")}
        frame |= {"group": group, "table": table}
        if set_ is not None:
            frame["set"] = np.full(len(table), set_, dtype="int64")
        places = patterns[i % len(patterns)]
        for column, place in zip(SEAT_COLUMNS, places, strict=True):
            frame[column] = pd.array(seated[:, place], dtype="str")
        frames.append(pd.DataFrame(frame))
    seating = pd.concat(frames, ignore_index=True)
    if rotate_partners:
        seating = seating.sort_values(["table", "set"], ignore_index=True)
    return Seating(seating.astype({"group": "int64", "table": "int64"}), byes_frame(round_no, byes))
