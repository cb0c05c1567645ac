"""Geometry of the small position-by-round chart on each player's page.

The chart is drawn at build time so the site needs no script or library to show it: this
module turns positions into SVG coordinates, and ``templates/chart.svg.j2`` lays out the
elements (axes, the line, one dot per round). Position 1 is at the top, because players read
"up" as "better"; the y scale spans the whole field so charts of different players compare.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

WIDTH, HEIGHT = 320, 160
LEFT, RIGHT, TOP, BOTTOM = 36, 12, 12, 28


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    round: int
    position: int


@dataclass(frozen=True)
class PositionChart:
    """Everything the SVG template needs; coordinates in the viewBox, rounded to 0.1."""

    width: int
    height: int
    points: tuple[ChartPoint, ...]
    x_ticks: tuple[tuple[float, int], ...]
    y_ticks: tuple[tuple[float, int], ...]
    plot: tuple[float, float, float, float]  # left, top, right, bottom

    @property
    def polyline(self) -> str:
        """The ``points`` attribute of the SVG polyline through the rounds played."""
        return " ".join(f"{p.x},{p.y}" for p in self.points)


def position_chart(
    positions: Mapping[int, int], rounds: Sequence[int], field_size: int
) -> PositionChart:
    """Lay out ``positions`` (round -> position, 1 = leader) over the scored ``rounds``.

    Rounds without a position (not in the standings) leave a gap in the dots.

    >>> chart = position_chart({1: 1, 2: 4}, [1, 2], field_size=4)
    >>> [(p.x, p.y) for p in chart.points]
    [(36.0, 12.0), (308.0, 132.0)]
    >>> chart.y_ticks
    ((12.0, 1), (52.0, 2), (132.0, 4))
    """
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM
    span_x, span_y = right - LEFT, bottom - TOP

    def x_of(index: int) -> float:
        return round(LEFT + span_x * (index / (len(rounds) - 1) if len(rounds) > 1 else 0.5), 1)

    def y_of(position: int) -> float:
        share = (position - 1) / (field_size - 1) if field_size > 1 else 0.5
        return round(TOP + span_y * share, 1)

    points = tuple(
        ChartPoint(x_of(i), y_of(positions[r]), r, positions[r])
        for i, r in enumerate(rounds)
        if r in positions
    )
    y_labels = sorted({1, (field_size + 1) // 2, field_size})  # top, middle, bottom
    return PositionChart(
        width=WIDTH,
        height=HEIGHT,
        points=points,
        x_ticks=tuple((x_of(i), r) for i, r in enumerate(rounds)),
        y_ticks=tuple((y_of(p), p) for p in y_labels),
        plot=(LEFT, TOP, right, bottom),
    )
