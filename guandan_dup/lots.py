"""Lots drawn from the event key: SHA-256 of a domain prefix and an id, one rule for all.

A lot must be reproducible by anyone holding the key (after it is revealed) and unknown to
everyone before, so it is derived with SHA-256, never from ``random`` or numpy's Generator
(whose streams may change between versions). Every lot here is the digest of a *prefix* (a
domain label, the key or seed, each part followed by a zero byte) and the id (UTF-8), hashed
in one call: ``sha256(prefix + id)``. Hashing the prefix again for every id is a quarter
quicker than copying a hash of it, and no column operation computes SHA-256, so it is one
``hashlib`` call an id; the calls are chained with ``map`` (no Python loop of our own) and
the digests joined before numpy takes their first bytes: 0.5-0.6 s for 800,000 players,
where a loop slicing each digest took 0.8-0.9 s.

Three uses, with their golden values (a change here changes seatings, team numbers and
standings; regenerate only on purpose):

- ``draw_lot``: an order of players or teams (round-1 seating, team numbers), by the whole
  digest, independent of the input order;
- ``draw_lots``: a tie-break number per player (the scoring standings, team standings);
- ``derive_seed``: the scoring tie-break seed of an event, from its key.

>>> draw_lot(["a", "b", "c"], b"k" * 32)
['b', 'c', 'a']
>>> draw_lot(["c", "b", "a"], b"k" * 32)
['b', 'c', 'a']
>>> draw_lots(7, ["p1", "p2"]).tolist()
[238574266247995435, 2208810121226127604]
>>> derive_seed(b"k" * 32, "tie-break lot")
5401565400760855144
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import numpy as np

LOT_LABEL = b"guandan-dup lot v1"
"""The domain label of ``draw_lot`` and ``derive_seed``."""
TIE_BREAK_LABEL = b"guandan-dup/lot"
"""The domain label of ``draw_lots``."""


def prefix(*parts: bytes) -> bytes:
    """The bytes hashed before every id: each of ``parts`` followed by a zero byte."""
    return b"".join(part + b"\0" for part in parts)


def _joined(start: bytes, ids: Iterable[str]) -> bytes:
    """SHA-256(``start`` + id) of each id (UTF-8), one digest after the other: the one hash
    of every lot, without a Python loop of ours (``draw_lots`` takes each digest's first 8
    bytes at once)."""
    digest = type(hashlib.sha256()).digest
    return b"".join(map(digest, map(hashlib.sha256, map(start.__add__, map(str.encode, ids)))))


def draw_lot(players: Iterable[str], key: bytes, label: str = "round 1 seating") -> list[str]:
    """The players in the order of a lot drawn from ``key`` for ``label`` (independent of
    input order): by SHA-256(LOT_LABEL, label, key, player id)."""
    ids = [str(p) for p in players]
    joined = _joined(prefix(LOT_LABEL, label.encode("utf-8"), key), ids)
    return [ids[i] for i in sorted(range(len(ids)), key=lambda i: joined[32 * i:32 * i + 32])]


def draw_lots(seed: int | str | bytes, players: Iterable[str]) -> np.ndarray:
    """A reproducible lot per player: the first 8 bytes of SHA-256(label, seed, player id),
    as unsigned 64-bit numbers.

    Anyone holding the seed (or the event key, once revealed) can redraw it; no numpy
    generator is involved, so it never changes with a library version.
    """
    secret = seed if isinstance(seed, bytes) else str(seed).encode()
    drawn = np.frombuffer(_joined(prefix(TIE_BREAK_LABEL, secret), players), dtype=">u8")
    return drawn[::4].astype(np.uint64)  # each digest's first 8 of its 32 bytes


def derive_seed(key: bytes, label: str) -> int:
    """A 63-bit integer seed for ``label`` (e.g. the scoring tie-break lot) from the key:
    SHA-256(LOT_LABEL, "seed", label, key): the key ends the prefix, the id is empty."""
    start = prefix(LOT_LABEL, b"seed", label.encode("utf-8")) + key
    return int.from_bytes(hashlib.sha256(start).digest()[:8], "big") >> 1
