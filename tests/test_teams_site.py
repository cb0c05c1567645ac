"""The results site of a team event: team standings, team pages, match pages with both rooms
and, once played everywhere, the hand records."""

import json
import re

import pandas as pd
import pytest
from event_support import run, team_players
from typer.testing import CliRunner

from guandan_dup.cli.app import app
from guandan_dup.event import EventFolder
from guandan_dup.event.formats.team_matches import teams_of
from guandan_dup.event.rehearse import rehearse_teams
from guandan_dup.reports.team_tables import conversion_name


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
    assert "Conversion table: linear</p>" in index  # before any standings too
    assert len(list((tmp_path / "cup" / "site" / "teams").glob("team-*.html"))) == 3


def test_team_index_links_the_deal_files_only_in_its_verify_section(event, tmp_path):
    site = build(event, tmp_path, "zh")
    index = (site / "index.html").read_text("utf-8")
    players_part, verify = index.split('<section class="verify" id="verify-deals">')
    assert ".parquet" not in players_part
    assert 'href="boards/round-1-boards.parquet"' in verify
    assert "guandan-dup deal verify --key event.key boards/round-1-boards.parquet" in verify


# --- the team pages in Chinese (issue 25, item 10) ---------------------------------------------


@pytest.fixture(scope="module")
def zh_site(event, tmp_path_factory):
    return build(event, tmp_path_factory.mktemp("zh-site"), "zh")


@pytest.mark.parametrize(("name", "lang", "shown"), [
    ("linear", "zh", "线性 linear"),
    ("half", "zh", "减半 half"),
    ("linear", "en", "linear"),
    ("half", "en", "half"),
    ("城市杯表", "zh", "城市杯表"),  # a director's own table, by the name it was given
    ("club-2026", "en", "club-2026"),
])
def test_the_conversion_table_is_named_in_chinese_then_as_typed(name, lang, shown):
    assert conversion_name(name, lang) == shown


@pytest.mark.parametrize("page", ["index.html", "standings/round-2.html", "teams/team-1.html",
                                  "matches/round-1-match-1.html"])
def test_every_team_page_names_the_linear_table_in_chinese(zh_site, page):
    assert "级差分换算表: 线性 linear</p>" in (zh_site / page).read_text("utf-8")


ROOM_LINE = re.compile(r'<tr class="line-(ns|ew)">\s*<td>([^<]*)</td>\s*<td><a href="([^"]*)">'
                       r'([^<]*)</a> <span class="muted">([^<]*)</span>')


def room_lines(page: str, room: str) -> list[tuple[str, ...]]:
    """(line, its label, team link, team, home or away) of each line of a room's table."""
    table = page.split(f'id="{room}-room-lines"')[1].split("</table>")[0]
    return ROOM_LINE.findall(table)


@pytest.mark.parametrize(("room", "ns_side", "ew_side"), [
    ("open", "away", "home"),  # SPEC 8: the open room seats the home team E-W
    ("closed", "home", "away"),  # and the closed room N-S
])
def test_art29_a_match_page_says_which_team_sits_ns_and_ew_in_each_room(
    event, zh_site, room, ns_side, ew_side
):
    folder = EventFolder.open(event)
    names = teams_of(folder).set_index("team")["name"]
    for r in (1, 2):
        for m in folder.read(r, "matches").dropna(subset=["away"]).itertuples():
            page = (zh_site / "matches" / f"round-{r}-match-{m.match}.html").read_text("utf-8")
            team = {"home": int(m.home), "away": int(m.away)}
            side = {"home": "主队", "away": "客队"}
            assert room_lines(page, room) == [
                (line, label, f"../teams/team-{team[s]}.html", f"{team[s]} {names[team[s]]}",
                 side[s])
                for line, label, s in (("ns", "南北", ns_side), ("ew", "东西", ew_side))]


def test_a_match_page_names_the_players_of_each_line_from_the_seating(event, zh_site):
    folder = EventFolder.open(event)
    players = folder.players().set_index("player")["name"]
    seating = folder.read(1, "seating").set_index("table")
    match = folder.read(1, "matches").set_index("match").loc[1]
    page = (zh_site / "matches" / "round-1-match-1.html").read_text("utf-8")
    for room in ("open", "closed"):
        seats = seating.loc[int(match[f"{room}_table"])]
        table = page.split(f'id="{room}-room-lines"')[1].split("</table>")[0]
        for first, second in (("north", "south"), ("east", "west")):
            assert f"<td>{players[seats[first]]}, {players[seats[second]]}</td>" in table


def test_a_team_page_labels_home_and_away_主客(event, zh_site):
    folder = EventFolder.open(event)
    results = pd.concat([folder.read(r, "match_results") for r in (1, 2)])
    for team in range(1, 6):
        page = (zh_site / "teams" / f"team-{team}.html").read_text("utf-8")
        assert "<th>主客</th>" in page
        mine = results[(results["team"] == team) & results["opponent"].notna()]
        cells = re.findall(r"<td>(主|客)</td>", page)
        assert cells == ["主" if home else "客" for home in mine.sort_values("round")["home"]]


def test_the_team_index_leads_with_the_latest_standings_and_the_search(event, zh_site):
    folder = EventFolder.open(event)
    standings = folder.read(2, "team_standings").sort_values("position")
    names = teams_of(folder).set_index("team")["name"]
    index = (zh_site / "index.html").read_text("utf-8")
    latest = index.split('<section class="latest" id="latest">')[1].split("</section>")[0]
    assert "<h2>第 2 轮后排名" in latest and 'id="find"' in latest
    assert re.findall(r'<a href="teams/team-(\d+)\.html">', latest) == [
        str(t) for t in standings["team"]]
    assert f'id="all-standings">全部排名（共 {len(standings)} 队） →</a>' in latest
    entries = json.loads(latest.split('id="search-index">')[1].split("</script>")[0])
    first = folder.players().iloc[0]
    assert {"t": f"{first['name']} {first['player']} {names[first['team']]}".lower(),
            "n": first["name"], "i": f"{first['player']} · {names[first['team']]}",
            "h": f"teams/team-{first['team']}.html"} in entries
    assert len(entries) == len(names) + len(folder.players())
