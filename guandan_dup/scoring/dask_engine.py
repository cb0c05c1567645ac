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

A ``--scheduler`` address is checked before anything connects (``scheduler_address``), and
the peer must greet as Dask does within ``CONNECT_TIMEOUT`` (``check_scheduler``): Dask's own
client waits for the first message without a limit and trusts the length it announces, so a
silent port would hang the run and a peer speaking another protocol would have numpy allocate
whatever its first bytes say.
"""

from __future__ import annotations

import os
import socket
import struct
import threading
import time
import uuid
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

from ..errors import GuandanError
from ..wording import numbered


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


# Seconds the whole connection to a --scheduler may take: reaching it, its greeting, and the
# client's registration (each step gets what is left).
CONNECT_TIMEOUT = 20.0
# A Dask greeting is a few dozen bytes (compression, Python version, pickle protocol).
_GREETING_BYTES = 64 * 1024
_HINT = ("start one with 'dask scheduler' and give its address, e.g. tcp://HOST:8786 "
         "(see docs/scale.md)")


def scheduler_address(text: str) -> tuple[str, int]:
    """The host and port of a ``--scheduler`` address, ``tcp://HOST:PORT`` or ``HOST:PORT``
    (an IPv6 host in brackets); anything else is refused before a connection is tried, so a
    typo gets its own message, not Dask's traceback.

    >>> scheduler_address("tcp://10.0.0.5:8786")
    ('10.0.0.5', 8786)
    >>> scheduler_address("[::1]:8786")
    ('::1', 8786)
    """
    if not text.strip():
        _bad_address(text, "it is empty")
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    if scheme != "tcp":
        _bad_address(text, f"its scheme is {scheme + '://'!r}, guandan-dup connects over tcp://")
    if rest.startswith("["):
        host, close, port = rest[1:].partition("]")
        if not close or not port.startswith(":"):
            _bad_address(text, "an IPv6 host needs its closing bracket and a port, "
                         "as in [::1]:8786")
        port = port[1:]
    else:
        host, colon, port = rest.rpartition(":")
        if not colon:
            _bad_address(text, "it has no port")
    if not host or any(c in host for c in "/[]@ "):
        _bad_address(text, f"the host {host!r} is not a host name or address")
    if not (port.isascii() and port.isdigit() and 0 < int(port) < 65536):
        _bad_address(text, f"the port {port!r} is not a number from 1 to 65535")
    return host, int(port)


def _bad_address(text: str, reason: str) -> NoReturn:
    raise GuandanError(f"--scheduler {text!r} is not a Dask scheduler's address: {reason}; "
                       "give tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786")


def check_scheduler(text: str, timeout: float) -> None:
    """Refuse ``text`` unless a peer there sends a Dask greeting within ``timeout`` seconds.
    It runs on a thread of its own, so even a name lookup that never ends (not bounded by a
    socket's timeout) cannot hold the command past ``timeout``."""
    host, port = scheduler_address(text)
    failure: list[BaseException] = []
    probe = threading.Thread(target=_greeting_or_failure, daemon=True, name="dask-probe",
                             args=(host, port, time.monotonic() + timeout, failure))
    probe.start()
    probe.join(timeout + 0.5)
    if probe.is_alive():
        failure.append(TimeoutError(f"no answer within {timeout:g} s"))
    if failure:
        raise _refusal(text, failure[0], timeout) from failure[0]


def _refusal(text: str, error: BaseException, timeout: float) -> GuandanError:
    """What the director reads when the probe of ``text`` failed with ``error``."""
    if isinstance(error, _NotDask):
        return GuandanError(f"the peer at {text!r} is not a Dask scheduler ({error}); {_HINT}")
    if isinstance(error, _Silent):
        return GuandanError(
            f"the peer at {text!r} accepted the connection but sent nothing within "
            f"{timeout:g} s, as a Dask scheduler would at once; {_HINT}")
    return GuandanError(f"cannot reach the Dask scheduler at {text!r} ({error}); {_HINT}")


class _NotDask(Exception):
    """The peer's first bytes are not a Dask greeting."""


class _Silent(Exception):
    """The peer accepted the connection and sent nothing."""


def _greeting_or_failure(host: str, port: int, deadline: float,
                         failure: list[BaseException]) -> None:
    """Read the peer's greeting; a failure is appended to ``failure`` (the probe's thread
    cannot raise into its caller)."""
    try:
        _greeting(host, port, deadline)
    except Exception as error:  # reported by check_scheduler, whatever it is
        failure.append(error)


def _greeting(host: str, port: int, deadline: float) -> dict:
    """The message a Dask server sends as soon as it accepts a connection (Dask's framing:
    the byte count, then the frames' prelude and a msgpack dict), read within ``deadline``
    and never trusting a length beyond ``_GREETING_BYTES``."""
    from distributed.protocol.core import loads
    from distributed.protocol.utils import unpack_frames

    with _connected(host, port, deadline) as peer:
        head = _read(peer, 8, deadline, first=True)
        (size,) = struct.unpack("Q", head)
        if not 0 < size <= _GREETING_BYTES:
            raise _NotDask(f"its first bytes announce a message of {size} bytes, a Dask "
                           f"greeting has {_GREETING_BYTES} at most")
        body = _read(peer, size, deadline)
    try:
        frames, missing = unpack_frames(body, partial=True)
        message = None if missing else loads(frames)
    except Exception as error:  # garbage: whatever the decoder makes of it
        raise _NotDask(f"its greeting does not decode: {error}") from error
    if not isinstance(message, dict) or "compression" not in message:
        raise _NotDask("its first message is not Dask's handshake")
    return message


def _connected(host: str, port: int, deadline: float) -> socket.socket:
    """A connection to ``host:port``, tried again until ``deadline`` as Dask's client does (a
    scheduler still starting refuses for a moment); the last failure if none succeeds."""
    pause = 0.05
    while True:
        try:
            return socket.create_connection((host, port), timeout=_left(deadline))
        except OSError:
            if deadline - time.monotonic() <= pause:
                raise
            time.sleep(pause)
            pause = min(2 * pause, 1.0)


def _left(deadline: float) -> float:
    """Seconds to ``deadline``; past it, a timeout (a socket's timeout of 0 would not
    wait at all)."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("no answer in time")
    return left


def _read(peer: socket.socket, size: int, deadline: float, first: bool = False) -> bytes:
    """Exactly ``size`` bytes from ``peer`` before ``deadline``. Nothing at all ``first``
    is a silent peer; a peer that closes early sent no Dask message."""
    data = bytearray()
    while len(data) < size:
        try:
            peer.settimeout(_left(deadline))
            chunk = peer.recv(size - len(data))
        except TimeoutError as error:
            if first and not data:
                raise _Silent() from error
            raise TimeoutError(f"its greeting stopped after {len(data)} bytes") from error
        if not chunk:
            raise _NotDask(f"it closed the connection after {len(data)} bytes")
        data += chunk
    return bytes(data)


def _client(distributed, scheduler: str, timeout: float):
    """A client of the scheduler at ``scheduler``, checked first (``check_scheduler``)."""
    start = time.monotonic()
    check_scheduler(scheduler, timeout)
    left = max(timeout - (time.monotonic() - start), 1.0)
    try:
        return distributed.Client(scheduler, timeout=f"{left}s")
    except OSError as error:  # a timeout's own text is empty: say what did not happen
        detail = str(error) or (f"it greeted as a Dask scheduler does but took no client "
                                f"within {left:g} s")
        raise GuandanError(
            f"cannot reach the Dask scheduler at {scheduler!r} ({detail}); {_HINT}") from error
    except Exception as error:  # a Dask server that is not a scheduler, e.g. a worker
        raise GuandanError(
            f"the Dask server at {scheduler!r} did not take a client "
            f"({type(error).__name__}: {error}); is it a worker's address? {_HINT}"
        ) from error


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
        client = _client(distributed, scheduler, CONNECT_TIMEOUT)
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
        except Exception as error:  # the task's own, raised again here
            for _, left in pending:
                left.cancel()
            failure = _task_failure(distributed, plan, block, error)
            if failure is error:
                raise
            raise failure from error
        future.release()
        yield outcome
        del outcome


def _task_failure(distributed, plan, block, error: Exception) -> Exception:
    """What the director reads when a block's task failed with ``error``: a worker that died,
    or one that cannot read the files (they are read where the workers run, which the
    director's own ``ls`` does not show); anything else is raised as it is."""
    import pyarrow as pa

    rounds = numbered("round", block)
    if isinstance(error, distributed.KilledWorker | distributed.comm.CommClosedError):
        return GuandanError(
            f"a Dask worker died scoring {rounds} and the task was not retried "
            f"({type(error).__name__}: {error}); nothing was written. Check the workers' "
            "memory (docs/scale.md) and run again")
    if not isinstance(error, OSError | pa.ArrowException):
        return error
    relative = [path for path in plan.paths if not os.path.isabs(path)]
    hint = (f"; {relative[0]!r} is relative to this folder, not the workers': give the "
            "results as an absolute path") if relative else ""
    return GuandanError(
        f"a Dask worker cannot read the results of {rounds} ({error}): the workers "
        "read the files themselves, at the same paths, so they must be readable where the "
        f"workers run (a shared file system, docs/scale.md){hint}; nothing was written")
