"""``--engine dask --scheduler`` (issue 21, item 12): a bad address, a peer that is not a
Dask scheduler and a port that never answers are each an ``Error: ...`` within the
connection timeout, exit 1, and nothing written. The fake peers are socket servers on
127.0.0.1, started and stopped here; the timeout is made small so each case takes seconds.
"""

import socket
import struct
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from scoring_support import as_file_table, seeded_event
from typer.testing import CliRunner

from guandan_dup.cli.app import app
from guandan_dup.errors import GuandanError
from guandan_dup.scoring import dask_engine
from guandan_dup.scoring.dask_engine import check_scheduler, scheduler_address

pytest.importorskip("distributed")

TIMEOUT = 1.5  # seconds: the connection timeout the tests run with


@pytest.fixture(autouse=True)
def small_timeout(monkeypatch):
    monkeypatch.setattr(dask_engine, "CONNECT_TIMEOUT", TIMEOUT)


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("results") / "results.parquet"
    pq.write_table(as_file_table(seeded_event()), path)
    return path


@contextmanager
def peer(answer: bytes | None):
    """A TCP server on 127.0.0.1 that sends ``answer`` to each connection (None: nothing)
    and keeps it open until the test ends; yields its ``tcp://`` address."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.1)
    done, held = threading.Event(), []

    def serve():
        while not done.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            held.append(conn)
            if answer is not None:
                conn.sendall(answer)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        done.set()
        thread.join()
        for conn in held:
            conn.close()
        server.close()


def score(results: Path, out: Path, scheduler: str):
    """The ``score`` command with ``--engine dask --scheduler``, and the seconds it took."""
    start = time.monotonic()
    result = CliRunner().invoke(app, ["score", str(results), "--out", str(out), "--engine",
                                      "dask", "--scheduler", scheduler, "--quiet"])
    return result, time.monotonic() - start


def refused(result, out: Path, *words: str) -> None:
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("Error: "), result.stderr
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.stderr, result.stderr
    assert not out.exists()


@pytest.mark.parametrize("address, reason", [
    ("bogus", "it has no port"),
    ("http://127.0.0.1:1", "its scheme is 'http://'"),
    ("", "it is empty"),
    ("tcp://[::1", "an IPv6 host needs its closing bracket"),
    ("tcp://127.0.0.1:0", "the port '0' is not a number from 1 to 65535"),
    ("tcp://127.0.0.1:http", "the port 'http'"),
    ("tcp://:8786", "the host ''"),
])
def test_a_scheduler_address_that_is_not_tcp_host_port_is_refused_before_connecting(
        results, tmp_path, address, reason):
    result, took = score(results, tmp_path / "out", address)
    refused(result, tmp_path / "out", f"--scheduler {address!r} is not a Dask scheduler's "
            f"address: {reason}", "tcp://HOST:PORT")
    assert took < TIMEOUT


@pytest.mark.parametrize("address, host, port", [
    ("tcp://10.0.0.5:8786", "10.0.0.5", 8786),
    ("10.0.0.5:8786", "10.0.0.5", 8786),
    ("tcp://[::1]:8786", "::1", 8786),
    ("tcp://scheduler.example:1", "scheduler.example", 1),
])
def test_a_scheduler_address_is_tcp_host_port(address, host, port):
    assert scheduler_address(address) == (host, port)


@pytest.mark.parametrize("answer, words", [
    (b"SSH-2.0-OpenSSH_9.6\r\n", "its first bytes announce a message of"),  # 3 EiB before
    (b"HTTP/1.1 400 Bad Request\r\n\r\n", "its first bytes announce a message of"),
    (struct.pack("Q", 16) + struct.pack("Q", 5) + b"\x00" * 8, "its greeting does not decode"),
    (struct.pack("Q", 16) + struct.pack("Q", 1) + struct.pack("Q", 0),
     "its first message is not Dask's handshake"),
    (struct.pack("Q", 100) + b"short", "its greeting stopped after 5 bytes"),
    (b"\x05\x00", "it closed the connection after 2 bytes"),
])
def test_a_peer_that_is_not_a_dask_scheduler_is_refused_within_the_timeout(
        results, tmp_path, answer, words):
    close = answer == b"\x05\x00"
    with (closing_peer(answer) if close else peer(answer)) as address:
        result, took = score(results, tmp_path / "out", address)
    refused(result, tmp_path / "out", repr(address), words, "dask scheduler")
    assert took < TIMEOUT + 1


@contextmanager
def closing_peer(answer: bytes):
    """A TCP server on 127.0.0.1 that sends ``answer`` and hangs up."""
    server = socket.create_server(("127.0.0.1", 0))

    def serve():
        conn, _ = server.accept()
        conn.sendall(answer)
        conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        thread.join(5)
        server.close()


def test_a_port_that_accepts_and_never_answers_is_refused_within_the_timeout(
        results, tmp_path):
    with peer(None) as address:
        result, took = score(results, tmp_path / "out", address)
    refused(result, tmp_path / "out", f"the peer at {address!r} accepted the connection but "
            f"sent nothing within {TIMEOUT:g} s")
    assert TIMEOUT - 0.2 < took < TIMEOUT + 1


def test_a_refused_port_is_tried_until_the_timeout_then_reported():
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
    start = time.monotonic()
    with pytest.raises(GuandanError, match="cannot reach the Dask scheduler at"):
        check_scheduler(f"tcp://127.0.0.1:{port}", 0.5)
    assert 0.3 < time.monotonic() - start < 1.5


def dask_greeting() -> bytes:
    """The first message a Dask server sends, framed as Dask frames it."""
    from distributed.protocol.core import dumps
    from distributed.protocol.utils import pack_frames

    body = pack_frames(dumps({"compression": None, "python": (3, 11, 0),
                              "pickle-protocol": 5}))
    return struct.pack("Q", len(body)) + body


def test_a_peer_that_greets_and_then_never_takes_the_client_is_refused_within_the_timeout(
        results, tmp_path):
    """The greeting passes the check; Dask's own handshake then waits for an answer that
    never comes: bounded by the same timeout, and the message says what did not happen
    (a timeout's own text is empty: it read "cannot reach ... ()")."""
    greeting = dask_greeting()
    with peer(greeting) as address:
        result, took = score(results, tmp_path / "out", address)
    refused(result, tmp_path / "out", f"cannot reach the Dask scheduler at {address!r} (it "
            "greeted as a Dask scheduler does but took no client within")
    assert took < 2 * TIMEOUT + 2
