"""A results folder either engine cannot read (issue 21, messages): each is named with what
was expected, in the local reader's words where it has them, the same for ``--engine local``
and ``--engine dask``, exit 1 and nothing written (the folder is checked before any cluster
is started or reached)."""

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from scoring_support import as_file_table, seeded_event
from typer.testing import CliRunner

from guandan_dup.cli.app import app

ENGINES = ["local", "dask"]


@pytest.fixture(scope="module")
def table() -> pa.Table:
    return as_file_table(seeded_event())


def round_files(folder: Path, table: pa.Table, name: str = "round={}") -> Path:
    """``table`` hive-partitioned under ``folder``: ``name`` formatted with each round."""
    for round_no in sorted(set(table["round"].to_pylist())):
        part = folder / name.format(round_no)
        part.mkdir(parents=True)
        rows = pa.compute.equal(table["round"], round_no)
        pq.write_table(table.filter(rows).drop_columns(["round"]), part / "part.0.parquet")
    return folder


def refused(folder: Path, out: Path, engine: str) -> str:
    """The ``score`` command's error for ``folder``: exit 1, nothing in ``out``."""
    result = CliRunner().invoke(app, ["score", str(folder), "--out", str(out), "--engine",
                                      engine, "--quiet"])
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("Error: "), result.stderr
    assert "is a folder, not a results file" not in result.stderr
    assert not out.exists()
    return result.stderr


@pytest.mark.parametrize("engine", ENGINES)
def test_a_results_folder_without_parquet_files_is_named(tmp_path, engine):
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "_SUCCESS").write_text("")  # a writer's marker: skipped
    error = refused(tmp_path / "results", tmp_path / "out", engine)
    assert f"  {tmp_path / 'results'}: has no Parquet files (*.parquet): a results folder " \
        "is a Parquet dataset, e.g. round=1/part.0.parquet (docs/scale.md)" in error


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", ["round=x", "round=1.5", "round=0", "round=", "round=-1",
                                  "round=2147483648"])
def test_a_round_folder_names_a_round_from_1(tmp_path, table, engine, name):
    folder = round_files(tmp_path / "results", table)
    (folder / "round=1").rename(folder / name)
    error = refused(folder, tmp_path / "out", engine)
    assert f"  {folder / name}: value {name!r}: a partition folder is named round=N, N a " \
        "round number from 1 to 2147483647" in error


@pytest.mark.parametrize("engine", ENGINES)
def test_a_file_in_a_results_folder_that_is_not_parquet_is_named(tmp_path, table, engine):
    folder = round_files(tmp_path / "results", table)
    (folder / "round=2" / "late.csv").write_text("round,table\n2,9\n")  # would go unread
    (folder / "round=3" / "part.1.parquet").write_text("not Parquet")
    error = refused(folder, tmp_path / "out", engine)
    assert f"  {folder / 'round=2' / 'late.csv'}: is not a .parquet file, and a results " \
        "folder is read as Parquet files only" in error
    assert "1 problem in the results" in error  # the names first; then the files' contents
    (folder / "round=2" / "late.csv").rename(folder / "round=2" / "_late.csv")
    error = refused(folder, tmp_path / "out", engine)
    assert f"  {folder / 'round=3' / 'part.1.parquet'}: cannot be read as a Parquet file (" \
        in error  # the local reader's words for a single file


@pytest.mark.parametrize("engine", ENGINES)
def test_a_folder_not_partitioned_by_round_names_its_files_missing_round(tmp_path, table,
                                                                           engine):
    folder = round_files(tmp_path / "results", table, name="rnd={}")
    error = refused(folder, tmp_path / "out", engine)
    assert f"  {folder / 'rnd=1' / 'part.0.parquet'}, column 'round': is missing" in error


@pytest.mark.parametrize("engine", ENGINES)
def test_a_round_folder_file_without_set_numbers_is_named(tmp_path, table, engine):
    folder = round_files(tmp_path / "results", table)
    bad = folder / "round=2" / "part.0.parquet"
    rows = pq.read_table(bad)
    sets = pa.array([None] + rows["set"].to_pylist()[1:], pa.int64())
    pq.write_table(rows.set_column(rows.column_names.index("set"), "set", sets), bad)
    pq.write_table(rows.drop_columns(["set"]), folder / "round=3" / "part.0.parquet")
    error = refused(folder, tmp_path / "out", engine)
    assert f"  {bad}, column 'set': is empty in 1 row(s): every row needs a number from 1" \
        in error
    assert f"  {folder / 'round=3' / 'part.0.parquet'}, column 'set': is missing" in error
    assert "column 'round'" not in error  # their folders give it


def test_a_sound_round_folder_still_scores(tmp_path, table):
    folder = round_files(tmp_path / "results", table)
    (folder / "_notes.txt").write_text("skipped: its name starts with _")
    result = CliRunner().invoke(app, ["score", str(folder), "--out", str(tmp_path / "out"),
                                      "--quiet"])
    assert result.exit_code == 0, result.output
    assert "rounds 1, 2, 3 and 4" in result.output
