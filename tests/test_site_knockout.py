"""A knockout rehearsed by bots (``simulate --knockout``), its bracket page and exports.

The bracket page is looked at in a real browser like the other pages: rounds side by side on
a desktop, stacked on a 390 px phone without sideways scrolling, every played match linking
to its row on the round's traveller.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from guandan_dup.cli.app import app
from guandan_dup.event import EventFolder
from guandan_dup.event.publish import publish_site
from guandan_dup.reports.site.bracket import classification_groups

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
PHONE_WIDTH = 390
PAIRS = 6


@pytest.fixture(scope="module")
def event(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("knockout") / "event"
    result = CliRunner().invoke(app, ["simulate", "--knockout", "pairs", "--pairs", str(PAIRS),
                                      "--boards-per-set", "2", "--out", str(out), "--seed", "4",
                                      "--quiet"])
    assert result.exit_code == 0, result.output
    assert f"Simulated a knockout of {PAIRS} pairs" in result.output
    return out


@pytest.fixture(scope="module")
def site(event, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    return publish_site(EventFolder.open(event), out).parent


def test_simulated_knockout_is_complete_and_level_matches_name_extra_boards(event):
    folder = EventFolder.open(event)
    places = pd.read_parquet(event / "places.parquet")
    assert sorted(places["place"]) == list(range(1, PAIRS + 1))
    for r in range(1, folder.plan.rounds + 1):
        bracket = folder.read(r, "bracket")
        results = folder.read(r, "results")
        assert bracket["winner"].notna().all()
        level = results[results["ns_level"] == results["ew_level"]]
        if "tiebreak" in results:
            assert results.loc[level.index, "tiebreak"].isin(["NS", "EW"]).all()
        extra = bracket[bracket["decided_by"] == "extra boards"]
        assert sorted(extra["table"]) == sorted(level["table"])
    assert (event / "exports" / "bracket.csv").exists()


@pytest.mark.parametrize("args", [["individual", "--pairs", "4"], ["teams", "--pairs", "4"]])
def test_simulate_knockout_needs_pairs_or_teams_and_their_number(tmp_path, args):
    result = CliRunner().invoke(app, ["simulate", "--knockout", *args, "--out",
                                      str(tmp_path / "x")])
    assert result.exit_code == 1 and "rehearse a knockout of pairs" in result.output
    assert not (tmp_path / "x").exists()


def test_bracket_page_links_every_played_match_to_its_result(event, site):
    html = (site / "bracket.html").read_text(encoding="utf-8")
    bracket = EventFolder.open(event).read_rounds("bracket", range(1, 4))
    played = bracket[bracket["side_b"].notna()]
    links = re.findall(r'href="(sets/set-\d+\.html)#(t\d+)"', html)
    assert sorted(links) == sorted(
        (f"sets/set-{r}.html", f"t{t}") for r, t in zip(played["round"], played["table"],
                                                             strict=True)
    )
    for page, anchor in links:
        assert f'id="{anchor}"' in (site / page).read_text(encoding="utf-8")
    assert html.count('class="side won"') == len(bracket)
    assert 'href="bracket.html"' in (site / "index.html").read_text(encoding="utf-8")


browser_only = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing")


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


def open_page(browser, path: Path, width: int):
    page = browser.new_page(viewport={"width": width, "height": 800})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(path.resolve().as_uri())
    return page, errors


def round_boxes(page) -> list[dict]:
    return [page.locator(f"#round-{r}").bounding_box() for r in (1, 2, 3)]


@browser_only
def test_desktop_shows_the_rounds_side_by_side_as_a_tree(site, browser):
    page, errors = open_page(browser, site / "bracket.html", 1000)
    boxes = round_boxes(page)
    assert boxes[0]["x"] < boxes[1]["x"] < boxes[2]["x"]
    final = page.locator("#round-3 .match").first.bounding_box()
    semis = page.locator("#round-2 .match")
    top, bottom = semis.nth(0).bounding_box(), semis.nth(1).bounding_box()
    assert top["y"] < final["y"] < bottom["y"] + bottom["height"]  # between its feeders
    page.screenshot(path=str(Path(__file__).parent / "artifacts" / "bracket.png"), full_page=True)
    assert errors == []
    page.close()


@browser_only
def test_phone_stacks_the_rounds_without_sideways_scroll(site, browser):
    page, errors = open_page(browser, site / "bracket.html", PHONE_WIDTH)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH
    boxes = round_boxes(page)
    assert boxes[0]["y"] < boxes[1]["y"] < boxes[2]["y"]
    assert all(box["width"] <= PHONE_WIDTH for box in boxes)
    page.locator("#round-1 .match-foot a").first.click()
    assert re.search(r"/sets/set-1\.html#t\d+$", page.url)
    assert errors == []
    page.close()


# --- the classification matches under headings of their own (issue 25, item 10) ----------------


def view_of(*matches: tuple[int, str]) -> pd.DataFrame:
    """A bracket view (``VIEW_COLUMNS``) of played matches given as (round, places)."""
    rows = [{"round": r, "match": m, "places": places, "table": m, "set": r, "side_a": "A",
             "side_a_name": "a", "side_b": "B", "side_b_name": "b", "from_a": None,
             "from_b": None, "result": "2 : 1", "winner": "A", "winner_name": "a",
             "decided_by": "levels"} for m, (r, places) in enumerate(matches, 1)]
    return pd.DataFrame(rows)


@pytest.mark.parametrize(("rounds", "matches", "headings"), [
    (2, [(2, "main"), (2, "3-4")], [("3-4", True, "final")]),
    (3, [(2, "main"), (2, "5-8"), (2, "5-8"), (3, "main"), (3, "7-8"), (3, "3-4"), (3, "5-6")],
     [("3-4", True, "final"), ("5-8", False, "semi_finals"), ("5-6", False, "final"),
      ("7-8", False, "final")]),
    (3, [(1, "main")], []),
])
def test_the_third_place_match_heads_the_classification_matches(rounds, matches, headings):
    groups = classification_groups(view_of(*matches), rounds, lambda s: f"sets/set-{s}.html")
    assert [(g["places"], g["third"], g["title_key"]) for g in groups] == headings
    assert sum(len(g["matches"]) for g in groups) == sum(p != "main" for _, p in matches)


@pytest.mark.parametrize(("lang", "headings"), [
    ("zh", ["三四名决赛", "第 5-8 名半决赛", "第 5-6 名决赛"]),
    ("en", ["Third-place match", "Places 5-8: Semi-finals", "Places 5-6: Final"]),
])
def test_bracket_page_heads_each_classification_bracket(event, tmp_path, lang, headings):
    site = publish_site(EventFolder.open(event), tmp_path / "site", lang=lang).parent
    html = (site / "bracket.html").read_text(encoding="utf-8")
    classification = html.split('id="classification"')[1].split('id="places"')[0]
    assert re.findall(r"<h3>([^<]*)</h3>", classification) == headings
    third = classification.split('id="third-place"')[1].split("</section>")[0]
    bracket = EventFolder.open(event).read(3, "bracket")
    assert re.findall(r'id="round-(\d+)-match-(\d+)"', third) == [
        ("3", str(m)) for m in bracket.loc[bracket["places"] == "3-4", "match"]]
