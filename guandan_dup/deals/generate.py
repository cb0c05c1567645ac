"""Deals as a pure function of (event key, delayed value, board number), vectorised.

Board b's deal is the physical one (SPEC 3.1): the 108 distinguishable cards (card ``i`` of the
pack is kind ``i // 2``) are put in a uniformly random order by Fisher-Yates, and positions
0-26 go to North, 27-53 East, 54-80 South, 81-107 West. The randomness must be the same bytes
on every machine and version, and board 500 must not need boards 1..499, so it comes from
SHAKE-256 (FIPS 202, in ``hashlib``) over a domain label, the key, the delayed value and the
board number, read as big-endian 16-bit words and turned into indices by rejection sampling
(never modulo bias). numpy's ``Generator`` and Python's ``random`` promise no stream stability,
so neither is used. ``docs/deals.md`` states the construction byte for byte.

Speed: one hash call per board, and Fisher-Yates as 107 vectorised swap steps over a chunk of
boards, so a million boards take seconds, not minutes. Rejections are rare (under 0.17% of
words) and handled for the few boards that have one, from the same board's stream, so a board's
cards never depend on which other boards share its chunk.

>>> hands = deal_boards(bytes(32), [1, 2])
>>> hands.shape, hands.dtype.name
((2, 4, 27), 'uint8')
>>> bool((deal_boards(bytes(32), [2])[0] == hands[1]).all())
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

import numpy as np

from ..cards import HAND_SIZE, PACK_SIZE
from ..errors import GuandanError

ALGORITHM = "guandan-dup/deal/v1"
"""The algorithm id stored in board-set files; it changes whenever any output bit would."""

KEY_BYTES = 32
_LABEL = ALGORITHM.encode("ascii")
_STEPS = PACK_SIZE - 1
_MODULI = np.arange(PACK_SIZE, 1, -1, dtype=np.int32)
"""Fisher-Yates step k swaps position 107 - k with a uniform index in [0, 108 - k)."""
_LIMITS = 2**16 - 2**16 % _MODULI
"""A 16-bit word w is accepted for modulus m iff w < limit(m), the largest multiple of m."""
_SPARE_WORDS = 5
_CHUNK = 16_384
_SEATS = 4


def stream_prefix(key: bytes, delayed: str = "") -> bytes:
    """The bytes hashed before the board number: label, key, 8-byte length, delayed text.

    The key and label have fixed lengths and the delayed text is length-prefixed, so no two
    (key, delayed, board) triples share a hash input.
    """
    if not isinstance(key, bytes) or len(key) != KEY_BYTES:
        got = f"{len(key)} bytes" if isinstance(key, bytes) else type(key).__name__
        raise GuandanError(f"an event key is {KEY_BYTES} bytes; got {got}")
    try:
        text = delayed.encode("utf-8")
    except UnicodeEncodeError:
        raise GuandanError(
            f"the delayed value {delayed!r} is not valid text (bytes that are not UTF-8?); "
            "type it exactly as published"
        ) from None
    return _LABEL + key + len(text).to_bytes(8, "big") + text


def _words(prefix: bytes, boards: np.ndarray, count: int) -> np.ndarray:
    """The first ``count`` 16-bit words of each board's stream, shape (len(boards), count)."""
    shake, size = hashlib.shake_256, 2 * count
    digests = b"".join([shake(prefix + b.to_bytes(8, "big")).digest(size) for b in boards.tolist()])
    return np.frombuffer(digests, dtype=">u2").reshape(len(boards), count).astype(np.uint16)


def _accepted_words(prefix: bytes, boards: np.ndarray, words: np.ndarray) -> np.ndarray:
    """For boards with a rejected word: the word each step really uses, shape (n, 107).

    Step k uses the next stream word after step k-1's that is below its limit. Each pass
    shifts every board past its first rejected word; passes = the most rejections on a board
    (almost always 1 or 2). Boards that run out of words get a longer stream (SHAKE output is
    prefix-consistent, so the words already used do not change).
    """
    position = np.tile(np.arange(_STEPS), (len(boards), 1))
    while True:
        if position[:, -1].max() >= words.shape[1]:
            words = _words(prefix, boards, 2 * words.shape[1])
        drawn = np.take_along_axis(words, position, axis=1)
        rejected = drawn >= _LIMITS
        if not rejected.any():
            return drawn
        first = np.where(rejected.any(axis=1), rejected.argmax(axis=1), _STEPS)
        position += np.arange(_STEPS) >= first[:, None]


def _swap_indices(prefix: bytes, boards: np.ndarray, spare_words: int) -> np.ndarray:
    """Fisher-Yates swap targets, shape (107, n): row k is uniform in [0, 108 - k)."""
    words = _words(prefix, boards, _STEPS + spare_words)
    drawn = words[:, :_STEPS]
    redo = np.flatnonzero((drawn >= _LIMITS).any(axis=1))
    if redo.size:
        drawn = drawn.copy()
        drawn[redo] = _accepted_words(prefix, boards[redo], words[redo])
    return np.ascontiguousarray((drawn % _MODULI.astype(np.uint16)).astype(np.uint8).T)


def _shuffle(targets: np.ndarray) -> np.ndarray:
    """Apply the swaps to decks 0..107; returns the decks as (108, n), position-major.

    Positions are rows so that each step touches one contiguous row and one gathered cell
    per board.
    """
    n = targets.shape[1]
    deck = np.repeat(np.arange(PACK_SIZE, dtype=np.uint8)[:, None], n, axis=1)
    cells = deck.reshape(-1)
    columns = np.arange(n)
    for step, target in enumerate(targets):
        last = PACK_SIZE - 1 - step
        picked = target.astype(np.intp) * n + columns
        swapped = cells[picked]
        cells[picked] = deck[last]
        deck[last] = swapped
    return deck


def _batcher_pairs(size: int) -> tuple[tuple[int, int], ...]:
    """Compare-exchange pairs (low, high) of Batcher's odd-even merge sort for ``size`` items.

    Built for the next power of two and cut to ``size``: think of the missing items as +inf
    at the top; a pair reaching one of them never moves anything, so it is dropped.
    """
    width = 1 << (size - 1).bit_length()
    pairs = []
    block = 1
    while block < width:
        step = block
        while step >= 1:
            for start in range(step % block, width - step, 2 * step):
                for i in range(min(step, width - start - step)):
                    low, high = start + i, start + i + step
                    if low // (2 * block) == high // (2 * block) and high < size:
                        pairs.append((low, high))
            step //= 2
        block *= 2
    return tuple(pairs)


_SORT_PAIRS = _batcher_pairs(HAND_SIZE)


def sort_hands(kinds: np.ndarray) -> np.ndarray:
    """Sort axis 1 of (seats, 27, n) kind ids in place with a sorting network, and return it.

    A row-by-row ``np.sort`` pays per-row overhead 4n times; the network is 156
    compare-exchanges, each one ``minimum``/``maximum`` over all boards at once.
    """
    low = np.empty(kinds[:, 0].shape, dtype=kinds.dtype)
    for a, b in _SORT_PAIRS:
        first, second = kinds[:, a], kinds[:, b]
        np.minimum(first, second, out=low)
        np.maximum(first, second, out=second)
        first[...] = low
    return kinds


def _hands(deck: np.ndarray) -> np.ndarray:
    """Decks (108, n) to sorted kind ids per seat, shape (n, 4, 27)."""
    kinds = (deck // 2).reshape(_SEATS, HAND_SIZE, deck.shape[1])
    return np.ascontiguousarray(sort_hands(kinds).transpose(2, 0, 1))


def check_boards(boards: Sequence[int] | np.ndarray) -> np.ndarray:
    """Board numbers as an int64 array; ``GuandanError`` unless they are integers >= 1."""
    array = np.asarray(boards)
    if array.size == 0:
        return np.zeros(0, dtype=np.int64)
    if array.ndim != 1 or array.dtype.kind not in "iu":
        raise GuandanError(f"board numbers must be a flat list of integers; got {boards!r}")
    if array.min() < 1:
        raise GuandanError(f"board numbers start at 1; got {int(array.min())}")
    return array.astype(np.int64)


def deal_boards(
    key: bytes,
    boards: Sequence[int] | np.ndarray,
    delayed: str = "",
    *,
    advance: Callable[[int], None] | None = None,
    spare_words: int = _SPARE_WORDS,
) -> np.ndarray:
    """The hands of each board: shape (len(boards), 4, 27), uint8 kind ids sorted, seats N E S W.

    ``advance(n)`` is called after each chunk of boards (for a progress bar).
    ``spare_words`` only tunes how many words are hashed up front; it never changes a deal.
    """
    prefix = stream_prefix(key, delayed)
    boards = check_boards(boards)
    hands = np.empty((len(boards), _SEATS, HAND_SIZE), dtype=np.uint8)
    for start in range(0, len(boards), _CHUNK):
        chunk = boards[start : start + _CHUNK]
        decks = _shuffle(_swap_indices(prefix, chunk, spare_words))
        hands[start : start + len(chunk)] = _hands(decks)
        if advance is not None:
            advance(len(chunk))
    return hands
