"""Player ids as integer codes: the four seat columns encoded together, once.

Hashing two million id strings is the dearest step of scoring a big event, so it is done a
single time: the scores and the standings work on the codes, and strings are only taken from
the dictionary (a gather, no hashing) where an output needs them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa

from ..arrays import strings, to_arrow, to_numpy
from ..seats import SEAT_COLUMNS


def encode_ids(columns: Sequence[pa.Array | pa.ChunkedArray]) -> tuple[pa.Array, np.ndarray]:
    """The distinct ids of text ``columns`` (in order of first appearance, column by column)
    and each row's codes into them, shape (rows, columns): one pass of Arrow's hashing over
    every id."""
    chunks = [chunk for column in columns
              for chunk in pa.chunked_array(column).cast(pa.large_string()).chunks]
    encoded = pa.chunked_array(chunks, pa.large_string()).dictionary_encode()
    indices = to_numpy(pa.chunked_array([c.indices for c in encoded.chunks], pa.int32()))
    names = encoded.chunk(0).dictionary if encoded.num_chunks else pa.nulls(0, pa.large_string())
    return names, indices.reshape(len(columns), -1).T.copy()


def encode_seats(travellers: pa.Table) -> tuple[pa.Array, np.ndarray]:
    """The distinct player ids (in order of first appearance, seat by seat) and the code of
    each table's players, table by table, seats N E S W: the rows of the per-player scores."""
    names, codes = encode_ids([travellers[c] for c in SEAT_COLUMNS])
    return names, codes.ravel()


def text(codes: np.ndarray, words: pa.Array | list[str]) -> pa.Array:
    """``words[code]`` as large strings, null where a code is negative: a gather from the
    few distinct strings, not a Python string per row."""
    indices = to_arrow(codes, codes < 0, pa.int32())
    dictionary = words if isinstance(words, pa.Array) else strings(words)
    return pa.DictionaryArray.from_arrays(indices, dictionary).cast(pa.large_string())
