"""numpy arrays, Python strings and numbers to Arrow and back, without loading pandas.

pyarrow's own conversions (``pa.array``, ``Array.to_numpy``, a Python value passed to a
compute function) first set up its pandas support, which imports pandas: a third of a
second, more than reading and checking a round of a national event. ``guandan-dup score``
reads, checks, scores and writes a sound event with Arrow and numpy alone, converting
through the buffers here (numbers are not copied), so it never loads pandas
(``test_scoring_outputs`` holds it so). ``encode_ids`` turns text columns (player ids)
into their distinct strings and numpy codes, hashing each id once: results encode the ids of
a sound block while checking it, and scoring works on the codes. ``id_hashes`` is the one
64-bit hash of ids that scoring keeps the event's ids by (``scoring.known``); a seating,
where no id may repeat, is coded by it alone (``distinct_ids``).
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


def distinct_ids(columns: Sequence[pa.Array | pa.ChunkedArray]
                 ) -> tuple[pa.Array, np.ndarray] | None:
    """The ids of text ``columns``, column after column (large strings), and their
    ``id_hashes``, if no id is there twice; None if one is (or if they cannot be hashed so).

    Distinct hashes prove distinct ids, so ids that should not repeat (the players of a
    set's seating) need no hash table: these ids in this order are the distinct ids
    ``encode_ids`` gives, each coded by its place (0, 1, ... column by column). Hashing and
    sorting 800,000 ids took half the time of Arrow's dictionary encoding, and the hashes
    are the ones scoring keeps the event's ids by."""
    ids = pa.chunked_array([chunk for column in columns
                            for chunk in pa.chunked_array(column).cast(pa.large_string()).chunks],
                           pa.large_string()).combine_chunks()
    hashes = id_hashes(ids)
    if hashes is None:
        return None
    ordered = np.sort(hashes)
    return None if (ordered[1:] == ordered[:-1]).any() else (ids, hashes)


LONGEST = 64
"""Ids up to this many bytes are hashed by ``id_hashes``; longer ones are not."""
WHOLE = 8
"""Ids up to this many bytes are told apart by their ``id_hashes`` and lengths alone: such an
id's hash is a one-to-one function of its one 8-byte word (a xor with its length's multiple,
an odd multiply, a xor-shift by half the word: each undone by another), so two ids of one
length with one hash are one id, and their bytes need not be compared."""
_MULTIPLY = np.uint64(0x9E3779B97F4A7C15)  # odd, bits well mixed (2**64 / golden ratio)
_KEEP = np.array([(1 << 8 * kept) - 1 for kept in range(9)], np.uint64)  # the first bytes


def _offsets(ids: pa.Array) -> np.ndarray:
    """Where each id's UTF-8 bytes start in the array's data (large strings), and the end."""
    return np.frombuffer(ids.buffers()[1], np.int64)[ids.offset:ids.offset + len(ids) + 1]


def byte_lengths(ids: pa.Array) -> np.ndarray:
    """Each id's length in UTF-8 bytes (large strings), from the array's offsets."""
    return np.diff(_offsets(ids))


def id_hashes(ids: pa.Array) -> np.ndarray | None:
    """A 64-bit hash of each id's UTF-8 bytes (large strings) and its length, taken 8 bytes
    at a time (a multiply and shift per word; a byte at a time took three times as long);
    None if an id is null or longer than ``LONGEST`` bytes."""
    if ids.null_count:
        return None
    offsets = _offsets(ids)
    lengths = np.diff(offsets)
    longest = int(lengths.max()) if len(ids) else 0
    if longest > LONGEST:
        return None
    data = np.frombuffer(ids.buffers()[2] or b"", np.uint8)[:offsets[-1]]
    padded = np.zeros(len(data) + 8 * ((longest + 7) // 8) + 8, np.uint8)
    padded[:len(data)] = data
    words = np.lib.stride_tricks.sliding_window_view(padded, 8)  # every 8 bytes in a row
    hashes = lengths.astype(np.uint64) * _MULTIPLY
    for first in range(0, max(longest, 1), 8):  # the first word even of empty ids
        live = slice(None) if first == 0 else np.flatnonzero(lengths > first)
        word = words[offsets[:-1][live] + first].view("<u8").ravel()
        word &= _KEEP[np.minimum(lengths[live] - first, 8)]  # not the next id's bytes
        word ^= hashes[live]
        word *= _MULTIPLY
        hashes[live] = word ^ (word >> np.uint64(32))
    return hashes


def _bits(flags: np.ndarray) -> pa.Buffer:
    """Bools as Arrow's bitmap (least significant bit first)."""
    return pa.py_buffer(np.packbits(flags, bitorder="little"))
