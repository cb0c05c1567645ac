"""Player ids as integer codes: the four seat columns encoded together, once.

Hashing two million id strings is the dearest step of scoring a big event, so it is done a
single time: the scores and the standings work on the codes, and strings are only taken from
the dictionary (a gather, no hashing) where an output needs them. The hashing itself
(``arrays.encode_ids``) sits below both rooms, because ``results.clean`` encodes the ids of a
sound block while checking it and scoring must not be imported by results.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from ..arrays import encode_ids, strings, to_arrow
from ..seats import SEAT_COLUMNS


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
