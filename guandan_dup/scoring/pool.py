"""The Arrow memory pool a long scoring run allocates from.

Arrow's default pool on Linux (mimalloc) keeps the memory it frees for later use; over a run
of blocks of a few hundred MB each, that is about a tenth more peak memory than Arrow's
jemalloc pool, which gives freed memory back to the system (2,000,000 table-sets measured:
1.05 against 0.94 GB, the same time). So a run borrows the jemalloc pool where this pyarrow
build has one, unless ``ARROW_DEFAULT_MEMORY_POOL`` names the user's own choice.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress

import pyarrow as pa

_M_ARENA_MAX = -8  # mallopt's parameter number, from glibc's malloc.h


@contextmanager
def returning_memory() -> Iterator[None]:
    """Arrow allocates from a pool that returns freed memory, inside the block (a buffer
    is always freed to the pool it came from, so the switch back is safe)."""
    try:
        pool = None if os.environ.get("ARROW_DEFAULT_MEMORY_POOL") else pa.jemalloc_memory_pool()
    except NotImplementedError:  # built without jemalloc (Windows wheels)
        pool = None
    if pool is None:
        yield
        return
    previous = pa.default_memory_pool()
    pa.set_memory_pool(pool)
    try:
        yield
    finally:
        pa.set_memory_pool(previous)


def one_malloc_arena() -> None:
    """Let every thread of this process allocate from glibc's one main arena (``mallopt
    M_ARENA_MAX``), for the ``score`` command before it starts its threads.

    numpy's arrays come from ``malloc``; each thread that allocates gets an arena of its own,
    and memory freed in one arena is not reused by the others: with a reading, a scoring and
    three writing threads that was some 50 MB more peak at 2,000,000 table-sets, and no
    quicker. Process-wide and for good (glibc cannot lift the limit again), so only a command
    sets it, never the library; elsewhere than glibc it does nothing.
    """
    with suppress(OSError, AttributeError):  # no C library to load, or no mallopt in it
        ctypes.CDLL(None).mallopt(_M_ARENA_MAX, 1)

