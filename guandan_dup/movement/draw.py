"""Orders of players: a seeding list, a lot drawn from the event key, the unplaced last.

The lot itself (SHA-256 of a domain label, the key and the player id; sorting by it is a
uniformly random permutation as long as SHA-256 behaves like a random function) is
``guandan_dup.lots``'s, shared with the standings' tie-break lots.

>>> draw_lot(["a", "b", "c"], b"k" * 32) == draw_lot(["c", "b", "a"], b"k" * 32)
True
>>> derive_seed(b"k" * 32, "tie-break lot") == derive_seed(b"k" * 32, "tie-break lot")
True
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from ..lots import derive_seed, draw_lot

__all__ = ["derive_seed", "draw_lot", "seeded_then_lot", "seeding_order", "with_unplaced"]


def seeded_then_lot(players: Iterable[str], seeded: list[str], key: bytes) -> list[str]:
    """The ``seeded`` ids in their order, then every other player in a lot drawn from ``key``."""
    listed = set(seeded)
    return seeded + draw_lot([p for p in players if p not in listed], key)


def with_unplaced(order: list[str], others: Iterable[str]) -> list[str]:
    """``order`` followed by the ``others`` it lacks (in their order, once each).

    A player who has not played a set yet (a bye in round 1) has no standing; without this
    they would silently drop out of the next round's seating.
    """
    placed = set(order)
    return order + [p for p in dict.fromkeys(others) if p not in placed]


def seeding_order(players: pd.DataFrame) -> list[str]:
    """Player ids by their ``seed`` column (1 = best), file order breaking equal seeds."""
    ranked = players.reset_index(drop=True)
    return ranked.sort_values("seed", kind="stable")["player"].astype(str).tolist()
