"""``event init --correction-minutes`` (art. 48): the correction time is kept in the plan
and decides when a round becomes final."""

import pandas as pd
import pytest
from event_support import players_csv, run

from guandan_dup.event import EventFolder
from guandan_dup.event.finality import final
from guandan_dup.event.ledger import read_ledger

END = "2026-01-01T10:00:00+00:00"


def init(tmp_path, *extra, code=0):
    directory = tmp_path / "event"
    out = run("event", "init", directory, "--players", players_csv(tmp_path / "p.csv", 16),
              "--tables-per-group", 4, "--sets-per-round", 1, "--boards-per-set", 3,
              "--rounds", 2, *extra, code=code)
    return directory, out


@pytest.mark.parametrize("given, minutes, final_at_ten", [
    ((), 30, False), (("--correction-minutes", 5), 5, True),
    (("--correction-minutes", 0), 0, True), (("--correction-minutes", 45), 45, False),
])
def test_art48_correction_minutes_set_at_init(tmp_path, given, minutes, final_at_ten):
    directory, _ = init(tmp_path, *given)
    folder = EventFolder.open(directory)
    assert folder.plan.correction_minutes == minutes
    assert f"correction_minutes = {minutes}" in (directory / "event.toml").read_text()
    run("event", "ledger", "add", directory, "ends", "--round", 1, "--at", END,
        "--reason", "the schedule")
    ten_later = pd.Timestamp(END) + pd.Timedelta(minutes=10)
    assert (1 in final(folder, read_ledger(folder), ten_later)) is final_at_ten


def test_art48_a_negative_correction_time_is_refused_and_nothing_written(tmp_path):
    directory, out = init(tmp_path, "--correction-minutes", -1, code=1)
    assert "correction_minutes = -1" in out and "Traceback" not in out
    assert not (directory / "event.toml").exists()
