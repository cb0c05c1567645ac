"""Ids coded by their hashes alone (``arrays.distinct_ids``) are exactly what Arrow's
dictionary gives (``arrays.encode_ids``) when no id repeats, and refused when one does."""

import numpy as np
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from guandan_dup.arrays import LONGEST, distinct_ids, encode_ids, id_hashes

IDS = st.text(alphabet="ab中1 ", max_size=9)  # across the 8-byte words the hash takes


@settings(max_examples=200, deadline=None)
@given(st.lists(IDS, min_size=4, max_size=24).map(lambda ids: ids[:len(ids) // 4 * 4]))
def test_ids_coded_by_their_hashes_are_the_dictionarys(ids):
    columns = [pa.array(ids[i::4], pa.string()) for i in range(4)]
    names, codes = encode_ids(columns)
    got = distinct_ids(columns)
    if len(set(ids)) < len(ids):
        assert got is None
        return
    assert got is not None
    coded, hashes = got
    assert coded.to_pylist() == names.to_pylist()
    assert codes.T.ravel().tolist() == list(range(len(ids)))  # each id coded by its place
    assert hashes.tolist() == id_hashes(names).tolist()


def test_ids_too_long_to_hash_are_not_coded_by_hashes():
    columns = [pa.array([f"{seat}" * (LONGEST + 1)]) for seat in "nesw"]
    assert distinct_ids(columns) is None
    assert len(encode_ids(columns)[0]) == 4


def test_no_ids_give_no_codes():
    coded, hashes = distinct_ids([pa.array([], pa.string())] * 4)
    assert len(coded) == 0 and hashes.dtype == np.uint64
