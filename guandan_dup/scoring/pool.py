"""The memory a long scoring run allocates from: Arrow's jemalloc pool, and glibc's
``malloc`` in one arena for numpy.

Arrow's default pool on Linux (mimalloc) keeps the memory it frees for later use; over a run
of blocks of a few hundred MB each that is about a tenth more peak memory. Until December
2026 a run allocated Arrow's buffers from the system pool (``malloc``, where numpy's arrays
come from too), one heap that both reuse: then jemalloc measured slower (5.0-5.8 s against
4.8-5.2 s at 2,000,000 table-sets) with a higher peak (0.85-0.90 against 0.77-0.84 GB).
Since the scores are made on their writer's thread and the standings' temporaries are fewer,
the one heap is the larger: at the peak of the online shape (800,000 players), numpy's and
Arrow's live memory was 0.45-0.5 GiB of 0.97 GiB resident (``tracemalloc`` and Arrow's own
count, sampled every 10 ms), the rest freed memory the heap's layout kept. With Arrow's
buffers in jemalloc, which gives back what it frees, four paired runs of each shape at a
load average of 4 to 7 peaked at 0.80-0.85 GiB against 0.90-0.97 (online) and 0.62-0.67
against 0.69-0.75 (400,000 players), for the same CPU time (5.8-7.5 against 6.7-7.5 s;
4.9-5.1 against 4.9-5.1 s). So a run allocates Arrow's buffers from jemalloc where pyarrow
has it (the system pool where it does not), and the ``score`` command asks glibc for a
single arena for the rest. ``ARROW_DEFAULT_MEMORY_POOL`` set by the user is left alone.
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
    """Arrow allocates from jemalloc (or the system pool, in a pyarrow without it) inside
    the block (a buffer is always freed to the pool it came from, so the switch back is
    safe)."""
    if os.environ.get("ARROW_DEFAULT_MEMORY_POOL"):
        yield
        return
    previous = pa.default_memory_pool()
    pa.set_memory_pool(run_pool())
    try:
        yield
    finally:
        pa.set_memory_pool(previous)


def run_pool() -> pa.MemoryPool:
    """Arrow's jemalloc pool, or the system pool where this pyarrow was built without it."""
    try:
        return pa.jemalloc_memory_pool()
    except NotImplementedError:
        return pa.system_memory_pool()


def one_malloc_arena() -> None:
    """Let every thread of this process allocate from glibc's one main arena (``mallopt
    M_ARENA_MAX``), for the ``score`` command before it starts its threads.

    numpy's arrays come from ``malloc``; each thread that allocates gets an arena of its
    own, and memory freed in one arena is not reused by the others: with a reading, a
    scoring and three writing threads that was some 50 MB more peak at 2,000,000 table-sets,
    and no quicker. Process-wide and for good (glibc cannot lift the limit again), so only a
    command sets it, never the library; elsewhere than glibc it does nothing.
    """
    with suppress(OSError, AttributeError):  # no C library to load, or no mallopt in it
        ctypes.CDLL(None).mallopt(_M_ARENA_MAX, 1)
