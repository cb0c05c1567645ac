"""numpy arrays, Python strings and numbers to Arrow and back, without loading pandas.

pyarrow's own conversions (``pa.array``, ``Array.to_numpy``, a Python value passed to a
compute function) first set up its pandas support, which imports pandas: a third of a
second, more than reading and checking a round of a national event. ``guandan-dup score``
reads, checks, scores and writes a sound event with Arrow and numpy alone, converting
through the buffers here (numbers are not copied), so it never loads pandas
(``test_scoring_outputs`` holds it so). ``encode_ids`` turns text columns (player ids)
into their distinct strings and numpy codes, hashing each id once: results encode the ids of
a sound block while checking it, and scoring works on the codes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pyarrow as pa


def to_arrow(values: np.ndarray, mask: np.ndarray | None = None,
             kind: pa.DataType | None = None) -> pa.Array:
    """A 1-d numpy array of numbers or bools as Arrow (of numeric type ``kind``, if given),
    null where ``mask`` is true."""
    if kind is not None:
        values = values.astype(kind.to_pandas_dtype(), copy=False)
    values = np.ascontiguousarray(values)
    if values.dtype == np.bool_:
        kind, data = pa.bool_(), _bits(values)
    else:
        kind, data = pa.from_numpy_dtype(values.dtype), pa.py_buffer(values)
    if mask is None or not mask.any():
        return pa.Array.from_buffers(kind, len(values), [None, data], null_count=0)
    return pa.Array.from_buffers(kind, len(values), [_bits(~mask), data],
                                 null_count=int(mask.sum()))


def to_numpy(values: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """Arrow numbers or bools without nulls as a read-only numpy array (numbers of a single
    chunk are not copied); ``filled`` first for a column with nulls."""
    if isinstance(values, pa.ChunkedArray):
        values = values.chunk(0) if values.num_chunks == 1 else values.combine_chunks()
    if values.null_count:
        raise ValueError(f"{values.null_count} nulls in a column read as numbers")
    data = values.buffers()[1]
    if pa.types.is_boolean(values.type):
        bits = np.unpackbits(np.frombuffer(data or b"", np.uint8), bitorder="little")
        return bits[values.offset:values.offset + len(values)].view(np.bool_)
    dtype = np.dtype(values.type.to_pandas_dtype())
    if data is None:
        return np.zeros(0, dtype)
    return np.frombuffer(data, dtype, len(values), values.offset * dtype.itemsize)


def filled(values: pa.Array | pa.ChunkedArray, value: int) -> np.ndarray:
    """Arrow numbers as numpy, ``value`` where null."""
    if not values.null_count:
        return to_numpy(values)
    return to_numpy(values.fill_null(to_arrow(np.array([value]), kind=values.type)[0]))


def scalar(value: int | str) -> pa.Scalar:
    """A Python integer or string as an Arrow scalar (int64 or large string), for compute
    functions."""
    return (strings([value]) if isinstance(value, str) else to_arrow(np.array([value])))[0]


def strings(values: Iterable[str]) -> pa.Array:
    """``values`` as Arrow large strings (the type of every text column of the outputs)."""
    encoded = [value.encode() for value in values]
    offsets = np.zeros(len(encoded) + 1, np.int64)
    np.cumsum([len(value) for value in encoded], out=offsets[1:])
    return pa.Array.from_buffers(pa.large_string(), len(encoded),
                                 [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))])


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


def _bits(flags: np.ndarray) -> pa.Buffer:
    """Bools as Arrow's bitmap (least significant bit first)."""
    return pa.py_buffer(np.packbits(flags, bitorder="little"))
