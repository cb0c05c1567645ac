"""The team results site in a real browser (headless Debian Chromium via Playwright), as
tests/test_site_browser.py does for the individual site: team standings, a team page and a
match page at desktop width and on a 390 px phone, with a team whose name is 40 letters
without a break and a player with such a name. One rehearsed event, one site per language,
for the whole module. The browser, its launch flags and the skip when Chromium or
Playwright is missing come from browser_support.
"""

from __future__ import annotations

import sys
from pathlib import Path

import browser_support
import pytest
from browser_support import PHONE_WIDTH, Watched, assert_fits_a_phone

from guandan_dup.event import EventFolder
from guandan_dup.event.entrants import demo_teams
from guandan_dup.event.formats.team_matches import teams_of
from guandan_dup.event.publish import build_event_site
from guandan_dup.event.rehearse import rehearse_teams
from guandan_dup.reports.site.labels import LABELS
from guandan_dup.reports.site.teams import TEAM_LABELS

pytestmark = browser_support.needs_chromium
browser = browser_support.browser  # the module-scoped headless Chromium fixture

LONG_TEAM = "Donaudampfschifffahrtsgesellschaftskapit"  # 40 letters, no break
LONG_PLAYER = "Wolfeschlegelsteinhausenbergerdorffvoralt"

def hostile_teams(count: int, per_team: int = 4):
    """The demo teams, the first named with 40 unbroken letters and its first player too."""
    players, names = demo_teams(count, per_team)
    names.loc[0, "name"] = LONG_TEAM
    players.loc[0, "name"] = LONG_PLAYER
    return players, names


@pytest.fixture(scope="module")
def event(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("team-browser") / "cup"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys.modules["guandan_dup.event.formats.team_matches"], "demo_teams",
                      hostile_teams)
        rehearse_teams(path, teams=5, rounds=2, boards_per_set=2, seed=4)
    return path


@pytest.fixture(scope="module")
def sites(event, tmp_path_factory) -> dict[str, Path]:
    """The event's site in each language, built once."""
    out = tmp_path_factory.mktemp("team-browser-sites")
    folder = EventFolder.open(event)
    return {lang: build_event_site(folder, out / lang, lang).parent for lang in ("zh", "en")}


@pytest.fixture(scope="module")
def long_team(event) -> int:
    teams = teams_of(EventFolder.open(event))
    return int(teams.loc[teams["name"] == LONG_TEAM, "team"].item())


def long_team_match(event, team: int) -> Path:
    """The site path of round 1's match of the long-named team (it has one in round 1 or 2)."""
    folder = EventFolder.open(event)
    for round_no in (1, 2):
        matches = folder.read(round_no, "matches").dropna(subset=["away"])
        mine = matches[(matches["home"] == team) | (matches["away"] == team)]
        if len(mine):
            return Path("matches") / f"round-{round_no}-match-{mine['match'].iloc[0]}.html"
    raise AssertionError(f"team {team} had byes in both rounds")


def team_pages(event, team: int) -> dict[str, Path]:
    return {
        "index": Path("index.html"),
        "standings": Path("standings") / "round-2.html",
        "team": Path("teams") / f"team-{team}.html",
        "match": long_team_match(event, team),
    }


def test_team_standings_lead_with_position_one_and_link_to_the_team(event, sites, browser):
    standings = EventFolder.open(event).read(2, "team_standings")
    leader = int(standings.loc[standings["position"] == 1, "team"].item())
    desk = Watched(browser)
    page = desk.open(sites["en"] / "standings" / "round-2.html")
    first = page.locator("#standings tbody tr").first
    assert first.locator("td").nth(1).inner_text().split()[0] == str(leader)
    assert page.locator("#standings tbody tr").count() == len(standings)
    first.locator("a").click()
    assert page.url.endswith(f"/teams/team-{leader}.html")
    page.click("#back")
    assert page.url.endswith("/standings/round-2.html")
    assert desk.errors == []
    desk.page.close()


def test_a_team_page_lists_its_players_and_links_each_match(event, sites, browser, long_team):
    players = EventFolder.open(event).players().query("team == @long_team")
    desk = Watched(browser)
    page = desk.open(sites["en"] / "teams" / f"team-{long_team}.html")
    assert page.locator("h1").inner_text() == f"{long_team} {LONG_TEAM}"
    listed = page.locator("ul.players li").all_inner_texts()
    assert [text.split()[-1] for text in listed] == players["player"].tolist()
    assert LONG_PLAYER in listed[0]
    link = page.locator("#matches tbody a[href*='/matches/']").first
    link.click()
    assert "/matches/round-" in page.url
    assert LONG_TEAM in page.locator("#match").inner_text()
    assert desk.errors == []
    desk.page.close()


def test_a_match_page_shows_both_rooms_and_the_hand_records(event, sites, browser, long_team):
    desk = Watched(browser)
    page = desk.open(sites["en"] / long_team_match(event, long_team))
    rooms = page.locator("h2").all_inner_texts()
    assert rooms[0].startswith("Open room · Table") and rooms[1].startswith("Closed room · Table")
    assert page.locator("table.room").count() == 2
    assert page.locator(".hand-records .board").count() == 2, "both boards of the set"
    assert desk.errors == []
    desk.page.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("kind", ["index", "standings", "team", "match"])
def test_no_sideways_scroll_at_390px_with_a_40_letter_team_name(
    event, sites, browser, long_team, lang, kind
):
    path = sites[lang] / team_pages(event, long_team)[kind]
    assert LONG_TEAM in path.read_text("utf-8")
    phone = Watched(browser, width=PHONE_WIDTH)
    assert_fits_a_phone(phone.open(path), kind)
    assert phone.errors == []
    phone.page.close()


def test_a_phone_shows_the_standings_columns_that_rank_teams(sites, browser):
    """Rank, team, 场分, 级差分 and the tie-break columns stay; won/drawn/lost give way
    (played and 场分 say as much)."""
    phone = Watched(browser, width=PHONE_WIDTH)
    page = phone.open(sites["zh"] / "standings" / "round-2.html")
    shown = page.locator("#standings thead th:visible").all_inner_texts()
    labels = TEAM_LABELS["zh"]
    assert [text.rstrip(" ▲▼") for text in shown] == [
        LABELS["zh"]["rank"], labels["team"], labels["played"], labels["match_points"],
        labels["level_points"], labels["levels"], labels["opponent_points"]]
    phone.page.close()
    desk = Watched(browser)
    page = desk.open(sites["zh"] / "standings" / "round-2.html")
    assert page.locator("#standings thead th:visible").count() == 10
    desk.page.close()


# --- the match page's rooms and the index's front door (issue 25, items 9 and 10) -------------


def room_rows(page, room: str) -> list[list[str]]:
    """The visible cells of a room's lines: direction, team (with home or away), ..."""
    rows = page.locator(f"#{room}-room-lines tbody tr")
    return [rows.nth(i).locator("td:visible").all_inner_texts() for i in range(rows.count())]


@pytest.mark.parametrize("width", [PHONE_WIDTH, 1000])
def test_a_match_page_says_who_sits_where_in_each_room_and_links_the_teams(
    event, sites, browser, long_team, width
):
    folder = EventFolder.open(event)
    path = long_team_match(event, long_team)
    round_no, match_no = (int(n) for n in path.stem.removeprefix("round-").split("-match-"))
    match = folder.read(round_no, "matches").set_index("match").loc[match_no]
    names = teams_of(folder).set_index("team")["name"]
    home, away = (f"{int(match[s])} {names[int(match[s])]}" for s in ("home", "away"))
    watched = Watched(browser, width=width)
    page = watched.open(sites["zh"] / path)
    assert page.locator("#open-room").inner_text() == f"开室 · 桌 {int(match['open_table'])}"
    assert page.locator("#closed-room").inner_text() == f"闭室 · 桌 {int(match['closed_table'])}"
    expected = {"open": [("南北", f"{away} 客队"), ("东西", f"{home} 主队")],
                "closed": [("南北", f"{home} 主队"), ("东西", f"{away} 客队")]}
    for room, lines in expected.items():
        assert [tuple(cells[:2]) for cells in room_rows(page, room)] == lines, room
        assert all(len(cells) == 4 for cells in room_rows(page, room)), "players and levels"
    if width == PHONE_WIDTH:
        assert_fits_a_phone(page, "match")
    page.locator("#closed-room-lines .line-ns a").click()
    assert page.url.endswith(f"/teams/team-{int(match['home'])}.html")
    assert page.locator("h1").inner_text() == home
    assert watched.errors == []
    watched.page.close()


def test_the_team_index_on_a_phone_leads_with_the_standings_and_finds_a_team_or_player(
    event, sites, browser, long_team
):
    folder = EventFolder.open(event)
    standings = folder.read(2, "team_standings").sort_values("position")
    names = teams_of(folder).set_index("team")["name"]
    phone = Watched(browser, width=PHONE_WIDTH)
    page = phone.open(sites["zh"] / "index.html")
    first = page.locator("main > section").first
    assert first.get_attribute("id") == "latest"
    assert first.locator("h2").inner_text().startswith(LABELS["zh"]["after_round"].format(n=2))
    assert page.locator("#find").bounding_box()["y"] < page.locator("#leaders").bounding_box()[
        "y"] < 800
    assert page.locator("#leaders tbody a").all_inner_texts() == [
        f"{t} {names[t]}" for t in standings["team"]]
    page.fill("#find", LONG_TEAM[:10].lower())
    members = folder.players().query("team == @long_team")
    assert page.locator("#found a").all_inner_texts() == [f"{LONG_TEAM} {long_team}"] + [
        f"{p.name} {p.player} · {LONG_TEAM}" for p in members.itertuples()], "its players too"
    assert page.locator("#found a").first.get_attribute("href") == f"teams/team-{long_team}.html"
    player = folder.players().iloc[-1]
    page.fill("#find", player["player"].lower())
    assert page.locator("#found a").all_inner_texts() == [
        f"{player['name']} {player['player']} · {names[player['team']]}"]
    page.press("#find", "Enter")
    page.wait_for_url(f"**/teams/team-{player['team']}.html")
    assert phone.errors == []
    phone.page.close()
