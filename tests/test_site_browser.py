"""The results site in a real browser: headless Chromium (Debian's package) via Playwright.

These tests look at what a player sees: the leader on top, the search box, sorting, links
back, no script or console errors, and no sideways scrolling on a 390 px phone. A screenshot
of the standings page is kept in tests/artifacts/ for a human to look at.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import browser_support
import pandas as pd
import pytest
from browser_support import OVERFLOWING, PHONE_WIDTH, Watched, assert_fits_a_phone
from site_support import EMAIL_ID, LONG_NAME, build_site

from guandan_dup.event.folder import EventFolder
from guandan_dup.reports.site.labels import LABELS

ARTIFACTS = Path(__file__).parent / "artifacts"

pytestmark = browser_support.needs_chromium
browser = browser_support.browser  # the module-scoped headless Chromium fixture


@pytest.fixture
def watched(browser):
    watched = Watched(browser)
    yield watched
    watched.page.close()


def page_types(site: Path) -> dict[str, Path]:
    """One page of each kind: index, standings, player, traveller (with hand records), seating."""
    return {
        "index": site / "index.html",
        "standings": site / "standings" / "round-3.html",
        "player": site / "players" / "P001.html",
        "traveller": site / "sets" / "set-5.html",
        "seating": site / "seating" / "round-3.html",
    }


def visible_ids(page) -> list[str]:
    return page.locator("#standings tbody tr:visible .pid").all_inner_texts()


def test_standings_page_shows_the_leader(full, full_site, watched):
    standings = EventFolder.open(full).read(3, "standings")
    leader = standings.loc[standings["position"] == 1, "player"].item()
    page = watched.open(full_site / "standings" / "round-3.html")
    assert page.locator("#standings tbody tr").first.locator(".pid").inner_text() == leader
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "standings.png"), full_page=True)
    assert (ARTIFACTS / "standings.png").stat().st_size > 1000
    assert watched.errors == []


def test_search_box_filters_rows_by_name_or_id(full, full_site, watched):
    players = EventFolder.open(full).players()
    name = players.loc[players["player"] == "P007", "name"].item()
    page = watched.open(full_site / "standings" / "round-3.html")
    assert len(visible_ids(page)) == len(players)
    page.fill("#search", name)
    named = players.loc[players["name"].str.contains(name), "player"]
    assert sorted(visible_ids(page)) == sorted(named)
    page.fill("#search", "p01")
    assert sorted(visible_ids(page)) == [f"P01{i}" for i in range(9)]
    page.fill("#search", "")
    assert len(visible_ids(page)) == len(players)
    assert watched.errors == []


def test_clicking_a_header_sorts_the_column(full, full_site, watched):
    page = watched.open(full_site / "standings" / "round-3.html")
    header = page.locator("#standings th").nth(4)  # sets played
    cells = page.locator("#standings tbody td:nth-child(5)")
    header.click()
    ascending = [int(t) for t in cells.all_inner_texts()]
    header.click()
    descending = [int(t) for t in cells.all_inner_texts()]
    assert ascending == sorted(ascending) and descending == sorted(ascending, reverse=True)
    assert header.get_attribute("aria-sort") == "descending"
    assert watched.errors == []


def test_player_page_links_back_to_standings(full_site, watched):
    page = watched.open(full_site / "standings" / "round-3.html")
    first = page.locator("#standings tbody tr").first
    player = first.locator(".pid").inner_text()
    first.locator("a").click()
    assert page.url.endswith(f"/players/{player}.html")
    page.click("#back")
    assert page.url.endswith("/standings/round-3.html")
    assert watched.errors == []


@pytest.mark.parametrize("kind", ["index", "standings", "player", "traveller", "seating"])
def test_no_console_errors_and_no_sideways_scroll_on_a_phone(full_site, browser, kind):
    phone = Watched(browser, width=PHONE_WIDTH)
    page = phone.open(page_types(full_site)[kind])
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH
    assert page.evaluate(OVERFLOWING) == []
    assert phone.errors == []
    phone.page.close()


def test_a_long_unbreakable_name_does_not_widen_a_phone_page(full, browser, tmp_path):
    copy = shutil.copytree(full, tmp_path / "event")
    players = pd.read_parquet(copy / "players.parquet")
    players["name"] = players["name"].where(players["player"] != "P002", "Featherstonehaugh<b>&")
    players.to_parquet(copy / "players.parquet", index=False)
    site = build_site(copy, tmp_path / "site").parent
    phone = Watched(browser, width=PHONE_WIDTH)
    for path in [*site.glob("players/*.html"), *site.glob("sets/*.html")]:
        page = phone.open(path)
        assert page.evaluate(OVERFLOWING) == [], path
    phone.page.close()


PHONE_COLUMNS = {
    "standings": ("rank", "player", "cumulative", "round_rate", "sets", "move"),
    "player": ("round", "set", "table", "seat", "partner", "opponents", "result", "score_rate"),
}


@pytest.mark.parametrize("kind", PHONE_COLUMNS)
def test_the_columns_players_look_for_are_shown_on_a_phone(full_site, browser, kind):
    """Round rate, sets played, seat, partner and opponents matter on a phone too."""
    phone = Watched(browser, width=PHONE_WIDTH)
    page = phone.open(page_types(full_site)[kind])
    shown = page.locator("table.data thead th:visible").all_inner_texts()
    wanted = [LABELS["zh"][key] for key in PHONE_COLUMNS[kind]]
    assert [label for label in wanted if label not in shown] == []
    phone.page.close()



# --- a 40-letter name and an e-mail id on a phone (issue 9, item 13) --------------------------




def email_slug(site: Path) -> str:
    """The page of the player whose id is an e-mail address (it gets a safe file name)."""
    pages = [p for p in site.glob("players/*.html") if EMAIL_ID in p.read_text("utf-8")]
    return next(p for p in pages if f"<span class=\"pid\">{EMAIL_ID}</span></h1>" in
                p.read_text("utf-8")).name


def hostile_pages(site: Path) -> dict[str, Path]:
    """Every page kind, picked to hold the long name or the e-mail id."""
    return {
        "index": site / "index.html",
        "standings": site / "standings" / "round-3.html",
        "seating": site / "seating" / "round-1.html",
        "long-name player": site / "players" / "P002.html",
        "e-mail player": site / "players" / email_slug(site),
        **{f"traveller {p.stem}": p for p in sorted(site.glob("sets/*.html"))},
    }


def test_hostile_pages_hold_the_long_name_and_the_email(hostile_site):
    pages = hostile_pages(hostile_site)
    for kind in ("standings", "seating", "long-name player"):
        assert LONG_NAME in pages[kind].read_text("utf-8"), kind
    for kind in ("standings", "seating", "e-mail player"):
        assert EMAIL_ID in pages[kind].read_text("utf-8"), kind


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_sideways_scroll_at_390px_with_a_long_name_or_an_email_id(
    hostile, tmp_path, browser, lang
):
    site = build_site(hostile, tmp_path / "site", lang=lang).parent
    phone = Watched(browser, width=PHONE_WIDTH)
    for kind, path in hostile_pages(site).items():
        assert_fits_a_phone(phone.open(path), kind)
    assert phone.errors == []
    phone.page.close()


# --- finding yourself among many (issue 9, item 14) -------------------------------------------


def visible(page, selector: str) -> int:
    return page.locator(f"{selector}:visible").count()


def test_seating_search_filters_the_table_cards(hostile_site, watched):
    page = watched.open(hostile_site / "seating" / "round-1.html")
    cards = visible(page, ".table-card")
    assert cards == 4
    page.fill("#search", LONG_NAME[:12].lower())
    assert visible(page, ".table-card") == 1
    assert LONG_NAME in page.locator(".table-card:visible").inner_text()
    page.fill("#search", EMAIL_ID.upper())
    assert visible(page, ".table-card") == 1
    page.fill("#search", "")
    assert visible(page, ".table-card") == cards
    assert watched.errors == []


def test_traveller_search_filters_the_rows(hostile, hostile_site, watched):
    travellers = EventFolder.open(hostile).read(1, "travellers")
    row = travellers[travellers["set"] == 1].iloc[0]
    page = watched.open(hostile_site / "sets" / "set-1.html")
    assert visible(page, "#traveller tbody tr") == 4
    page.fill("#search", row["east"].lower())
    assert page.locator("#traveller tbody tr:visible").evaluate_all(
        "rows => rows.map(r => r.id)"
    ) == [f"t{row['table']}"]
    assert watched.errors == []


def test_a_set_link_on_a_player_page_lands_on_their_row(hostile_site, watched):
    page = watched.open(hostile_site / "players" / "P001.html")
    page.locator("#history tbody a[href*='/sets/']").first.click()
    anchor = page.url.split("#")[1]
    target = page.locator(f"#{anchor}")
    assert "P001.html" in target.inner_html()
    assert page.evaluate(f"document.getElementById('{anchor}').matches(':target')")
    assert watched.errors == []


@pytest.mark.parametrize(("page_file", "column"), [("standings/round-3.html", 2),
                                                   ("standings/round-3.html", 3),
                                                   ("sets/set-5.html", 4),
                                                   ("sets/set-5.html", 5)])
def test_first_click_on_a_score_column_sorts_best_first(full_site, watched, page_file, column):
    table = "#standings" if "standings" in page_file else "#traveller"
    page = watched.open(full_site / page_file)
    page.locator(f"{table} th").nth(column).click()
    cells = page.locator(f"{table} tbody td:nth-child({column + 1})").all_inner_texts()
    rates = [float(text.rstrip("%")) for text in cells if text != "–"]
    assert rates == sorted(rates, reverse=True) and len(set(rates)) > 1
    page.locator(f"{table} th").nth(column).click()
    cells = page.locator(f"{table} tbody td:nth-child({column + 1})").all_inner_texts()
    again = [float(text.rstrip("%")) for text in cells if text != "–"]
    assert again == sorted(rates)
    assert watched.errors == []


def test_player_page_states_rank_and_average_in_text(full, full_site, watched):
    standings = EventFolder.open(full).read(3, "standings")
    row = standings[standings["player"] == "P001"].iloc[0]
    page = watched.open(full_site / "players" / "P001.html")
    text = page.locator("#standing").inner_text()
    assert str(row["rank_label"]) in text and f"{len(standings)}" in text
    assert f"{row['cumulative'] * 100:.2f}%" in text
    assert watched.errors == []
