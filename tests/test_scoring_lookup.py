"""Finding ids among known ids by sorted mixes (scoring.lookup) agrees with Arrow's index_in,
the slow, obvious reference, whatever the ids' lengths and bytes."""

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from hypothesis import given
from hypothesis import strategies as st

from guandan_dup.scoring import lookup
from guandan_dup.scoring.lookup import IdLookup, id_words

ids = st.text(st.characters(codec="utf-8"), max_size=20)  # any bytes: "", "\0", long, non-ASCII
known_and_asked = st.lists(ids, unique=True, max_size=30).flatmap(
    lambda known: st.tuples(
        st.just(known),
        st.lists(st.one_of(ids, st.sampled_from(known)) if known else ids, unique=True,
                 max_size=30),
    )
)


def reference(known, asked):
    found = pc.index_in(pa.array(asked, pa.string()), value_set=pa.array(known, pa.string()))
    return found.fill_null(-1).to_numpy(zero_copy_only=False).tolist()


@given(known_and_asked, st.sampled_from([pa.string(), pa.large_string()]))
def test_find_agrees_with_index_in(case, kind):
    known, asked = case
    got = IdLookup(pa.array(known, pa.large_string())).find(pa.array(asked, kind))
    assert got.tolist() == reference(known, asked)


@given(known_and_asked)
def test_find_in_a_slice(case):
    """Arrays that are slices of bigger ones (an offset into the buffers) read right."""
    known, asked = case
    sliced = pa.array(["x"] + asked + ["y"], pa.large_string())[1:-1]
    got = IdLookup(pa.array(["z"] + known, pa.large_string())[1:]).find(sliced)
    assert got.tolist() == reference(known, asked)


@given(known_and_asked)
def test_shared_mixes_fall_back_to_index_in(case):
    """If two known ids share a mix (here all do), index_in answers: still right."""
    known, asked = case
    original = lookup.mix
    lookup.mix = lambda words: np.zeros(len(words), np.uint64)
    try:
        got = IdLookup(pa.array(known, pa.large_string())).find(pa.array(asked, pa.string()))
    finally:
        lookup.mix = original
    assert got.tolist() == reference(known, asked)


def test_words_tell_trailing_zero_bytes_and_padding_apart():
    words = id_words(pa.array(["a", "a\0", "", "abcdefgh"]), least=3)
    assert words.shape == (4, 3)
    assert len({tuple(row) for row in words.tolist()}) == 4
    assert (lookup.mix(words) == lookup.mix(id_words(pa.array(["a", "a\0", "", "abcdefgh"])))
            ).all()


def test_ids_longer_than_the_widest_are_found_by_hashing_without_rows_of_words():
    long = "x" * (lookup.WIDEST + 1)
    known = IdLookup(pa.array(["p1", long, "p3"], pa.large_string()))
    assert known.words.shape[0] == 0  # no 400k rows as wide as the longest id
    assert known.find(pa.array([long, "p3", "q"])).tolist() == [1, 2, -1]
    short = IdLookup(pa.array(["p1", "p3"], pa.large_string()))
    assert short.find(pa.array([long, "p3"])).tolist() == [-1, 1]
