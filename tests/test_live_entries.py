"""SPEC 4, 5 and 11 at the table: one entry checked in pure Python, in ingestion's words.

``live.entries`` must refuse what ``event ingest`` refuses, saying the same thing, and derive
the levels the rules give (``rules.progression.play_set`` is the reference)."""

from __future__ import annotations

import pandas as pd
import pytest
from event_support import run, seated_event, write
from hypothesis import given, settings
from hypothesis import strategies as st

from guandan_dup.errors import InvalidResultsError
from guandan_dup.event import EventFolder, ingest
from guandan_dup.levels import LEVEL_NAMES
from guandan_dup.live.entries import (
    Entry,
    SetEntries,
    derive,
    pairs_decided,
    parse_entry,
    result_rows,
)
from guandan_dup.live.facts import load_facts
from guandan_dup.rules.progression import play_set


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    return seated_event(tmp_path_factory.mktemp("entries"))


@pytest.fixture(scope="module")
def facts(event):
    return load_facts(EventFolder.open(event), 1)


def messages(problems) -> list[str]:
    return [p["message"] for p in problems]


def ingest_refusal(event, tmp_path, row: dict) -> str:
    """What ``event ingest`` says of a results file holding ``row`` at table 1, set 1."""
    seating = EventFolder.open(event).read(1, "seating")
    seat = seating[seating["table"] == 1].iloc[0]
    base = {"round": 1, "table": 1, "set": 1,
            **{c: seat[c] for c in ("north", "east", "south", "west")}}
    with pytest.raises(InvalidResultsError) as refused:
        ingest(EventFolder.open(event), write(pd.DataFrame([base | row]),
                                              tmp_path / "r.parquet"), 1)
    return str(refused.value)


def test_rule_a_set_entry_is_its_two_final_levels(facts):
    entry, problems = parse_entry(facts, 1, {"id": "x", "set": 1, "ns_level": "8",
                                             "ew_level": "3"})
    assert problems == []
    assert (entry.form, entry.ns_level, entry.ew_level) == ("set", 6, 1)
    assert entry.to_dict() == {"id": "x", "set": 1, "ns_level": "8", "ew_level": "3"}
    assert Entry.from_dict(entry.to_dict()) == entry


def test_spec4_levels_no_set_of_k_boards_reaches_are_refused_in_ingests_words(
        event, facts, tmp_path):
    _, problems = parse_entry(facts, 1, {"id": "x", "set": 1, "ns_level": "A+",
                                         "ew_level": "2"})
    (message,) = messages(problems)
    assert message.startswith("value 'A+/2': no set of at most 3 boards starting at 2/2")
    assert message.split(": ", 1)[1] in ingest_refusal(event, tmp_path, {
        "ns_level": "A+", "ew_level": "2"})


def test_spec5_an_unknown_level_and_a_bad_finish_are_said_as_ingest_says_them(
        event, facts, tmp_path):
    _, problems = parse_entry(facts, 1, {"id": "x", "set": 1, "ns_level": "Z",
                                         "ew_level": "2"})
    assert messages(problems) == [
        "value 'Z': unknown level; expected one of 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A, A+"]
    assert "unknown level; expected one of" in ingest_refusal(
        event, tmp_path, {"ns_level": "Z", "ew_level": "2"})
    _, problems = parse_entry(facts, 1, {"id": "x", "set": 1, "board": 1, "finish": "NE"})
    (message,) = messages(problems)
    assert message.endswith("N and E are not partners; two letters are only allowed for a 双下 "
                            "(partners finishing 1st and 2nd)")
    assert message.split(": ", 1)[1] in ingest_refusal(
        event, tmp_path, {"board": 1, "finish": "NE"})


def test_spec5_a_board_outside_its_set_and_a_set_the_table_does_not_play(facts):
    _, problems = parse_entry(facts, 1, {"id": "x", "set": 1, "board": 4, "finish": "NS"})
    assert messages(problems) == [
        "value 4: is outside set 1, which has boards 1-3 (3 boards per set)"]
    _, problems = parse_entry(facts, 1, {"id": "x", "set": 3, "ns_level": "3",
                                         "ew_level": "2"})
    assert messages(problems) == ["value 3: table 1 (group 1) plays sets 1 and 2 in round 1"]


def test_every_problem_of_a_body_is_listed_at_once(facts):
    _, problems = parse_entry(facts, 1, {"set": "one", "ns_level": "3", "board": 2,
                                         "colour": "red"})
    fields = sorted(str(p["field"]) for p in problems)
    assert fields == ["board", "colour", "ew_level", "finish", "id", "set"]
    _, problems = parse_entry(facts, 1, ["not", "an", "object"])
    assert messages(problems)[0].startswith("expected a JSON object")


def test_a_tiebreak_belongs_to_knockouts_only(facts):
    _, problems = parse_entry(facts, 1, {"id": "x", "set": 1, "tiebreak": "NS"})
    assert messages(problems) == ["only a knockout match is decided by extra boards (seed 000 "
                                  "art. 49.2); this event has no knockout"]


def board(set_no: int, number: int, finish: str) -> Entry:
    return Entry(f"b{number}", set_no, board=number, finish=finish)


def entered(*finishes: str, first: int = 1, set_no: int = 1) -> SetEntries:
    out = SetEntries()
    for i, finish in enumerate(finishes):
        out.take(board(set_no, first + i, finish))
    return out


def test_spec4_levels_so_far_follow_the_boards_in_order(facts):
    derived = derive(facts, 1, 1, entered("NS", "NES"))
    assert (derived.levels(), derived.played, derived.complete) == (
        {"ns": "7", "ew": "2"}, 2, False)
    assert [a["ns"] for a in derived.after] == ["5", "7"]
    assert derive(facts, 1, 1, entered("NS", "NES", "ENW")).complete


def test_spec4_a_board_after_passing_a_is_refused_and_a_gap_waits(facts):
    gap = SetEntries()
    gap.take(board(1, 1, "NS"))
    gap.take(board(1, 3, "EW"))
    derived = derive(facts, 1, 1, gap)
    assert not derived.complete
    assert messages(derived.problems) == [
        "board 2 is not entered yet, so board 3 cannot be counted"]


def test_rule_a_set_entry_replaces_its_boards_and_a_board_its_set_entry():
    kept = entered("NS", "NES")
    kept.take(Entry("s", 1, ns_level=5, ew_level=0))
    assert kept.boards == {} and kept.result.id == "s"
    kept.take(board(1, 1, "EW"))
    assert kept.result is None and list(kept.boards) == [1]


finish = st.sampled_from(["NS", "NES", "NEW", "EW", "ENW", "ENS", "WE", "SN"])


@settings(max_examples=200, deadline=None)
@given(st.lists(finish, min_size=1, max_size=3))
def test_spec4_derived_levels_equal_the_reference(facts, finishes):
    reference = play_set(finishes)
    boards = finishes
    if reference.ended:  # boards after the end are refused, not counted
        boards = finishes[:reference.played]
    derived = derive(facts, 1, 1, entered(*boards))
    assert (derived.ns_level, derived.ew_level) == (reference.ns_level, reference.ew_level)
    assert derived.complete == (reference.ended or len(boards) == 3)


def test_spec5_rows_are_a_results_files_rows_with_the_seating(facts, event):
    kind, rows = result_rows(facts, 2, 1, entered("NS"), derive(facts, 2, 1, entered("NS")))
    seating = EventFolder.open(event).read(1, "seating")
    seat = seating[seating["table"] == 2].iloc[0]
    assert kind == "board"
    assert rows == [{"round": 1, "group": 1, "table": 2, "set": 1, "north": seat["north"],
                     "east": seat["east"], "south": seat["south"], "west": seat["west"],
                     "board": 1, "finish": "NS"}]


def test_art32_a_late_start_changes_what_a_set_can_reach(tmp_path):
    event = seated_event(tmp_path)
    run("event", "ledger", "add", event, "late", "--round", 1, "--table", 1, "--set", 1,
        "--side", "NS", "--minutes", 3, "--reason", "traffic")
    facts = load_facts(EventFolder.open(event), 1)
    assert facts.start(1, 1) == (0, 1)
    _, problems = parse_entry(facts, 1, {"id": "x", "set": 1, "ns_level": "2",
                                         "ew_level": "2"})
    assert "starting at 2/3" in messages(problems)[0]
    assert derive(facts, 1, 1, entered("EW")).levels() == {"ns": "2", "ew": "6"}


def test_seed003_a_level_knockout_match_needs_its_extra_boards():
    from guandan_dup.live.entries import Derived

    level = Derived(5, 5, 3, True)
    (found,) = pairs_decided(level, None)
    assert found["field"] == "tiebreak" and "extra boards" in found["message"]
    assert pairs_decided(level, "EW") == []
    assert pairs_decided(Derived(6, 5, 3, True), None) == []
    assert LEVEL_NAMES[level.ns_level] == "7"


LEVEL_TEXT = st.sampled_from([*LEVEL_NAMES, "a", " K", "T", "1", "A++", ""]) | st.integers(
    -2, 15) | st.none() | st.booleans()


@given(table=st.sampled_from([1, 2, 3, 4, 9]),
       body=st.fixed_dictionaries(
           {"id": st.sampled_from(["x", "", 0, 7, True, "y" * 201]) | st.text(max_size=3),
            "set": st.sampled_from([1, 2, 3, 0, True, "1", None]),
            "ns_level": LEVEL_TEXT, "ew_level": LEVEL_TEXT},
           optional={"board": st.integers(0, 7), "reason": st.just("r"),
                     "extra": st.just(1)}))
@settings(max_examples=400, deadline=None)
def test_a_sound_set_entry_taken_at_once_is_the_entry_the_full_check_gives(facts, table,
                                                                           body):
    from guandan_dup.live.entries import _parse, _sound_levels

    sound = _sound_levels(facts, table, body)
    if sound is not None:
        assert _parse(facts, table, body) == (sound, [])
    assert parse_entry(facts, table, body) == _parse(facts, table, body)
