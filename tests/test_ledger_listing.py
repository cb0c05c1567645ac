"""The ledger as ``event ledger list`` shows it, the step that applies a new row, and the
command line recorded with a row: library functions the commands call."""

import pytest
from ledger_support import TIME, context, ledger_of

from guandan_dup.ledger import active, withdraw
from guandan_dup.ledger.command import command_line
from guandan_dup.ledger.describe import LIST_COLUMNS, follow_up, listing, row_status
from guandan_dup.ledger.kinds import withdrawn_by


@pytest.fixture
def ledger():
    """Three rows; row 1 then withdrawn by row 4."""
    rows = ledger_of(("not-played", 1, {"table": 2, "set": 2, "reason": "no time"}),
                     ("withdraw", 2, {"player": "p01"}),
                     ("not-played", 2, {"table": 1, "set": 3}))
    return withdraw(rows, context(), 1, "they played it", time=TIME)


def test_spec10_withdrawn_by_maps_each_withdrawn_row_to_its_retract_row(ledger):
    assert withdrawn_by(ledger) == {1: 4}
    assert active(ledger)["id"].tolist() == [2, 3]
    assert withdrawn_by(ledger.iloc[:3]) == {}


def test_spec10_status_in_force_withdrawn_or_blank_for_a_retract_row(ledger):
    assert row_status(ledger) == {1: "withdrawn by 4", 2: "in force", 3: "in force", 4: ""}


def test_listing_shows_every_row_or_one_rounds_with_its_status(ledger):
    rows = listing(ledger)
    assert [row[0] for row in rows] == ["1", "2", "3", "4"]
    assert all(len(row) == len(LIST_COLUMNS) for row in rows)
    assert rows[0] == ("1", "2026-11-30 12:00", "not-played",
                       "round 1, table 2, set 2: not played: left out, the others "
                       "Neuberg-adjusted", "no time", "withdrawn by 4")
    assert [row[0] for row in listing(ledger, 1)] == ["1", "4"]
    assert listing(ledger, 1)[0][-1] == "withdrawn by 4", "status counts every round's rows"


@pytest.mark.parametrize(("kind", "scored", "stale", "step"), [
    ("withdraw", [1], [], "The seating of round 2 and later follows it (`guandan-dup event "
                          "seat cup --round 2`)."),
    ("enter", [1], [], "The seating of round 2 and later follows it (`guandan-dup event seat "
                       "cup --round 2`)."),
    ("late", [1, 2], [2], "Score round 2 again to apply it (`guandan-dup event score cup "
                          "--round 2`)."),
    ("penalty", [1, 2, 3], [2, 3], "Score round 2 again to apply it (`guandan-dup event "
                                   "score cup --round 2 --force`, then score round 3 again)."),
    ("penalty", [1, 2, 3, 4], [2], "Score round 2 again to apply it (`guandan-dup event "
                                   "score cup --round 2 --force`, then score rounds 3 and 4 "
                                   "again)."),
    ("withdraw", [1, 2], [2], "Score round 2 again to apply it (`guandan-dup event score cup "
                              "--round 2`)."),
    ("penalty", [1], [], "It applies when round 2 is scored (`guandan-dup event score cup "
                         "--round 2`, once its results are in)."),
    ("late", [1], [1], "It applies when round 2 is scored (`guandan-dup event score cup "
                       "--round 2`, once its results are in)."),
    ("late", [1, 2], [], "It changes no figure of the rounds scored so far."),
    ("ends", [1, 2], [], None),
])
def test_spec10_follow_up_names_the_step_that_applies_a_row(kind, scored, stale, step):
    """A command the folder refuses (no --force under a later scored round) or a round
    not scored yet called "again" would mislead: the step follows the folder's state. A row
    about round 2 changes round 2 and later only: round 1 out of date for another reason
    is not its step (a late start before round 2 is scored applies when it is)."""
    assert follow_up(kind, "cup", 2, scored, stale) == step


def test_command_line_leaves_out_defaults_none_and_false_and_quotes():
    line = command_line(["event", "ledger", "withdraw"], [
        (None, "my cup", None), (None, 3, None), ("--reason", "they played it", None),
        ("--override", True, False), ("--wait", 30.0, 30.0), ("--round", None, None),
    ])
    assert line == "guandan-dup event ledger withdraw 'my cup' 3 --reason 'they played it' " \
                   "--override"
