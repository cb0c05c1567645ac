"""The demo: a whole small event end to end, deterministic by seed; the play-function seam."""

import pandas as pd
from typer.testing import CliRunner

from guandan_dup.cli.app import app
from guandan_dup.event import rehearse
from guandan_dup.event.random_model import RandomModel

runner = CliRunner()


def test_demo_runs_a_whole_event_and_says_where_results_come_from(tmp_path):
    result = runner.invoke(app, ["demo", "--dir", str(tmp_path / "d"), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "played card by card by heuristic bots" in result.output
    assert (tmp_path / "d" / "playlog-round-3.parquet").exists()
    # The printed check is a command that works: validate needs the round's board set.
    assert "--boards rounds/1/boards.parquet" in " ".join(result.output.split())
    assert "最终排名" in result.output
    assert (tmp_path / "d" / "exports" / "standings-round-3.html").exists()
    assert len(pd.read_parquet(tmp_path / "d" / "rounds" / "3" / "standings.parquet")) == 32


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
