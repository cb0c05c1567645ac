"""The ledger's decisions applied the same way whatever the order of the commands (issue 21):
a decision makes what it changes out of date, a new row is checked against the results
already stored, finality comes from the folder's data, and a revealed set stays closed."""

import pandas as pd
import pytest
from event_support import (
    pairs_knockout,
    players_csv,
    run,
    seated_event,
    set_results,
    snapshot,
    swiss_cup,
    write,
)

from guandan_dup.event import EventFolder


@pytest.fixture
def one_round(tmp_path):
    """17 players (one bye), 4 tables, one round of 2 sets of 3 boards; dealt and seated."""
    directory = seated_event(tmp_path, rounds=1)
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


def test_spec10_withdrawing_not_played_of_a_public_set_is_refused_before_the_reveal(
        one_round, tmp_path):
    run("event", "ledger", "add", one_round, "not-played", "--round", 1, "--table", 2,
        "--set", 2, "--reason", "no time")
    run("event", "ingest", one_round, results_file(one_round, tmp_path, drop=[(2, 2)]),
        "--round", 1)
    run("event", "score", one_round, "--round", 1)
    run("event", "site", one_round, "--quiet")  # set 2's traveller and hands are out
    assert (one_round / "site" / "sets" / "set-2.html").exists()
    before = snapshot(one_round)
    out = run("event", "ledger", "withdraw", one_round, 1, "--reason", "they played it",
              code=1)
    assert "every other table has played set 2 of round 1" in out
    assert "round 1 table 2 set 2" in out and "ingest its result first" in out
    assert snapshot(one_round) == before, "nothing was written"
    frame = set_results(EventFolder.open(one_round), 1, seed=1)
    late = frame[(frame["table"] == 2) & (frame["set"] == 2)]
    run("event", "ingest", one_round, write(late, tmp_path / "late.parquet"), "--round", 1)
    run("event", "ledger", "withdraw", one_round, 1, "--reason", "they played it")
    assert read_kinds(one_round) == ["not-played", "retract"]


def test_spec10_withdrawing_not_played_of_a_pending_set_is_accepted(one_round, tmp_path):
    run("event", "ledger", "add", one_round, "not-played", "--round", 1, "--table", 2,
        "--set", 2, "--reason", "no time")
    run("event", "ingest", one_round, results_file(one_round, tmp_path, drop=[(2, 2), (3, 2)]),
        "--round", 1)  # table 3 still plays set 2: nothing of it is public
    run("event", "ledger", "withdraw", one_round, 1, "--reason", "they will play it")
    assert read_kinds(one_round) == ["not-played", "retract"]


def test_spec10_withdrawing_a_team_forfeit_of_a_public_set_is_refused(tmp_path):
    directory, folder = swiss_cup(tmp_path, [4, 4, 4, 4], 3, dealt=(1,))
    matches = folder.read(1, "matches").set_index("match")
    rooms = matches.loc[1, ["open_table", "closed_table"]].astype(int).tolist()
    run("event", "ledger", "add", directory, "absent", "--round", 1, "--team",
        int(matches.loc[1, "home"]), "--reason", "never came")
    frame = set_results(folder, 1, seed=1)
    run("event", "ingest", directory, write(frame[~frame["table"].isin(rooms)],
                                            tmp_path / "r1.parquet"), "--round", 1)
    out = run("event", "ledger", "withdraw", directory, 1, "--reason", "they came", code=1)
    assert "every other table has played set 1 of round 1" in out
    assert all(f"round 1 table {t} set 1" in out for t in rooms)


def read_kinds(directory):
    from guandan_dup.event.ledger import read_ledger

    return read_ledger(EventFolder.open(directory))["kind"].tolist()


def scored(directory, tmp_path):
    """Round 1 ingested whole and scored."""
    run("event", "ingest", directory, results_file(directory, tmp_path), "--round", 1)
    run("event", "score", directory, "--round", 1)


def test_spec10_a_penalty_after_scoring_makes_the_round_out_of_date(one_round, tmp_path):
    from guandan_dup.event import event_status

    scored(one_round, tmp_path)
    run("event", "ledger", "add", one_round, "penalty", "--player", "P005", "--points", 10,
        "--round", 1, "--reason", "x")
    state = event_status(EventFolder.open(one_round))
    assert state.rounds[0].out_of_date
    assert state.next_step() == (
        f"guandan-dup event score {one_round} --round 1 (a ledger decision changed it)")
    for command in (("export", one_round), ("site", one_round, "--quiet")):
        out = run("event", *command, code=1)
        assert "a ledger decision changed" in out
        assert f"event score {one_round} --round 1" in out
    assert not (one_round / "exports").exists() and not (one_round / "site").exists()
    run("event", "score", one_round, "--round", 1)
    assert not event_status(EventFolder.open(one_round)).rounds[0].out_of_date
    standings = EventFolder.open(one_round).read(1, "standings").set_index("player")
    assert standings.loc["P005", "penalty"] == 10
    run("event", "export", one_round)


def test_spec10_a_row_that_changes_nothing_scored_leaves_the_round_up_to_date(tmp_path):
    directory = tmp_path / "event"
    run("event", "init", directory, "--players", players_csv(tmp_path / "p.csv", 16),
        "--tables-per-group", 4, "--sets-per-round", 1, "--boards-per-set", 2, "--rounds", 2)
    for step in ("deal", "seat"):
        run("event", step, directory, "--round", 1, *(["--quiet"] if step == "deal" else []))
    scored(directory, tmp_path)
    run("event", "ledger", "add", directory, "penalty", "--player", "P005", "--points", 10,
        "--round", 2, "--reason", "a later round")
    run("event", "ledger", "add", directory, "late", "--round", 2, "--table", 1, "--set", 2,
        "--side", "NS", "--minutes", 3, "--reason", "a later round")
    run("event", "ledger", "add", directory, "ends", "--round", 1, "--at",
        "2026-01-01T10:00:00", "--reason", "the schedule")
    assert EventFolder.open(directory).stale_rounds() == []
    run("event", "export", directory)


def test_spec10_a_team_penalty_after_scoring_makes_the_round_out_of_date(tmp_path):
    from guandan_dup.event import event_status

    directory, folder = swiss_cup(tmp_path, [4, 4, 4, 4], 3, dealt=(1,))
    run("event", "ingest", directory, write(set_results(folder, 1, seed=1),
                                            tmp_path / "r1.parquet"), "--round", 1)
    run("event", "score", directory, "--round", 1)
    run("event", "ledger", "add", directory, "penalty", "--team", 3, "--match-points", 1,
        "--round", 1, "--reason", "slow play")
    assert event_status(EventFolder.open(directory)).next_step() == (
        f"guandan-dup event score {directory} --round 1 (a ledger decision changed it)")
    assert "a ledger decision changed" in run("event", "export", directory, code=1)
    assert "changed by a ledger decision after it was scored" in run(
        "event", "seat", directory, "--round", 2, code=1)
    run("event", "score", directory, "--round", 1)
    assert EventFolder.open(directory).stale_rounds() == []


def test_art34_a_knockout_forfeit_after_scoring_makes_the_round_out_of_date(tmp_path):
    directory = pairs_knockout(tmp_path, 4)
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1)
    results = set_results(EventFolder.open(directory), 1, seed=1)
    results = results.assign(tiebreak="EW")
    results["tiebreak"] = results["tiebreak"].where(results["ns_level"] == results["ew_level"])
    run("event", "ingest", directory, write(results, tmp_path / "r1.parquet"), "--round", 1)
    run("event", "score", directory, "--round", 1)
    run("event", "ledger", "add", directory, "absent", "--round", 1, "--table", 1,
        "--side", "NS", "--reason", "did not come", "--article", "34")
    assert EventFolder.open(directory).stale_rounds() == [1]
    assert "a ledger decision changed" in run("event", "export", directory, code=1)
    run("event", "score", directory, "--round", 1)
    assert EventFolder.open(directory).stale_rounds() == []


def test_spec10_standings_scored_before_the_digest_compare_the_ledger_up_to_their_last_row(
        one_round, tmp_path):
    import pyarrow.parquet as pq

    from guandan_dup.event.ledger import LEDGER_EFFECTS

    run("event", "ledger", "add", one_round, "penalty", "--player", "P001", "--points", 1,
        "--round", 1, "--reason", "before scoring")
    scored(one_round, tmp_path)
    path = EventFolder.open(one_round).file(1, "standings")
    table = pq.read_table(path)
    meta = {k: v for k, v in table.schema.metadata.items() if k != LEDGER_EFFECTS}
    pq.write_table(table.replace_schema_metadata(meta), path)  # as scored before issue 21
    assert EventFolder.open(one_round).stale_rounds() == []
    run("event", "ledger", "add", one_round, "penalty", "--player", "P005", "--points", 10,
        "--round", 1, "--reason", "after scoring")
    assert EventFolder.open(one_round).out_of_date_because(1) == "ledger"


def copied_later(directory, copy, hours):
    """``cp -r`` of ``directory`` made ``hours`` after now: every file's time is then."""
    import os
    import shutil
    import time

    shutil.copytree(directory, copy)
    later = time.time() + hours * 3600
    for path in copy.rglob("*"):
        os.utime(path, (later, later))
    return copy


def test_art48_a_copied_folder_keeps_its_rounds_final(one_round, tmp_path):
    from guandan_dup.errors import GuandanError
    from guandan_dup.event.finality import final, now_utc
    from guandan_dup.event.ledger import add_entry, read_ledger

    scored(one_round, tmp_path)
    copy = copied_later(one_round, tmp_path / "usb-stick", hours=2)
    folder = EventFolder.open(copy)
    an_hour_on = now_utc() + pd.Timedelta(hours=1)  # past the 30 minutes of correction time
    assert final(folder, read_ledger(folder), an_hour_on) == {1}
    with pytest.raises(GuandanError, match="this round is final"):
        add_entry(folder, "penalty", 1, "a correction", player="P005", points="10",
                  now=an_hour_on)


def test_art48_rescoring_keeps_the_time_a_round_was_first_scored(one_round, tmp_path):
    from guandan_dup.event.finality import scored_times

    scored(one_round, tmp_path)
    first = scored_times(EventFolder.open(one_round))[1]
    record = (one_round / "rounds" / "1" / "scored.json").read_bytes()
    run("event", "ledger", "add", one_round, "penalty", "--player", "P005", "--points", 10,
        "--round", 1, "--reason", "x")
    run("event", "score", one_round, "--round", 1)
    assert (one_round / "rounds" / "1" / "scored.json").read_bytes() == record
    assert scored_times(EventFolder.open(copied_later(one_round, tmp_path / "c", 3)))[1] == first


def test_art48_a_dry_run_of_the_first_scoring_records_no_time(one_round, tmp_path):
    from guandan_dup.event.score import score_round

    run("event", "ingest", one_round, results_file(one_round, tmp_path), "--round", 1)
    dry = EventFolder.open(one_round).dry_run()
    score_round(dry, 1)
    assert one_round / "rounds" / "1" / "scored.json" in dry.planned.files
    assert not (one_round / "rounds" / "1").joinpath("scored.json").exists()
    assert not (one_round / "rounds" / "1" / "standings.parquet").exists()


def with_result(frame, table, set_no, ns, ew):
    """``frame`` with the given table's set ending at levels ``ns``/``ew``."""
    mine = (frame["table"] == table) & (frame["set"] == set_no)
    frame.loc[mine, ["ns_level", "ew_level"]] = [ns, ew]
    return frame


LATE_NS_7 = ("late", "--round", 1, "--table", 2, "--set", 1, "--side", "NS", "--minutes", 7,
             "--reason", "traffic")


def test_art32_a_late_row_after_a_result_it_contradicts_is_refused(one_round, tmp_path):
    frame = with_result(set_results(EventFolder.open(one_round), 1, seed=1), 2, 1, "7", "3")
    run("event", "ingest", one_round, write(frame, tmp_path / "r1.parquet"), "--round", 1)
    out = run("event", "ledger", "add", one_round, *LATE_NS_7, code=1)
    assert "round 1 table 2 set 1" in out and "7/3" in out and "starting at 2/4" in out
    assert "Traceback" not in out and not (one_round / "ledger.parquet").exists()


def test_art32_the_other_order_is_refused_too(one_round, tmp_path):
    frame = with_result(set_results(EventFolder.open(one_round), 1, seed=1), 2, 1, "7", "3")
    run("event", "ledger", "add", one_round, *LATE_NS_7)
    out = run("event", "ingest", one_round, write(frame, tmp_path / "r1.parquet"), "--round", 1,
              code=1)
    assert "starting at 2/4" in out


def test_art32_a_late_row_the_stored_result_allows_is_accepted(one_round, tmp_path):
    frame = with_result(set_results(EventFolder.open(one_round), 1, seed=1), 2, 1, "7", "5")
    run("event", "ingest", one_round, write(frame, tmp_path / "r1.parquet"), "--round", 1)
    run("event", "score", one_round, "--round", 1)
    run("event", "ledger", "add", one_round, *LATE_NS_7)
    assert EventFolder.open(one_round).stale_rounds() == [], "the start changes no figure"


def test_art32_a_late_row_after_a_team_result_it_contradicts_is_refused(tmp_path):
    directory, folder = swiss_cup(tmp_path, [4, 4, 4, 4], 3, dealt=(1,))
    frame = with_result(set_results(folder, 1, seed=1), 2, 1, "7", "3")
    run("event", "ingest", directory, write(frame, tmp_path / "r1.parquet"), "--round", 1)
    out = run("event", "ledger", "add", directory, *LATE_NS_7, code=1)
    assert "round 1 table 2 set 1" in out and "7/3" in out
    assert not (directory / "ledger.parquet").exists()


def test_spec10_seating_from_a_round_a_ledger_decision_made_stale_says_so(tmp_path):
    directory = seated_event(tmp_path, rounds=2)
    scored(directory, tmp_path)
    run("event", "deal", directory, "--round", 2, "--quiet")
    run("event", "ledger", "add", directory, "penalty", "--player", "P005", "--points", 10,
        "--round", 1, "--reason", "x")
    out = run("event", "seat", directory, "--round", 2, code=1)
    assert "round 1 was changed by a ledger decision after it was scored" in out
    assert out.splitlines() == [
        "Error: round 1 was changed by a ledger decision after it was scored, so round 2's "
        "seating cannot be made from its out-of-date outputs; nothing was written. Run "
        f"`guandan-dup event score {directory} --round 1` first"]
    assert not EventFolder.open(directory).file(2, "seating").exists()
    run("event", "score", directory, "--round", 1)
    frame = set_results(EventFolder.open(directory), 1, seed=2)
    run("event", "ingest", directory, write(frame, tmp_path / "again.parquet"), "--round", 1)
    out = run("event", "seat", directory, "--round", 2, code=1)
    assert "round 1 had results ingested after it was scored" in out


def test_spec10_a_swiss_pairing_from_a_round_a_ledger_decision_made_stale_says_so(tmp_path):
    directory, folder = swiss_cup(tmp_path, [4, 4, 4, 4], 3)
    run("event", "ingest", directory, write(set_results(folder, 1, seed=1),
                                            tmp_path / "r1.parquet"), "--round", 1)
    run("event", "score", directory, "--round", 1)
    run("event", "ledger", "add", directory, "penalty", "--team", 3, "--match-points", 1,
        "--round", 1, "--reason", "slow play")
    out = run("event", "seat", directory, "--round", 2, code=1)
    assert "round 1 was changed by a ledger decision after it was scored" in out
    assert "the Swiss pairing of round 2" in out and "results" not in out


def test_art34_a_knockout_bracket_from_a_round_a_ledger_decision_made_stale_says_so(tmp_path):
    directory = pairs_knockout(tmp_path, 4)
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1)
    results = set_results(EventFolder.open(directory), 1, seed=1).assign(tiebreak="EW")
    results["tiebreak"] = results["tiebreak"].where(results["ns_level"] == results["ew_level"])
    run("event", "ingest", directory, write(results, tmp_path / "r1.parquet"), "--round", 1)
    run("event", "score", directory, "--round", 1)
    run("event", "ledger", "add", directory, "absent", "--round", 1, "--table", 1,
        "--side", "NS", "--reason", "did not come", "--article", "34")
    run("event", "deal", directory, "--round", 2, "--quiet")
    out = run("event", "seat", directory, "--round", 2, code=1)
    assert "round 1 was changed by a ledger decision after it was scored" in out
    assert "round 2's bracket" in out and "--force" not in out


def scored_round_one(tmp_path, kind):
    """Round 1 of a team Swiss, a pairs knockout or a team knockout, played and scored:
    the directory and the ledger options naming a side of match 1 (art. 34)."""
    from event_support import team_knockout_by_lot

    if kind == "swiss":
        directory, _ = swiss_cup(tmp_path, [4, 4, 4, 4], 3, dealt=(1,))
    else:
        directory = (pairs_knockout(tmp_path, 4) if kind == "pairs knockout"
                     else team_knockout_by_lot(tmp_path, 4))
        run("event", "deal", directory, "--round", 1, "--quiet")
        run("event", "seat", directory, "--round", 1)
    results = set_results(EventFolder.open(directory), 1, seed=1)
    if kind == "pairs knockout":
        results["tiebreak"] = pd.Series("EW", index=results.index).where(
            results["ns_level"] == results["ew_level"])
    run("event", "ingest", directory, write(results, tmp_path / "r1.parquet"), "--round", 1)
    run("event", "score", directory, "--round", 1)
    side = ("--table", 1, "--side", "NS") if kind == "pairs knockout" else ("--team", 1)
    return directory, side


@pytest.mark.parametrize("kind", ["swiss", "pairs knockout", "team knockout"])
def test_art48_rescoring_a_final_round_so_its_outputs_change_needs_override(tmp_path, kind):
    from guandan_dup.event.ledger import read_ledger

    directory, side = scored_round_one(tmp_path, kind)
    run("event", "ledger", "add", directory, "ends", "--round", 1, "--at",
        "2026-01-01T10:00:00", "--reason", "the schedule")
    run("event", "ledger", "add", directory, "absent", "--round", 1, *side, "--reason",
        "never came", "--override")
    before = snapshot(directory)
    out = run("event", "score", directory, "--round", 1, code=1)
    assert "round 1 is final" in out and "--override" in out
    assert snapshot(directory) == before, "nothing was changed"
    run("event", "score", directory, "--round", 1, "--override")
    kinds = read_ledger(EventFolder.open(directory))["kind"].tolist()
    assert kinds == ["ends", "absent", "override"]
    run("event", "score", directory, "--round", 1)  # unchanged outputs: no override needed
    assert read_ledger(EventFolder.open(directory))["kind"].tolist() == kinds


def test_art32_a_late_row_after_board_level_results_replays_them_as_the_other_order(
        one_round, tmp_path):
    """Boards then a late row: the stored levels were replayed from 2/2 and the finishing
    orders are not kept, so the row is accepted and the boards are to be ingested again
    (status says so, score refuses until then); the levels end as in the other order."""
    import shutil

    from event_support import board_results

    frame = board_results(EventFolder.open(one_round), 1, seed=1)
    # N-S win every board of table 2's set 1 with a 双下: E-W end at 2, which E-W cannot
    # end at once N-S's late arrival starts them at 3 (whatever the key's seating drew).
    frame.loc[(frame["table"] == 2) & (frame["set"] == 1), "finish"] = "NS"
    boards = write(frame, tmp_path / "boards.parquet")
    first = shutil.copytree(one_round, tmp_path / "late-first")
    late = ("late", "--round", 1, "--table", 2, "--set", 1, "--side", "NS", "--minutes", 3,
            "--reason", "traffic")
    run("event", "ledger", "add", first, *late)
    run("event", "ingest", first, boards, "--round", 1)
    run("event", "ingest", one_round, boards, "--round", 1)
    out = run("event", "ledger", "add", one_round, *late)
    assert "ingest the boards file again" in out
    from guandan_dup.event import event_status

    assert event_status(EventFolder.open(one_round)).next_step() == (
        f"guandan-dup event ingest {one_round} event-round-1.xlsx --round 1 (round 1 table 2 "
        "set 1: stored levels the ledger's late start cannot produce; ingest them again)")
    out = run("event", "score", one_round, "--round", 1, code=1)
    assert "round 1 table 2 set 1 is" in out and "ingest the boards file again" in out
    run("event", "ingest", one_round, boards, "--round", 1)
    run("event", "score", one_round, "--round", 1)
    levels = [EventFolder.open(d).read(1, "results")[["ns_level", "ew_level"]]
              for d in (one_round, first)]
    pd.testing.assert_frame_equal(*levels)


def test_art48_editing_the_correction_time_never_reopens_a_final_round(one_round, tmp_path):
    """A round's correction time is the one in force when it was first scored (recorded in
    scored.json): event.toml's correction_minutes edited by hand afterwards does not make a
    final round provisional again (nor a provisional one final)."""
    import re

    scored(one_round, tmp_path)
    run("event", "ledger", "add", one_round, "ends", "--round", 1, "--at",
        "2026-01-01T10:00:00", "--reason", "the schedule")
    toml = one_round / "event.toml"
    toml.write_text(re.sub(r"correction_minutes = \d+", "correction_minutes = 100000000",
                           toml.read_text(encoding="utf-8")), encoding="utf-8")
    out = run("event", "ledger", "add", one_round, "penalty", "--round", 1, "--player",
              "P001", "--points", 1, "--reason", "late scoresheet", code=1)
    assert "this round is final" in out
