"""A hand-edited ledger.parquet with the right schema is checked when read: status, score
and export refuse it alike, naming the file, the row and the column (SPEC 10)."""

import pytest
from event_support import run, seated_event, set_results, write

from guandan_dup.event import EventFolder
from guandan_dup.event.ledger import read_ledger
from guandan_dup.ledger import LEDGER_FILE, dump


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    """17 players, 2 rounds; round 1 scored; a penalty on P005 (row 1), a late row (row 2)."""
    tmp_path = tmp_path_factory.mktemp("ledger_file")
    directory = seated_event(tmp_path)
    results = set_results(EventFolder.open(directory), 1, seed=1)
    run("event", "ingest", directory, write(results, tmp_path / "r1.parquet"), "--round", 1)
    run("event", "score", directory, "--round", 1)
    run("event", "ledger", "add", directory, "penalty", "--round", 1, "--player", "P005",
        "--points", "2", "--reason", "slow play")
    run("event", "ledger", "add", directory, "late", "--round", 2, "--table", 1, "--set", 3,
        "--side", "NS", "--minutes", 3, "--reason", "traffic")
    return directory


def edited(directory, row, column, value):
    """The event's ledger with one cell changed by hand (the schema kept); returns a restore."""
    path = directory / LEDGER_FILE
    original = path.read_bytes()
    ledger = read_ledger(EventFolder.open(directory))
    ledger.loc[row - 1, column] = value
    path.write_bytes(dump(ledger))
    return lambda: path.write_bytes(original)


@pytest.mark.parametrize(
    ("row", "column", "value", "message"),
    [
        (1, "kind", "bonus", "row 1, column 'kind': value 'bonus': expected one of late,"),
        (1, "player", "P99", "row 1, column 'player': value 'P99': is not a registered player"),
        (1, "round", 77, "row 1, column 'round': value 77: the plan has rounds 1-2"),
        (1, "reason", None, "row 1, column 'reason': every decision needs a reason"),
        (2, "id", 1, "row 2, column 'id': value 1: row 1 has the same id"),
        (2, "minutes", float("nan"), "row 2, column 'minutes': a late row needs its minutes"),
        (2, "minutes", float("inf"), "row 2, column 'minutes': value inf: expected minutes"),
        (1, "points", "1e400", "row 1, column 'points': value '1e400': expected at most 100"),
        (1, "points", None, "row 1, column 'points': a penalty row needs its points"),
        (2, "table", None, "row 2, column 'table': a late row needs its table"),
        (1, "time", None, "row 1, column 'time': every row records when it was added"),
        (1, "kind", "ends", "row 1, column 'at': an ends row needs its at"),
    ],
)
@pytest.mark.parametrize("command", [("status",), ("score", "--round", "1"), ("export",)])
def test_spec10_a_hand_edited_ledger_is_refused_by_every_command(event, row, column, value,
                                                                 message, command):
    restore = edited(event, row, column, value)
    try:
        out = run("event", command[0], event, *command[1:], code=1)
    finally:
        restore()
    assert out.startswith("Error: ") and "in the ledger file" in out, out
    assert f"ledger.parquet, {message}" in out, out


def test_spec10_a_sound_ledger_file_is_read(event):
    assert read_ledger(EventFolder.open(event))["id"].tolist() == [1, 2]


@pytest.mark.parametrize(("withdraws", "message"), [
    (3, "a withdrawal takes back an earlier row, never itself or a later one"),
    (2, None),
])
def test_spec10_a_hand_written_retract_row_takes_back_an_earlier_row_once(
        event, withdraws, message):
    """``add`` never writes a retract of itself, of a later row, of a retract or of a row
    already withdrawn: a hand-edited ledger holding one is refused naming the row."""
    import pandas as pd

    path = event / LEDGER_FILE
    original = path.read_bytes()
    ledger = read_ledger(EventFolder.open(event))
    extra = ledger.iloc[[1]].assign(id=3, kind="retract", withdraws=withdraws)
    rows = [ledger, extra]
    if message is None:  # withdrawn twice
        rows.append(ledger.iloc[[1]].assign(id=4, kind="retract", withdraws=withdraws))
        message = "row 2 is already withdrawn (row 3 of the file)"
    path.write_bytes(dump(pd.concat(rows, ignore_index=True)))
    try:
        out = run("event", "status", event, code=1)
    finally:
        path.write_bytes(original)
    assert "column 'withdraws'" in out and message in " ".join(out.split()), out
