"""``guandan-dup simulate`` and ``guandan-dup playlog validate``: a whole event played by bots."""

from __future__ import annotations

import pandas as pd
import pytest
from typer.testing import CliRunner

from guandan_dup.cli.app import app
from guandan_dup.event.folder import EventFolder
from guandan_dup.seats import SEAT_COLUMNS
from guandan_dup.sim.event import error_rates, play_round
from guandan_dup.sim.playlog import COLUMNS

RUNNER = CliRunner()
ARGS = ["--players", "9", "--rounds", "2", "--sets-per-round", "1", "--boards-per-set", "3"]


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    out = tmp_path_factory.mktemp("sim") / "event"
    result = RUNNER.invoke(app, ["simulate", *ARGS, "--out", str(out), "--seed", "5", "--quiet"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[:2] == [
        f"Simulated 2 rounds of 9 players in {out}",
        f"Results and play logs of rounds 1 to 2: {out}/results-round-1.parquet to "
        "results-round-2.parquet, playlog-round-1.parquet to playlog-round-2.parquet"]
    return out


def test_simulate_writes_board_level_results_and_play_logs_per_round(event):
    for r in (1, 2):
        results = pd.read_parquet(event / f"results-round-{r}.parquet")
        assert list(results.columns) == ["round", "group", "table", "set", "board",
                                         *SEAT_COLUMNS, "finish"]
        assert (results["round"] == r).all() and len(results) >= 2  # 2 tables, 1+ boards
        log = pd.read_parquet(event / f"playlog-round-{r}.parquet")
        assert list(log.columns) == list(COLUMNS)
        ingested = EventFolder.open(event).read(r, "results")
        assert sorted(ingested["table"].tolist()) == [1, 2]
    assert (event / "rounds" / "2" / "standings.parquet").exists()


def test_play_round_is_reproducible_from_its_seed(event):
    folder = EventFolder.open(event)
    again = play_round(folder, 1, seed=5)
    recorded = pd.read_parquet(event / "results-round-1.parquet")
    pd.testing.assert_frame_equal(again, recorded)


def test_players_differ_in_error_rate_fixed_by_the_seed():
    rates = error_rates(["P001", "P002", "P003"], seed=5)
    assert rates == error_rates(["P003", "P002", "P001"], seed=5)
    assert len(set(rates.values())) == 3 and all(0 <= v <= 0.3 for v in rates.values())


def test_playlog_validate_accepts_a_simulated_log(event):
    round_dir = event / "rounds" / "1"
    result = RUNNER.invoke(app, ["playlog", "validate", str(event / "playlog-round-1.parquet"),
                                 "--boards", str(round_dir / "boards.parquet")])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("log is legal: ")


def test_playlog_validate_reports_the_first_illegal_step(event, tmp_path):
    round_dir = event / "rounds" / "1"
    log = pd.read_parquet(event / "playlog-round-1.parquet")
    log.loc[0, "seat"] = "W" if log.loc[0, "seat"] != "W" else "N"
    log.to_parquet(tmp_path / "bad.parquet")
    result = RUNNER.invoke(app, ["playlog", "validate", str(tmp_path / "bad.parquet"),
                                 "--boards", str(round_dir / "boards.parquet")])
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: row 1: board 1, trick 1: ")
    assert "acts out of turn" in result.stderr


def test_simulate_refuses_a_folder_that_holds_an_event(event):
    result = RUNNER.invoke(app, ["simulate", *ARGS, "--out", str(event), "--quiet"])
    assert result.exit_code == 1
    assert "already holds an event (event.toml); not touched" in result.stderr


@pytest.mark.parametrize(
    ("leftovers", "message"),
    [
        (["rounds/3/results-round-3.parquet"], "already holds files: rounds; not touched"),
        (["a.txt", "b.txt", "c.txt", "d.txt"], "already holds files: a.txt, b.txt, c.txt, ..."),
        (None, "is a file: simulate needs a new or empty folder"),
    ],
)
def test_simulate_never_mixes_a_new_event_with_earlier_files(tmp_path, leftovers, message):
    """A rerun over an earlier run's leftovers (or a file: None) is refused, writing nothing."""
    out = tmp_path / "out"
    if leftovers is None:
        out.write_text("old")
    for name in leftovers or ():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text("old")
    before = sorted(tmp_path.rglob("*"))
    result = RUNNER.invoke(app, ["simulate", *ARGS, "--out", str(out), "--quiet"])
    assert result.exit_code == 1
    assert message in result.stderr, result.stderr
    assert sorted(tmp_path.rglob("*")) == before
