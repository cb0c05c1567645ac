"""The ledger in an event folder, through the CLI: decisions, the art. 48 deadline and its
override, movement after withdrawals and late entries, event diff (SPEC 10)."""

import re

import pandas as pd
import pytest
from event_support import (
    players_csv,
    run,
    scored_cup,
    seated_event,
    set_results,
    swiss_cup,
    write,
)

from guandan_dup.event import EventFolder
from guandan_dup.event.ledger import read_ledger
from guandan_dup.event.people import people_of
from guandan_dup.levels import LEVEL_NAMES


@pytest.fixture
def event(tmp_path):
    """17 players (one bye a round), 4 tables, 2 rounds of 2 sets; round 1 dealt and seated."""
    directory = seated_event(tmp_path)
    return directory


def results_file(directory, round_no, tmp_path, drop=()):
    frame = set_results(EventFolder.open(directory), round_no, seed=round_no)
    keep = ~frame[["table", "set"]].apply(tuple, axis=1).isin(drop)
    return write(frame[keep], tmp_path / f"r{round_no}.parquet")


def test_spec10_add_list_and_withdraw_through_the_cli(event):
    out = run("event", "ledger", "add", event, "not-played", "--round", 1, "--table", 2,
              "--set", 2, "--reason", "ran out of time", "--article", "31")
    assert "Ledger row 1: round 1, table 2, set 2: not played" in out and "[art. 31]" in out
    listed = run("event", "ledger", "list", event, "--round", 1)
    assert "ran out of time" in listed and "in force" in listed
    run("event", "ledger", "withdraw", event, 1, "--reason", "they played it")
    assert "withdrawn by 2" in run("event", "ledger", "list", event)
    ledger = read_ledger(EventFolder.open(event))
    assert ledger["kind"].tolist() == ["not-played", "retract"]
    assert ledger["command"].iloc[0].startswith("guandan-dup event ledger add ")
    assert "--table 2" in ledger["command"].iloc[0]


def test_spec10_a_bad_entry_is_an_error_listing_every_problem_and_writes_nothing(event):
    out = run("event", "ledger", "add", event, "late", "--round", 1, "--table", 9,
              "--side", "N", "--reason", "x", code=1)
    assert "Error: 4 problems in the ledger entry" in out
    for part in ("late needs --set", "late needs --minutes", "round 1 has tables 1-4",
                 "expected NS or EW"):
        assert part in out
    assert not (event / "ledger.parquet").exists()


def test_art33_overtime_names_a_player_and_refuses_a_side_in_an_individual_event(event):
    out = run("event", "ledger", "add", event, "overtime", "--round", 1, "--side", "NS",
              "--minutes", 3, "--reason", "slow", code=1)
    assert "overtime needs --player" in out
    assert "--side does not apply to overtime in an individual event" in out
    assert not (event / "ledger.parquet").exists()


def test_spec10_a_set_that_will_not_be_played_is_not_missing(event, tmp_path):
    run("event", "ledger", "add", event, "not-played", "--round", 1, "--table", 2, "--set", 2,
        "--reason", "no time")
    out = run("event", "ingest", event, results_file(event, 1, tmp_path, drop=[(2, 2)]),
              "--round", 1)
    assert "Every table of the round has results" in out
    from guandan_dup.event.publish import public_sets

    folder = EventFolder.open(event)
    assert public_sets(folder, [1]) == {(1, 1), (1, 2)}


def test_art32_ingestion_refuses_levels_the_late_start_cannot_produce(event, tmp_path):
    frame = set_results(EventFolder.open(event), 1, seed=1)
    first = (frame["table"] == 1) & (frame["set"] == 1)
    frame.loc[first, ["ns_level", "ew_level"]] = ["2", "4"]  # fine from 2/2 (EW +2)
    run("event", "ledger", "add", event, "late", "--round", 1, "--table", 1, "--set", 1,
        "--side", "NS", "--minutes", 7, "--reason", "traffic")
    # EW started at 4, so some board must have moved a side past 2/4
    out = run("event", "ingest", event, write(frame, tmp_path / "r1.parquet"), "--round", 1,
              code=1)
    assert "no set of at most 3 boards starting at 2/4 ends with NS at 2 and EW at 4" in out
    assert not EventFolder.open(event).file(1, "results").exists()


def test_art48_deadline_and_override(event, tmp_path):
    run("event", "ingest", event, results_file(event, 1, tmp_path), "--round", 1)
    run("event", "score", event, "--round", 1)
    # the round ended long ago: its correction deadline has passed
    run("event", "ledger", "add", event, "ends", "--round", 1, "--at", "2026-01-01T10:00:00",
        "--reason", "the schedule")
    refused = run("event", "ledger", "add", event, "penalty", "--round", 1, "--player", "P001",
                  "--points", "1", "--reason", "late scoresheet", code=1)
    assert "this round is final" in refused and "--override" in refused
    run("event", "ledger", "add", event, "penalty", "--round", 1, "--player", "P001",
        "--points", "1", "--reason", "late scoresheet", "--override")
    played = EventFolder.open(event).read(1, "standings").set_index("player")["sets"]
    assert "round 1 is final" in run("event", "score", event, "--round", 1, code=1)
    run("event", "score", event, "--round", 1, "--override")
    ledger = read_ledger(EventFolder.open(event))
    assert ledger["kind"].tolist() == ["ends", "penalty", "override"]
    assert ledger["override"].tolist() == [False, True, True]
    assert ledger["command"].iloc[2] == f"guandan-dup event score {event} --round 1 --override"
    standings = EventFolder.open(event).read(1, "standings").set_index("player")
    assert standings.loc["P001", "penalty"] == 1.0, "also after a round-1 bye"
    assert standings.loc["P001", "sets"] == played["P001"]
    out = run("event", "ingest", event, results_file(event, 1, tmp_path), "--round", 1)
    assert "already stored" in out, "an unchanged file changes nothing and needs no override"


def standings_versions(directory, round_no, name="standings"):
    """Round R's standings before the last scoring (the latest in history/) and now."""
    from guandan_dup.event.diff import versions

    folder = EventFolder.open(directory)
    before = pd.read_parquet(list(versions(folder, round_no, name).values())[-1])
    return before, folder.read(round_no, name)


def said(directory, player, before, after, moved_by):
    """The line ``event diff`` gives a player whose percentage changed."""
    b, a = (frame.set_index("player").loc[player] for frame in (before, after))
    name = EventFolder.open(directory).players().set_index("player").loc[player, "name"]
    rank = (f"rank {b['rank_label']} -> {a['rank_label']}" if b["rank_label"] != a["rank_label"]
            else f"rank {a['rank_label']} as before")
    return (f"  {player} {name}: {b['cumulative']:.2%} -> {a['cumulative']:.2%} "
            f"({(a['cumulative'] - b['cumulative']) * 100:+.2f}), {rank}; moved by {moved_by}")


def test_spec10_diff_says_whose_percentage_a_ledger_row_moved_and_who_moved_past(event,
                                                                                   tmp_path):
    run("event", "ingest", event, results_file(event, 1, tmp_path), "--round", 1)
    run("event", "score", event, "--round", 1)
    leader = EventFolder.open(event).read(1, "standings").sort_values("position").iloc[0]
    run("event", "ledger", "add", event, "penalty", "--round", 1, "--player",
        leader["player"], "--points", 60, "--reason", "unsporting")
    run("event", "score", event, "--round", 1)
    out = run("event", "diff", event, "--round", 1)
    before, after = standings_versions(event, 1)
    lines = out.splitlines()
    assert lines[0].startswith("Round 1, changed since version ")
    assert said(event, leader["player"], before, after, "ledger row 1 (penalty)") in lines
    both = before.merge(after, on="player", suffixes=("", "_now"))
    passed = both[(both["rank_label"] != both["rank_label_now"])
                  & (both["cumulative"] == both["cumulative_now"])]
    assert len(passed), "the players below the leader move up"
    names = EventFolder.open(event).players().set_index("player")["name"]
    for row in passed.itertuples():
        assert (f"  {row.player} {names[row.player]}: rank {row.rank_label} -> "
                f"{row.rank_label_now}, {row.cumulative_now:.2%} as before "
                f"({leader['player']} {names[leader['player']]} moved)") in lines
    assert lines[-1].startswith("Ledger row 1: ") and lines[-1].endswith("(unsporting)")


def test_spec10_diff_with_nothing_changed_says_so(event, tmp_path):
    run("event", "ingest", event, results_file(event, 1, tmp_path), "--round", 1)
    run("event", "score", event, "--round", 1)
    later = (pd.Timestamp.now(tz="UTC") + pd.Timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%S")
    run("event", "ledger", "add", event, "ends", "--round", 1, "--at", later,
        "--reason", "the schedule")
    run("event", "score", event, "--round", 1)
    out = run("event", "diff", event, "--round", 1)
    assert out.splitlines()[0] == "No percentage, position or rank changed."


def test_art51_list_and_diff_print_the_article_and_a_bracketed_reason_verbatim(event, tmp_path):
    run("event", "ingest", event, results_file(event, 1, tmp_path), "--round", 1)
    run("event", "score", event, "--round", 1)
    leader = EventFolder.open(event).read(1, "standings").sort_values("position").iloc[0]
    run("event", "ledger", "add", event, "penalty", "--round", 1, "--player",
        leader["player"], "--points", 60, "--reason", "[/b] phone [bold]", "--article", "41.3")
    listed = run("event", "ledger", "list", event)
    assert "[art. 41.3]" in listed and "[/b] phone [bold]" in listed
    run("event", "score", event, "--round", 1)
    out = run("event", "diff", event, "--round", 1)
    assert "[art. 41.3] ([/b] phone [bold])" in out


def test_spec10_withdrawal_and_late_entry_in_the_movement(event, tmp_path):
    run("event", "ingest", event, results_file(event, 1, tmp_path), "--round", 1)
    run("event", "score", event, "--round", 1)
    run("event", "ledger", "add", event, "withdraw", "--round", 2, "--player", "P003",
        "--reason", "ill")
    run("event", "ledger", "add", event, "enter", "--round", 2, "--player", "P018", "--name",
        "新人", "--reason", "arrived late")
    run("event", "ledger", "add", event, "enter", "--round", 3, "--player", "P019",
        "--reason", "no name given", code=1)  # the plan has 2 rounds
    run("event", "ledger", "add", event, "enter", "--round", 2, "--player", "P019",
        "--reason", "no name given")
    folder = EventFolder.open(event)
    names = folder.players().set_index("player")["name"]
    assert (names["P018"], names["P019"]) == ("新人", "P019")
    run("event", "deal", event, "--round", 2, "--quiet")
    run("event", "seat", event, "--round", 2)
    seating = folder.read(2, "seating")
    seated = set(seating[["north", "east", "south", "west"]].stack())
    byes = set(folder.read(2, "byes")["player"])
    assert "P003" not in seated | byes
    assert {"P018", "P019"} <= seated | byes and len(seated) == 16
    standings = folder.read(1, "standings")
    assert "P003" in set(standings["player"]), "a withdrawn player keeps their results"


def test_spec10_rescoring_a_round_ignores_decisions_about_later_rounds(event, tmp_path):
    run("event", "ingest", event, results_file(event, 1, tmp_path), "--round", 1)
    run("event", "score", event, "--round", 1)
    folder = EventFolder.open(event)
    before = folder.read(1, "standings")
    run("event", "deal", event, "--round", 2, "--quiet")
    run("event", "seat", event, "--round", 2)
    for kind, extra in (("absent", ["--side", "NS"]), ("artificial", ["--result", "A+/A-"]),
                        ("assigned", ["--result", "K/5"])):
        table = {"absent": 1, "artificial": 2, "assigned": 3}[kind]
        run("event", "ledger", "add", event, kind, "--round", 2, "--table", table, "--set", 3,
            *extra, "--reason", "round 2")
    run("event", "ledger", "add", event, "not-played", "--round", 2, "--table", 4, "--set", 4,
        "--reason", "round 2")
    run("event", "score", event, "--round", 1)
    pd.testing.assert_frame_equal(EventFolder.open(event).read(1, "standings"), before)


def test_spec10_the_bye_player_is_in_the_round_1_standings(event, tmp_path):
    run("event", "ingest", event, results_file(event, 1, tmp_path), "--round", 1)
    run("event", "score", event, "--round", 1)
    folder = EventFolder.open(event)
    bye = folder.read(1, "byes")["player"].iloc[0]
    standings = folder.read(1, "standings").set_index("player")
    assert len(standings) == 17 and standings.loc[bye, "sets"] == 0
    assert standings.loc[bye, "position"] == 17 and pd.isna(standings.loc[bye, "cumulative"])


def test_art51_exports_show_the_penalty_with_reason_and_article_and_art48_provisional(event,
                                                                                     tmp_path):
    run("event", "ingest", event, results_file(event, 1, tmp_path), "--round", 1)
    run("event", "ledger", "add", event, "penalty", "--round", 1, "--player", "P002",
        "--points", "2.5", "--reason", "mobile phone rang", "--article", "41.3")
    run("event", "score", event, "--round", 1)
    run("event", "export", event, "--format", "md")
    text = (event / "exports" / "standings-round-1.md").read_text(encoding="utf-8")
    assert "provisional" in text and "罚分 Penalty" in text, text  # P002 may have had a bye
    assert "mobile phone rang" in text and "41.3" in text and "2.5" in text
    run("event", "ledger", "add", event, "ends", "--round", 1, "--at", "2026-01-01T10:00:00",
        "--reason", "the schedule")
    run("event", "export", event, "--format", "md")
    text = (event / "exports" / "standings-round-1.md").read_text(encoding="utf-8")
    assert "provisional" not in text, "final after the correction deadline"


def test_spec10_publication_hook_lists_the_sets_that_will_not_be_played(event):
    from guandan_dup.event.ledger import will_not_play_rows

    run("event", "ledger", "add", event, "absent", "--round", 1, "--table", 3, "--side", "EW",
        "--reason", "no show")
    assert will_not_play_rows(EventFolder.open(event)) == {(1, 3, 1), (1, 3, 2)}


def test_art52_the_cli_says_which_step_a_repeat_takes(event):
    first = run("event", "ledger", "add", event, "penalty", "--round", 1, "--player", "P001",
                "--scale", "4", "--reason", "slow play")
    second = run("event", "ledger", "add", event, "penalty", "--round", 1, "--player", "P001",
                 "--scale", "4", "--reason", "slow play again")
    decision = first.splitlines()[0]  # the next line names the folder: /tmp/pytest-0/...
    assert "scale 4, first offence: warning" in decision and "-0" not in decision
    assert "scale 4, second offence: -1 percentage point off the cumulative average" in second


def test_spec10_a_substitute_sits_in_the_seat_and_scores_for_the_player_replaced(event,
                                                                                 tmp_path):
    frame = set_results(EventFolder.open(event), 1, seed=1)
    replaced = frame["north"].iloc[0]
    frame.loc[frame["north"] == replaced, "north"] = "SUB1"
    path = write(frame, tmp_path / "r1.parquet")
    assert "the seating has" in run("event", "ingest", event, path, "--round", 1, code=1)
    run("event", "ledger", "add", event, "substitute", "--round", 1, "--player", "SUB1",
        "--for", replaced, "--reason", "family emergency")
    run("event", "ingest", event, path, "--round", 1)
    run("event", "score", event, "--round", 1)
    folder = EventFolder.open(event)
    assert "SUB1" in set(folder.read(1, "results")["north"]), "the results say who played"
    standings = folder.read(1, "standings").set_index("player")
    assert "SUB1" not in standings.index and standings.loc[replaced, "sets"] == 2


def test_spec10_diff_names_the_result_that_moved_each_percentage(event, tmp_path):
    frame = set_results(EventFolder.open(event), 1, seed=1)
    run("event", "ingest", event, write(frame, tmp_path / "r1.parquet"), "--round", 1)
    run("event", "score", event, "--round", 1)
    first = frame[frame["set"] == 1]
    level = first[["ns_level", "ew_level"]].map(LEVEL_NAMES.index)
    margin = (level["ns_level"] - level["ew_level"]).set_axis(first["table"])
    fix = frame[(frame["table"] == 2) & (frame["set"] == 1)].copy()
    ns, ew = fix[["ns_level", "ew_level"]].iloc[0]
    # from the top of the field to its bottom, or to its top: table 2's rates must move
    fix[["ns_level", "ew_level"]] = ["2", "J"] if margin[2] == margin.max() else ["J", "2"]
    run("event", "ingest", event, write(fix, tmp_path / "fix.parquet"), "--round", 1)
    run("event", "score", event, "--round", 1)
    out = run("event", "diff", event, "--round", 1)
    after = "/".join(fix[["ns_level", "ew_level"]].iloc[0])
    seated = fix[["north", "east", "south", "west"]].iloc[0]
    names = people_of(EventFolder.open(event))
    assert (f"Result of table 2 set 1 changed: {ns}/{ew} -> {after} "
            f"(N {names.player(seated['north'])} · E {names.player(seated['east'])} · "
            f"S {names.player(seated['south'])} · W {names.player(seated['west'])})"
            ) in out.splitlines()
    before, now = standings_versions(event, 1)
    moved = before.merge(now, on="player")
    moved = moved[(moved["cumulative_x"] != moved["cumulative_y"]) & moved["sets_y"].gt(0)]
    moved = moved["player"]
    seats = fix[["north", "east", "south", "west"]].iloc[0].tolist()
    assert set(seats) & set(moved), out
    cause = f"the result of table 2 set 1 ({ns}/{ew} -> {after})"
    for player in moved:
        assert said(event, player, before, now, cause) in out.splitlines()


def test_spec10_diff_of_a_team_event_reads_out_the_teams_match_points(tmp_path):
    directory, folder = scored_cup(tmp_path)
    run("event", "ledger", "add", directory, "penalty", "--team", 2, "--match-points", 3,
        "--round", 1, "--reason", "slow play")
    run("event", "score", directory, "--round", 1)
    out = run("event", "diff", directory, "--round", 1)
    before, after = (f.set_index("team").loc[2]
                     for f in standings_versions(directory, 1, "team_standings"))
    name = pd.read_parquet(directory / "teams.parquet").set_index("team").loc[2, "name"]
    rank = (f"rank {before['rank_label']} -> {after['rank_label']}"
            if before["rank_label"] != after["rank_label"]
            else f"rank {after['rank_label']} as before")
    assert (f"  team 2 {name}: 场分 {before['match_points']:g} -> {after['match_points']:g} "
            f"(-3), {rank}; moved by ledger row 1 (penalty)") in out.splitlines()


def scored_pairs(tmp_path):
    """A pairs event of 16 players (8 pairs), 2 rounds of 1 set; round 1 played and scored."""
    directory = tmp_path / "pairs"
    run("event", "init", directory, "--players", players_csv(tmp_path / "p.csv", 16, "pairs"),
        "--tables-per-group", 4, "--sets-per-round", 1, "--boards-per-set", 2, "--rounds", 2,
        "--kind", "pairs")
    folder = EventFolder.open(directory)
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1)
    run("event", "ingest", directory, write(set_results(folder, 1), tmp_path / "r.parquet"),
        "--round", 1)
    run("event", "score", directory, "--round", 1)
    return directory, folder


def test_spec10_a_withdrawal_in_a_pairs_event_takes_the_pair_out(tmp_path):
    directory, folder = scored_pairs(tmp_path)
    players = folder.players()
    leaving = players["player"].iloc[0]
    partner = players[(players["pair"] == players["pair"].iloc[0])
                      & (players["player"] != leaving)]["player"].iloc[0]
    run("event", "ledger", "add", directory, "withdraw", "--round", 2, "--player", leaving,
        "--reason", "ill")
    run("event", "deal", directory, "--round", 2, "--quiet")
    run("event", "seat", directory, "--round", 2)
    seating = folder.read(2, "seating")
    seated = set(seating[["north", "east", "south", "west"]].stack())
    assert leaving not in seated and partner not in seated
    byes = set(folder.read(2, "byes")["player"])
    assert leaving not in byes and len(seated | byes) == 14


def test_art34_a_team_forfeit_in_the_ledger_scores_the_match(tmp_path):
    directory, folder = swiss_cup(tmp_path, [4, 4, 4, 4], 3, dealt=(1,))
    match = folder.read(1, "matches").iloc[0]
    away, home = int(match["away"]), int(match["home"])
    out = run("event", "ledger", "add", directory, "absent", "--round", 1, "--team", away,
              "--reason", "did not come", "--article", "34")
    assert out.splitlines() == [
        f"Ledger row 1: round 1: {people_of(folder).team(away)} absent: a forfeit (art. 34) "
        "[art. 34]",
        f"It applies when round 1 is scored (`guandan-dup event score {directory} --round 1`, "
        "once its results are in)."]
    results = set_results(folder, 1, seed=1)
    rooms = results["table"].isin([int(match["open_table"]), int(match["closed_table"])])
    out = run("event", "ingest", directory, write(results[~rooms], tmp_path / "r1.parquet"),
              "--round", 1)
    assert "Every table of the round has results" in out
    run("event", "score", directory, "--round", 1)
    scored = folder.read(1, "match_results").set_index("team")
    assert scored.loc[away, "match_points"] == 0 and scored.loc[home, "match_points"] == 2
    assert scored.loc[home, "level_points"] == 17


def test_art51_art48_the_site_lists_penalties_and_marks_rounds_in_their_correction_time(
        event, tmp_path):
    run("event", "ingest", event, results_file(event, 1, tmp_path), "--round", 1)
    run("event", "ledger", "add", event, "penalty", "--round", 1, "--player", "P002",
        "--points", "2.5", "--reason", "mobile phone rang", "--article", "41.3")
    run("event", "score", event, "--round", 1)
    run("event", "site", event, "--out", tmp_path / "site", "--quiet")
    page = (tmp_path / "site" / "standings" / "round-1.html").read_text(encoding="utf-8")
    assert 'id="decisions"' in page and "mobile phone rang" in page and "41.3" in page
    assert 'id="provisional"' in page and "第四十八条" in page
    run("event", "ledger", "add", event, "ends", "--round", 1, "--at", "2026-01-01T10:00:00",
        "--reason", "the schedule")
    run("event", "site", event, "--out", tmp_path / "site", "--quiet")
    page = (tmp_path / "site" / "standings" / "round-1.html").read_text(encoding="utf-8")
    assert 'id="provisional"' not in page and "第四十八条" not in page


def test_spec10_diff_in_a_pairs_event_says_a_penalty_moved_both_partners(tmp_path):
    directory, folder = scored_pairs(tmp_path)
    players = folder.players()
    pair = players[players["pair"] == players["pair"].iloc[0]]["player"].tolist()
    run("event", "ledger", "add", directory, "penalty", "--round", 1, "--player", pair[0],
        "--points", 50, "--reason", "phone")
    run("event", "score", directory, "--round", 1)
    lines = run("event", "diff", directory, "--round", 1).splitlines()
    before, after = standings_versions(directory, 1)
    for player in pair:
        assert said(directory, player, before, after, "ledger row 1 (penalty)") in lines
    same = [line for line in lines if re.search(r"rank (\S+) -> \1,", line)]
    assert not same, "a new order within a tie is not a change of rank to read out"


def test_spec10_diff_of_a_team_event_names_the_result_that_moved_both_teams(tmp_path):
    directory, folder = scored_cup(tmp_path)
    fix = set_results(folder, 1, seed=1)
    fix = fix[(fix["table"] == 1) & (fix["set"] == 1)].copy()
    ns, ew = fix[["ns_level", "ew_level"]].iloc[0]
    fix[["ns_level", "ew_level"]] = [ew, ns] if ns != ew else ["J", "2"]  # the result turns
    run("event", "ingest", directory, write(fix, tmp_path / "fix.parquet"), "--round", 1)
    run("event", "score", directory, "--round", 1)
    lines = run("event", "diff", directory, "--round", 1).splitlines()
    before, after = (f.set_index("team")
                     for f in standings_versions(directory, 1, "team_standings"))
    teams = pd.read_parquet(directory / "teams.parquet").set_index("team")["name"]
    cause = (f"the result of table 1 set 1 ({ns}/{ew} -> "
             f"{'/'.join(fix[['ns_level', 'ew_level']].iloc[0])})")
    seated = folder.players().set_index("player").loc[fix[["north", "east"]].iloc[0], "team"]
    for team in seated.astype(int):
        b, a = before.loc[team], after.loc[team]
        figures = [f"{label} {b[c]:{f}} -> {a[c]:{f}} ({a[c] - b[c]:+{f}})"
                   for c, label, f in (("match_points", "场分", "g"),
                                       ("level_points", "级差分", ".2f")) if b[c] != a[c]]
        rank = (f"rank {b['rank_label']} -> {a['rank_label']}"
                if b["rank_label"] != a["rank_label"] else f"rank {a['rank_label']} as before")
        assert f"  team {team} {teams[team]}: {', '.join(figures)}, {rank}; moved by {cause}" \
            in lines
