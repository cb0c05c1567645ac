"""The live scoreboard's figures (issue 22 item 3; SPEC 6, 8, 9, 10; seed 000 art. 48):
``live.board.standings``, the JSON of ``GET /api/v1/rounds/{R}/standings``.

The event of most tests is ``live_support``'s (``event_support.seated_event``): 17 players
at 4 tables (one bye), rounds of 2 sets of 3 boards, round 1 seated; it is made once and
copied for each test.
"""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import live_support
import pandas as pd
import pytest
from event_support import (
    pairs_knockout,
    run,
    set_results,
    swiss_cup,
    team_knockout_by_lot,
    write,
)

from guandan_dup.errors import GuandanError
from guandan_dup.event import EventFolder
from guandan_dup.event.formats.team_matches import teams_of
from guandan_dup.event.ingest import ingest
from guandan_dup.event.ledger import add_entry
from guandan_dup.event.publish import public_sets
from guandan_dup.event.score import score_round
from guandan_dup.event.transaction import writing
from guandan_dup.live.board import standings

TABLES, SETS = (1, 2, 3, 4), (1, 2)
EVERY = frozenset((t, s) for t in TABLES for s in SETS)
PLAYER_FIELDS = ["position", "rank", "rank_label", "player", "name", "cumulative", "sets"]
TEAM_FIELDS = ["position", "rank", "rank_label", "team", "name", "match_points",
               "level_points", "played"]


template, event = live_support.template, live_support.event


def enter(directory: Path, rows, round_no: int = 1, seed: int = 0) -> None:
    """Ingest the (table, set) ``rows`` of the round's random-model results."""
    folder = EventFolder.open(directory)
    results = set_results(folder, round_no, seed)
    chosen = results[[(t, s) in rows for t, s in zip(results["table"], results["set"],
                                                      strict=True)]]
    file = directory.parent / f"r{round_no}-{len(chosen)}.parquet"
    ingest(folder, write(chosen, file), round_no)


def figures(body: dict) -> list[dict]:
    return body["standings"]


# --- SPEC 10: which sets count -------------------------------------------------------------

SPEC10_BOARD = [
    # (case, (table, set) rows entered, not-played ledger rows, counted sets, waiting)
    ("nothing entered: nothing counts", frozenset(), (), [], {1: 4, 2: 4}),
    ("a set pending at one table is not counted", EVERY - {(4, 2)}, (), [(1, 1)],
     {1: 0, 2: 1}),
    ("once that table has played it counts", EVERY, (), [(1, 1), (1, 2)], {1: 0, 2: 0}),
    ("a not-played ledger row makes it public", EVERY - {(4, 2)}, [(4, 2)],
     [(1, 1), (1, 2)], {1: 0, 2: 0}),
    ("two tables owe it: one not-played row leaves it pending", EVERY - {(3, 2), (4, 2)},
     [(4, 2)], [(1, 1)], {1: 0, 2: 1}),
]


@pytest.mark.parametrize(("rows", "not_played", "counted", "waits"),
                         [case[1:] for case in SPEC10_BOARD],
                         ids=[case[0] for case in SPEC10_BOARD])
def test_spec10_a_set_counts_on_the_board_once_no_table_still_plays_it(
        event, rows, not_played, counted, waits):
    if rows:
        enter(event, rows)
    for table, set_no in not_played:
        add_entry(EventFolder.open(event), "not-played", 1, "the table left", table=table,
                  set=set_no)
    body = standings(event, 1)
    assert [(c["round"], c["set"]) for c in body["counted_sets"]] == counted
    assert body["waiting"] == [{"set": s, "tables": n} for s, n in waits.items()]
    assert set(counted) == public_sets(EventFolder.open(event), [1])  # publish's one rule
    played = {s for _, s in counted}
    seated = EventFolder.open(event).read(1, "seating")
    for row in figures(body):
        at = seated[(seated[["north", "east", "south", "west"]] == row["player"]).any(axis=1)]
        table = int(at["table"].iloc[0]) if len(at) else None
        expected = len([s for s in played if table is not None and (table, s) not in
                        set(not_played)])
        assert row["sets"] == expected, (row, counted)


def test_spec10_a_pending_set_moves_no_figure(event, tmp_path):
    """Set 2 entered at 3 of 4 tables shows exactly what set 1 alone shows: a table still
    playing set 2 learns nothing of it from the board."""
    only_first = Path(shutil.copytree(event, tmp_path / "first"))
    enter(event, EVERY - {(4, 2)})
    enter(only_first, {(t, 1) for t in TABLES})
    assert figures(standings(event, 1)) == figures(standings(only_first, 1))
    enter(event, EVERY)
    assert figures(standings(event, 1)) != figures(standings(only_first, 1))


# --- SPEC 6: ranks as the scoring gives them ------------------------------------------------


def test_spec6_board_ranks_with_ties_equal_standings_parquet_after_event_score(event):
    for round_no in (1, 2):
        if round_no == 2:
            run("event", "deal", event, "--round", 2, "--quiet")
            run("event", "seat", event, "--round", 2)
        enter(event, {(t, s) for t in TABLES for s in (2 * round_no - 1, 2 * round_no)},
              round_no, seed=round_no)
        live = pd.DataFrame(figures(standings(event, round_no)))
        score_round(EventFolder.open(event), round_no)
        stored = EventFolder.open(event).read(round_no, "standings").sort_values("position")
        names = EventFolder.open(event).players().set_index("player")["name"]
        expected = stored.assign(name=stored["player"].map(names))[PLAYER_FIELDS]
        assert list(live.columns) == PLAYER_FIELDS
        pd.testing.assert_frame_equal(live, expected.reset_index(drop=True),
                                      check_dtype=False)
        assert live["rank_label"].str.endswith("=").any()  # the case has ties to share
        assert len(live) == 17 and live["position"].tolist() == list(range(1, 18))


def test_spec10_every_registered_player_is_on_the_board_before_any_result(event):
    """Decision: before any set counts, every player has 0 sets and no average, and all
    share rank 1 ("1="), in seeding order (how the scoring lists players yet to play)."""
    rows = figures(standings(event, 1))
    seeded = EventFolder.open(event).players().sort_values("seed")["player"].tolist()
    assert [r["player"] for r in rows] == seeded
    assert {(r["rank"], r["rank_label"], r["sets"], r["cumulative"]) for r in rows} == {
        (1, "1=", 0, None)}
    assert [r["position"] for r in rows] == list(range(1, 18))


# --- art. 48: provisional until final ------------------------------------------------------


def test_art48_the_board_is_provisional_until_the_scored_round_is_final(event):
    enter(event, EVERY)
    before = standings(event, 1)
    assert before["provisional"] is True and before["final_at"] is None
    score_round(EventFolder.open(event), 1)
    scored = standings(event, 1)
    deadline = pd.Timestamp(scored["final_at"])
    minute = pd.Timedelta(minutes=1)
    cases = [("scored, within the correction time", deadline - minute, True),
             ("scored, past the correction deadline", deadline + minute, False)]
    for case, now, provisional in cases:
        assert standings(event, 1, now=now)["provisional"] is provisional, case
    changed = set_results(EventFolder.open(event), 1, seed=7)
    ingest(EventFolder.open(event), write(changed, event.parent / "changed.parquet"), 1)
    stale = standings(event, 1, now=deadline + minute)
    assert stale["provisional"] is True  # results changed after scoring: not final


# --- SPEC 8: team events -------------------------------------------------------------------


def test_spec8_team_board_rows_carry_match_points_and_level_points(tmp_path):
    cup, folder = swiss_cup(tmp_path, [4, 4, 4, 4], 2)
    results = set_results(folder, 1)
    ingest(folder, write(results[results["table"] != 4], tmp_path / "three.parquet"), 1)
    waiting = standings(cup, 1)
    assert waiting["waiting"] == [{"set": 1, "tables": 1}] and waiting["counted_sets"] == []
    assert {(r["match_points"], r["level_points"], r["rank_label"])
            for r in waiting["standings"]} == {(0.0, 0.0, "1=")}  # one room still plays
    ingest(folder, write(results, tmp_path / "all.parquet"), 1)
    live = pd.DataFrame(standings(cup, 1)["standings"])
    score_round(EventFolder.open(cup), 1)
    stored = EventFolder.open(cup).read(1, "team_standings").sort_values("position")
    names = teams_of(folder).set_index("team")["name"]
    expected = stored.assign(name=stored["team"].map(names))[TEAM_FIELDS]
    assert list(live.columns) == TEAM_FIELDS
    pd.testing.assert_frame_equal(live, expected.reset_index(drop=True), check_dtype=False)
    assert live["match_points"].sum() == 4.0  # two matches of 2 场分 each, or shared


# --- SPEC 9: knockouts ---------------------------------------------------------------------


def pairs_results(directory: Path, round_no: int) -> pd.DataFrame:
    """Every table's levels, level matches won by EW on extra boards."""
    results = set_results(EventFolder.open(directory), round_no, seed=round_no)
    level = results["ns_level"] == results["ew_level"]
    return results.assign(tiebreak=pd.Series("EW", results.index).where(level))


def team_results(directory: Path, round_no: int) -> pd.DataFrame:
    """Both rooms of every match won by the home team 5 : 2 (open room: home East-West)."""
    folder = EventFolder.open(directory)
    results = set_results(folder, round_no)
    matches = folder.read(round_no, "matches")
    open_rooms = set(matches["open_table"].dropna().astype(int))
    home_ew = results["table"].isin(open_rooms)
    return results.assign(ns_level=home_ew.map({True: "2", False: "5"}),
                          ew_level=home_ew.map({True: "5", False: "2"}))


KNOCKOUTS = [
    # (case, make the event, results of a round)
    ("pairs knockout of 4 pairs", lambda tmp: pairs_knockout(tmp, 4), pairs_results),
    ("team knockout of 4 teams", lambda tmp: team_knockout_by_lot(tmp, 4), team_results),
]


@pytest.mark.parametrize(("make", "results_of"), [case[1:] for case in KNOCKOUTS],
                         ids=[case[0] for case in KNOCKOUTS])
def test_spec9_knockout_board_shows_the_round_matches_decided_once_public(
        tmp_path, make, results_of):
    directory = make(tmp_path)
    rounds = EventFolder.open(directory).plan.rounds
    for round_no in range(1, rounds + 1):
        run("event", "deal", directory, "--round", round_no, "--quiet")
        run("event", "seat", directory, "--round", round_no)
        results = results_of(directory, round_no)
        first = results[results["table"] == 1]
        ingest(EventFolder.open(directory), write(first, tmp_path / "one.parquet"), round_no)
        pending = standings(directory, round_no)
        assert {m["state"] for m in pending["matches"]} <= {"playing", "bye"}
        assert all(m["result"] == "" for m in pending["matches"] if m["state"] != "bye")
        assert pending["standings"] == []
        ingest(EventFolder.open(directory), write(results, tmp_path / "all.parquet"),
               round_no)
        live = standings(directory, round_no)
        score_round(EventFolder.open(directory), round_no)
        bracket = EventFolder.open(directory).read(round_no, "bracket")
        assert [(m["match"], m["winner"], m["decided_by"]) for m in live["matches"]] == list(
            zip(bracket["match"], bracket["winner"], bracket["decided_by"], strict=True))
        assert all(m["result"] for m in live["matches"] if m["state"] == "decided")
        assert {m["state"] for m in live["matches"]} <= {"decided", "bye"}
    places = pd.read_parquet(directory / "places.parquet")
    assert [(r["side"], r["rank"], r["rank_label"]) for r in live["standings"]] == list(
        zip(places["side"], places["place"], places["place_label"], strict=True))


# --- reading and the cache ----------------------------------------------------------------


def test_repeated_calls_are_answered_from_the_cache_until_the_folder_changes(event):
    first = standings(event, 1)
    first["standings"][0]["player"] = "changed by a caller"
    again = standings(event, 1)
    assert again["computed_at"] == first["computed_at"]  # not computed again
    assert again["standings"][0]["player"] != "changed by a caller"
    enter(event, EVERY)
    assert standings(event, 1)["computed_at"] != first["computed_at"]


def test_the_board_waits_for_a_writer_of_the_same_process(event):
    """A server's scoreboard thread never reads while its results writer is in a step."""
    done = threading.Event()
    with writing(event, "a writer"):
        reader = threading.Thread(target=lambda: (standings(event, 1), done.set()))
        reader.start()
        time.sleep(0.3)
        assert not done.is_set()
    reader.join(10)
    assert done.is_set()


REFUSED = [
    # (case, the folder asked (relative to the event), round, words of the error)
    ("not an event folder", "..", 1, "is not an event folder"),
    ("no such folder", "missing", 1, "is not an event folder"),
    ("a round the plan does not have", ".", 3, "round"),
]


@pytest.mark.parametrize(("where", "round_no", "words"), [case[1:] for case in REFUSED],
                         ids=[case[0] for case in REFUSED])
def test_the_board_refuses_what_it_cannot_show_in_words(event, where, round_no, words):
    with pytest.raises(GuandanError, match=words):
        standings(event / where, round_no)
