"""The event's ids kept hashed (``scoring.known``) against the obvious reference: a dict of
every id seen, codes in order of first appearance."""

import numpy as np
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from guandan_dup import arrays
from guandan_dup.scoring import known
from guandan_dup.scoring.known import KnownIds, id_hashes

IDS = st.text(alphabet="ab中1", max_size=4)
ROUNDS = st.lists(st.lists(IDS, unique=True, max_size=12), max_size=5)


def reference(rounds):
    """Each round's codes, by a dict of the ids seen so far."""
    seen: dict[str, int] = {}
    return [[seen.setdefault(i, len(seen)) for i in ids] for ids in rounds], list(seen)


def coded(rounds):
    ids = KnownIds()
    codes = [ids.codes(pa.array(r, pa.string())).tolist() for r in rounds]
    return codes, ids.names.to_pylist()


@settings(max_examples=200, deadline=None)
@given(ROUNDS)
def test_codes_are_the_dict_reference(rounds):
    assert coded(rounds) == reference(rounds)


@settings(max_examples=100, deadline=None)
@given(ROUNDS)
def test_codes_are_the_reference_when_hashes_collide(rounds):
    # A hash of 3 values tells no ids apart, with their lengths or not: every id is compared
    # byte for byte.
    original, whole = known.id_hashes, known.WHOLE
    known.id_hashes = lambda ids: None if (h := original(ids)) is None else h % np.uint64(3)
    known.WHOLE = 0
    try:
        assert coded(rounds) == reference(rounds)
    finally:
        known.id_hashes, known.WHOLE = original, whole


_MULTIPLY = 0x9E3779B97F4A7C15


def unhashed(hashed: int, length: int) -> bytes:
    """The id of ``length`` bytes (at most ``arrays.WHOLE``) whose ``id_hashes`` is
    ``hashed``: each step of the hash undone, so no two such ids share a hash."""
    mixed = hashed ^ (hashed >> 32)  # a xor-shift by half the word is its own inverse
    word = mixed * pow(_MULTIPLY, -1, 2**64) % 2**64 ^ length * _MULTIPLY % 2**64
    return word.to_bytes(8, "little")[:length]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=8).filter(lambda i: len(i.encode()) <= arrays.WHOLE),
                min_size=1, max_size=8))
def test_an_id_of_up_to_8_bytes_is_its_hash_and_length(ids):
    hashes = id_hashes(pa.array(ids, pa.large_string())).tolist()
    assert [unhashed(h, len(i.encode())) for h, i in zip(hashes, ids, strict=True)] == [
        i.encode() for i in ids]


@settings(max_examples=100, deadline=None)
@given(ROUNDS)
def test_codes_from_the_callers_hashes_are_the_reference(rounds):
    # A block's scoring hashes its ids (standings.round_sums); the ranking codes them.
    ids = KnownIds()
    codes = []
    for r in rounds:
        names = pa.array(r, pa.large_string())
        codes.append(ids.codes(names, id_hashes(names)).tolist())
    assert (codes, ids.names.to_pylist()) == reference(rounds)


def test_ids_longer_than_hashed_are_looked_up_by_text():
    long = "x" * (arrays.LONGEST + 1)
    assert id_hashes(pa.array([long], pa.large_string())) is None
    rounds = [["a", long], [long, "b"], ["b", "a"]]
    assert coded(rounds) == reference(rounds)


def test_hashes_tell_apart_ids_of_one_length_and_of_a_sliced_array():
    ids = pa.array(["ab", "ba", "abc", "", "a"], pa.large_string())
    assert len(set(id_hashes(ids).tolist())) == 5
    assert id_hashes(ids.slice(2)).tolist() == id_hashes(ids).tolist()[2:]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(max_size=16), min_size=1, max_size=8))  # at most 64 bytes each
def test_an_ids_hash_is_its_own_whatever_ids_are_beside_it(ids):
    # Hashed 8 bytes at a time: the bytes of the next id, or a longer id in the array, must
    # not change an id's hash (a round's ids are hashed apart from the event's).
    together = id_hashes(pa.array(ids, pa.large_string()))
    assert together.tolist() == [id_hashes(pa.array([i], pa.large_string()))[0] for i in ids]
