"""Player id columns built from codes: the fast constructions give what pandas' checked ones
give (``players.categories`` skips pandas' uniqueness check, trusting distinct words)."""

import numpy as np
import pandas as pd
import pyarrow as pa
from hypothesis import given
from hypothesis import strategies as st

from guandan_dup.scoring.players import categories, text

words_and_codes = st.lists(st.text(min_size=1, max_size=6), unique=True, max_size=8).flatmap(
    lambda words: st.tuples(
        st.just(words),
        st.lists(st.integers(-1, len(words) - 1), max_size=20),
    )
)


@given(words_and_codes)
def test_categories_equal_the_checked_construction(case):
    words, codes = case
    codes = np.array(codes, dtype=np.int32)
    expected = pd.Categorical.from_codes(codes, pd.Index(words, dtype="str"))
    for given_words in (words, pa.array(words, pa.large_string())):
        got = categories(codes, given_words)
        assert got.dtype == expected.dtype
        assert got.equals(expected)
        assert list(got.categories) == words


@given(words_and_codes)
def test_text_is_the_word_of_each_code(case):
    words, codes = case
    got = text(np.array(codes, dtype=np.int64), words)
    shown = [None if pd.isna(value) else value for value in got]
    assert shown == [words[c] if c >= 0 else None for c in codes]
