"""``--dry-run`` on ``event ingest`` and ``event score`` (issue 20, STYLE: destructive
commands have a dry run): everything is checked and reported, nothing is written."""

from __future__ import annotations

import pytest
from event_support import players_csv, set_results, snapshot, write
from typer.testing import CliRunner

from guandan_dup.cli import app
from guandan_dup.event import EventFolder, create_event, deal_round, ingest, seat_event_round
from guandan_dup.event.ledger import add_entry
from guandan_dup.event.score import score_round

KEY = bytes(range(32))


def cli(*args) -> tuple[int, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.output


@pytest.fixture
def seated(tmp_path) -> EventFolder:
    folder = create_event(tmp_path / "event", players_csv(tmp_path / "p.csv", 16), 2, 2, 2, 2,
                          key=KEY)
    deal_round(folder, 1)
    seat_event_round(folder, 1)
    return folder


def test_ingest_dry_run_reports_what_it_would_store_and_writes_nothing(seated, tmp_path):
    results = write(set_results(seated, 1), tmp_path / "r1.parquet")
    before = snapshot(seated.path)
    code, out = cli("event", "ingest", seated.path, results, "--round", 1, "--dry-run")
    assert code == 0, out
    assert "Round 1: would take 8 set results." in out
    assert "Every table of the round has results." in out
    assert "Dry run: nothing was written. It would write:\n  rounds/1/results.parquet" in out
    assert snapshot(seated.path) == before


def test_ingest_dry_run_of_a_bad_file_lists_its_problems_and_writes_nothing(seated, tmp_path):
    frame = set_results(seated, 1)
    frame.loc[0, "ns_level"] = "Z"
    before = snapshot(seated.path)
    code, out = cli("event", "ingest", seated.path, write(frame, tmp_path / "bad.parquet"),
                    "--round", 1, "--dry-run")
    assert code == 1 and "column 'ns_level'" in out and "Traceback" not in out
    assert snapshot(seated.path) == before


def test_score_dry_run_override_says_what_a_final_round_would_change(seated, tmp_path):
    """A correction of a final round (art. 48): the dry run shows the files --override would
    write, the ledger's override row among them, and changes nothing."""
    ingest(seated, write(set_results(seated, 1), tmp_path / "r1.parquet"), 1)
    score_round(seated, 1)
    add_entry(seated, "ends", 1, "the schedule", at="2026-01-01T10:00:00+00:00")
    fixed = set_results(seated, 1, seed=7)
    ingest(seated, write(fixed[fixed["table"] == 1], tmp_path / "fix.parquet"), 1,
           override=True)
    before = snapshot(seated.path)
    code, out = cli("event", "score", seated.path, "--round", 1, "--dry-run")
    assert code == 1 and "round 1 is final" in out
    code, out = cli("event", "score", seated.path, "--round", 1, "--dry-run", "--override")
    assert code == 0, out
    assert "Scored round 1" in out and "Dry run: nothing was written. It would write:" in out
    assert "  ledger.parquet" in out and "  rounds/1/standings.parquet" in out
    assert snapshot(seated.path) == before


def test_a_dry_run_folder_records_the_writes_a_python_user_can_read(seated, tmp_path):
    results = write(set_results(seated, 1), tmp_path / "r1.parquet")
    dry = seated.dry_run()
    report = ingest(dry, results, 1)
    assert report.taken == 8 and report.missing == []
    assert list(dry.planned.files) == [seated.file(1, "results")]
    assert not seated.file(1, "results").exists()
