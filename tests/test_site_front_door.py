"""The site's front door on a 390 px phone (issue 25, item 9), in the real browser.

What a player sees first: the index leads with the latest standings and a search box that
finds anyone by name or id (from file://, with no fetch); the deal files and the verify
commands sit in one section of their own at the bottom; a knockout's bracket opens at the
round being played, with jump links to each round and to the final places; a player's page
keeps its round and table columns.
"""

from __future__ import annotations

from pathlib import Path

import browser_support
import pandas as pd
import pytest
from browser_support import PHONE_WIDTH, Watched, assert_fits_a_phone
from site_support import TWIN_NAME, build_site, read_page
from typer.testing import CliRunner

from guandan_dup.cli.app import app
from guandan_dup.event.folder import EventFolder
from guandan_dup.reports.site.bracket import current_round
from guandan_dup.reports.site.labels import LABELS

pytestmark = browser_support.needs_chromium
browser = browser_support.browser  # the module-scoped headless Chromium fixture
ZH = LABELS["zh"]


@pytest.fixture
def phone(browser):
    watched = Watched(browser, width=PHONE_WIDTH)
    yield watched
    assert watched.errors == []
    watched.page.close()


def simulated_knockout(out: Path, kind: str, entries: int, seed: int) -> Path:
    """A knockout of ``entries`` pairs or teams played to the end by bots, and its site."""
    result = CliRunner().invoke(app, ["simulate", "--knockout", kind, f"--{kind}", str(entries),
                                      "--boards-per-set", "2", "--out", str(out), "--seed",
                                      str(seed), "--quiet"])
    assert result.exit_code == 0, result.output
    build_site(out)
    return out


@pytest.fixture(scope="module")
def knockout(tmp_path_factory) -> Path:
    """A pairs knockout of 6 pairs, played and published."""
    return simulated_knockout(tmp_path_factory.mktemp("knockout") / "event", "pairs", 6, 4)


def found(page) -> list[tuple[str, str]]:
    """What the index's search lists: each entry's text and link."""
    links = page.locator("#found a")
    return [(links.nth(i).inner_text(), links.nth(i).get_attribute("href"))
            for i in range(links.count())]


# --- the index ---------------------------------------------------------------------------------


def test_index_leads_with_the_latest_standings_and_the_search_box(full, full_site, phone):
    page = phone.open(full_site / "index.html")
    first = page.locator("main > section").first
    assert first.get_attribute("id") == "latest"
    assert first.locator("h2").inner_text().startswith(ZH["after_round"].format(n=3))
    assert first.locator("#find").is_visible()
    find_y = first.locator("#find").bounding_box()["y"]
    assert find_y < page.locator("#leaders").bounding_box()["y"] < 800  # both on screen 1
    standings = EventFolder.open(full).read(3, "standings").sort_values("position")
    shown = page.locator("#leaders tbody .pid").all_inner_texts()
    assert shown == standings["player"].head(10).tolist()
    link = page.locator("#all-standings")
    assert link.get_attribute("href") == "standings/round-3.html"
    assert link.inner_text() == f"{ZH['all_standings'].format(field=len(standings))} →"
    assert_fits_a_phone(page, "index")


def test_index_search_finds_a_player_by_name_or_id_and_opens_their_page(full, full_site, phone):
    players = EventFolder.open(full).players()
    name = players.loc[players["player"] == "P007", "name"].item()
    page = phone.open(full_site / "index.html")
    assert found(page) == []
    page.fill("#find", name)
    assert (f"{name} P007", "players/P007.html") in found(page)
    page.fill("#find", "p017")
    assert found(page) == [(f"{players.set_index('player').loc['P017', 'name']} P017",
                            "players/P017.html")]
    page.press("#find", "Enter")
    page.wait_for_url("**/players/P017.html")
    assert page.locator("h1 .pid").inner_text() == "P017"


def test_index_search_says_when_no_one_is_found(full_site, phone):
    page = phone.open(full_site / "index.html")
    page.fill("#find", "nobody-of-that-name")
    assert page.locator("#found li").all_inner_texts() == [ZH["not_found"]]


def test_index_search_lists_both_players_sharing_a_name(hostile, hostile_site, phone):
    players = EventFolder.open(hostile).players()
    twins = players.loc[players["name"] == TWIN_NAME, "player"]
    page = phone.open(hostile_site / "index.html")
    page.fill("#find", TWIN_NAME)
    assert sorted(found(page)) == sorted((f"{TWIN_NAME} {p}", f"players/{p}.html") for p in twins)


def test_deal_files_and_verify_commands_sit_in_one_section_at_the_bottom(full, full_site, phone):
    page = phone.open(full_site / "index.html")
    last = page.locator("main > section").last
    assert last.get_attribute("id") == "verify-deals"
    assert last.locator("h2").all_inner_texts() == [ZH["verify_deals"]]
    for part in ("#commitment", "#key", "#verify"):
        assert last.locator(part).count() == 1, part
    assert page.locator(".verify").count() == 1
    parquet = page.locator("a[href$='.parquet']")
    assert parquet.count() == 3
    assert last.locator("a[href$='.parquet']").count() == 3


def test_no_page_but_the_verify_section_links_a_deal_file(full_site):
    for path in full_site.rglob("*.html"):
        links = [link for link in read_page(path).links if link.endswith(".parquet")]
        assert links == [] or path.name == "index.html", path
    index = (full_site / "index.html").read_text(encoding="utf-8")
    before_verify = index.split('id="verify-deals"')[0]
    assert ".parquet" not in before_verify


# --- the knockout bracket --------------------------------------------------------------------


def test_bracket_has_jump_links_to_each_round_and_the_final_places(knockout, phone):
    page = phone.open(knockout / "site" / "bracket.html")
    jump = page.locator("#jump a")
    assert jump.all_inner_texts() == [ZH["quarter_finals"], ZH["semi_finals"], ZH["final"],
                                      ZH["classification"], ZH["final_places"]]
    hrefs = [jump.nth(i).get_attribute("href") for i in range(jump.count())]
    assert hrefs == ["#round-1", "#round-2", "#round-3", "#classification", "#places"]
    for href in hrefs:
        assert page.locator(href).count() == 1, href
    jump.nth(4).click()
    places = page.locator("#places").bounding_box()
    assert 0 <= places["y"] < 800
    assert page.locator("#jump").bounding_box()["y"] == 0  # the links stay on top
    assert_fits_a_phone(page, "bracket")


def test_bracket_on_a_phone_opens_at_the_current_round(knockout, phone):
    page = phone.open(knockout / "site" / "bracket.html")
    assert page.locator("#jump a[aria-current]").inner_text() == ZH["final"]
    final = page.locator("#round-3 h2").bounding_box()
    jump = page.locator("#jump").bounding_box()
    assert page.evaluate("window.scrollY") > 0
    assert jump["y"] + jump["height"] <= final["y"] < 800
    page.goto((knockout / "site" / "bracket.html").resolve().as_uri() + "#round-1")
    assert 0 <= page.locator("#round-1").bounding_box()["y"] < 800  # a link's own place wins


@pytest.mark.parametrize(("winners", "current"), [
    ([None, None, None, None], 1),
    (["a", "b", None, None], 2),
    (["a", "b", "a", None], 3),
    (["a", "b", "a", "c"], 3),
])
def test_current_round_is_the_first_with_a_match_undecided_or_the_final(winners, current):
    view = pd.DataFrame({"round": [1, 1, 2, 3], "winner": winners})
    assert current_round(view, 3) == current


def test_knockout_index_leads_with_the_final_places_and_finds_a_pair(knockout, phone):
    places = pd.read_parquet(knockout / "places.parquet").sort_values("place")
    page = phone.open(knockout / "site" / "index.html")
    assert page.locator("#latest h2").inner_text() == ZH["final_places"]
    assert page.locator("#leaders tbody .pid").all_inner_texts() == places["side"].head(4).tolist()
    assert page.locator("#all-places").get_attribute("href") == "bracket.html#places"
    winner = places["side"].iloc[0]
    page.fill("#find", winner.lower())
    bracket = EventFolder.open(knockout).read(3, "bracket")
    final = bracket[bracket["places"] == "main"].iloc[0]
    on_bracket = [href for text, href in found(page) if href.startswith("bracket.html")]
    assert on_bracket == [f"bracket.html#round-3-match-{final['match']}"]
    players = EventFolder.open(knockout).players().query("pair == @winner")
    assert len(players) == 2  # the pair's players are found by its id too
    assert sorted(href for text, href in found(page) if text.endswith(f"· {winner}")) == sorted(
        f"players/{p}.html" for p in players["player"])
    page.locator("#found a[href^='bracket.html']").click()
    assert page.url.endswith(f"#round-3-match-{final['match']}")


@pytest.fixture(scope="module")
def team_knockout(tmp_path_factory) -> Path:
    """A knockout of 4 teams, played and published."""
    return simulated_knockout(tmp_path_factory.mktemp("team-knockout") / "event", "teams", 4, 3)


def test_team_bracket_on_a_phone_jumps_to_the_third_place_match_and_says_whose_margin(
    team_knockout, phone
):
    page = phone.open(team_knockout / "site" / "bracket.html")
    jump = page.locator("#jump a")
    assert jump.all_inner_texts() == [ZH["semi_finals"], ZH["final"], ZH["classification"],
                                      ZH["final_places"]]
    jump.nth(2).click()
    third = page.locator("#third-place h3")
    assert third.inner_text() == "三四名决赛"
    assert 0 <= third.bounding_box()["y"] < 800
    for card in page.locator(".match").all():
        winner = card.locator(".side.won").inner_text().split()[0]  # its name, then its number
        assert card.locator(".match-foot a").inner_text().startswith(f"{winner} "), winner
    assert_fits_a_phone(page, "team bracket")


# --- the player page ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_player_page_keeps_its_round_and_table_columns_at_390px(hostile, tmp_path, browser,
                                                                  lang):
    site = build_site(hostile, tmp_path / "site", lang=lang).parent
    phone = Watched(browser, width=PHONE_WIDTH)
    labels = LABELS[lang]
    for path in sorted(site.glob("players/*.html")):
        page = phone.open(path)
        shown = page.locator("#history thead th:visible").all_inner_texts()
        assert shown[:3] == [labels["round"], labels["set"], labels["table"]], path
        first = page.locator("#history tbody tr:not(.bye)").first.locator("td")
        assert all(first.nth(i).is_visible() for i in range(3)), path
        assert_fits_a_phone(page, path.name)
    assert phone.errors == []
    phone.page.close()
