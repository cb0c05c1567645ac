"""What each side of a match scores: 场分 in halves, 级差分 in hundredths (SPEC 8).

A real match gives 2 / 1 / 0 场分 by the sign of a team's net levels; artificial matches
(byes, forfeits, excused absences, boards not duplicated) give fixed awards, configurable
because organisers differ. Both numbers are integers inside so that ties are decided
exactly; files and pages show them as decimals.

>>> Award.of("1.5", "17")
Award(halves=3, hundredths=1700)
>>> Award.of("1.5", "17").match_points, Award.of("1.5", "17").level_points
(1.5, 17.0)
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from decimal import Decimal, InvalidOperation

from ..errors import GuandanError

MAX_MATCH_POINTS = 2
"""An award gives at most a win's 场分 (2) and 1000 级差分 (beyond any conversion table's)."""
MAX_LEVEL_POINTS = 1000


@dataclass(frozen=True)
class Award:
    """One side's 场分 (in halves) and 级差分 (in hundredths) for one match."""

    halves: int
    hundredths: int

    @classmethod
    def of(cls, match_points: str | float, level_points: str | float) -> Award:
        """From decimals as a director writes them; 场分 must be a multiple of 0.5 and
        级差分 of 0.01."""
        try:
            halves = Decimal(str(match_points)) * 2
            hundredths = Decimal(str(level_points)) * 100
        except InvalidOperation:
            halves = hundredths = Decimal("NaN")
        if not (halves.is_finite() and hundredths.is_finite()) or (
            halves != halves.to_integral_value() or hundredths != hundredths.to_integral_value()
        ):
            raise GuandanError(
                f"award {match_points!r} + {level_points!r}: 场分 moves in halves and 级差分 "
                "in hundredths"
            )
        if not (0 <= halves <= 2 * MAX_MATCH_POINTS and 0 <= hundredths <= 100 * MAX_LEVEL_POINTS):
            raise GuandanError(
                f"award {match_points!r} + {level_points!r}: expected 场分 from 0 to "
                f"{MAX_MATCH_POINTS} and 级差分 from 0 to {MAX_LEVEL_POINTS} (an award is "
                "what a side gets; a penalty is a ledger row)"
            )
        return cls(int(halves), int(hundredths))

    @property
    def match_points(self) -> float:
        return self.halves / 2

    @property
    def level_points(self) -> float:
        return self.hundredths / 100


WIN, DRAW, LOSS = 4, 2, 0
"""场分 of a real match in halves: 2 / 1 / 0."""


@dataclass(frozen=True)
class ArtificialAwards:
    """The awards of matches not decided at the tables (SPEC 8; seed 000 art. 26.6, 34-37).

    ``swiss_bye``: the team sitting out a Swiss round (art. 26.6); ``round_robin_bye``: a
    round-robin team without an opponent that round (nothing). ``present`` and ``forfeit``:
    the side present and the side that forfeited or left (art. 34, 35). ``excused``: the
    absent side of an excused absence (art. 36, scored as a draw; its opponent gets
    ``present``). ``not_duplicated``: each side of a match whose two rooms did not play the
    same boards (art. 37, a draw).
    """

    swiss_bye: Award = Award(3, 1700)
    round_robin_bye: Award = Award(0, 0)
    present: Award = Award(4, 1700)
    forfeit: Award = Award(0, 0)
    excused: Award = Award(2, 1300)
    not_duplicated: Award = Award(2, 1300)

    def bye(self, fmt: str) -> Award:
        """The bye of ``fmt`` (``swiss`` or ``round-robin``)."""
        return self.swiss_bye if fmt == "swiss" else self.round_robin_bye


def parse_awards(text: str) -> ArtificialAwards:
    """Awards from event.toml's ``awards`` text, e.g. ``"swiss_bye=1.5+17, excused=1+12"``:
    each named award (a field of ``ArtificialAwards``) as 场分+级差分; the rest default.

    >>> parse_awards("forfeit=0+5").forfeit
    Award(halves=0, hundredths=500)
    >>> parse_awards("") == ArtificialAwards()
    True
    """
    names = [f.name for f in fields(ArtificialAwards)]
    given: dict[str, Award] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, _, value = item.partition("=")
        points = value.strip().split("+")
        if name.strip() not in names or len(points) != 2:
            raise GuandanError(
                f"award {item!r}: expected NAME=场分+级差分 with NAME one of {', '.join(names)}"
            )
        if name.strip() in given:
            raise GuandanError(f"award {item!r}: {name.strip()} is given twice; give it once")
        given[name.strip()] = Award.of(*points)
    return replace(ArtificialAwards(), **given)
