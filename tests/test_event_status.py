"""event status: what is done and what is missing, round by round."""

import pytest
from event_support import KEY, players_csv, run, set_results, write

from guandan_dup.errors import GuandanError
from guandan_dup.event import (
    EventFolder,
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


def rows(status: str) -> dict[str, list[str]]:
    """The cells of ``event status``'s table, by round."""
    cells = [[c.strip() for c in line.split("│")[1:-1]] for line in status.splitlines()
             if line.startswith("│")]
    return {row[0]: row for row in cells if row[0]}


def test_issue25_status_waits_for_seating_not_results_and_pastes_the_folder(tmp_path,
                                                                           monkeypatch):
    """An unseated round lists no missing results; a seated one lists them set by set,
    tables in runs; the Next line is the command to paste, with the folder as typed."""
    monkeypatch.chdir(tmp_path)
    run("event", "init", "cup", "--players", players_csv(tmp_path / "players.csv", 17),
        "--tables-per-group", 4, "--sets-per-round", 2, "--boards-per-set", 2, "--rounds", 2)
    run("event", "deal", "cup", "--round", 1, "--quiet")
    run("event", "seat", "cup", "--round", 1)
    status = run("event", "status", "cup")
    assert rows(status) == {
        "1": ["1", "1 and 2", "yes", "yes", "0/8", "set 1: tables 1-4; set 2: tables 1-4",
              "no"],
        "2": ["2", "3 and 4", "no", "no", "-", "", "no"]}
    assert status.splitlines()[-1] == (
        "Next: guandan-dup event sheet cup --round 1 --out cup-round-1.xlsx, fill in its "
        "levels, then guandan-dup event ingest cup cup-round-1.xlsx --round 1")
    results = set_results(EventFolder.open("cup"), 1)
    keep = ~((results["table"] == 3) & (results["set"] == 2))
    run("event", "ingest", "cup", write(results[keep], tmp_path / "part.parquet"), "--round", 1)
    status = run("event", "status", "cup")
    assert rows(status)["1"][4:6] == ["7/8", "set 2: table 3"]
    assert status.splitlines()[-1] == (
        "Next: guandan-dup event ingest cup cup-round-1.xlsx --round 1 (1 set result still "
        "missing)")
