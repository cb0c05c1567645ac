"""Orders of players: a seeding list, a lot drawn from the event key, the unplaced last.

The lot must be reproducible by anyone holding the key (after it is revealed) and unknown to
everyone before, so it is derived from the key with SHA-256, never from ``random`` or numpy's
Generator (whose streams may change between versions). Each player's lot number is the
SHA-256 of a domain label, the key and the player id; sorting by it is a uniformly random
permutation as long as SHA-256 behaves like a random function.

>>> draw_lot(["a", "b", "c"], b"k" * 32) == draw_lot(["c", "b", "a"], b"k" * 32)
True
>>> derive_seed(b"k" * 32, "tie-break lot") == derive_seed(b"k" * 32, "tie-break lot")
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import pandas as pd

LOT_LABEL = b"guandan-dup lot v1"


def _ticket(key: bytes, label: str, player: str) -> bytes:
    parts = (LOT_LABEL, label.encode("utf-8"), key, player.encode("utf-8"))
    return hashlib.sha256(b"\0".join(parts)).digest()


def draw_lot(players: Iterable[str], key: bytes, label: str = "round 1 seating") -> list[str]:
    """The players in the order of a lot drawn from ``key`` (independent of input order)."""
    return sorted((str(p) for p in players), key=lambda p: _ticket(key, label, p))


def seeded_then_lot(players: Iterable[str], seeded: list[str], key: bytes) -> list[str]:
    """The ``seeded`` ids in their order, then every other player in a lot drawn from ``key``."""
    listed = set(seeded)
    return seeded + draw_lot([p for p in players if p not in listed], key)


def derive_seed(key: bytes, label: str) -> int:
    """A 63-bit integer seed for ``label`` (e.g. the scoring tie-break lot) from the key."""
    digest = hashlib.sha256(b"\0".join((LOT_LABEL, b"seed", label.encode("utf-8"), key)))
    return int.from_bytes(digest.digest()[:8], "big") >> 1


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
