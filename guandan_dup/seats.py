"""Seats N, E, S, W: partners N-S against E-W, play counter-clockwise N -> W -> S -> E.

>>> Seat.N.partner, Seat.N.next, [s.to_text() for s in Seat.E.iter_from()]
(<Seat.S: 2>, <Seat.W: 3>, ['E', 'N', 'W', 'S'])
>>> Seat.from_text("w").side
'EW'
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import IntEnum

from .errors import NotationError

SEAT_COLUMNS = ("north", "east", "south", "west")
"""Column names of the four seats in results and board files, in seat order N E S W."""


class Seat(IntEnum):
    """A seat; its int value is its column position in files (N, E, S, W)."""

    N = 0
    E = 1
    S = 2
    W = 3

    @classmethod
    def from_text(cls, text: str) -> Seat:
        """Parse a seat letter (case-insensitive); ``NotationError`` names a bad one."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise NotationError(f"bad seat {text!r}: expected one of N, E, S, W") from None

    def to_text(self) -> str:
        return self.name

    @property
    def partner(self) -> Seat:
        return Seat((self + 2) % 4)

    @property
    def next(self) -> Seat:
        """The seat that plays after this one (下家, on its right): N -> W -> S -> E."""
        return Seat((self + 3) % 4)

    @property
    def side(self) -> str:
        """``"NS"`` or ``"EW"``."""
        return "NS" if self in (Seat.N, Seat.S) else "EW"

    @property
    def column(self) -> str:
        """The column name of this seat in results and board files."""
        return SEAT_COLUMNS[self]

    def iter_from(self) -> Iterator[Seat]:
        """The four seats in playing order, starting with this one."""
        seat = self
        for _ in range(4):
            yield seat
            seat = seat.next
