"""The event plan (event.toml): format, size, and which sets each round and group plays.

The plan is the single source for everything derived from the event's shape: the tables of
each group, the sets a group plays in a round, the boards of a set and how many results each
set should get (``expected_tables``, which scoring needs for Neuberg's adjustment). By
default round r plays sets (r-1)*M+1 .. r*M in every group, and set s holds boards
(s-1)*K+1 .. s*K; a ``[[schedule]]`` entry gives one group of one round other sets.

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

from ..errors import GuandanError, InvalidPlanError
from ..knockout import rounds_needed, tables_per_round
from ..scoring.rates import COMPARE_WITHIN
from ..teams.awards import parse_awards

KINDS = ("individual", "pairs", "teams")
#: Formats of team events; ``knockout`` (a bracket, SPEC 9) is also one of pairs events,
#: whose format is otherwise empty (reseated by standing, SPEC 7).
FORMATS = ("swiss", "round-robin", "knockout")
TEAM_KEYS = ("teams", "conversion", "awards")
"""Keys of team events only: absent from other events' event.toml, which load unchanged
(as is an empty ``format``)."""
LIMITS = {
    "players": 100_000,
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
class EventPlan:
    """What an event is: its kind and size, rounds of sets of boards, options.

    ``players`` counts entrants (for a pairs event, players, two per pair; for a team event,
    registered players). ``schedule`` holds exceptions to the default sets as ``(round,
    group, sets)`` triples. A team event (SPEC 8) also has its ``format`` (swiss or
    round-robin), the number of ``teams``, its 级差分 ``conversion`` table's name and the
    ``awards`` of artificial matches that differ from SPEC 8's (``teams.awards``); it plays
    one set per round on 2 tables per match, in one group. ``correction_minutes`` is art.
    48's correction time after a round's end: until then the round is provisional, after it
    final (docs/director-guide.md, "When things go wrong").
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
    teams: int = 0
    conversion: str = ""
    awards: str = ""

    def __post_init__(self) -> None:
        problems = self._problems()
        if problems:
            raise InvalidPlanError("invalid event plan:\n" + "\n".join(f"  {p}" for p in problems))

    def _problems(self) -> list[str]:
        out = []
        for name in ("players", "tables_per_group", "sets_per_round", "boards_per_set", "rounds"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                out.append(f"{name} = {value!r}: expected a whole number >= 1")
            elif value > LIMITS[name]:
                out.append(f"{name} = {value!r}: at most {LIMITS[name]:,} (no real event has more)")
        if not isinstance(self.correction_minutes, int) or self.correction_minutes < 0:
            out.append(f"correction_minutes = {self.correction_minutes!r}: expected a whole "
                       "number of minutes >= 0")
        if self.kind not in KINDS:
            out.append(f"kind = {self.kind!r}: expected one of {', '.join(KINDS)}")
        if self.compare_within not in COMPARE_WITHIN:
            out.append(f"compare_within = {self.compare_within!r}: expected event or group")
        if self.seeding not in ("lot", "list"):
            out.append(f"seeding = {self.seeding!r}: expected lot or list")
        if self.rotate_partners and self.kind != "individual":
            out.append("rotate_partners = true: partners rotate only in individual events")
        if self.rotate_partners and self.schedule:
            out.append("rotate_partners = true needs every group to play the same sets")
        out += self._team_problems()
        if out:
            return out
        if self.format == "knockout":
            return self._knockout_problems()
        if self.tables() < 1:
            out.append(f"{self.players} players do not fill one table")
        elif self.groups() > MAX_GROUPS:
            out.append(
                f"{self.tables():,} tables in groups of {self.tables_per_group} make "
                f"{self.groups():,} groups: at most {MAX_GROUPS:,} (give more tables per group)"
            )
        for round_no, group, sets in self.schedule:
            if not 1 <= round_no <= self.rounds or not 1 <= group <= self.groups():
                out.append(f"schedule entry round {round_no!r} group {group!r}: no such group")
            if not sets or any(not isinstance(s, int) or s < 1 for s in sets):
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
            f"set {s} is planned in rounds {sorted(rs)}: a set's deals may be played in one round"
            for s, rs in sorted(rounds_of_set.items())
            if len(rs) > 1
        ]
        return out

    def _knockout_problems(self) -> list[str]:
        """A knockout is one set per round, one group, as many rounds as its bracket needs."""
        if self.kind == "pairs" and (self.players % 2 or self.players < 4):
            return [f"players = {self.players}: a pairs knockout needs at least 2 whole pairs"]
        out = []
        if self.rounds != rounds_needed(self.entries()):
            out.append(f"rounds = {self.rounds}: a knockout of {self.entries()} entries has "
                       f"{rounds_needed(self.entries())} rounds")
        if self.sets_per_round != 1:
            out.append(f"sets_per_round = {self.sets_per_round}: a knockout match is one set")
        if self.tables_per_group < self.tables() or self.schedule or self.rotate_partners:
            out.append("a knockout plays in one group, without a [[schedule]] or rotation")
        return out

    def entries(self) -> int:
        """Sides in a knockout: teams, or pairs."""
        return self.teams if self.kind == "teams" else self.players // 2

    def layout(self) -> str:
        """A knockout's bracket: ``seeded`` (teams; pairs from a seeding list), else drawn by
        ``lot``."""
        return "seeded" if self.kind == "teams" or self.seeding == "list" else "lot"

    def _team_problems(self) -> list[str]:
        if self.kind != "teams":
            out = [f"{k} = {getattr(self, k)!r}: only team events have it"
                   for k in TEAM_KEYS if getattr(self, k)]
            if self.format not in ("", "knockout"):
                out.append(f"format = {self.format!r}: only team events have it (a "
                           f"{self.kind} event is reseated by standing, or a knockout)")
            if self.format == "knockout" and self.kind != "pairs":
                out.append(f"format = 'knockout': a knockout is played by pairs or teams, "
                           f"not {self.kind}")
            return out
        out = []
        if self.format not in FORMATS:
            out.append(f"format = {self.format!r}: expected one of {', '.join(FORMATS)}")
        if not isinstance(self.teams, int) or self.teams < 2:
            out.append(f"teams = {self.teams!r}: a team event needs at least 2 teams")
        if not self.conversion:
            out.append("conversion = '': name the 级差分 conversion table (e.g. linear)")
        try:
            parse_awards(self.awards)
        except GuandanError as error:
            out.append(f"awards = {self.awards!r}: {error}")
        if self.sets_per_round != 1 or self.schedule or self.rotate_partners:
            out.append("a team event plays one set per round, the same in every match")
        elif isinstance(self.teams, int) and self.teams >= 2 and (
                self.tables_per_group != 2 * (self.teams // 2)):
            out.append(f"tables_per_group = {self.tables_per_group!r}: a team event of "
                       f"{self.teams} teams plays in one group of {2 * (self.teams // 2)} tables")
        return out

    def tables(self) -> int:
        """Tables in play each round (players beyond a full table have a bye); in a team
        event, two per match; in a knockout, the most any round needs."""
        if self.kind == "teams":
            return 2 * (self.teams // 2)
        return self.players // 4

    def groups(self) -> int:
        """Groups of ``tables_per_group`` tables; the last one may be smaller."""
        return -(-self.tables() // self.tables_per_group)

    def tables_of_group(self, group: int) -> range:
        first = (group - 1) * self.tables_per_group + 1
        return range(first, min(first + self.tables_per_group, self.tables() + 1))

    def group_of_table(self, table: int) -> int:
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
                f"round {round_no!r} is not in the plan (rounds 1..{self.rounds})"
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
        if self.format == "knockout":
            tables = tables_per_round(self.entries(), self.layout())[self.check_round(round_no)]
            rooms = 2 if self.kind == "teams" else 1  # a team match: open and closed room
            return list(range(1, rooms * tables + 1)) if set_no == round_no else []
        groups = range(1, self.groups() + 1)
        return [
            t
            for g in groups
            if set_no in self.sets_of_group(round_no, g)
            for t in self.tables_of_group(g)
        ]

    def planned_results(self, round_no: int) -> list[tuple[int, int]]:
        """Every (table, set) that should return a result in ``round_no``, set by set."""
        return [
            (t, s) for s in self.sets_of_round(round_no) for t in self.tables_of_set(round_no, s)
        ]

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

    def to_dict(self) -> dict:
        """The plan as event.toml keys (schedule as an array of tables)."""
        data = dataclasses.asdict(self)
        if self.kind != "teams":
            data = {k: v for k, v in data.items() if k not in TEAM_KEYS}
        if not self.format:  # movement events' event.toml stays as it was
            del data["format"]
        data["schedule"] = [
            {"round": r, "group": g, "sets": list(sets)} for r, g, sets in self.schedule
        ]
        return data

    @classmethod
    def from_dict(cls, data: Mapping) -> EventPlan:
        """Build from event.toml keys; unknown or missing keys are an ``InvalidPlanError``."""
        fields = {f.name for f in dataclasses.fields(cls)}
        required = {f.name for f in dataclasses.fields(cls) if f.default is dataclasses.MISSING}
        unknown, missing = sorted(set(data) - fields), sorted(required - set(data))
        if unknown or missing:
            raise InvalidPlanError(f"event plan: unknown keys {unknown}, missing keys {missing}")
        values = dict(data)
        try:
            values["schedule"] = tuple(
                (e["round"], e["group"], tuple(e["sets"])) for e in data.get("schedule", ())
            )
        except (KeyError, TypeError) as error:
            raise InvalidPlanError(f"event plan: bad [[schedule]] entry ({error})") from None
        return cls(**values)
