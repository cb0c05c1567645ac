"""event status: what is done and what is missing, round by round."""

import pytest
from event_support import KEY, players_csv, set_results, write

from guandan_dup.errors import GuandanError
from guandan_dup.event import (
    create_event,
    deal_round,
    event_status,
    ingest,
    score_round,
    seat_event_round,
)


def test_status_follows_the_round_loop(tmp_path):
    csv = players_csv(tmp_path / "players.csv", 8)
    folder = create_event(tmp_path / "e", csv, 1, 2, 2, 2, key=KEY)
    first = event_status(folder).rounds[0]
    assert (first.dealt, first.sets_not_dealt, first.seated, first.scored) == (
        False, [1, 2], False, False)
    assert first.missing == [], "an unseated round waits for its seating, not for results"
    assert event_status(folder).next_step() == f"guandan-dup event deal {folder.path} --round 1"
    deal_round(folder, 1)
    seat_event_round(folder, 1)
    results = set_results(folder, 1)
    ingest(folder, write(results[results["table"] == 2], tmp_path / "t2.parquet"), 1)
    state = event_status(folder)
    assert state.rounds[0].dealt and state.rounds[0].seated
    assert state.rounds[0].missing == [(1, 1), (1, 2)]
    assert state.rounds[0].missing_words() == "set 1: table 1; set 2: table 1"
    assert state.next_step() == (
        f"guandan-dup event ingest {folder.path} e-round-1.xlsx --round 1 (2 set results "
        "still missing)")
    assert state.rounds[1].sets_not_dealt == [3, 4]


def scored_then_corrected(tmp_path):
    """Round 1 of a one-table event scored, then table 1's result corrected; the folder."""
    csv = players_csv(tmp_path / "players.csv", 8)
    folder = create_event(tmp_path / "e", csv, 1, 1, 2, 2, key=KEY)
    deal_round(folder, 1)
    seat_event_round(folder, 1)
    results = set_results(folder, 1)
    ingest(folder, write(results, tmp_path / "r1.parquet"), 1)
    score_round(folder, 1)
    assert not event_status(folder).rounds[0].out_of_date
    fix = results[results["table"] == 1].assign(ns_level="5", ew_level="2")
    ingest(folder, write(fix, tmp_path / "fix.parquet"), 1)
    return folder


def test_a_correction_after_scoring_shows_the_round_out_of_date_until_rescored(tmp_path):
    folder = scored_then_corrected(tmp_path)
    state = event_status(folder)
    assert state.rounds[0].scored and state.rounds[0].out_of_date
    assert state.next_step() == (
        f"guandan-dup event score {folder.path} --round 1 (results changed since it was "
        "scored)")
    score_round(folder, 1)
    assert not event_status(folder).rounds[0].out_of_date


def test_issue9_item9_status_advises_force_only_when_a_later_round_is_scored(tmp_path):
    csv = players_csv(tmp_path / "players.csv", 8)
    folder = create_event(tmp_path / "e", csv, 1, 1, 2, 2, key=KEY)
    for r in (1, 2):
        deal_round(folder, r)
        seat_event_round(folder, r)
        ingest(folder, write(set_results(folder, r, seed=r), tmp_path / f"r{r}.parquet"), r)
        score_round(folder, r)
    assert event_status(folder).next_step() == (
        f"guandan-dup event export {folder.path}, then guandan-dup event reveal {folder.path}")
    fix = set_results(folder, 1)
    ingest(folder, write(fix[fix["table"] == 1].assign(ns_level="5", ew_level="2"),
                         tmp_path / "fix.parquet"), 1)
    state = event_status(folder)
    assert [r.out_of_date for r in state.rounds] == [True, True]
    assert state.next_step() == (
        f"guandan-dup event score {folder.path} --round 1 --force (results changed since it "
        "was scored, then score round 2 again)")
    score_round(folder, 1, force=True)
    assert event_status(folder).next_step() == (
        f"guandan-dup event score {folder.path} --round 2 (results changed since it was "
        "scored)")


def test_out_of_date_standings_cannot_seat_the_next_round(tmp_path):
    folder = scored_then_corrected(tmp_path)
    with pytest.raises(GuandanError, match="round 1 had results ingested after it was scored"):
        seat_event_round(folder, 2)
    score_round(folder, 1)
    assert len(seat_event_round(folder, 2).seating) == 2
