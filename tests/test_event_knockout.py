"""A pairs knockout in an event folder, through the CLI (seed 003; SPEC 9)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from event_support import (
    decided_results,
    pairs_knockout,
    play_knockout_round,
    players_csv,
    run,
    set_results,
    snapshot,
    write,
)
from typer.testing import CliRunner

from guandan_dup.cli.app import app
from guandan_dup.event import EventFolder, event_status
from guandan_dup.event.people import people_of

runner = CliRunner()


def round_one(tmp_path: Path) -> tuple[Path, pd.DataFrame]:
    """A knockout of 4 pairs seated for round 1, and its results with table 2 level (5 : 5)."""
    directory = pairs_knockout(tmp_path, 4)
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1)
    results = set_results(EventFolder.open(directory), 1)
    results.loc[results["table"] == 2, ["ns_level", "ew_level"]] = "5"
    return directory, results


def test_seed003_whole_pairs_knockout_of_twelve_pairs(tmp_path):
    directory = pairs_knockout(tmp_path, 12)
    folder = EventFolder.open(directory)
    layout = folder.plan.event_format.layout(folder.plan)
    assert (folder.plan.rounds, folder.plan.format, layout) == (4, "knockout", "lot")
    outputs = [play_knockout_round(tmp_path, directory, r) for r in range(1, 5)]
    assert "has a bye" in outputs[0] and "Final places: 1 " in outputs[3]
    first = folder.read(1, "bracket")
    assert list(first.columns) == ["round", "match", "table", "side_a", "side_b", "places",
                                   "winner", "decided_by"]
    assert (first["side_b"].isna() == (first["decided_by"] == "bye")).all()
    assert len(folder.read(1, "seating")) == 4 and len(folder.read(1, "byes")) == 8
    last = folder.read(4, "bracket")
    assert last["places"].tolist() == ["main", "3-4", "5-6", "7-8"]
    places = pd.read_parquet(directory / "places.parquet")
    assert list(places.columns) == ["side", "place", "place_label"]
    assert places["place_label"].tolist() == [str(p) for p in range(1, 9)] + ["9="] * 4
    assert places["side"].iloc[0] == last.loc[last["places"] == "main", "winner"].item()
    status = run("event", "status", directory)
    assert "Places: places.parquet" in status and "Next: guandan-dup event export" in status
    run("event", "export", directory, "--format", "md")
    exported = (directory / "exports" / "bracket.md").read_text(encoding="utf-8")
    assert "轮空 bye" in exported and "第4轮 Round 4" in exported
    assert (directory / "exports" / "places.md").exists()


def test_art49_level_match_without_tiebreak_is_refused_at_ingest(tmp_path):
    directory, results = round_one(tmp_path)
    before = snapshot(directory)
    out = run("event", "ingest", directory, write(results, tmp_path / "r1.parquet"),
              "--round", 1, code=1)
    assert "row 2, column 'tiebreak'" in out and "the levels are equal (5 each)" in out
    assert "extra boards" in out and snapshot(directory) == before
    results["tiebreak"] = [None, "NS"]
    run("event", "ingest", directory, write(results, tmp_path / "r1.parquet"), "--round", 1)
    run("event", "score", directory, "--round", 1)
    bracket = EventFolder.open(directory).read(1, "bracket")
    assert bracket.loc[bracket["table"] == 2, "decided_by"].item() == "extra boards"
    assert bracket.loc[bracket["table"] == 2, "winner"].item() == bracket.loc[
        bracket["table"] == 2, "side_a"].item()


def test_a_forfeit_is_an_adjusted_row(tmp_path):
    directory, results = round_one(tmp_path)
    results.loc[0, ["ns_level", "ew_level", "adjusted"]] = [None, None, "A-/A+"]
    results["tiebreak"] = [None, "EW"]  # table 2 is level
    run("event", "ingest", directory, write(results, tmp_path / "r1.parquet"), "--round", 1)
    run("event", "score", directory, "--round", 1)
    bracket = EventFolder.open(directory).read(1, "bracket")
    forfeit = bracket[bracket["table"] == 1].iloc[0]
    assert (forfeit["decided_by"], forfeit["winner"]) == ("forfeit", forfeit["side_b"])


def test_next_round_waits_for_the_round_before(tmp_path):
    directory = pairs_knockout(tmp_path, 4)
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1)
    out = run("event", "seat", directory, "--round", 2, code=1)
    assert "round 1 match 1 is not decided yet" in out


def test_a_seeding_list_gives_the_byes_to_the_top_seeds(tmp_path):
    seeding = tmp_path / "seeding.csv"
    seeding.write_text("id\nP009\nP001\nP005\n", encoding="utf-8")
    directory = pairs_knockout(tmp_path, 5, "--seeding", seeding)
    folder = EventFolder.open(directory)
    assert folder.plan.event_format.layout(folder.plan) == "seeded"
    run("event", "seat", directory, "--round", 1)
    first = folder.read(1, "bracket")
    assert sorted(first.loc[first["side_b"].isna(), "side_a"]) == ["D001", "D003", "D005"]


@pytest.mark.parametrize(
    ("pairs", "boards", "says"),
    [
        (2, 1, "2 entries (lot), 1 round of one set of 1 board."),
        (5, 3, "5 entries (lot), 3 rounds of one set of 3 boards."),
    ],
)
def test_init_says_the_knockout_shape_in_words(tmp_path, pairs, boards, says):
    csv = players_csv(tmp_path / "players.csv", 2 * pairs, "pairs")
    out = run("event", "init", tmp_path / "ko", "--kind", "pairs", "--format", "knockout",
              "--players", csv, "--boards-per-set", boards)
    assert says in out


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (("--rounds", "3"), "leave out --rounds"),
        (("--rounds", "0"), "leave out --rounds"),  # a 0 is given, not forgotten
        (("--tables-per-group", "2", "--sets-per-round", "1"), "--tables-per-group"),
    ],
)
def test_a_knockout_takes_its_shape_from_its_entries(tmp_path, extra, says):
    csv = players_csv(tmp_path / "players.csv", 8, "pairs")
    out = run("event", "init", tmp_path / "ko", "--kind", "pairs", "--format", "knockout",
              "--players", csv, "--boards-per-set", 3, *extra, code=1)
    assert says in out and not (tmp_path / "ko").exists()


def test_status_follows_the_bracket(tmp_path):
    directory = pairs_knockout(tmp_path, 6)
    play_knockout_round(tmp_path, directory, 1)
    state = event_status(EventFolder.open(directory))
    assert [r.expected_results for r in state.rounds] == [2, 2, 3]
    assert state.rounds[0].scored and not state.rounds[1].seated
    assert "Round 1: 4 of 4 matches decided (rounds/1/bracket.parquet)" in state.notes
    assert state.notes[0] == "Knockout of 6 pairs (lot): 3 rounds, places 1-6 played out"
    assert state.next_step() == f"guandan-dup event deal {directory} --round 2"


def test_a_correction_after_the_next_round_is_seated_asks_to_seat_it_again(tmp_path):
    directory = pairs_knockout(tmp_path, 4)
    play_knockout_round(tmp_path, directory, 1)
    run("event", "seat", directory, "--round", 2)
    folder = EventFolder.open(directory)
    results = folder.read(1, "results")
    first = results.iloc[[0]].copy()
    winner_was = folder.read(1, "bracket").loc[lambda b: b["table"] == 1, "winner"].item()
    ns_won = winner_was == folder.read(1, "bracket").loc[lambda b: b["table"] == 1,
                                                         "side_a"].item()
    first["ns_level"], first["ew_level"] = ("2", "5") if ns_won else ("5", "2")
    keep = ["round", "group", "table", "set", "north", "east", "south", "west"]
    file = write(first[keep + ["ns_level", "ew_level"]], tmp_path / "fix.parquet")
    run("event", "ingest", directory, file, "--round", 1)
    out = runner.invoke(app, ["event", "score", str(directory), "--round", "1"])
    assert out.exit_code == 0, out.output
    assert "round 2 was seated from round 1's earlier winners; seat it again" in out.output
    run("event", "seat", directory, "--round", 2)
    final = folder.read(2, "bracket").iloc[0]
    assert final["places"] == "main" and winner_was not in (final["side_a"], final["side_b"])


def test_every_problem_of_a_knockout_results_file_is_listed_at_once(tmp_path):
    directory, results = round_one(tmp_path)
    results.loc[results["table"] == 1, "north"] = "P099"
    out = run("event", "ingest", directory, write(results, tmp_path / "r1.parquet"),
              "--round", 1, code=1)
    assert "2 problems" in out and "column 'north'" in out and "column 'tiebreak'" in out


def test_the_whole_bracket_is_drawn_before_play(tmp_path):
    """Right after the draw the site and the export show every round: the later ones with
    where their sides come from, so the bracket can be printed and pinned up."""
    from guandan_dup.event.publish import publish_site

    directory = pairs_knockout(tmp_path, 12)
    seated = run("event", "seat", directory, "--round", 1)
    assert "Match 1 (main): " in seated and " has a bye" in seated
    assert "Match 2 (main), table 1: " in seated and "(N-S) v " in seated
    folder = EventFolder.open(directory)
    page = publish_site(folder).parent / "bracket.html"
    html = page.read_text(encoding="utf-8")
    assert all(f'id="round-{r}"' in html for r in (1, 2, 3, 4))
    assert "第 1 轮第 2 场胜者" in html and "第 3 轮第 3 场负者" in html  # QF, then 7-8
    run("event", "export", directory, "--format", "md")  # the draw, before any score
    exported = (directory / "exports" / "bracket.md").read_text(encoding="utf-8")
    assert "第1轮第1场胜者 winner of round 1 match 1" in exported
    assert not (directory / "exports" / "places.md").exists()
    first = folder.read(1, "bracket")
    lot = first.loc[first["table"] == 1, ["side_a", "side_b"]].iloc[0].tolist()
    assert html.count(f"{lot[0]}</span>") >= 1 and html.count(f"{lot[1]}</span>") >= 1


def test_spec10_a_match_result_waits_until_every_table_has_played_the_set(tmp_path):
    """Round 1's two matches play the same deals: while table 2 still plays, table 1's
    levels ("7 : 3") appear in no export and not on the bracket page; once table 2 is in,
    both results do."""
    from guandan_dup.event.publish import publish_site

    directory, results = round_one(tmp_path)
    results[["ns_level", "ew_level"]] = [["7", "3"], ["2", "8"]]
    first = write(results[results["table"] == 1], tmp_path / "t1.parquet")
    run("event", "ingest", directory, first, "--round", 1)
    formats = ("csv", "md", "html")

    def published() -> list[str]:
        run("event", "export", directory, *[a for f in formats for a in ("--format", f)])
        site = publish_site(EventFolder.open(directory)).parent / "bracket.html"
        exports = [directory / "exports" / f"bracket.{f}" for f in formats]
        return [p.read_text(encoding="utf-8") for p in (*exports, site)]

    assert not [text for text in published() if "7 : 3" in text]
    second = write(results[results["table"] == 2], tmp_path / "t2.parquet")
    run("event", "ingest", directory, second, "--round", 1)
    assert all("7 : 3" in text and "2 : 8" in text for text in published())


def test_issue25_a_pairs_knockout_reads_its_matches_with_the_pairs_names(tmp_path):
    """event seat, event score and event status name each pair: "D001 王伟 / 李芳"."""
    directory = pairs_knockout(tmp_path, 3)
    run("event", "deal", directory, "--round", 1, "--quiet")
    seated = run("event", "seat", directory, "--round", 1).splitlines()
    folder = EventFolder.open(directory)
    pair = people_of(folder).pair
    bracket = folder.read(1, "bracket")
    assert seated[:-1] == [
        f"Match {m.match} ({m.places}): {pair(m.side_a)} has a bye" if pd.isna(m.side_b) else
        f"Match {m.match} ({m.places}), table {int(m.table)}: {pair(m.side_a)} (N-S) v "
        f"{pair(m.side_b)} (E-W)" for m in bracket.itertuples()]
    assert " / " in pair("D001"), "a pair is read with its players' names"
    run("event", "ingest", directory, write(decided_results(directory, 1), tmp_path / "r1.parquet"),
        "--round", 1)
    scored = run("event", "score", directory, "--round", 1).splitlines()
    decided = EventFolder.open(directory).read(1, "bracket")
    assert scored[1:] == [
        f"  match {m.match} ({m.places}): {pair(m.side_a)} has a bye" if pd.isna(m.side_b)
        else f"  match {m.match} ({m.places}): {pair(m.side_a)} v {pair(m.side_b)}, "
        f"{pair(m.winner)} wins ({m.decided_by})" for m in decided.itertuples()]
    play_knockout_round(tmp_path, directory, 2)
    status = run("event", "status", directory).splitlines()
    places = pd.read_parquet(directory / "places.parquet")
    assert f"Places: places.parquet; winner {pair(places['side'].iloc[0])}" in status
