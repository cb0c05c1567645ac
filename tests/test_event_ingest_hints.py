"""What ``event ingest`` and ``event sheet`` print to paste uses the real folder, file and
round, never DIR, RESULTS or ROUND, and lists read as words (issue 25, item 2)."""

import pytest
from event_support import by_name, run, saved, seated_event, set_results

from guandan_dup.event import EventFolder
from guandan_dup.seats import SEAT_COLUMNS

SEATS = list(SEAT_COLUMNS)


@pytest.fixture
def event(tmp_path):
    """17 players at 4 tables, 2 sets; round 1 dealt and seated (made by the CLI)."""
    return seated_event(tmp_path)


def test_a_sheet_handed_in_while_tables_play_says_the_command_to_ingest_it_again(
        event, tmp_path):
    results = set_results(EventFolder.open(event), 1)
    blank = results["table"] == 3
    results.loc[blank, ["ns_level", "ew_level"]] = ""
    path = saved(by_name(results, EventFolder.open(event), SEATS), tmp_path / "r1.xlsx")
    said = run("event", "ingest", event, path, "--round", 1).splitlines()
    assert said[0] == "Round 1: took 6 set results."
    assert said[-2:] == [
        "Still missing: table 3 set 1, table 3 set 2",
        f"Next: once table 3 has played, fill in its results and run `guandan-dup event "
        f"ingest {event} {path} --round 1` again",
    ]
    assert not any("DIR" in line or "RESULTS" in line for line in said)


def test_a_correction_to_a_scored_round_names_the_folder_to_score_again(event, tmp_path):
    results = set_results(EventFolder.open(event), 1)
    run("event", "ingest", event, saved(results, tmp_path / "r1.csv"), "--round", 1)
    run("event", "score", event, "--round", 1)
    level = "4" if results.loc[0, "ns_level"] == "5" else "5"  # a change, reachable
    fix = saved(results.assign(ns_level=level, ew_level="2").head(1), tmp_path / "fix.csv")
    said = run("event", "ingest", event, fix, "--round", 1)
    assert (f"Warning: round 1 was scored before these results: its standings are out of "
            f"date until you score again (`guandan-dup event score {event} --round 1`)"
            ) in said.splitlines()


def test_a_round_not_seated_names_the_folder_to_seat_it(event, tmp_path):
    path = saved(set_results(EventFolder.open(event), 1), tmp_path / "r.csv")
    said = run("event", "ingest", event, path, "--round", 2, code=1)
    assert said.splitlines() == [
        f"Error: round 2 is not seated yet: run `guandan-dup event seat {event} --round 2` "
        "before ingesting its results"]


def test_a_damaged_record_of_the_first_scoring_names_the_command_to_give_the_end(event,
                                                                                 tmp_path):
    results = set_results(EventFolder.open(event), 1)
    run("event", "ingest", event, saved(results, tmp_path / "r1.csv"), "--round", 1)
    run("event", "score", event, "--round", 1)
    record = event / "rounds" / "1" / "scored.json"
    record.write_text("{}", encoding="utf-8")
    said = run("event", "ingest", event, saved(results.head(1), tmp_path / "again.csv"),
               "--round", 1, code=1)
    assert said.splitlines() == [
        f"Error: cannot read {str(record)!r} (it has no 'first_scored'): it records when the "
        "round was first scored (art. 48). Restore it from a copy of the folder, or give the "
        f"round's end with `guandan-dup event ledger add {event} ends --round 1 --at TIME` "
        "(TIME: when the round ended, such as 2026-05-01T15:30+08:00)"]
