"""An event.toml edited after rounds were dealt or seated is refused by every command that
reads the ledger, naming the key (SPEC 10: every published figure can be defended)."""

import pytest
from event_support import run, seated_event


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    """17 players, 4 tables, 2 sets of 3 boards, 2 rounds; round 1 dealt and seated."""
    tmp_path = tmp_path_factory.mktemp("plan_edit")
    directory = seated_event(tmp_path)
    return directory


def edited(directory, old, new):
    """event.toml with one line changed by hand; returns a restore."""
    path = directory / "event.toml"
    original = path.read_text(encoding="utf-8")
    assert f"\n{old}\n" in original
    path.write_text(original.replace(f"\n{old}\n", f"\n{new}\n"), encoding="utf-8")
    return lambda: path.write_text(original, encoding="utf-8")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("boards_per_set = 3", "boards_per_set = 4",
         "boards_per_set gives set 1 boards 1-4, but boards 1-3 were dealt"),
        ("sets_per_round = 2", "sets_per_round = 1",
         "sets_per_round gives round 1 set 1, but sets 1 and 2 were dealt"),
        ("players = 17", "players = 12",
         "players gives round 1 tables 1-3, but table 4 was seated"),
        ("tables_per_group = 4", "tables_per_group = 2",
         "tables_per_group puts table 3 in group 2, but round 1 seated it in group 1"),
    ],
)
@pytest.mark.parametrize("command", [
    ("status", "DIR"), ("ledger", "list", "DIR"),
    ("ledger", "add", "DIR", "not-played", "--round", 1, "--table", 2, "--set", 2, "--reason",
     "no time"),
])
def test_spec10_an_edited_plan_that_no_longer_matches_the_dealt_rounds_is_refused(
        event, old, new, message, command):
    restore = edited(event, old, new)
    try:
        out = run("event", *(event if a == "DIR" else a for a in command), code=1)
    finally:
        restore()
    assert out.startswith("Error: event.toml no longer matches the rounds already dealt or "
                          "seated"), out
    assert message in out, out


@pytest.mark.parametrize(("old", "new"), [("rounds = 2", "rounds = 1"),  # round 2 not dealt
                                          ("correction_minutes = 30", "correction_minutes = 45")])
def test_spec10_an_edit_that_changes_no_dealt_round_is_accepted(event, old, new):
    restore = edited(event, old, new)
    try:
        run("event", "status", event)
        run("event", "ledger", "list", event)
    finally:
        restore()


@pytest.mark.parametrize(("kind", "old", "new", "says"), [
    ("individual", 'kind = "individual"', 'kind = "pairs"',
     "kind is 'pairs' but players.parquet has no pair column"),
    ("pairs", 'kind = "pairs"', 'kind = "individual"',
     "kind is 'individual' but players.parquet has a pair column (it was made for a pairs "
     "event)"),
])
def test_spec10_an_edit_of_the_kind_of_event_is_refused(tmp_path, kind, old, new, says):
    """The players file and the rounds were made for the kind of event event.toml named
    then: read as another kind (a pairs event without pairs) no figure could be
    defended."""
    from event_support import players_csv

    directory = tmp_path / "event"
    run("event", "init", directory, "--kind", kind, "--players",
        players_csv(tmp_path / "p.csv", 16, kind), "--tables-per-group", 4,
        "--sets-per-round", 1, "--boards-per-set", 2, "--rounds", 2)
    toml = directory / "event.toml"
    text = toml.read_text(encoding="utf-8")
    assert old in text
    toml.write_text(text.replace(old, new), encoding="utf-8")
    out = run("event", "status", directory, code=1)
    assert says in out and "was it edited?" in out
