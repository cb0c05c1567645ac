"""``guandan-dup key new``, ``deal`` and ``deal verify`` from the outside: exit codes, messages."""

import json
import os

import pyarrow as pa
import pytest
from typer.testing import CliRunner

import guandan_dup.cli  # noqa: F401  (registers the commands)
from guandan_dup.cli.app import app
from guandan_dup.deals import commitment, dump, load, read_key

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(arg) for arg in args])


@pytest.fixture
def key_file(tmp_path):
    path = tmp_path / "event.key"
    assert run("key", "new", "--out", path).exit_code == 0
    return path


def test_key_new_prints_the_commitment_never_the_key(tmp_path):
    path = tmp_path / "event.key"
    result = run("key", "new", "--out", path)
    assert result.exit_code == 0
    key = read_key(path)
    assert commitment(key) in result.stdout
    assert key.hex() not in result.stdout + result.stderr
    assert os.stat(path).st_mode & 0o777 == 0o600


def test_key_new_refuses_an_existing_key_without_force(key_file):
    before = key_file.read_bytes()
    result = run("key", "new", "--out", key_file)
    assert result.exit_code == 1
    assert "Error: key file" in result.stderr and "already exists" in result.stderr
    assert key_file.read_bytes() == before
    assert run("key", "new", "--out", key_file, "--force").exit_code == 0
    assert key_file.read_bytes() != before


def test_deal_then_verify(key_file, tmp_path):
    out = tmp_path / "b.parquet"
    result = run("deal", "--key", key_file, "--boards", "1-4", "--out", out, "--quiet")
    assert result.exit_code == 0, result.output
    assert load(out).num_rows == 4
    assert commitment(read_key(key_file)) in result.stdout
    verified = run("deal", "verify", "--key", key_file, out, "--quiet")
    assert verified.exit_code == 0
    assert verified.stdout.startswith("all 4 boards match the key")


def test_deal_writes_sets_leaders_and_the_delayed_value(key_file, tmp_path):
    out = tmp_path / "b.parquet"
    args = ["--boards-per-set", "2", "--leader", "w", "--delayed", "draw 77", "--quiet"]
    assert run("deal", "--key", key_file, "--boards", "1-4", "--out", out, *args).exit_code == 0
    table = load(out)
    assert table.column("leader").to_pylist() == ["W", None, "W", None]
    assert table.schema.metadata[b"delayed"] == b"draw 77"


@pytest.mark.parametrize(
    ("name", "extra", "check"),
    [
        ("b.json", [], lambda text: len(json.loads(text)) == 3),
        ("b.txt", [], lambda text: text.startswith(
            "第 1 副 · 首出 东 · Board 1  (East leads)\n  北 North")),
        ("b.html", [], lambda text: text.count('class="board"') == 3),
        ("b.out", ["--format", "text"], lambda text: text.startswith("第 1 副")),
    ],
)
def test_deal_output_format_from_suffix_or_option(key_file, tmp_path, name, extra, check):
    out = tmp_path / name
    result = run("deal", "--key", key_file, "--boards", "1-3", "--out", out, "--quiet", *extra)
    assert result.exit_code == 0, result.output
    assert check(out.read_text(encoding="utf-8"))


@pytest.mark.parametrize("boards", ["0-3", "5-2", "a-b", ""])
def test_deal_refuses_a_bad_board_range_and_writes_nothing(key_file, tmp_path, boards):
    out = tmp_path / "b.parquet"
    result = run("deal", "--key", key_file, "--boards", boards, "--out", out)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: bad board range {boards!r}")
    assert "Traceback" not in result.output
    assert not out.exists()


def test_deal_names_a_missing_key_file(tmp_path):
    out = tmp_path / "b.parquet"
    result = run("deal", "--key", tmp_path / "nope.key", "--boards", "1", "--out", out)
    assert result.exit_code == 1
    assert "Error: key file" in result.stderr and "nope.key' does not exist" in result.stderr
    assert not out.exists()


def test_deal_refuses_a_malformed_key_file(tmp_path):
    key = tmp_path / "event.key"
    key.write_text("not a key\n")
    key.chmod(0o600)
    result = run("deal", "--key", key, "--boards", "1", "--out", tmp_path / "b.parquet")
    assert result.exit_code == 1
    assert "is malformed: expected 64 hexadecimal digits" in result.stderr


def test_a_key_readable_by_others_warns_and_proceeds(key_file, tmp_path):
    key_file.chmod(0o644)
    out = tmp_path / "b.parquet"
    result = run("deal", "--key", key_file, "--boards", "1", "--out", out, "--quiet")
    assert result.exit_code == 0
    assert f"Warning: key file {str(key_file)!r} is readable by others; chmod 600 it" in (
        result.stderr
    )
    assert out.exists()


def test_deal_without_its_options_says_what_is_missing(tmp_path):
    result = run("deal", "--boards", "1-2")
    assert result.exit_code == 2
    assert "deal needs --key and --out" in result.output


def test_verify_names_an_unreadable_file(key_file, tmp_path):
    bad = tmp_path / "b.parquet"
    bad.write_bytes(b"junk")
    result = run("deal", "verify", "--key", key_file, bad)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: cannot read board set file {str(bad)!r}")


def test_verify_lists_tampered_boards_and_fails(key_file, tmp_path):
    out = tmp_path / "b.parquet"
    run("deal", "--key", key_file, "--boards", "1-6", "--out", out, "--quiet")
    table = load(out)
    east, west = table.column("east").to_pylist(), table.column("west").to_pylist()
    east[4], west[4] = west[4], east[4]
    table = table.set_column(5, "east", pa.array(east, pa.list_(pa.uint8())))
    dump(table.set_column(7, "west", pa.array(west, pa.list_(pa.uint8()))), out)
    result = run("deal", "verify", "--key", key_file, out, "--quiet")
    assert result.exit_code == 1
    assert result.stdout == "1 of 6 boards differ: 5\n"


def test_verify_with_another_key_fails_on_the_commitment(key_file, tmp_path):
    out = tmp_path / "b.parquet"
    run("deal", "--key", key_file, "--boards", "1-2", "--out", out, "--quiet")
    other = tmp_path / "other.key"
    run("key", "new", "--out", other)
    result = run("deal", "verify", "--key", other, out, "--quiet")
    assert result.exit_code == 1
    assert "the key does NOT match the commitment" in result.stdout


def test_verify_refuses_a_parquet_file_that_is_no_board_set_of_ours(key_file, tmp_path):
    out = tmp_path / "b.parquet"
    run("deal", "--key", key_file, "--boards", "1-2", "--out", out, "--quiet")
    dump(load(out).replace_schema_metadata(None), out)
    result = run("deal", "verify", "--key", key_file, out)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: board set file {str(out)!r} lacks the metadata")


def test_deal_counts_one_board_in_the_singular(key_file, tmp_path):
    result = run("deal", "--key", key_file, "--boards", "7", "--out", tmp_path / "b.txt", "--quiet")
    assert result.stdout.splitlines()[0] == f"Dealt 1 board to {tmp_path / 'b.txt'}."


def test_deal_onto_a_folder_fails_cleanly_and_leaves_no_temporary_file(key_file, tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    result = run("deal", "--key", key_file, "--boards", "1-2", "--out", folder, "--quiet")
    assert result.exit_code == 1
    assert result.stderr == f"Error: cannot write the boards to {str(folder)!r}: it is a folder\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["event.key", "out"]


def test_deal_refuses_a_delayed_value_that_is_not_text(key_file, tmp_path):
    out = tmp_path / "b.parquet"
    args = ["--boards", "1", "--out", out, "--delayed", "\udcff", "--quiet"]
    result = run("deal", "--key", key_file, *args)
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: the delayed value '\\udcff' is not valid text")
    assert not out.exists()


def test_verify_refuses_a_file_that_repeats_a_board(key_file, tmp_path):
    out = tmp_path / "b.parquet"
    run("deal", "--key", key_file, "--boards", "1-2", "--out", out, "--quiet")
    table = load(out)
    dump(pa.concat_tables([table, table.slice(0, 1)]), out)
    result = run("deal", "verify", "--key", key_file, out, "--quiet")
    assert result.exit_code == 1
    assert "board 1 is listed more than once" in result.stderr
