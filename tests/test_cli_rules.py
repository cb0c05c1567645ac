"""``guandan-dup rules classify`` and ``rules beats``: output, exit codes, errors."""

import json

import pytest
from typer.testing import CliRunner

from guandan_dup.cli.app import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, ["rules", *args])


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--level", "2", "S3 C3 D3", "H2 H2"], [("bomb", "3", 5), ("full_house", "3", 5)]),
        (["--level", "7", "S7 C7"], [("pair", "7", 2)]),
        (["--level", "10", "SA C2 D3", "S4", "H5"], [("straight", "5", 5)]),
        (["--level", "A", "BJ BJ RJ RJ"], [("joker_bomb", "RJ", 4)]),
        (["-l", "9", "♥3 ♥4", "♥5 ♥6", "♥7"], [("straight_flush", "7", 5), ("straight", "7", 5)]),
        (["--level", "J", "ST", "C10,HJ"], [("triple", "10", 3)]),
        (["--level", "10", "大王 大王", "HT"], []),
    ],
)
def test_classify_prints_every_reading_as_json(args, expected):
    result = run("classify", *args)
    assert result.exit_code == (0 if expected else 1), result.output
    readings = json.loads(result.stdout)
    assert [(r["type"], r["rank"], r["cards"]) for r in readings] == expected


def test_classify_prints_an_empty_list_and_exits_1_without_a_reading():
    result = run("classify", "--level", "2", "S3", "S5")
    assert result.exit_code == 1
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("args", "answer"),
    [
        (["--level", "2", "--prev", "S8 C8", "S9", "D9"], "yes"),
        (["--level", "2", "--prev", "S8 C8", "S9 D9 C9"], "no"),
        (["--level", "7", "--prev", "SA CA", "S7 C7"], "yes"),
        (["--level", "2", "--prev", "H3 H4 H5 H6 H7", "S2 C2 D2 S2 C2 D2"], "yes"),
        (["--level", "2", "--prev", "S8", "S9 D7"], "no"),
    ],
)
def test_beats_prints_yes_or_no_and_exits_0(args, answer):
    result = run("beats", *args)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == answer


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["classify", "--level", "2", "S3", "X9"], "Error: bad card 'X9'"),
        (["beats", "--level", "2", "--prev", "S8 Z8", "S9"], "Error: bad card 'Z8'"),
        (["beats", "--level", "2", "--prev", "S8", "S9 Q"], "Error: bad card 'Q'"),
        (["classify", "--level", "A+", "S3"], "Error: boards are played at levels 2..A"),
        (["classify", "--level", "1", "S3"], "Error: unknown level '1'"),
        (["classify", "--level", "2", "S3 S3 S3"], "Error: a hand holds at most two"),
        (["beats", "--level", "2", "--prev", "S8 C9", "S9"], "Error: the previous play 'S8 C9'"),
    ],
)
def test_bad_input_is_an_error_with_exit_1(args, message):
    result = run(*args)
    assert result.exit_code == 1
    assert result.stderr.startswith(message), result.stderr


@pytest.mark.parametrize("command", ["classify", "beats"])
def test_commands_have_help(command):
    result = run(command, "--help")
    assert result.exit_code == 0
    assert "--level" in result.stdout
