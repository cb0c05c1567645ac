"""The event plan: default sets and boards, groups, expected tables, refusals."""

import tomllib
from pathlib import Path

import pytest

from guandan_dup.errors import InvalidPlanError
from guandan_dup.event import EventPlan
from guandan_dup.event.folder import toml_text
from guandan_dup.event.formats import REGISTRY
from guandan_dup.event.formats.team_matches import TeamOptions

TOMLS = Path(__file__).parent / "data" / "event-toml"

BASE = dict(name="E", kind="individual", players=40, tables_per_group=4, sets_per_round=3,
            boards_per_set=6, rounds=3)


def test_round_r_plays_sets_r_minus_1_times_m_plus_1_to_r_times_m():
    plan = EventPlan(**BASE)
    assert [plan.sets_of_round(r) for r in (1, 2, 3)] == [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert plan.boards_of_set(2) == range(7, 13)


def test_last_group_has_the_remaining_tables():
    plan = EventPlan(**BASE)  # 10 tables in groups of 4
    assert [list(plan.tables_of_group(g)) for g in (1, 2, 3)] == [[1, 2, 3, 4], [5, 6, 7, 8],
                                                                  [9, 10]]
    assert plan.expected_tables(2) == {4: 10, 5: 10, 6: 10}


def test_players_beyond_a_table_do_not_make_one():
    assert EventPlan(**BASE | {"players": 43}).tables() == 10


def test_schedule_gives_one_group_other_sets_and_expected_tables_follow():
    plan = EventPlan(**BASE | {"schedule": ((2, 3, (10, 11)),)})
    assert plan.sets_of_group(2, 3) == [10, 11]
    assert plan.sets_of_round(2) == [4, 5, 6, 10, 11]
    assert plan.expected_tables(2) == {4: 8, 5: 8, 6: 8, 10: 2, 11: 2}


def test_tables_expected_per_group_are_the_group_tables_for_its_sets():
    plan = EventPlan(**BASE | {"schedule": ((2, 3, (10, 11)),)})  # groups of 4, 4, 2 tables
    assert plan.expected_tables_by_group(2) == {
        (4, 1): 4, (5, 1): 4, (6, 1): 4, (4, 2): 4, (5, 2): 4, (6, 2): 4, (10, 3): 2, (11, 3): 2,
    }


def test_plan_round_trips_through_its_toml_keys():
    plan = EventPlan(**BASE | {"schedule": ((2, 3, (10, 11)),), "rotate_partners": False})
    assert EventPlan.from_dict(plan.to_dict()) == plan


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rounds": 0}, "rounds = 0: expected a whole number >= 1"),
        ({"kind": "golf"}, "kind = 'golf'"),
        ({"kind": "teams"}, "format = '': expected one of swiss, round-robin"),
        ({"format": "swiss"}, "format = 'swiss': only team events have it"),
        ({"format": "golf"}, "format = 'golf': an individual event has none"),
        ({"kind": "pairs", "format": "golf"},
         "format = 'golf': expected one of knockout, or none (reseated by standing)"),
        ({"players": 3}, "do not fill one table"),
        ({"kind": "pairs", "rotate_partners": True}, "only in individual events"),
        ({"schedule": ((1, 1, (4,)),)}, "set 4 is planned in rounds 1 and 2"),
        ({"schedule": ((1, 9, (4,)),)}, "group 9: no such group"),
        # issue 9 item 12: sizes no real event reaches, the limit said
        ({"rounds": 100_000}, "rounds = 100000: at most 100 (no real event has more)"),
        ({"boards_per_set": 100_000}, "boards_per_set = 100000: at most 64"),
        ({"players": 1_000_001}, "players = 1000001: at most 1,000,000"),
        ({"sets_per_round": 51}, "sets_per_round = 51: at most 50"),
        ({"rounds": 100, "sets_per_round": 50, "boards_per_set": 64},
         "the plan reaches board 320,000 (set 5000 of 64 boards): at most 20,000 boards"),
        ({"schedule": ((1, 1, (9999,)),)}, "reaches board 59,994 (set 9999 of 6 boards)"),
        ({"players": 100_000, "tables_per_group": 1},
         "25,000 tables in groups of 1 make 25,000 groups: at most 1,000"),
    ],
)
def test_inconsistent_plans_are_refused(change, message):
    with pytest.raises(InvalidPlanError) as error:
        EventPlan(**BASE | change)
    assert message in str(error.value)


def test_unknown_and_missing_keys_are_refused():
    data = EventPlan(**BASE).to_dict() | {"sets_per_rnd": 2}
    del data["rounds"]
    with pytest.raises(InvalidPlanError, match=r"unknown keys \['sets_per_rnd'\], missing keys"):
        EventPlan.from_dict(data)


def test_a_round_outside_the_plan_is_refused():
    with pytest.raises(InvalidPlanError, match="round 4 is not in the plan"):
        EventPlan(**BASE).sets_of_round(4)


def test_event_toml_spells_out_the_sets_and_boards_of_each_round_and_group():
    """The issue: event.toml says which sets each round and group plays and the boards."""
    plan = EventPlan(**BASE | {"players": 37, "schedule": ((2, 3, (10, 11)),)})
    text = toml_text(plan, "c0ffee", False)
    assert "#   round 1, groups 1-3 (tables 1-9): sets 1, 2, 3, boards 1-6, 7-12, 13-18" in text
    assert "#   round 2, groups 1-2 (tables 1-8): sets 4, 5, 6, boards 19-24, 25-30, 31-36" in text
    assert "#   round 2, group 3 (table 9): sets 10, 11, boards 55-60, 61-66" in text
    data = tomllib.loads(text)
    assert data.pop("commitment") == "c0ffee" and data.pop("key_revealed") is False
    assert EventPlan.from_dict(data) == plan


TEAMS = BASE | {"kind": "teams", "format": "swiss", "options": TeamOptions(9, "linear"),
                "sets_per_round": 1, "players": 40, "tables_per_group": 8}


def test_team_plan_has_two_tables_a_match_and_one_set_a_round():
    plan = EventPlan(**TEAMS)
    assert (plan.tables(), plan.groups(), plan.sets_of_round(3)) == (8, 1, [3])
    assert plan.expected_tables(3) == {3: 8}
    assert EventPlan.from_dict(plan.to_dict()) == plan
    with pytest.raises(InvalidPlanError, match="one set per round"):
        EventPlan(**TEAMS | {"sets_per_round": 2})


def test_individual_plans_keep_their_keys_without_the_team_ones():
    data = EventPlan(**BASE).to_dict()
    assert not {"format", "teams", "conversion"} & set(data)
    assert EventPlan.from_dict(data) == EventPlan(**BASE)


def test_issue9_item12_event_toml_stays_small_for_the_largest_plan():
    """Groups playing the same sets share one comment line, so the largest plan allowed
    writes a small event.toml (the issue's 22 MB one took status five minutes to read)."""
    plan = EventPlan(**BASE | {"players": 100_000, "tables_per_group": 25, "rounds": 100,
                               "sets_per_round": 2})
    assert len(toml_text(plan, "c0ffee", False)) < 20_000


@pytest.mark.parametrize("toml", sorted(TOMLS.glob("*.toml")), ids=lambda p: p.stem)
def test_every_event_toml_of_the_flat_plan_loads_and_is_written_unchanged(toml):
    """Issue 20: event.toml files written before the formats had a part of their own (one of
    each kind, made by that code) load into the same format and are written byte for byte
    as they were."""
    text = toml.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    commitment, revealed = data.pop("commitment"), data.pop("key_revealed")
    plan = EventPlan.from_dict(data)
    assert plan.event_format is REGISTRY[(plan.kind, plan.format)]
    assert toml_text(plan, commitment, revealed) == text


def test_the_golden_event_tomls_cover_every_format():
    kinds = set()
    for toml in TOMLS.glob("*.toml"):
        data = tomllib.loads(toml.read_text(encoding="utf-8"))
        kinds.add((data["kind"], data.get("format", "")))
    assert kinds == set(REGISTRY)


def test_team_keys_are_the_team_formats_part_and_refused_elsewhere():
    plan = EventPlan(**TEAMS)
    assert plan.options == TeamOptions(9, "linear") and plan.to_dict()["teams"] == 9
    with pytest.raises(InvalidPlanError, match="teams = 9: only team events have it"):
        EventPlan.from_dict(EventPlan(**BASE).to_dict() | {"teams": 9, "conversion": "linear"})


EDITED_TOMLS = [
    # (what a hand edit of event.toml did, the file, keys changed, what the director is told)
    ("a typo in the format", "team-swiss", {"format": "Swiss"},
     "format = 'Swiss': expected one of swiss, round-robin, knockout"),
    ("a typo in the kind", "team-swiss", {"kind": "team"}, "kind = 'team': expected one of"),
    ("the format as a list", "pairs-knockout", {"format": ["knockout"]},
     "format = ['knockout']: expected a word"),
    ("the kind as a table", "individual", {"kind": {"a": 1}}, "kind = {'a': 1}: expected one"),
    ("awards not text", "team-swiss", {"awards": 5}, "awards = 5: expected text"),
    ("conversion not text", "team-swiss", {"conversion": 5}, "conversion = 5: name the 级差分"),
    ("a team key in an individual event", "individual", {"teams": 4},
     "teams = 4: only team events have it"),
    ("a schedule round as text", "individual",
     {"schedule": [{"round": "1", "group": 1, "sets": [1]}]},
     "schedule entry round '1' group 1: no such group"),
]


@pytest.mark.parametrize(("toml", "change", "message"), [c[1:] for c in EDITED_TOMLS],
                         ids=[c[0] for c in EDITED_TOMLS])
def test_a_hand_edited_event_toml_is_refused_with_what_is_wrong(toml, change, message):
    data = tomllib.loads((TOMLS / f"{toml}.toml").read_text(encoding="utf-8"))
    del data["commitment"], data["key_revealed"]
    with pytest.raises(InvalidPlanError) as error:
        EventPlan.from_dict(data | change)
    assert message in str(error.value)
