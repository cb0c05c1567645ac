"""The event plan (event.toml): its common shape, and the part that belongs to its format.

The plan is the single source for everything derived from the event's shape: the tables of
each group, the sets a group plays in a round, the boards of a set and how many results each
set should get (``expected_tables``, which scoring needs for Neuberg's adjustment). By
default round r plays sets (r-1)*M+1 .. r*M in every group, and set s holds boards
(s-1)*K+1 .. s*K; a ``[[schedule]]`` entry gives one group of one round other sets.

What depends on the kind of event (which tables play a set, what makes a plan consistent,
the keys only team events have) is asked of the plan's ``event_format``
(``event.formats``), chosen once from ``kind`` and ``format``; its own keys are the plan's
``options`` (a team event's teams, conversion table and awards), written flat in event.toml
as before.

>>> plan = EventPlan("Demo", "individual", 36, tables_per_group=4, sets_per_round=2,
...                  boards_per_set=4, rounds=3)
>>> plan.tables(), plan.groups(), plan.sets_of_round(2), plan.boards_of_set(3)
(9, 3, [3, 4], range(9, 13))
>>> plan.expected_tables(1)
{1: 9, 2: 9}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidPlanError
from ..scoring.rates import COMPARE_WITHIN
from ..wording import numbered, spans

_PLANNED: dict[tuple[str, int], tuple] = {}
"""(a plan's repr, round) -> its planned results as a tuple and an array (``_planned``)."""

LIMITS = {
    "players": 1_000_000,
    "tables_per_group": 25_000,
    "sets_per_round": 50,
    "boards_per_set": 64,
    "rounds": 100,
}
"""Sizes no real event reaches: a plan beyond them is a slip (100,000 rounds of 100,000
boards once made a 22 MB event.toml and a five-minute ``status``)."""
MAX_BOARDS = 20_000
"""The highest board number a plan may use (its last set's last board)."""
MAX_GROUPS = 1_000


@dataclass(frozen=True)
class NoOptions:
    """The plan part of a format that has no keys of its own."""

    def to_dict(self) -> dict:
        return {}


@dataclass(frozen=True)
class EventPlan:
    """What an event is: its kind and format, its size, rounds of sets of boards, options.

    ``players`` counts entrants (for a pairs event, players, two per pair; for a team event,
    registered players). ``schedule`` holds exceptions to the default sets as ``(round,
    group, sets)`` triples. ``format`` is empty for events reseated by standing (SPEC 7),
    else swiss, round-robin or knockout; ``options`` is the format's own part of the plan
    (``event.formats``: a team event's ``TeamOptions``). ``correction_minutes`` is art. 48's
    correction time after a round's end: until then the round is provisional, after it
    final (docs/director-guide.md, "When things go wrong"). ``venues`` holds the event's
    venues as ``(name, players)`` pairs in table order (sorted by name; empty for an event
    in one room): each venue's tables are consecutive, its groups its own
    (docs/director-guide.md, "Several venues").
    """

    name: str
    kind: str
    players: int
    tables_per_group: int
    sets_per_round: int
    boards_per_set: int
    rounds: int
    rotate_partners: bool = False
    seeding: str = "lot"
    delayed: str = ""
    first_leader: str = "E"
    three_failures_reset: bool = False
    compare_within: str = "event"
    correction_minutes: int = 30
    schedule: tuple[tuple[int, int, tuple[int, ...]], ...] = ()
    format: str = ""
    options: Any = NoOptions()
    venues: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        problems = self._problems()
        if problems:
            raise InvalidPlanError("invalid event plan:\n" + "\n".join(f"  {p}" for p in problems))

    @property
    def event_format(self):
        """The ``EventFormat`` of this plan's kind and format (``event.formats``)."""
        from .formats import format_named  # the formats import the folder, which imports this

        return format_named(self.kind, self.format)

    def _problems(self) -> list[str]:
        from .formats import format_problem

        out = []
        for name in ("players", "tables_per_group", "sets_per_round", "boards_per_set", "rounds"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                out.append(f"{name} = {value!r}: expected a whole number >= 1")
            elif value > LIMITS[name]:
                out.append(f"{name} = {value!r}: at most {LIMITS[name]:,} (no real event has more)")
        out += self._venue_problems()
        if not isinstance(self.correction_minutes, int) or self.correction_minutes < 0:
            out.append(f"correction_minutes = {self.correction_minutes!r}: expected a whole "
                       "number of minutes >= 0")
        if self.compare_within not in COMPARE_WITHIN:
            out.append(f"compare_within = {self.compare_within!r}: expected event, group or "
                       "venue")
        elif self.compare_within == "venue" and not self.venues:
            out.append('compare_within = "venue" needs venues (a venue column in the players '
                       "file)")
        if self.seeding not in ("lot", "list"):
            out.append(f"seeding = {self.seeding!r}: expected lot or list")
        unknown = format_problem(self.kind, self.format)
        if unknown:
            return [*out, unknown]
        out += self.event_format.option_problems(self)
        if out:
            return out
        return self.event_format.plan_problems(self)

    def _venue_problems(self) -> list[str]:
        if not self.venues:
            return []
        names = [v[0] for v in self.venues]
        out = [f"venue {n!r}: expected a name" for n in names if not isinstance(n, str) or not n]
        out += [f"venue {n!r} has {c!r} players: a venue needs at least 4"
                for n, c in self.venues if not isinstance(c, int) or c < 4]
        if len(set(names)) < len(names):
            out.append(f"venues {names!r}: each venue once")
        if not out and sum(c for _, c in self.venues) != self.players:
            out.append(f"venues count {sum(c for _, c in self.venues)} players, the plan "
                       f"{self.players}")
        return out

    def venue_tables(self) -> dict[str, range]:
        """Each venue's tables (consecutive, in the plan's venue order); ``{}`` without
        venues."""
        out, first = {}, 1
        for name, players in self.venues:
            out[name] = range(first, first + players // 4)
            first += players // 4
        return out

    def venue_of_table(self, table: int) -> str:
        """The venue whose tables include ``table`` ("" without venues)."""
        return next((v for v, tables in self.venue_tables().items() if table in tables), "")

    def _group_tables(self) -> list[range]:
        """Each group's tables, group 1 first: ``tables_per_group`` consecutive tables, the
        groups of each venue its own (a venue's last group may be smaller)."""
        blocks = list(self.venue_tables().values()) or [range(1, self.tables() + 1)]
        return [range(t, min(t + self.tables_per_group, block.stop))
                for block in blocks for t in range(block.start, block.stop,
                                                   self.tables_per_group)]

    def shape_problems(self) -> list[str]:
        """What makes a plan of groups and sets inconsistent (the events reseated by
        standing, and the sizes every format keeps to)."""
        out = []
        if self.tables() < 1:
            out.append(f"{self.players} players do not fill one table")
        elif self.groups() > MAX_GROUPS:
            out.append(
                f"{self.tables():,} tables in groups of {self.tables_per_group} make "
                f"{self.groups():,} groups: at most {MAX_GROUPS:,} (give more tables per group)"
            )
        for round_no, group, sets in self.schedule:
            if (not isinstance(round_no, int) or not isinstance(group, int)
                    or not 1 <= round_no <= self.rounds or not 1 <= group <= self.groups()):
                out.append(f"schedule entry round {round_no!r} group {group!r}: no such group")
            elif not sets or any(not isinstance(s, int) or s < 1 for s in sets):
                out.append(f"schedule entry round {round_no} group {group}: sets {sets!r}")
        if out:
            return out
        last = max(self.sets_of_round(r)[-1] for r in range(1, self.rounds + 1))
        if last * self.boards_per_set > MAX_BOARDS:
            out.append(
                f"the plan reaches board {last * self.boards_per_set:,} (set {last} of "
                f"{self.boards_per_set} boards): at most {MAX_BOARDS:,} boards in an event"
            )
            return out
        rounds_of_set: dict[int, set[int]] = {}
        for r in range(1, self.rounds + 1):
            for s in self.sets_of_round(r):
                rounds_of_set.setdefault(s, set()).add(r)
        out += [
            f"set {s} is planned in {numbered('round', sorted(rs))}: a set's deals may be "
            "played in one round"
            for s, rs in sorted(rounds_of_set.items())
            if len(rs) > 1
        ]
        return out

    def tables(self) -> int:
        """Tables in play each round (players beyond a full table have a bye; a team event
        has two per match; a knockout, the most any round needs)."""
        return self.event_format.tables(self)

    def groups(self) -> int:
        """Groups of ``tables_per_group`` tables; the last one (of each venue) may be
        smaller."""
        if self.venues:
            return len(self._group_tables())
        return -(-self.tables() // self.tables_per_group)

    def tables_of_group(self, group: int) -> range:
        if self.venues:
            groups = self._group_tables()
            return groups[group - 1] if 1 <= group <= len(groups) else range(0)
        first = (group - 1) * self.tables_per_group + 1
        return range(first, min(first + self.tables_per_group, self.tables() + 1))

    def group_of_table(self, table: int) -> int:
        if self.venues:
            return next((g for g, tables in enumerate(self._group_tables(), 1)
                         if table in tables), len(self._group_tables()) + 1)
        return (table - 1) // self.tables_per_group + 1

    def sets_of_group(self, round_no: int, group: int) -> list[int]:
        """The sets, in playing order, that ``group`` plays in ``round_no``."""
        for r, g, sets in self.schedule:
            if (r, g) == (round_no, group):
                return list(sets)
        return self.default_sets(round_no)

    def default_sets(self, round_no: int) -> list[int]:
        """The sets of ``round_no`` for a group the ``[[schedule]]`` does not mention."""
        first = (round_no - 1) * self.sets_per_round + 1
        return list(range(first, first + self.sets_per_round))

    def check_round(self, round_no: int) -> int:
        """``round_no`` if the plan has it, else an ``InvalidPlanError`` naming the rounds."""
        if not 1 <= round_no <= self.rounds:
            raise InvalidPlanError(
                f"round {round_no!r} is not in the plan "
                f"({spans('round', range(1, self.rounds + 1))})"
            )
        return round_no

    def sets_of_round(self, round_no: int) -> list[int]:
        """Every set some group plays in ``round_no``, ascending."""
        self.check_round(round_no)
        scheduled: dict[int, tuple[int, ...]] = {}
        for r, g, sets in self.schedule:
            if r == round_no:
                scheduled.setdefault(g, sets)
        played = {s for sets in scheduled.values() for s in sets}
        if len(scheduled) < self.groups():  # some group plays the default sets
            played |= set(self.default_sets(round_no))
        return sorted(played)

    def boards_of_set(self, set_no: int) -> range:
        first = (set_no - 1) * self.boards_per_set + 1
        return range(first, first + self.boards_per_set)

    def board_ranges(self, sets: list[int]) -> str:
        """The boards of ``sets`` as a director writes them, e.g. ``"7-12, 19-24"``."""
        return ", ".join(f"{b[0]}-{b[-1]}" for b in map(self.boards_of_set, sets))

    def tables_of_set(self, round_no: int, set_no: int) -> list[int]:
        """The tables that should return a result for ``set_no`` in ``round_no``."""
        return self.event_format.tables_of_set(self, round_no, set_no)

    def grouped_tables_of_set(self, round_no: int, set_no: int) -> list[int]:
        """The tables of every group that plays ``set_no`` in ``round_no``."""
        return [
            t
            for g in range(1, self.groups() + 1)
            if set_no in self.sets_of_group(round_no, g)
            for t in self.tables_of_group(g)
        ]

    def planned_results(self, round_no: int) -> list[tuple[int, int]]:
        """Every (table, set) that should return a result in ``round_no``, set by set."""
        return list(self._planned(round_no)[0])

    def planned_array(self, round_no: int):
        """``planned_results`` as a read-only numpy array of (table, set) rows."""
        return self._planned(round_no)[1]

    def _planned(self, round_no: int) -> tuple:
        """``planned_results`` made once for a plan of the same keys (a million players'
        round is 500,000 pairs: 0.3 s to make, asked by every write of the live server's
        store and several times by a scoring)."""
        key = (repr(self), round_no)
        known = _PLANNED.get(key)
        if known is None:
            import numpy as np

            pairs = tuple((t, s) for s in self.sets_of_round(round_no)
                          for t in self.tables_of_set(round_no, s))
            array = np.array(pairs, dtype=np.int64).reshape(-1, 2)
            array.flags.writeable = False
            if len(_PLANNED) > 16:
                _PLANNED.clear()
            known = _PLANNED[key] = (pairs, array)
        return known

    def expected_tables(self, round_no: int) -> dict[int, int]:
        """Results expected per set of the round (every table of every group playing it)."""
        return {s: len(self.tables_of_set(round_no, s)) for s in self.sets_of_round(round_no)}

    def expected_tables_by_group(self, round_no: int) -> dict[tuple[int, int], int]:
        """Results expected per (set, group) of the round: Neuberg's N when groups are
        compared apart (``compare_within = "group"``)."""
        self.check_round(round_no)
        return {
            (s, g): len(self.tables_of_group(g))
            for g in range(1, self.groups() + 1)
            for s in self.sets_of_group(round_no, g)
        }

    def expected_tables_by_venue(self, round_no: int) -> dict[tuple[int, int], int]:
        """Results expected per (set, venue number) of the round, venues numbered 1.. in the
        plan's order: Neuberg's N when venues are compared apart (``compare_within =
        "venue"``)."""
        numbers = self.venue_numbers()
        out: dict[tuple[int, int], int] = {}
        for s in self.sets_of_round(round_no):
            for t in self.tables_of_set(round_no, s):
                key = (s, numbers[t])
                out[key] = out.get(key, 0) + 1
        return out

    def venue_numbers(self) -> dict[int, int]:
        """Table -> its venue's number (1.. in the plan's venue order)."""
        return {t: i for i, tables in enumerate(self.venue_tables().values(), 1) for t in tables}

    def to_dict(self) -> dict:
        """The plan as event.toml keys: the common ones (schedule as an array of tables),
        ``format`` when it has one, and the format's own keys, flat."""
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if f.name != "options"}
        if not self.format:  # movement events' event.toml stays as it was
            del data["format"]
        if self.venues:
            data["venues"] = [{"name": n, "players": c} for n, c in self.venues]
        else:
            del data["venues"]
        data["schedule"] = [
            {"round": r, "group": g, "sets": list(sets)} for r, g, sets in self.schedule
        ]
        return data | self.options.to_dict()

    @classmethod
    def from_dict(cls, data: Mapping) -> EventPlan:
        """Build from event.toml keys; unknown or missing keys are an ``InvalidPlanError``.

        The format's own keys (a team event's ``teams``, ``conversion``, ``awards``) become
        its ``options``; every event.toml written before the formats had a part of their own
        reads the same way."""
        from .formats import format_named, format_problem, owners_of

        values = dict(data)
        kind, fmt = values.get("kind"), values.get("format", "")
        problem = format_problem(kind, fmt) if "kind" in values else ""
        if problem:  # said first: the keys follow from the format
            raise InvalidPlanError(f"invalid event plan:\n  {problem}")
        event_format = format_named(kind, fmt) if "kind" in values else None
        own = event_format.option_keys if event_format else ()
        common = {f.name for f in dataclasses.fields(cls)} - {"options"}
        required = {f.name for f in dataclasses.fields(cls) if f.default is dataclasses.MISSING}
        unknown = sorted(set(values) - common - set(own))
        missing = sorted(required - set(values))
        foreign = [f"  {k} = {values[k]!r}: only {owners_of(k)} events have it"
                   for k in unknown if owners_of(k)]
        if foreign:
            raise InvalidPlanError("invalid event plan:\n" + "\n".join(foreign))
        if unknown or missing:
            raise InvalidPlanError(f"event plan: unknown keys {unknown}, missing keys {missing}")
        try:
            values["schedule"] = tuple(
                (e["round"], e["group"], tuple(e["sets"])) for e in data.get("schedule", ())
            )
        except (KeyError, TypeError) as error:
            raise InvalidPlanError(f"event plan: bad [[schedule]] entry ({error})") from None
        try:
            values["venues"] = tuple((v["name"], v["players"]) for v in data.get("venues", ()))
        except (KeyError, TypeError) as error:
            raise InvalidPlanError(f"event plan: bad [[venues]] entry ({error})") from None
        if own:
            values["options"] = event_format.options_from(
                {k: values.pop(k) for k in own if k in values})
        return cls(**values)
