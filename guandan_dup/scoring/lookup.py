"""Finding a round's player ids among the event's by sorting numbers, not hashing strings.

The standings meet each round's ids (400k of them in a national event) and must find them
among the event's. Arrow's ``index_in`` hashes both sides' strings at every call (0.17 s at
400k); here each id becomes a row of uint64 words (its length, then its bytes zero-padded:
equal rows exactly for equal ids) and a 64-bit mix of the row. The event's ids are sorted by
mix once (again only when new players come), a round's are found by a merge of sorted mixes,
and every match is checked word by word, so a shared mix never gives a wrong code. Two event
ids sharing a mix (odds about n**2 / 2**65, 4e-9 at 400k players) would hide one of them, so
then ``index_in`` answers instead; so it does for ids longer than ``WIDEST`` bytes, whose rows
of words would cost more memory than hashing them costs time.

>>> known = IdLookup(pa.array(["p1", "p22", "p3"]))
>>> known.find(pa.array(["p3", "p4", "p1"])).tolist()
[2, -1, 0]
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..arrays import filled

_MIX = 0x9E3779B97F4A7C15  # an odd multiplier with well spread bits (2**64 / phi)
WIDEST = 64  # bytes of the longest id found by words (e-mail addresses fit)


def _longest(ids: pa.Array) -> int:
    return int(pc.max(pc.binary_length(ids)).as_py() or 0) if len(ids) else 0


def id_words(ids: pa.Array, least: int = 0) -> np.ndarray:
    """(ids, k) uint64, k at least ``least``: each id's byte length, then its UTF-8 bytes
    zero-padded (so "a" and "a\\0" differ, and more zero columns change nothing). The bytes
    are contiguous in Arrow, so one boolean mask places them all."""
    ids = ids.cast(pa.large_binary())
    _, offsets, data = ids.buffers()
    offsets = np.frombuffer(offsets, np.int64, len(ids) + 1, 8 * ids.offset)
    data = np.frombuffer(data or b"", np.uint8)[offsets[0]:offsets[-1]]
    lengths = np.diff(offsets)
    width = 8 * max(-(-int(lengths.max(initial=0)) // 8), least - 1)
    grid = np.zeros((len(ids), 8 + width), np.uint8)
    grid[:, 8:][np.arange(width) < lengths[:, None]] = data
    words = grid.view(np.uint64)
    words[:, 0] = lengths
    return words


def mix(words: np.ndarray) -> np.ndarray:
    """A 64-bit mix of each row (wrapping multiply-xorshift of each word, summed): equal
    rows, equal mixes; a zero column adds nothing, so padding never changes a mix."""
    mixed = np.zeros(len(words), np.uint64)
    for j, column in enumerate(words.T):
        term = column * np.uint64((2 * j + 1) * _MIX % 2**64)
        term ^= term >> np.uint64(29)
        term *= np.uint64(_MIX)
        mixed += term
    return mixed


class IdLookup:
    """Distinct ids (an Arrow string array without nulls), ready to ``find`` others among
    them."""

    def __init__(self, ids: pa.Array):
        self.ids = ids
        self.unique = _longest(ids) <= WIDEST  # else hashing answers: no rows of words
        self.words = id_words(ids if self.unique else ids.slice(0, 0))
        mixed = mix(self.words)
        self.by_mix = np.argsort(mixed)
        self.sorted = mixed[self.by_mix]
        self.unique &= not (self.sorted[1:] == self.sorted[:-1]).any()

    def find(self, ids: pa.Array) -> np.ndarray:
        """Each of ``ids``' index among the known ids, -1 if unknown (int64)."""
        if not len(self.ids):
            return np.full(len(ids), -1, np.int64)
        if not self.unique or _longest(ids) > WIDEST:
            found = pc.index_in(ids, value_set=self.ids)
            return filled(found, -1).astype(np.int64)
        words = id_words(ids, least=self.words.shape[1])
        if words.shape[1] > self.words.shape[1]:  # longer ids than any known: pad the known
            self.words = np.pad(self.words, ((0, 0), (0, words.shape[1] - self.words.shape[1])))
        mixed = mix(words)
        order = np.argsort(mixed)
        at = np.empty(len(ids), np.int64)  # a merge of two sorted arrays is cache-friendly
        at[order] = np.searchsorted(self.sorted, mixed[order])
        candidate = self.by_mix[np.minimum(at, len(self.ids) - 1)]
        same = np.ones(len(ids), bool)
        for known, column in zip(self.words.T, words.T, strict=True):  # a column at a time:
            same &= known[candidate] == column  # a gather of whole rows is four times slower
        return np.where(same, candidate, -1)
