"""A team knockout seeded from a finished Swiss, through the CLI (seed 000 art. 29.1, 49.2;
SPEC 9): the top teams by final position, 1 v 4 and 2 v 3 with the better-placed team at
home, matches decided by 场分 and, when level, by extra boards naming the winning team."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest
from event_support import run, set_results, snapshot, team_knockout_by_lot, write
from typer.testing import CliRunner

from guandan_dup.cli.app import app
from guandan_dup.event import EventFolder, event_status
from guandan_dup.event.entrants import demo_teams
from guandan_dup.event.formats.team_knockout import match_text
from guandan_dup.event.formats.team_matches import teams_of
from guandan_dup.event.rehearse import rehearse_teams
from guandan_dup.levels import LEVEL_NAMES as LEVELS

runner = CliRunner()


@pytest.fixture(scope="module")
def swiss(tmp_path_factory) -> Path:
    """A finished Swiss of 6 teams (3 rounds), played by the random model, its rounds past
    their correction time (art. 48: each ended long ago)."""
    path = tmp_path_factory.mktemp("swiss") / "swiss"
    rehearse_teams(path, teams=6, rounds=3, boards_per_set=3, seed=2)
    for r in (1, 2, 3):
        run("event", "ledger", "add", path, "ends", "--round", r, "--at", "2026-05-01T10:00",
            "--reason", "played")
    return path


def final_labels(swiss: Path) -> list[str]:
    folder = EventFolder.open(swiss)
    standings = folder.read(3, "team_standings").sort_values("position")
    label = dict(zip(teams_of(folder)["team"], teams_of(folder)["label"], strict=True))
    return [label[t] for t in standings["team"]]


def init_knockout(tmp_path: Path, swiss: Path, top: int = 4) -> Path:
    players, _ = demo_teams(6)
    csv = tmp_path / "players.csv"
    players.to_csv(csv, index=False)
    directory = tmp_path / "ko"
    out = run("event", "init", directory, "--kind", "teams", "--format", "knockout",
              "--players", csv, "--boards-per-set", 3, "--seed-from", swiss, "--top", top)
    assert f"{top} entries (seeded)" in out
    return directory


def level(results: pd.DataFrame, tables: list[int]) -> pd.DataFrame:
    """Both rooms of a match at 3 : 3, so the match is level on every count."""
    results = results.copy()
    results.loc[results["table"].isin(tables), ["ns_level", "ew_level"]] = "3"
    return results


def test_art29_team_knockout_seeded_from_a_finished_swiss(tmp_path, swiss):
    directory = init_knockout(tmp_path, swiss)
    folder = EventFolder.open(directory)
    assert (folder.plan.format, folder.plan.options.teams, folder.plan.rounds) == ("knockout", 4, 2)
    assert teams_of(folder)["label"].tolist() == final_labels(swiss)[:4]
    assert set(folder.players()["team"]) == {1, 2, 3, 4}  # the others did not go through
    run("event", "deal", directory, "--round", 1, "--quiet")
    seated = run("event", "seat", directory, "--round", 1)  # teams named since h10b
    assert "Match 1: team 1 " in seated and " (home) v team 4 " in seated
    matches = folder.read(1, "matches")
    assert matches[["home", "away", "open_table", "closed_table"]].values.tolist() == [
        [1, 4, 1, 3], [2, 3, 2, 4]]
    results = level(set_results(folder, 1), [1, 3])
    before = snapshot(directory)
    out = run("event", "ingest", directory, write(results, tmp_path / "r1.parquet"), "--round",
              1, code=1)
    assert "column 'tiebreak'" in out and "level on 场分, 级差分 and 级差" in out
    assert snapshot(directory) == before
    fourth = teams_of(folder).set_index("team").loc[4, "label"]
    results["tiebreak"] = results["table"].map({3: fourth})
    run("event", "ingest", directory, write(results, tmp_path / "r1.parquet"), "--round", 1)
    out = run("event", "score", directory, "--round", 1)
    named = {t: f"team {t} {n}" for t, n in zip(teams_of(folder)["team"], teams_of(folder)["name"],
                                                  strict=True)}
    assert f"match 1 (main): {named[1]} v {named[4]}, {named[4]} wins (extra boards)" in out
    first = folder.read(1, "bracket")
    assert first.loc[0, ["winner", "decided_by"]].tolist() == ["4", "extra boards"]
    assert first.loc[1, "decided_by"] in ("场分", "extra boards")
    run("event", "deal", directory, "--round", 2, "--quiet")
    run("event", "seat", directory, "--round", 2)
    assert folder.read(2, "bracket")["places"].tolist() == ["main", "3-4"]
    decide_round_two(tmp_path, directory)
    places = pd.read_parquet(directory / "places.parquet")
    final = folder.read(2, "bracket").set_index("places")
    assert places["side"].tolist() == [
        final.loc["main", "side_a"], final.loc["main", "side_b"],
        final.loc["3-4", "side_a"], final.loc["3-4", "side_b"]]
    assert final.loc["main", "decided_by"] == "场分"
    assert final.loc["3-4", "decided_by"] == "forfeit"
    run("event", "export", directory, "--format", "md")
    exported = (directory / "exports" / "places.md").read_text(encoding="utf-8")
    assert teams_of(folder).set_index("team").loc[int(places["side"].iloc[0]), "name"] in exported
    run("event", "site", directory, "--quiet")
    page = (directory / "site" / "bracket.html").read_text(encoding="utf-8")
    assert "sets/set-2.html#t1" in page and "弃权" in page  # the 3-4 forfeit
    name = teams_of(folder).set_index("team")["name"]
    results = re.findall(r'<a href="sets/set-\d\.html#t\d">([^<]*)</a> <span class="decided">'
                         r'([^<]*)</span>', page)
    assert results[0] == (f"{name[4]} 1 : 1 (+0)", "加赛")  # team 4 won the extra boards
    assert results[2:] == [(f"{name[int(final.loc['main', 'winner'])]} 2 : 0 (+6)", "场分"),
                           (f"{name[int(final.loc['3-4', 'side_a'])]} 2 : 0", "弃权")]


def decide_round_two(tmp_path: Path, directory: Path) -> None:
    """The final won by the home team at the tables (级差 +6), the 3-4 match a forfeit of
    the away team (both rooms adjusted: home A+, away A-)."""
    folder = EventFolder.open(directory)
    matches = folder.read(2, "matches").set_index("match")
    results = set_results(folder, 2)
    final, third = matches.loc[1], matches.loc[2]
    rows = {int(final["open_table"]): ("2", "5", None),
            int(final["closed_table"]): ("5", "2", None),
            int(third["open_table"]): (None, None, "A-/A+"),
            int(third["closed_table"]): (None, None, "A+/A-")}
    for table, (ns, ew, adjusted) in rows.items():
        results.loc[results["table"] == table, ["ns_level", "ew_level", "adjusted"]] = [
            ns, ew, adjusted]
    run("event", "ingest", directory, write(results, tmp_path / "r2.parquet"), "--round", 2)
    out = run("event", "score", directory, "--round", 2)
    winner = folder.read(2, "bracket").set_index("places").loc["main", "winner"]
    name = teams_of(folder).set_index("team").loc[int(winner), "name"]
    assert f"Final places: 1 team {winner} {name}, 2 team " in out  # teams read out by name


@pytest.mark.parametrize(
    ("named", "says"),
    [
        ("second", "names neither team of the match (1 v 4)"),  # team 2 plays match 2
        ("nobody", "names no team of the event"),
    ],
)
def test_art49_tiebreak_naming_a_team_outside_the_match_is_refused(tmp_path, swiss, named,
                                                                   says):
    directory = init_knockout(tmp_path, swiss)
    folder = EventFolder.open(directory)
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1)
    value = teams_of(folder).set_index("team").loc[2, "label"] if named == "second" else named
    results = level(set_results(folder, 1), [1, 3])
    results["tiebreak"] = results["table"].map({3: value})
    before = snapshot(directory)
    out = run("event", "ingest", directory, write(results, tmp_path / "r1.parquet"), "--round",
              1, code=1)
    assert f"column 'tiebreak': value '{value}': match at tables 1 and 3: {says}" in out
    assert snapshot(directory) == before


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (("--top", "9"), "between 2 and 6 may go through"),
        (("--top", "4", "--rounds", "2"), "leave out --rounds"),
    ],
)
def test_seed_from_refusals(tmp_path, swiss, extra, says):
    players, _ = demo_teams(6)
    players.to_csv(tmp_path / "players.csv", index=False)
    out = run("event", "init", tmp_path / "ko", "--kind", "teams", "--format", "knockout",
              "--players", tmp_path / "players.csv", "--boards-per-set", 3, "--seed-from", swiss,
              *extra, code=1)
    assert says in out and not (tmp_path / "ko").exists()


def test_seed_from_an_unfinished_stage_is_refused(tmp_path, swiss):
    copy = shutil.copytree(swiss, tmp_path / "unfinished")
    (copy / "rounds" / "3" / "team_standings.parquet").unlink()
    players, _ = demo_teams(6)
    players.to_csv(tmp_path / "players.csv", index=False)
    out = run("event", "init", tmp_path / "ko", "--kind", "teams", "--format", "knockout",
              "--players", tmp_path / "players.csv", "--boards-per-set", 3, "--seed-from", copy,
              code=1)
    assert "is not finished" in out


def decisive_results(folder: EventFolder, round_no: int) -> pd.DataFrame:
    """The random model's rooms, the away team named for the extra boards of a level match."""
    results = set_results(folder, round_no, seed=round_no).set_index("table")
    index = {name: i for i, name in enumerate(LEVELS)}
    results["tiebreak"] = None
    for m in folder.read(round_no, "matches").dropna(subset=["away"]).itertuples():
        open_room, closed = results.loc[m.open_table], results.loc[m.closed_table]
        levels = (index[open_room.ew_level] - index[open_room.ns_level]
                  + index[closed.ns_level] - index[closed.ew_level])
        if levels == 0:
            results.loc[m.open_table, "tiebreak"] = str(m.away)
    return results.reset_index()


def test_six_teams_byes_to_the_top_two_and_places_one_to_six(tmp_path):
    directory = team_knockout_by_lot(tmp_path, 6)
    folder = EventFolder.open(directory)
    for r in (1, 2, 3):
        run("event", "deal", directory, "--round", r, "--quiet")
        run("event", "seat", directory, "--round", r)
        file = write(decisive_results(folder, r), tmp_path / f"r{r}.parquet")
        run("event", "ingest", directory, file, "--round", r)
        run("event", "score", directory, "--round", r)
    first = folder.read(1, "bracket")
    assert first.loc[first["side_b"].isna(), "side_a"].tolist() == ["1", "2"]
    assert folder.read(1, "matches")["closed_table"].dropna().tolist() == [3, 4]
    assert [len(folder.read(r, "seating")) for r in (1, 2, 3)] == [4, 4, 6]
    places = pd.read_parquet(directory / "places.parquet")
    assert places["place"].tolist() == [1, 2, 3, 4, 5, 6]
    run("event", "export", directory, "--format", "md")
    assert "轮空 bye" in (directory / "exports" / "bracket.md").read_text(encoding="utf-8")


def test_simulate_a_team_knockout_with_bots(tmp_path):
    """Bots play both rooms; a level match plays extra deals in both rooms until decided."""
    out = tmp_path / "sim"
    result = runner.invoke(app, ["simulate", "--knockout", "teams", "--teams", "8",
                                 "--boards-per-set", "2", "--out", str(out), "--seed", "2",
                                 "--quiet"])
    assert result.exit_code == 0, result.output
    assert "Simulated a knockout of 8 teams" in result.output
    folder = EventFolder.open(out)
    assert pd.read_parquet(out / "places.parquet")["place"].tolist() == list(range(1, 9))
    for r in (1, 2, 3):
        bracket = folder.read(r, "bracket")
        scored = folder.read(r, "match_results")
        level = scored[scored["home"].eq(True).fillna(False) & (scored["levels"] == 0)]
        extra = bracket[bracket["decided_by"] == "extra boards"]
        assert sorted(extra["match"]) == sorted(level["match"])
    first = pd.read_parquet(out / "places.parquet")["side"].iloc[0]
    name = teams_of(folder).set_index("team").loc[int(first), "name"]
    assert f"Places: places.parquet; winner team {first} {name}" in event_status(folder).notes


def knockout_init(tmp_path: Path, swiss: Path, *extra, code: int = 0) -> str:
    """``event init`` of a knockout in ``tmp_path / "ko"`` seeded from ``swiss``'s top 4,
    run from ``tmp_path`` with relative folders (as a director types them)."""
    players, _ = demo_teams(6)
    players.to_csv(tmp_path / "players.csv", index=False)
    result = runner.invoke(app, [
        "event", "init", "ko", "--kind", "teams", "--format", "knockout", "--players",
        "players.csv", "--boards-per-set", "3", "--seed-from", os.path.relpath(swiss, tmp_path),
        "--top", "4", *extra])
    assert result.exit_code == code, result.output
    return result.output


@pytest.fixture
def in_tmp(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def seeded_lines_of(swiss: Path, ko: Path) -> list[str]:
    """The lines init prints for the seeds: each team with its Swiss number and name."""
    stage = EventFolder.open(swiss)
    final = stage.read(3, "team_standings").sort_values("position")["team"].tolist()[:4]
    name = teams_of(stage).set_index("team")["name"]
    here = os.path.relpath(swiss, ko).replace(os.sep, "/")
    return [f"Seeded from 'Team rehearsal 团体赛演练 (seed 2)' ({here}) by its final "
            "positions:"] + [f"  team {i} {name[t]} (Swiss team {t})"
                             for i, t in enumerate(final, 1)]


def test_a_seeded_knockout_keeps_each_teams_label_and_name_and_shows_its_swiss_number(
        in_tmp, swiss):
    out = knockout_init(in_tmp, swiss).splitlines()
    assert out[0] == ("Created teams knockout 'ko' in ko: 4 entries (seeded), 2 rounds of one "
                      "set of 3 boards.")
    assert out[1:6] == seeded_lines_of(swiss, in_tmp / "ko")
    assert out[6].startswith("Secret key: "), "no Also: the Swiss is not beside the knockout"
    folder, stage = EventFolder.open(in_tmp / "ko"), EventFolder.open(swiss)
    mine, theirs = teams_of(folder).set_index("label"), teams_of(stage).set_index("label")
    assert (mine["name"] == theirs.loc[mine.index, "name"]).all()  # names came along
    seeded = folder.plan.options.seeded_from
    assert [seeded.earlier(t) for t in mine["team"]] == theirs.loc[mine.index, "team"].tolist()
    seeds = [line.strip() for line in out[2:6]]
    assert event_status(folder).notes[1] == (
        f"Seeded from 'Team rehearsal 团体赛演练 (seed 2)' ({seeded.folder}) by its final "
        f"positions: {', '.join(seeds[:3])} and {seeds[3]}")


def test_art48_seeding_from_a_stage_in_its_correction_time_needs_force(in_tmp, swiss):
    copy = shutil.copytree(swiss, in_tmp / "late")
    ends = (pd.Timestamp.now(tz="UTC") + pd.Timedelta(days=2)).floor("min")
    run("event", "ledger", "add", copy, "ends", "--round", 3, "--at", ends.isoformat(),
        "--reason", "the last round ends later", "--override")
    until = f"{ends + pd.Timedelta(minutes=30):%Y-%m-%d %H:%M} UTC"
    out = knockout_init(in_tmp, copy, code=1)
    assert out.splitlines()[0] == (
        "Error: --seed-from 'late': 'Team rehearsal 团体赛演练 (seed 2)' is still in its "
        f"correction time (art. 48) until {until}, so its final positions may "
        "still change; nothing was written. Seed the knockout after that time, or add --force "
        "to seed it from the positions as they stand now")
    assert not (in_tmp / "ko").exists()
    out = knockout_init(in_tmp, copy, "--force").splitlines()
    assert out[6] == ("Warning: 'Team rehearsal 团体赛演练 (seed 2)' is still in its correction "
                      f"time (art. 48) until {until}: a correction there may "
                      "change its final positions, and this seeding does not follow it "
                      "(seeded with --force)")


@pytest.mark.parametrize(
    ("fmt", "extra", "says"),
    [
        ("knockout", (), "--force needs --seed-from: it seeds from a stage still in its "
                         "correction time (art. 48)"),
        ("swiss", ("--rounds", "2"), "leave out --force"),
    ],
)
def test_force_is_for_a_seeded_knockout_only(tmp_path, fmt, extra, says):
    players, _ = demo_teams(4)
    players.to_csv(tmp_path / "players.csv", index=False)
    out = run("event", "init", tmp_path / "e", "--kind", "teams", "--format", fmt,
              "--players", tmp_path / "players.csv", "--boards-per-set", 3, "--force", *extra,
              code=1)
    assert says in out and not (tmp_path / "e").exists()


def test_the_two_stages_sites_link_to_each_other(in_tmp, swiss):
    copy = shutil.copytree(swiss, in_tmp / "swiss")  # beside the knockout
    out = knockout_init(in_tmp, copy).splitlines()
    assert out[6] == ("Also: run `guandan-dup event site swiss` again, so that the earlier "
                      "stage's site links to this knockout's")
    assert out[-1] == "Next: guandan-dup event deal ko --round 1"
    run("event", "site", in_tmp / "ko", "--quiet", "--lang", "en")
    run("event", "site", copy, "--quiet", "--lang", "en")
    index = (in_tmp / "ko" / "site" / "index.html").read_text(encoding="utf-8")
    assert ('<p class="stage-link">Seeded from: <a href="../../swiss/site/index.html">Team '
            'rehearsal 团体赛演练 (seed 2)</a> <span class="muted">(Swiss)</span></p>') in index
    for line in seeded_lines_of(copy, in_tmp / "ko")[1:]:
        assert f"<li>{line.strip()}</li>" in index
    back = (copy / "site" / "standings" / "round-3.html").read_text(encoding="utf-8")
    assert ('<p class="stage-link">Next stage: <a href="../../../ko/site/index.html">ko</a> '
            '<span class="muted">(knockout)</span></p>') in back
    assert (in_tmp / "ko" / "site" / "../../swiss/site/index.html").exists()
    assert (copy / "site" / "standings" / "../../../ko/site/index.html").exists()


def test_the_stages_block_reads_in_chinese_first():
    from guandan_dup.reports.site.stages import StageLink, stage_views

    link = StageLink("seeded_from", "城市杯", "../../swiss/site/index.html", "swiss",
                     ((1, "南京队", 4), (2, "北京队", 1)))
    view = stage_views([link], "zh")[0]
    assert (view["label"], view["stage"], view["teams"]) == (
        "种子来自", "瑞士赛", ["1 号 南京队（瑞士赛 4 号）", "2 号 北京队（瑞士赛 1 号）"])
    assert stage_views([link], "en")[0]["teams"][0] == "team 1 南京队 (Swiss team 4)"


HOME_3 = {"team": 3, "match_points": 0.0, "levels": -6}
AWAY_5 = {"team": 5, "match_points": 2.0, "levels": 6}


@pytest.mark.parametrize(("home", "away", "winner", "text"), [
    (HOME_3, AWAY_5, "5", "南京队 2 : 0 (+6)"),  # the away team's win, from its side
    (AWAY_5 | {"team": 3}, HOME_3 | {"team": 5}, "3", "南京队 2 : 0 (+6)"),  # the home team's
    (HOME_3 | {"match_points": 1.0, "levels": 0}, AWAY_5 | {"match_points": 1.0, "levels": 0},
     "5", "南京队 1 : 1 (+0)"),  # level, the extra boards' winner named
    (HOME_3 | {"levels": None}, AWAY_5 | {"levels": None}, "5", "南京队 2 : 0"),  # a forfeit
    (HOME_3 | {"match_points": 1.0, "levels": 0}, AWAY_5 | {"match_points": 1.0, "levels": 0},
     None, "1 : 1 (+0)"),  # level and no winner yet: the same from either side
])
def test_a_team_match_result_names_its_winner_and_the_winners_margin(home, away, winner, text):
    assert match_text(home, away, winner, "南京队" if winner else "") == text


def test_one_identity_per_team_a_seeded_knockout_takes_the_stages_players_by_default(
        tmp_path, swiss):
    (tmp_path / "given").mkdir()
    given = init_knockout(tmp_path / "given", swiss)
    directory = tmp_path / "default" / "ko"
    run("event", "init", directory, "--kind", "teams", "--format", "knockout",
        "--boards-per-set", 3, "--seed-from", swiss, "--top", 4)
    for name in ("players.parquet", "teams.parquet"):
        assert pd.read_parquet(directory / name).equals(pd.read_parquet(given / name)), name
    out = run("event", "init", tmp_path / "none", "--kind", "teams", "--format", "knockout",
              "--boards-per-set", 3, code=1)
    assert out.strip() == ("Error: give --players: the CSV or .xlsx file of the players (id, "
                           "name, and as the event needs: seed, pair, team, venue)")
    assert not (tmp_path / "none").exists()
