"""The results site of a team event: team standings, team pages, match pages with both rooms
and, once played everywhere, the hand records."""

import pytest
from event_support import run, team_players
from typer.testing import CliRunner

from guandan_dup.cli.app import app
from guandan_dup.event import EventFolder
from guandan_dup.event.rehearse import rehearse_teams


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    path = tmp_path_factory.mktemp("teams") / "cup"
    rehearse_teams(path, teams=5, rounds=2, boards_per_set=2, seed=4)
    return path


def build(event, tmp_path, lang):
    out = tmp_path / f"site-{lang}"
    result = CliRunner().invoke(app, ["event", "site", str(event), "--out", str(out), "--lang",
                                      lang, "--quiet"])
    assert result.exit_code == 0, result.output
    return out


def test_team_site_pages(event, tmp_path):
    site = build(event, tmp_path, "en")
    folder = EventFolder.open(event)
    standings = (site / "standings" / "round-2.html").read_text("utf-8")
    assert "Conversion table: linear" in standings and "Opponents&#39; points" in standings
    for team in range(1, 6):
        page = (site / "teams" / f"team-{team}.html").read_text("utf-8")
        for player in folder.players().query("team == @team")["name"]:
            assert player in page
    bye = folder.read(1, "matches").query("away.isna()")["home"].item()
    assert "Bye" in (site / "teams" / f"team-{bye}.html").read_text("utf-8")
    match = (site / "matches" / "round-1-match-1.html").read_text("utf-8")
    assert "Open room · Table 1" in match and "Closed room · Table 3" in match
    assert 'class="board"' in match, "every table played round 1's set"
    assert (site / "boards" / "round-1-boards.parquet").exists()
    index = (site / "index.html").read_text("utf-8")
    assert "matches/round-2-match-2.html" in index and "(Bye)" in index


def test_team_site_in_chinese_names_the_rooms(event, tmp_path):
    site = build(event, tmp_path, "zh")
    match = (site / "matches" / "round-2-match-1.html").read_text("utf-8")
    assert "开室" in match and "闭室" in match and "级差分换算表" in match


def test_a_team_event_with_no_round_scored_yet_gets_its_site(tmp_path):
    players = team_players(tmp_path / "players.csv", [4, 4, 4])
    run("event", "init", tmp_path / "cup", "--kind", "teams", "--format", "swiss", "--players",
        players, "--rounds", 2, "--boards-per-set", 2)
    run("event", "seat", tmp_path / "cup", "--round", 1)
    run("event", "site", tmp_path / "cup", "--lang", "en", "--quiet")
    index = (tmp_path / "cup" / "site" / "index.html").read_text("utf-8")
    assert "Round 1" in index and not (tmp_path / "cup" / "site" / "standings").exists()
    assert len(list((tmp_path / "cup" / "site" / "teams").glob("team-*.html"))) == 3


def test_team_index_links_the_deal_files_only_in_its_verify_section(event, tmp_path):
    site = build(event, tmp_path, "zh")
    index = (site / "index.html").read_text("utf-8")
    players_part, verify = index.split('<section class="verify" id="verify-deals">')
    assert ".parquet" not in players_part
    assert 'href="boards/round-1-boards.parquet"' in verify
    assert "guandan-dup deal verify --key event.key boards/round-1-boards.parquet" in verify
