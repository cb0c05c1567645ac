"""Checks of whole columns as numpy masks, shared by the full ingestion (``validate``) and
the quick path of a sound block (``clean``), which reads no frame and so no pandas."""

from __future__ import annotations

import threading
from functools import cache

import numpy as np

from ..arrays import to_arrow, to_numpy
from ..levels import LEVEL_NAMES
from ..rules.progression import reachable_levels


def repeated(keys: np.ndarray) -> np.ndarray:
    """Mask of the non-negative int ``keys`` that occur more than once.

    Counting (``bincount``) is several times faster than hashing, but needs an array as long
    as the largest key: it is used when keys are dense (every player plays most sets, the
    usual event), hashing (Arrow's dictionary encoding, then counting the codes) when they
    are not.
    """
    if len(keys) and keys.max() < 4 * len(keys):
        return np.bincount(keys)[keys] > 1
    codes = to_numpy(to_arrow(keys).dictionary_encode().indices)
    return np.bincount(codes)[codes] > 1


@cache
def possible_levels(boards: int | None, three_failures_reset: bool, start: tuple[int, int]):
    """Which (NS, EW) final level indices a set of at most ``boards`` boards (None: any) can
    end with from ``start``: a 14 x 14 mask, the same for every block (so kept). The first
    two blocks are checked on two threads at once: the lock, taken only until the mask is
    kept, has the second wait for the first's mask (some 25 ms of Python) instead of working
    it out again beside it."""
    with _WORKING_OUT:
        return _possible_levels(boards, three_failures_reset, start)


_WORKING_OUT = threading.Lock()


@cache
def _possible_levels(boards: int | None, three_failures_reset: bool, start: tuple[int, int]):
    possible = np.zeros((len(LEVEL_NAMES), len(LEVEL_NAMES)), dtype=bool)
    for played in [None] if boards is None else range(1, boards + 1):
        for ns, ew in reachable_levels(played, three_failures_reset, start):
            possible[ns, ew] = True
    possible.flags.writeable = False
    return possible
