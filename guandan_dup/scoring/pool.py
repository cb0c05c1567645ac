"""The memory a long scoring run allocates from: glibc's ``malloc``, in one arena.

Arrow's default pool on Linux (mimalloc) keeps the memory it frees for later use; over a run
of blocks of a few hundred MB each that is about a tenth more peak memory. Arrow's jemalloc
pool gives memory back, but separately from numpy's ``malloc`` and by purging pages that are
faulted in again for the next block. So a run allocates Arrow's buffers from the system pool
(``malloc``, where numpy's arrays come from too), and the ``score`` command asks glibc for a
single arena: one heap that both reuse. Measured at 2,000,000 table-sets (four paired runs):
jemalloc 5.0-5.8 s, 1.2-1.9 s of it in the kernel, peak 0.85-0.90 GB; system 4.8-5.2 s,
0.9-1.2 s in the kernel, peak 0.77-0.84 GB. ``ARROW_DEFAULT_MEMORY_POOL`` set by the user
is left alone.
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
    """Arrow allocates from the system pool inside the block (a buffer is always freed to
    the pool it came from, so the switch back is safe)."""
    if os.environ.get("ARROW_DEFAULT_MEMORY_POOL"):
        yield
        return
    previous = pa.default_memory_pool()
    pa.set_memory_pool(pa.system_memory_pool())
    try:
        yield
    finally:
        pa.set_memory_pool(previous)


def one_malloc_arena() -> None:
    """Let every thread of this process allocate from glibc's one main arena (``mallopt
    M_ARENA_MAX``), for the ``score`` command before it starts its threads.

    numpy's arrays (and, in a run, Arrow's buffers) come from ``malloc``; each thread that
    allocates gets an arena of its own, and memory freed in one arena is not reused by the
    others: with a reading, a scoring and three writing threads that was some 50 MB more peak
    at 2,000,000 table-sets, and no quicker. Process-wide and for good (glibc cannot lift the
    limit again), so only a command sets it, never the library; elsewhere than glibc it does
    nothing.
    """
    with suppress(OSError, AttributeError):  # no C library to load, or no mallopt in it
        ctypes.CDLL(None).mallopt(_M_ARENA_MAX, 1)
