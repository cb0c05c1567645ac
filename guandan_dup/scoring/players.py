"""Player ids as integer codes: the four seat columns encoded together, once.

Hashing two million id strings is the dearest step of scoring a big event, so it is done a
single time: the scores and the standings work on the codes, and strings are only taken from
the dictionary (a gather, no hashing) where an output needs them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa

from ..seats import SEAT_COLUMNS


def arrow(series: pd.Series) -> pa.Array:
    """The column as one Arrow array (pandas may hold it in several chunks)."""
    array = pa.array(series)
    return array.combine_chunks() if isinstance(array, pa.ChunkedArray) else array


def encode_seats(travellers: pd.DataFrame) -> tuple[pa.Array, np.ndarray]:
    """The distinct player ids (in order of first appearance, seat by seat) and the code of
    each table's players, table by table, seats N E S W: the rows of the per-player scores."""
    seats = pa.chunked_array(
        [arrow(travellers[c]).cast(pa.large_string()) for c in SEAT_COLUMNS],
        type=pa.large_string(),
    )
    encoded = seats.dictionary_encode().combine_chunks()
    codes = encoded.indices.to_numpy(zero_copy_only=False).reshape(4, len(travellers))
    return encoded.dictionary, codes.T.ravel()


def categories(codes: np.ndarray, words: pa.Array | list[str]) -> pd.Categorical:
    """A pandas categorical of ``words[code]``, null where a code is negative: the codes are
    kept as they are (no string is built per row).

    ``words`` must be distinct (an Arrow dictionary is by construction). The dtype is built by
    ``CategoricalDtype._from_fastpath`` (pandas 1.x to 3.x), which skips the check that the
    categories are unique and not null: a hash of every word, 0.2 s for a round's 400k ids.
    ``test_scoring_players`` holds it equal to the checked construction.
    """
    names = words.to_pandas() if isinstance(words, pa.Array) else pd.Index(words)
    dtype = pd.CategoricalDtype._from_fastpath(pd.Index(names, dtype="str"), ordered=False)
    return pd.Categorical.from_codes(codes, dtype=dtype, validate=False)


def text(codes: np.ndarray, words: pa.Array | list[str]) -> pd.Series:
    """A pandas ``str`` column of ``words[code]``, null where a code is negative: a gather
    from the few distinct strings, not a Python string per row."""
    indices = pa.array(codes.astype(np.int32, copy=False), mask=codes < 0)
    dictionary = words if isinstance(words, pa.Array) else pa.array(words, pa.large_string())
    coded = pa.DictionaryArray.from_arrays(indices, dictionary)
    return coded.cast(pa.large_string()).to_pandas()
