"""The demo: a whole small event end to end, deterministic by seed; the play-function seam."""

import shlex
from pathlib import Path
from urllib.parse import urlparse

import pandas as pd
from typer.testing import CliRunner

from guandan_dup.cli.app import app
from guandan_dup.event import rehearse
from guandan_dup.event.random_model import RandomModel

runner = CliRunner()


def test_demo_runs_a_whole_event_and_says_where_results_come_from(tmp_path):
    result = runner.invoke(app, ["demo", "--dir", str(tmp_path / "d"), "--quiet", "--verbose"])
    assert result.exit_code == 0, result.output
    assert "played card by card by heuristic bots" in result.output
    assert (tmp_path / "d" / "playlog-round-3.parquet").exists()
    # The printed check is a command that works: validate needs the round's board set.
    assert "--boards rounds/1/boards.parquet" in result.output
    assert "最终排名" in result.output
    assert (tmp_path / "d" / "exports" / "standings-round-3.html").exists()
    assert len(pd.read_parquet(tmp_path / "d" / "rounds" / "3" / "standings.parquet")) == 32


SMALL = ["--players", "8", "--rounds", "1", "--quiet"]


def closing_lines(folder: str, where: Path) -> list[str]:
    """The demo's last lines for the folder ``folder`` (as typed) at ``where``."""
    return [
        f"Exports: {folder}/exports",
        "Try next:",
        f"  guandan-dup event status {folder}",
        f"  guandan-dup event site {folder}",
        f"  then open {(where / 'site' / 'index.html').as_uri()} in a web browser (the "
        "results site as the players see it)",
    ]


def test_demo_keeps_its_folder_in_the_current_folder_and_says_what_to_try_next(
    tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["demo", *SMALL])
    assert result.exit_code == 0, result.output
    here = Path.cwd()
    assert result.output.splitlines()[-6:] == [
        f"Event folder: guandan-dup-demo, in {here}",
        *closing_lines("guandan-dup-demo", here / "guandan-dup-demo"),
    ]
    assert (tmp_path / "guandan-dup-demo" / "event.toml").exists()


def test_the_commands_the_demo_suggests_work_as_printed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lines = runner.invoke(app, ["demo", *SMALL]).output.splitlines()
    for line in lines[-3:-1]:
        program, *args = shlex.split(line)
        assert program == "guandan-dup"
        assert runner.invoke(app, args).exit_code == 0, line
    uri = lines[-1].split()[2]
    assert Path(urlparse(uri).path).is_file()


def test_a_second_demo_takes_the_next_free_folder_and_leaves_the_first(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    first = tmp_path / "guandan-dup-demo"
    first.mkdir()
    (first / "notes.txt").write_text("mine")
    result = runner.invoke(app, ["demo", *SMALL])
    assert result.exit_code == 0, result.output
    here = Path.cwd()
    assert result.output.splitlines()[-6:] == [
        f"Event folder: guandan-dup-demo-2, in {here} (guandan-dup-demo is there already: not "
        "touched)",
        *closing_lines("guandan-dup-demo-2", here / "guandan-dup-demo-2"),
    ]
    assert [p.name for p in first.iterdir()] == ["notes.txt"]
    third = runner.invoke(app, ["demo", *SMALL]).output.splitlines()[-6]
    assert third == (f"Event folder: guandan-dup-demo-3, in {here} (guandan-dup-demo and "
                     "guandan-dup-demo-2 are there already: not touched)")


def test_a_relative_dir_is_used_as_typed_and_said_where_it_is(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["demo", "--dir", "cup", *SMALL])
    assert result.exit_code == 0, result.output
    where = Path.cwd() / "cup"
    assert result.output.splitlines()[-6:] == [f"Event folder: cup ({where})",
                                               *closing_lines("cup", where)]


def test_demo_refuses_a_dir_that_is_not_empty(tmp_path):
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "event.toml").write_text("")
    result = runner.invoke(app, ["demo", "--dir", str(tmp_path / "old"), *SMALL])
    assert result.exit_code == 1
    assert " ".join(result.output.split()) == (
        f"Error: --dir '{tmp_path / 'old'}' is not empty (an earlier demo?); not touched: the "
        "demo needs a new or empty folder: give another --dir, or leave it out for a new "
        "guandan-dup-demo folder here")
    assert [p.name for p in (tmp_path / "old").iterdir()] == ["event.toml"]


def test_the_play_log_paragraph_is_said_only_with_verbose(tmp_path):
    quiet = runner.invoke(app, ["demo", "--dir", str(tmp_path / "a"), *SMALL]).output
    verbose = runner.invoke(app, ["demo", "--dir", str(tmp_path / "b"), *SMALL,
                                  "--verbose"]).output
    assert "playlog" not in quiet
    assert ("Every board was played card by card by heuristic bots; results and play logs are "
            "in results-round-R.parquet and playlog-round-R.parquet (check a log, in the event "
            "folder, with `guandan-dup playlog validate playlog-round-1.parquet --boards "
            "rounds/1/boards.parquet`).") in verbose.splitlines()


def test_same_seed_same_event_other_seed_other_event(tmp_path):
    runs = {
        name: rehearse(tmp_path / name, players=8, rounds=2, tables_per_group=1, seed=seed)
        for name, seed in (("a", 7), ("b", 7), ("c", 8))
    }
    columns = ["player", "position", "cumulative"]
    pd.testing.assert_frame_equal(runs["a"].standings[columns], runs["b"].standings[columns])
    assert not runs["a"].standings[columns].equals(runs["c"].standings[columns])


def test_a_play_function_replaces_the_random_model(tmp_path):
    calls = []

    def play(folder, round_no):
        calls.append(round_no)
        return RandomModel(3)(folder, round_no)

    result = rehearse(tmp_path / "e", players=8, rounds=2, tables_per_group=1, play=play)
    assert calls == [1, 2]
    assert sorted(result.standings["position"]) == list(range(1, 9))


def test_stronger_hidden_players_finish_higher_on_average(tmp_path):
    model = RandomModel(seed=11, spread=3.0)
    result = rehearse(tmp_path / "e", players=16, rounds=2, tables_per_group=2, play=model)
    strength = model.strengths(result.standings["player"])
    ranked = result.standings.sort_values("position")["player"]
    top, bottom = ranked[:8].map(strength).mean(), ranked[8:].map(strength).mean()
    assert top > bottom
