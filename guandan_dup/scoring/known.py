"""The event's player ids seen so far, kept hashed across rounds, and each round's codes.

Every round's ids must be found among the event's (800,000 of them online). Arrow's
``index_in`` builds a hash table of the event's ids on every call: 0.4-0.7 s a round at
800,000 players. Here the ids are hashed once each (``arrays.id_hashes``: 64 bits of their
UTF-8 bytes, numpy over all ids at once), when their round is checked (``results.clean``
codes a seating by the hashes alone) or else scored (``standings.round_sums``), and kept in
an open-addressing table (numpy, no pandas: scoring never imports it), built again when
players are added and kept while they are not (ids are only ever appended). A round's
lookup hashes its ids, probes the table and checks the ids found equal to the event's, byte
for byte: 0.18-0.29 s a round at 800,000 players.

The codes are exactly ``index_in``'s: whenever the hashes could mislead (an id found whose
text differs, as when two ids have one hash) the round is looked up with ``index_in``
instead, and so is every round from one with a null or an id longer than ``arrays.LONGEST``
bytes that brought new players.

>>> known = KnownIds()
>>> known.codes(pa.array(["b", "a"])).tolist()
[0, 1]
>>> known.codes(pa.array(["a", "c", "b"])).tolist()
[1, 2, 0]
>>> known.names.to_pylist()
['b', 'a', 'c']
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..arrays import WHOLE, byte_lengths, filled, id_hashes, to_arrow


def found(ids: pa.Array, among: pa.Array) -> np.ndarray:
    """Each of ``ids``' index in ``among`` (distinct ids), -1 if it is not there."""
    return filled(pc.index_in(ids, value_set=among), -1).astype(np.int64)


def hash_table(hashes: np.ndarray) -> np.ndarray:
    """An open-addressing table of ``hashes`` (linear probing, at most a quarter full: at
    half, a round's lookup took half as long again): each slot the code of a hash there, -1
    if empty; a hash's home slot is its low bits."""
    size = 1 << max(4, (4 * len(hashes)).bit_length())
    table = np.full(size, -1, np.int32)
    pending = np.arange(len(hashes), dtype=np.int32)
    slot = (hashes & np.uint64(size - 1)).astype(np.int64)
    while len(pending):  # place every hash in the first empty slot from its home
        free = np.flatnonzero(table[slot] < 0)
        table[slot[free]] = pending[free]  # of two hashes for one slot, one wins
        placed = np.zeros(len(pending), bool)
        placed[free] = table[slot[free]] == pending[free]
        pending, slot = pending[~placed], (slot[~placed] + 1) & (size - 1)
    return table


def probe(table: np.ndarray, among: np.ndarray, hashes: np.ndarray) -> np.ndarray:
    """The code of each of ``hashes`` in ``table`` (of the hashes ``among``), -1 if none.
    Most hashes are in their home slot: that slot is looked at for all of them with whole
    columns, and the loop takes the few others."""
    if not len(among):
        return np.full(len(hashes), -1, np.int64)
    slot = (hashes & np.uint64(len(table) - 1)).astype(np.int64)
    code = table[slot].astype(np.int64)
    taken = code >= 0
    match = taken & (among[np.where(taken, code, 0)] == hashes)
    where = np.where(match, code, -1)
    pending = np.flatnonzero(taken & ~match)
    slot = (slot[pending] + 1) & (len(table) - 1)
    while len(pending):  # from the next slot on, to the hash or an empty slot
        code = table[slot]
        taken = np.flatnonzero(code >= 0)
        match = np.zeros(len(pending), bool)
        match[taken] = among[code[taken]] == hashes[pending[taken]]
        where[pending[match]] = code[match]
        on = (code >= 0) & ~match
        pending, slot = pending[on], (slot[on] + 1) & (len(table) - 1)
    return where


class KnownIds:
    """The event's distinct player ids (``names``, large strings, in order of first
    appearance) and their hashes; ``codes`` finds a round's ids, adding new ones."""

    def __init__(self) -> None:
        self.names = pa.nulls(0, pa.large_string())
        self._hashes: np.ndarray | None = np.zeros(0, np.uint64)  # None: not usable
        self._lengths = np.zeros(0, np.int8)  # the names' lengths in bytes, when hashed
        self._table = hash_table(self._hashes)

    def codes(self, ids: pa.Array, hashes: np.ndarray | None = None) -> np.ndarray:
        """Event-wide codes of a round's distinct ids; ids new to the event are appended
        (in the round's order) and coded after the event's. ``hashes``, the ids'
        ``id_hashes`` if the caller has them (the scoring of a block hashes its ids where
        the ranking does not wait for it), saves hashing them here."""
        ids = ids.cast(pa.large_string())
        if self._hashes is None:
            hashes = None
        elif hashes is None:
            hashes = id_hashes(ids)
        lengths = None if hashes is None else byte_lengths(ids)
        where = self._lookup(ids, hashes, lengths)
        new = np.flatnonzero(where < 0)
        if len(new):
            where[new] = len(self.names) + np.arange(len(new))
            self.names = pa.concat_arrays([self.names, ids.take(to_arrow(new))])
            self._extend(None if hashes is None else hashes[new],
                         None if lengths is None else lengths[new])
        return where

    def _lookup(self, ids: pa.Array, hashes: np.ndarray | None,
                lengths: np.ndarray | None) -> np.ndarray:
        if hashes is None:
            return found(ids, self.names)
        where = probe(self._table, self._hashes, hashes)
        hit = np.flatnonzero(where >= 0)
        lengths = lengths[hit]
        if not (lengths == self._lengths[where[hit]]).all():
            return found(ids, self.names)  # two ids with one hash: look them up by text
        text = hit[lengths > WHOLE]  # the others are the ids their hashes and lengths say
        mine = ids if len(text) == len(ids) else ids.take(to_arrow(text))
        if len(text) and not pc.all(pc.equal(mine,
                                             self.names.take(to_arrow(where[text])))).as_py():
            return found(ids, self.names)
        return where

    def _extend(self, hashes: np.ndarray | None, lengths: np.ndarray | None) -> None:
        """The new ids' ``hashes`` and byte ``lengths`` added to the table; None: an id
        could not be hashed, and the event's ids are looked up by text from now on."""
        if self._hashes is None or hashes is None:
            self._hashes = self._table = None
            return
        self._hashes = np.r_[self._hashes, hashes]
        self._lengths = np.r_[self._lengths, lengths.astype(np.int8)]  # at most LONGEST
        self._table = hash_table(self._hashes)
