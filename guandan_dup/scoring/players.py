"""Player ids as integer codes: the four seat columns encoded together, once.

Hashing two million id strings is the dearest step of scoring a big event, so it is done a
single time: the scores and the standings work on the codes, and strings are only taken from
the dictionary (a gather, no hashing) where an output needs them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import pyarrow as pa

from ..seats import SEAT_COLUMNS


def arrow(series: pd.Series) -> pa.Array:
    """The column as one Arrow array (pandas may hold it in several chunks)."""
    array = pa.array(series)
    return array.combine_chunks() if isinstance(array, pa.ChunkedArray) else array


def encode_ids(columns: Sequence[pa.Array | pa.ChunkedArray]) -> tuple[pa.Array, np.ndarray]:
    """The distinct ids of text ``columns`` (in order of first appearance, column by column)
    and each row's codes into them, shape (rows, columns): one pass of Arrow's hashing over
    every id."""
    chunks = [chunk for column in columns
              for chunk in pa.chunked_array(column).cast(pa.large_string()).chunks]
    encoded = pa.chunked_array(chunks, pa.large_string()).dictionary_encode()
    indices = pa.chunked_array([c.indices for c in encoded.chunks], pa.int32()).to_numpy()
    names = encoded.chunk(0).dictionary if encoded.num_chunks else pa.array([], pa.large_string())
    return names, indices.reshape(len(columns), -1).T.copy()


def encode_seats(travellers: pd.DataFrame) -> tuple[pa.Array, np.ndarray]:
    """The distinct player ids (in order of first appearance, seat by seat) and the code of
    each table's players, table by table, seats N E S W: the rows of the per-player scores."""
    names, codes = encode_ids([arrow(travellers[c]) for c in SEAT_COLUMNS])
    return names, codes.ravel()


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
