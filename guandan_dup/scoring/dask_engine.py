"""The Dask engine: the blocks of rounds are read, checked and scored on a Dask cluster.

Each task is ``files.block_outcome`` on one block, the very function the local engine runs
(STYLE 14): a worker reads the block's rows from the files (so the files must be readable
where the workers run: a shared file system, or the same paths on each machine), checks them
and scores them with the numpy kernel, and returns the block's travellers, scores and the
integer sums of each round's players. The client takes the blocks in round order, combines
the sums into the standings (ranks and positions are decided once, exactly, here) and writes
the three files as the local engine does, so the outputs are the same bytes.

A few blocks are in flight at a time (two per worker thread): the results waiting to be
written stay bounded, and so does memory on both sides. A worker that dies is replaced and its
task run again (Dask's retries); if a task keeps killing workers the run stops with an error
and nothing is written.
"""

from __future__ import annotations

import os
import uuid
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import GuandanError


def _dask():
    try:
        import distributed
    except ImportError as error:
        raise GuandanError(
            "--engine dask needs Dask: pip install 'guandan-dup[dask]'"
        ) from error
    return distributed


def local_cluster(workers: int):
    """A ``LocalCluster`` of ``workers`` single-threaded processes on 127.0.0.1, without a
    dashboard. Its scheduler still serves a few HTTP routes (health, metrics), which without
    an address of their own would take port 8787, warn when another cluster's dashboard holds
    it, and hold it from one started later: they get a free port instead."""
    return _dask().LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=None, scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})


@contextmanager
def dask_client(scheduler: str | None):
    """A client of the cluster at ``scheduler``, or of a ``local_cluster`` (one worker per
    core, at most 8: each holds a block), closed (with its cluster) on exit."""
    distributed = _dask()
    if scheduler is None:
        cluster = local_cluster(min(os.cpu_count() or 1, 8))
        client = distributed.Client(cluster)
    else:
        cluster = None
        try:
            client = distributed.Client(scheduler, timeout="20s")
        except OSError as error:
            raise GuandanError(
                f"cannot reach the Dask scheduler at {scheduler!r} ({error}); start one with "
                "'dask scheduler' and give its address, e.g. tcp://HOST:8786"
            ) from error
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


@contextmanager
def dask_outcomes(plan, settings, scheduler: str | None) -> Iterator[Iterator]:
    """The outcome of each block of ``plan``, in order, computed on the cluster."""
    from .files import block_outcome

    with dask_client(scheduler) as client:
        yield _in_order(client, plan, settings, block_outcome)


def _in_order(client, plan, settings, work) -> Iterator:
    distributed = _dask()
    threads = max(sum(client.nthreads().values()), 1)
    run = uuid.uuid4().hex[:12]  # two runs on one cluster never share a task
    waiting, pending = deque(plan.blocks), deque()
    while waiting or pending:
        while waiting and len(pending) < 2 * threads:
            block = waiting.popleft()
            key = f"guandan-block-{run}-{'-'.join(map(str, block))}"
            pending.append((block, client.submit(work, plan, block, settings, key=key,
                                                 pure=False)))
        block, future = pending.popleft()
        try:
            outcome = future.result()
        except (distributed.KilledWorker, distributed.comm.CommClosedError) as error:
            for _, left in pending:
                left.cancel()
            rounds = ", ".join(map(str, block))
            raise GuandanError(
                f"a Dask worker died scoring round(s) {rounds} and the task was not retried "
                f"({type(error).__name__}: {error}); nothing was written. Check the workers' "
                "memory (docs/scale.md) and run again"
            ) from error
        future.release()
        yield outcome
        del outcome
