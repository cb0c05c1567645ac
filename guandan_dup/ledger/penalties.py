"""Penalties: art. 52's scales with their repeat steps, art. 33's overtime, the units.

Penalties come off totals only, never off a set's result (art. 51.3), so no opponent's figure
moves. Team events count 场分 (match points) and 级差分 (level points); individual and pairs
events count percentage points of the cumulative average (SPEC 10, Decision). Art. 52's steps
are written in team units; in individual and pairs events (Decision, docs/director-guide.md)
a step of k 级差分 is k percentage points and a step of m 场分 is 5m percentage points.

>>> scale_step(2, 0), scale_step(2, 1), scale_step(2, 5)
(('level', Fraction(3, 1)), ('match', Fraction(1, 1)), ('match', Fraction(1, 1)))
>>> in_percentage_points(*scale_step(3, 1))
Fraction(5, 2)
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from fractions import Fraction

#: Art. 52: each scale's steps (first offence, second, ...); a later repeat takes the last.
SCALES: dict[int, tuple[tuple[str, Fraction], ...]] = {
    1: (("match", Fraction(2)),),
    2: (("level", Fraction(3)), ("match", Fraction(1))),
    3: (("level", Fraction(2)), ("match", Fraction(1, 2))),
    4: (("warning", Fraction(0)), ("level", Fraction(1))),
}
#: Percentage points per unit in individual and pairs events (Decision).
PERCENT_PER_UNIT = {"level": Fraction(1), "match": Fraction(5), "warning": Fraction(0)}


def scale_step(scale: int, earlier: int) -> tuple[str, Fraction]:
    """The unit and amount of an offence on ``scale`` after ``earlier`` ones on it."""
    steps = SCALES[scale]
    return steps[min(earlier, len(steps) - 1)]


def overtime_step(minutes: float) -> tuple[str, Fraction]:
    """Art. 33: over time by 0+ to 5 minutes, 1 级差分; 5+ to 10, 2 级差分."""
    return ("level", Fraction(1) if minutes <= 5 else Fraction(2))


def in_percentage_points(unit: str, amount: Fraction) -> Fraction:
    return PERCENT_PER_UNIT[unit] * amount


MAX_PERCENTAGE_POINTS = 100
MAX_LEVEL_POINTS = 1000


def amount_limit(name: str, rounds: int) -> int:
    """The largest penalty of a kind a director can mean: all of an average (100 percentage
    points), every 场分 of the event (2 a round), 1000 级差分 (far beyond any table's). A
    larger figure is a typing mistake, and would overflow the exact sums."""
    return {"points": MAX_PERCENTAGE_POINTS, "match_points": 2 * rounds}.get(
        name, MAX_LEVEL_POINTS)


def decimal_problem(text: str, places: int | None, halves: bool = False,
                    limit: int | None = None) -> str | None:
    """Why ``text`` is not an amount of points (a positive decimal, at most ``limit``), or
    ``None``."""
    try:
        value = Decimal(text)
    except (InvalidOperation, TypeError):
        return "expected a decimal number such as 2.5"
    if not text.isascii() or "_" in text:  # Decimal reads "1_0" and "５", shown as typed
        return "expected a decimal number such as 2.5, in ASCII digits"
    if not value.is_finite() or value <= 0:
        return "expected a number above 0"
    if limit is not None and value > limit:
        return f"expected at most {limit}"
    if halves and (value * 2) % 1:
        return "场分 move in halves (0.5, 1, 1.5, ...)"
    if places is not None and value.as_tuple().exponent < -places:
        return f"at most {places} decimals (art. 50)"
    return None


def exact(text: str) -> Fraction:
    """A decimal text as an exact fraction: ``exact("2.5") == Fraction(5, 2)``."""
    return Fraction(Decimal(text))


def decimal_text(amount: Fraction) -> str:
    """An amount with a finite decimal form as its text: ``Fraction(5, 2)`` -> ``"2.5"``."""
    value = Decimal(amount.numerator) / Decimal(amount.denominator)
    return format(value.normalize(), "f")
