"""Player id columns built from codes: the Arrow dictionaries read back as the categoricals
pandas' checked construction gives, and ``text`` gives each code's word."""

import numpy as np
import pandas as pd
import pyarrow as pa
from hypothesis import given
from hypothesis import strategies as st

from guandan_dup.arrays import strings
from guandan_dup.scoring.outputs import coded, to_frame
from guandan_dup.scoring.players import text

words_and_codes = st.lists(st.text(min_size=1, max_size=6), unique=True, max_size=8).flatmap(
    lambda words: st.tuples(
        st.just(words),
        st.lists(st.integers(-1, len(words) - 1), max_size=20),
    )
)


@given(words_and_codes)
def test_coded_ids_read_back_as_the_checked_categorical(case):
    words, codes = case
    codes = np.array(codes, dtype=np.int32)
    expected = pd.Categorical.from_codes(codes, pd.Index(words, dtype="str"))
    got = to_frame(pa.table({"player": coded(codes, strings(words))}))["player"]
    assert got.dtype == expected.dtype
    assert got.array.equals(expected)
    assert list(got.cat.categories) == words


@given(words_and_codes)
def test_text_is_the_word_of_each_code(case):
    words, codes = case
    got = text(np.array(codes, dtype=np.int64), words)
    assert got.to_pylist() == [words[c] if c >= 0 else None for c in codes]
