"""The walkthrough in examples/README.md works on the shipped files."""

import shutil
from pathlib import Path

from typer.testing import CliRunner

from guandan_dup.cli.app import app
from guandan_dup.event import EventFolder

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "small-event"


def test_example_walkthrough_round_one_and_reseat(tmp_path, monkeypatch):
    for path in EXAMPLE.iterdir():
        shutil.copy(path, tmp_path)
    monkeypatch.chdir(tmp_path)
    steps = [
        "event init cup --players players.csv --tables-per-group 2 --sets-per-round 2 "
        "--boards-per-set 3 --rounds 2",
        "event deal cup --round 1 --quiet",
        "event seat cup --round 1",
        "event ingest cup round-1-results.parquet --round 1",
        "event ingest cup round-1-correction.csv --round 1",
        "event score cup --round 1",
        "event export cup --round 1",
        "event seat cup --round 2",
    ]
    for step in steps:
        result = CliRunner().invoke(app, step.split())
        assert result.exit_code == 0, (step, result.output)
    folder = EventFolder.open("cup")
    results = folder.read(1, "results")
    assert results.loc[(results["table"] == 2) & (results["set"] == 1), "ns_level"].item() == 4
    assert len(list(Path("cup/history").iterdir())) == 1
    assert folder.read(2, "seating")["table"].tolist() == [1, 2, 3, 4]
