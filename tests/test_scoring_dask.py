"""The Dask engine (issue 13): the same bytes as the local engine, on a 2-worker cluster on
127.0.0.1 started and stopped here; a worker killed mid-run is survived or reported.

Dask is an extra (``pip install -e ".[dask]"``): without it the module is skipped, so the
test extra alone still passes."""

import os
import socket
import sys
import urllib.error
import urllib.request
import warnings
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from scoring_support import as_file_table, seeded_event
from typer.testing import CliRunner

from guandan_dup.cli.app import app
from guandan_dup.errors import GuandanError
from guandan_dup.scoring import OUTPUT_NAMES, dask_engine, score_files
from guandan_dup.scoring.dask_engine import local_cluster

dask = pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")
cloudpickle = pytest.importorskip("cloudpickle")  # installed with distributed
Client, WorkerPlugin = distributed.Client, distributed.WorkerPlugin

cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers need not import tests/


def outputs(folder: Path) -> dict[str, bytes]:
    return {name: (folder / f"{name}.parquet").read_bytes() for name in OUTPUT_NAMES}


def dataset(folder: Path, partitions: int) -> Path:
    """The seeded event as ``partitions`` Parquet files: one file; rows shuffled over three;
    or hive-partitioned by round (no round column in the files), seven files in all."""
    table = as_file_table(seeded_event())
    folder.mkdir()
    if partitions < 7:
        order = np.random.default_rng(partitions).permutation(len(table))
        for i, part in enumerate(np.array_split(order, partitions)):
            pq.write_table(table.take(np.sort(part)), folder / f"part.{i}.parquet")
        return folder
    rounds = np.asarray(table["round"])
    files = 0
    for round_no in np.unique(rounds):
        rows = np.flatnonzero(rounds == round_no)
        pieces = 1 if round_no == 4 else 2
        (folder / f"round={round_no}").mkdir()
        for i, part in enumerate(np.array_split(rows, pieces)):
            pq.write_table(table.take(part).drop_columns(["round"]),
                           folder / f"round={round_no}" / f"part.{i}.parquet")
            files += 1
    assert files == partitions
    return folder


@pytest.fixture(scope="module")
def cluster():
    with local_cluster(2) as local:
        yield local


@pytest.fixture(scope="module")
def local_bytes(tmp_path_factory):
    folder = tmp_path_factory.mktemp("local")
    pq.write_table(as_file_table(seeded_event()), folder / "results.parquet")
    score_files([folder / "results.parquet"], folder / "out", expected=14, seed=7)
    return outputs(folder / "out")


@pytest.mark.parametrize("partitions", [1, 3, 7])
def test_dask_outputs_are_the_local_engines_bytes(cluster, local_bytes, tmp_path, partitions):
    source = dataset(tmp_path / "results", partitions)
    score_files([source], tmp_path / "dask", expected=14, seed=7, engine="dask",
                scheduler=cluster.scheduler_address)
    assert outputs(tmp_path / "dask") == local_bytes
    score_files([source], tmp_path / "local", expected=14, seed=7)
    assert outputs(tmp_path / "local") == local_bytes


def test_score_command_with_engine_dask(cluster, local_bytes, tmp_path):
    source = dataset(tmp_path / "results", 7)
    result = CliRunner().invoke(app, [
        "score", str(source), "--engine", "dask", "--scheduler", cluster.scheduler_address,
        "--expected", "14", "--seed", "7", "--out", str(tmp_path / "out"), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "rounds 1, 2, 3 and 4" in result.output
    assert outputs(tmp_path / "out") == local_bytes


def test_without_a_scheduler_a_local_cluster_is_started(local_bytes, tmp_path):
    source = dataset(tmp_path / "results", 3)
    score_files([source], tmp_path / "out", expected=14, seed=7, engine="dask")
    assert outputs(tmp_path / "out") == local_bytes


def test_the_local_cluster_has_no_dashboard_and_leaves_port_8787_to_others():
    with socket.socket() as other:  # another cluster's dashboard, as a platform may run
        try:
            other.bind(("127.0.0.1", 8787))
            other.listen()
        except OSError:
            pass  # something holds it already
        with warnings.catch_warnings(record=True) as caught, local_cluster(1) as cluster:
            warnings.simplefilter("always")
            served = [s.getsockname() for s in cluster.scheduler.http_server._sockets.values()]
            (host, port), = served
            assert host == "127.0.0.1" and port != 8787
            web = f"http://127.0.0.1:{port}"
            assert urllib.request.urlopen(f"{web}/health").read() == b"ok"
            with pytest.raises(urllib.error.HTTPError, match="404"):
                urllib.request.urlopen(f"{web}/status")  # the dashboard's page
    assert not [w for w in caught if "8787" in str(w.message)]


class DieOnFirstBlock(WorkerPlugin):
    """Kills the worker process that starts the first block of the run (once: a flag file)."""

    def __init__(self, flag: str):
        self.flag = flag

    def transition(self, key, start, finish, **kwargs):
        if finish == "executing" and str(key).startswith("guandan-block"):
            try:
                os.close(os.open(self.flag, os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                return
            os._exit(1)


def test_a_worker_killed_mid_run_is_replaced_and_the_block_run_again(local_bytes, tmp_path):
    source = dataset(tmp_path / "results", 3)
    with local_cluster(2) as local, Client(local) as client:
        client.register_plugin(DieOnFirstBlock(str(tmp_path / "killed")))
        score_files([source], tmp_path / "out", expected=14, seed=7, engine="dask",
                    scheduler=local.scheduler_address)
    assert (tmp_path / "killed").exists()
    assert outputs(tmp_path / "out") == local_bytes


def test_a_task_that_kills_its_worker_stops_the_run_and_writes_nothing(tmp_path):
    source = dataset(tmp_path / "results", 3)
    out = tmp_path / "out"
    out.mkdir()
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            local_cluster(2) as local, Client(local) as client:
        client.register_plugin(DieOnFirstBlock(str(tmp_path / "killed")))
        with pytest.raises(GuandanError, match="a Dask worker died scoring round"):
            score_files([source], out, engine="dask", scheduler=local.scheduler_address)
    assert list(out.iterdir()) == []


def test_an_unreachable_scheduler_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(dask_engine, "CONNECT_TIMEOUT", 2.0)
    source = dataset(tmp_path / "results", 1)
    with pytest.raises(GuandanError, match="cannot reach the Dask scheduler"):
        score_files([source], tmp_path / "out", engine="dask", scheduler="tcp://127.0.0.1:9")


def test_a_scheduler_without_the_dask_engine_is_refused(tmp_path):
    source = dataset(tmp_path / "results", 1)
    with pytest.raises(GuandanError, match="give --engine dask"):
        score_files([source], tmp_path / "out", scheduler="tcp://127.0.0.1:8786")


def test_a_workers_address_is_not_a_scheduler(cluster, tmp_path, monkeypatch):
    monkeypatch.setattr(dask_engine, "CONNECT_TIMEOUT", 5.0)
    source = dataset(tmp_path / "results", 1)
    worker = next(iter(cluster.scheduler_info["workers"]))
    with pytest.raises(GuandanError, match=f"the Dask server at {worker!r} did not take a "
                       "client .*is it a worker's address"):
        score_files([source], tmp_path / "out", engine="dask", scheduler=worker)
    assert not (tmp_path / "out").exists()


class ElsewhereFolder(WorkerPlugin):
    """Runs each worker in another folder, as a worker on another machine is."""

    def __init__(self, folder: str):
        self.folder = folder

    def setup(self, worker):
        os.chdir(self.folder)


def test_a_worker_that_cannot_read_the_files_says_they_must_be_readable_where_it_runs(
        tmp_path, monkeypatch):
    dataset(tmp_path / "results", 7)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "out").mkdir()
    monkeypatch.chdir(tmp_path)
    with local_cluster(1) as local, Client(local) as client:
        client.register_plugin(ElsewhereFolder(str(tmp_path / "elsewhere")))
        result = CliRunner().invoke(app, [
            "score", "results", "--engine", "dask", "--scheduler", local.scheduler_address,
            "--out", "out", "--quiet"])
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("Error: a Dask worker cannot read the results of round"
                                    " 1 ("), result.stderr
    assert "they must be readable where the workers run" in result.stderr
    assert "'results/round=1/part.0.parquet' is relative to this folder, not the workers'" \
        in result.stderr
    assert list((tmp_path / "out").iterdir()) == []
