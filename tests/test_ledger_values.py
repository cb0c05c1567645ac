"""Every value a director types into the ledger, a conversion table or the awards is bounded:
a clear message, never an overflow later (SPEC 8, SPEC 10)."""

import re

import pytest
from event_support import players_csv, run
from ledger_support import PLAYERS, context, ledger_of

from guandan_dup.errors import GuandanError
from guandan_dup.ledger import LedgerError
from guandan_dup.teams.awards import parse_awards
from guandan_dup.teams.conversion import InvalidConversionError
from guandan_dup.teams.conversion import load as load_conversion

TEAMS = {p: 1 + i // 4 for i, p in enumerate(PLAYERS[:16])} | {"p17": 4, "p18": 4}
PLAYERS_18 = (*PLAYERS, "p18")


def team_context(**more):
    return context("teams", players=PLAYERS_18, team_of=TEAMS, **more)


@pytest.mark.parametrize(
    ("kind", "fields", "message"),
    [
        ("penalty", dict(player="p05", points="1e400"), "value '1e400': expected at most 100"),
        ("penalty", dict(player="p05", points="100000"), "expected at most 100"),
        ("penalty", dict(player="p05", points="nan"), "expected a number above 0"),
        ("penalty", dict(player="p05", points="1_0"), "in ASCII digits"),  # read as 10
        ("penalty", dict(player="p05", points="\uff15"), "in ASCII digits"),  # a full-width 5
        ("late", dict(table=1, set=1, side="NS", minutes=1e9), "expected at most 1440 minutes"),
        ("late", dict(table=1, set=1, side="NS", minutes=float("inf")), "above 0"),
        ("late", dict(table=1, set=1, side="NS", minutes=float("nan")), "above 0"),
        ("overtime", dict(player="p05", minutes=float("inf")), "above 0"),
        ("enter", dict(player=""), "value '': expected a player id (it is empty)"),
        ("enter", dict(player="   "), "expected a player id (it is empty)"),
        ("assigned", dict(table=1, set=1, result="A+/A+"), "no set starting at 2/2 ends with "
         "NS at A+ and EW at A+"),
        ("assigned", dict(table=1, set=1, result="2/2"), "ends with NS at 2 and EW at 2"),
        ("ends", dict(at="9999-12-31T23:59"), "is more than 366 days after this decision"),
    ],
)
def test_spec10_every_ledger_value_is_bounded(kind, fields, message):
    with pytest.raises(LedgerError, match=message.replace("+", r"\+").replace("(", r"\(")
                       .replace(")", r"\)")):
        ledger_of((kind, 1, fields), ctx=context())


@pytest.mark.parametrize(
    ("kind", "fields", "message"),
    [
        ("penalty", dict(team=1, match_points="1e9"), "value '1e9': expected at most 4"),
        ("penalty", dict(team=1, level_points="1e9"), "expected at most 1000"),
        ("enter", dict(player="p19", team=4), "has 6 players already: a team has 4 to 6"),
        ("absent", dict(team=3), "'--team': value 3: has the bye in round 1"),
        ("excused", dict(team=3), "has the bye in round 1"),
    ],
)
def test_spec8_team_ledger_values_are_bounded(kind, fields, message):
    with pytest.raises(LedgerError, match=message):
        ledger_of((kind, 1, fields), ctx=team_context(byes={1: frozenset({3})}))


@pytest.mark.parametrize(
    ("kind", "fields"),
    [
        ("penalty", dict(player="p05", points="100")),
        ("late", dict(table=1, set=1, side="NS", minutes=1440.0)),
        ("assigned", dict(table=1, set=1, result="6/5")),
        ("assigned", dict(table=1, set=1, result="2/5")),
    ],
)
def test_spec10_values_within_bounds_are_accepted(kind, fields):
    assert len(ledger_of((kind, 1, fields), ctx=context())) == 1


@pytest.mark.parametrize(
    ("kind", "fields"),
    [("penalty", dict(team=1, match_points="4")), ("absent", dict(team=2)),
     ("enter", dict(player="p19", team=3))],
)
def test_spec8_team_values_within_bounds_are_accepted(kind, fields):
    assert len(ledger_of((kind, 1, fields), ctx=team_context(byes={1: frozenset({3})}))) == 1


def conversion_csv(path, winner_at_26="26"):
    rows = [f"{m},{13 + min(m, 13)},{13 - min(m, 13)}" for m in range(26)]
    path.write_text("margin,winner,loser\n" + "\n".join(rows) + f"\n26,{winner_at_26},0\n")
    return path


@pytest.mark.parametrize(("winner", "ok"), [("26", True), ("1000", True), ("1000.01", False),
                                            ("1e308", False)])
def test_spec8_a_conversion_table_value_is_at_most_1000(tmp_path, winner, ok):
    path = conversion_csv(tmp_path / "own.csv", winner)
    if ok:
        assert load_conversion(path).name == "own"
    else:
        with pytest.raises(InvalidConversionError, match=f"own.csv, row 28, column 'winner': "
                           f"value '{winner}': expected at most 1000"):
            load_conversion(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("forfeit=-1+0", "expected 场分 from 0 to 2"),
        ("forfeit=0+-5", "级差分 from 0 to 1000"),
        ("present=2+1e308", "级差分 from 0 to 1000"),
        ("present=3+17", "场分 from 0 to 2"),
        ("forfeit=0+1, forfeit=0+2", "forfeit is given twice"),
    ],
)
def test_spec8_awards_are_not_negative_huge_or_given_twice(text, message):
    with pytest.raises(GuandanError, match=message):
        parse_awards(text)


def test_spec10_the_cli_refuses_a_huge_penalty_before_scoring(tmp_path):
    directory = tmp_path / "event"
    run("event", "init", directory, "--players", players_csv(tmp_path / "p.csv", 17),
        "--tables-per-group", 4, "--sets-per-round", 2, "--boards-per-set", 3, "--rounds", 2)
    out = run("event", "ledger", "add", directory, "penalty", "--player", "P005", "--points",
              "1e400", "--round", 1, "--reason", "x", code=1)
    assert out.startswith("Error: ") and "value '1e400': expected at most 100" in out


def test_spec8_the_folder_knows_which_team_has_the_bye(tmp_path):
    from event_support import swiss_cup

    directory, folder = swiss_cup(tmp_path, [4, 4, 4], 3, dealt=(1,))
    matches = folder.read(1, "matches")
    bye = int(matches.loc[matches["away"].isna(), "home"].iloc[0])
    out = run("event", "ledger", "add", directory, "absent", "--round", 1, "--team", bye,
              "--reason", "did not come", code=1)
    assert f"value {bye}: has the bye in round 1: it has no match to be absent from" in out


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (dict(player="\u200b"), "a new player's id has nothing visible"),
        (dict(player="P\x0099"), "a new player's id has a control character ('\\x00')"),
        (dict(player="P99", name="王\n伟"), "a player's name has a control character ('\\n')"),
    ],
)
def test_spec10_an_entered_id_or_name_is_one_line_of_visible_text(fields, message):
    """An invisible id (U+200B) or one with a NUL could never be typed back into a results
    file; a line break in a name breaks every table it is printed in."""
    with pytest.raises(LedgerError, match=re.escape(message)):
        ledger_of(("enter", 1, fields), ctx=context())
