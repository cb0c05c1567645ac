"""Player ids as integer codes: the four seat columns encoded together, once.

Hashing two million id strings is the dearest step of scoring a big event, so it is done a
single time: the scores and the standings work on the codes, and strings are only taken from
the dictionary (a gather, no hashing) where an output needs them.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

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
    and each row's codes into them, shape (rows, columns).

    The first half of the columns and the second are hashed on two threads (Arrow hashes
    without holding the GIL), then the two dictionaries are merged: a merged dictionary lists
    the first half's ids, then the second's new ones, each in order of appearance, which is
    the order one pass over the columns in turn would give.
    """
    half = (len(columns) + 1) // 2
    with ThreadPoolExecutor(max_workers=2) as pool:
        encoded = list(pool.map(_encoded, (columns[:half], columns[half:])))
    parts = [part for part in encoded if part is not None]
    merged = pa.concat_arrays([part.dictionary for part in parts]).dictionary_encode()
    where = merged.indices.to_numpy(zero_copy_only=False)
    starts = np.cumsum([0] + [len(part.dictionary) for part in parts])
    codes = [where[start:][part.indices] for start, part in zip(starts, parts, strict=False)]
    return merged.dictionary, np.concatenate(codes, axis=0).T.copy()


@dataclass(frozen=True)
class _Half:
    dictionary: pa.Array
    indices: np.ndarray  # (columns, rows)


def _encoded(columns: Sequence[pa.Array | pa.ChunkedArray]) -> _Half | None:
    """Some id columns hashed together: their dictionary and each column's codes."""
    if not columns:
        return None
    chunks = [chunk for column in columns for chunk in _chunks(column)]
    encoded = pa.chunked_array(chunks, pa.large_string()).dictionary_encode()
    indices = pa.chunked_array([c.indices for c in encoded.chunks], pa.int32())
    dictionary = (encoded.chunk(0).dictionary if encoded.num_chunks
                  else pa.array([], pa.large_string()))
    return _Half(dictionary, indices.to_numpy().reshape(len(columns), -1))


def _chunks(column: pa.Array | pa.ChunkedArray) -> list[pa.Array]:
    column = column.cast(pa.large_string())
    return column.chunks if isinstance(column, pa.ChunkedArray) else [column]


def encode_seats(travellers: pd.DataFrame) -> tuple[pa.Array, np.ndarray]:
    """The distinct player ids (in order of first appearance, seat by seat) and the code of
    each table's players, table by table, seats N E S W: the rows of the per-player scores."""
    names, codes = encode_ids([arrow(travellers[c]) for c in SEAT_COLUMNS])
    return names, codes.ravel()


def categories(codes: np.ndarray, words: pa.Array | list[str]) -> pd.Categorical:
    """A pandas categorical of ``words[code]``, null where a code is negative: the codes are
    kept as they are (no string is built per row)."""
    names = words.to_pandas() if isinstance(words, pa.Array) else pd.Index(words)
    return pd.Categorical.from_codes(codes, pd.Index(names, dtype="str"), validate=False)


def text(codes: np.ndarray, words: pa.Array | list[str]) -> pd.Series:
    """A pandas ``str`` column of ``words[code]``, null where a code is negative: a gather
    from the few distinct strings, not a Python string per row."""
    indices = pa.array(codes.astype(np.int32, copy=False), mask=codes < 0)
    dictionary = words if isinstance(words, pa.Array) else pa.array(words, pa.large_string())
    coded = pa.DictionaryArray.from_arrays(indices, dictionary)
    return coded.cast(pa.large_string()).to_pandas()
