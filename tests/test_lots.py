"""Lots from the event key (SPEC 6 tie-break lot, SPEC 7 round-1 lot, SPEC 8 team numbers):
one SHA-256 rule, ``guandan_dup.lots``, checked here against each lot built the long way."""

import hashlib

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from guandan_dup import lots
from guandan_dup.movement import derive_seed, draw_lot

KEY = bytes(range(32))
IDS = st.lists(st.text(min_size=1, max_size=8), max_size=20)


def ticket(key: bytes, label: str, player: str) -> bytes:
    """The round-1 lot's ticket, the long way (as the movement code wrote it)."""
    parts = (b"guandan-dup lot v1", label.encode(), key, player.encode())
    return hashlib.sha256(b"\0".join(parts)).digest()


def tie_break(seed: int | str | bytes, player: str) -> int:
    """The standings' tie-break lot, the long way (as the scoring code wrote it)."""
    secret = seed if isinstance(seed, bytes) else str(seed).encode()
    digest = hashlib.sha256(b"guandan-dup/lot\0" + secret + b"\0" + player.encode())
    return int.from_bytes(digest.digest()[:8], "big")


@given(IDS, st.sampled_from(["round 1 seating", "team numbers", "玩家"]))
def test_draw_lot_sorts_by_the_whole_ticket(players, label):
    assert draw_lot(players, KEY, label) == sorted(players, key=lambda p: ticket(KEY, label, p))


@given(IDS, st.one_of(st.integers(0, 2**63), st.text(max_size=5), st.binary(max_size=5)))
def test_draw_lots_is_the_first_eight_bytes_of_the_ticket(players, seed):
    drawn = lots.draw_lots(seed, players)
    assert drawn.dtype == np.uint64
    assert drawn.tolist() == [tie_break(seed, p) for p in players]


@given(st.binary(max_size=40), st.text(max_size=10))
def test_derive_seed_hashes_label_then_key(key, label):
    digest = hashlib.sha256(b"\0".join((b"guandan-dup lot v1", b"seed", label.encode(), key)))
    assert derive_seed(key, label) == int.from_bytes(digest.digest()[:8], "big") >> 1


def test_movement_and_scoring_lots_are_the_shared_ones():
    from guandan_dup.scoring import standings
    from guandan_dup.teams import registration

    assert standings.draw_lots is lots.draw_lots
    assert registration.draw_lot is draw_lot is lots.draw_lot
