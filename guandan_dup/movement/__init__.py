"""Movement between rounds (移位): individual and pairs seating, byes, the round-1 lot."""

from .draw import derive_seed, draw_lot, seeded_then_lot, seeding_order, with_unplaced
from .individual import ROTATION, Seating, choose_byes, seat_round
from .pairs import (
    earlier_meetings,
    match_pairs,
    pair_byes,
    pair_order,
    partnerships,
    seat_pairs,
)

__all__ = [
    "ROTATION",
    "Seating",
    "choose_byes",
    "derive_seed",
    "draw_lot",
    "earlier_meetings",
    "match_pairs",
    "pair_byes",
    "pair_order",
    "partnerships",
    "seat_pairs",
    "seat_round",
    "seeded_then_lot",
    "seeding_order",
    "with_unplaced",
]
