"""The ledger's decisions applied the same way whatever the order of the commands (issue 21):
a decision makes what it changes out of date, a new row is checked against the results
already stored, finality comes from the folder's data, and a revealed set stays closed."""

import pytest
from event_support import players_csv, run, set_results, write

from guandan_dup.event import EventFolder


@pytest.fixture
def one_round(tmp_path):
    """17 players (one bye), 4 tables, one round of 2 sets of 3 boards; dealt and seated."""
    directory = tmp_path / "event"
    run("event", "init", directory, "--players", players_csv(tmp_path / "p.csv", 17),
        "--tables-per-group", 4, "--sets-per-round", 2, "--boards-per-set", 3, "--rounds", 1)
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1)
    return directory


def results_file(directory, tmp_path, drop=(), name="r1.parquet"):
    """Round 1's results of every table and set but those in ``drop``, as a file."""
    frame = set_results(EventFolder.open(directory), 1, seed=1)
    keep = ~frame[["table", "set"]].apply(tuple, axis=1).isin(drop)
    return write(frame[keep], tmp_path / name)


def test_spec10_withdrawing_not_played_after_the_reveal_is_refused(one_round, tmp_path):
    run("event", "ledger", "add", one_round, "not-played", "--round", 1, "--table", 2,
        "--set", 2, "--reason", "no time")
    run("event", "ingest", one_round, results_file(one_round, tmp_path, drop=[(2, 2)]),
        "--round", 1)
    run("event", "score", one_round, "--round", 1)
    run("event", "reveal", one_round)
    out = run("event", "ledger", "withdraw", one_round, 1, "--reason", "they played it",
              code=1)
    assert "the key is revealed" in out and "round 1 table 2 set 2" in out
    assert "Traceback" not in out
    assert read_kinds(one_round) == ["not-played"], "nothing was written"


def read_kinds(directory):
    from guandan_dup.event.ledger import read_ledger

    return read_ledger(EventFolder.open(directory))["kind"].tolist()
