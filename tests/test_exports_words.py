"""Issue 25, item 8: the exports in the words of the people who read them. Every csv read
with the standard library shows whole numbers whole (an individual event, a pairs knockout
and a team Swiss); travellers name the players beside their ids; the ``调整 Adjusted``
column only when some table has an artificial result; a team table's conversion table
named once; how a knockout match was decided in Chinese and English; the standings HTML
printed from page 1 under one title; a team table card's team names never broken."""

from __future__ import annotations

import csv
import re
import subprocess
from pathlib import Path

import browser_support
import pytest
from browser_support import Watched
from event_support import (
    named_teams,
    pairs_knockout,
    play_knockout_round,
    run,
    seated_event,
    set_results,
    swiss_cup,
    write,
)

from guandan_dup.event import EventFolder
from guandan_dup.reports.knockout import DECIDED_WORDS
from guandan_dup.reports.render import Section, render
from guandan_dup.reports.tables import PERCENT_COLUMNS

WHOLE_AS_FLOAT = re.compile(r"^-?\d+\.0$")
browser = browser_support.browser  # the module-scoped headless Chromium fixture


def csv_rows(path: Path) -> list[dict[str, str]]:
    """A csv as the standard library reads it (the byte-order mark dropped)."""
    with path.open(encoding="utf-8-sig", newline="") as file:
        return list(csv.DictReader(file))


@pytest.fixture(scope="module")
def individual(tmp_path_factory) -> Path:
    """17 players, round 1 scored, exported in every format, no artificial result."""
    tmp_path = tmp_path_factory.mktemp("individual")
    directory = seated_event(tmp_path)
    folder = EventFolder.open(directory)
    run("event", "ingest", directory, write(set_results(folder, 1, seed=1),
                                            tmp_path / "r1.parquet"), "--round", 1)
    run("event", "score", directory, "--round", 1)
    run("event", "export", directory, "--to", "all")
    return directory


@pytest.fixture(scope="module")
def knockout(tmp_path_factory) -> Path:
    """A knockout of 4 pairs played to its end (2 rounds), exported in every format."""
    tmp_path = tmp_path_factory.mktemp("knockout")
    directory = pairs_knockout(tmp_path, 4)
    for r in (1, 2):
        play_knockout_round(tmp_path, directory, r)
    run("event", "export", directory, "--to", "all")
    return directory


@pytest.fixture(scope="module")
def cup(tmp_path_factory) -> Path:
    """A Swiss of 5 teams (one bye: 1.5 场分), round 1 scored and exported."""
    tmp_path = tmp_path_factory.mktemp("cup")
    directory, folder = swiss_cup(tmp_path, [4, 4, 4, 4, 4], 3)
    run("event", "ingest", directory, write(set_results(folder, 1, seed=1),
                                            tmp_path / "r1.parquet"), "--round", 1)
    run("event", "score", directory, "--round", 1)
    run("event", "export", directory, "--to", "all")
    return directory


@pytest.mark.parametrize("kind", ["individual", "knockout", "cup"])
def test_issue25_no_exported_csv_shows_a_whole_number_with_a_decimal(kind, request):
    exports = request.getfixturevalue(kind) / "exports"
    files = sorted(exports.glob("*.csv"))
    assert len(files) >= 2, files
    for path in files:
        rows = csv_rows(path)
        assert rows, path.name
        bad = [(path.name, column, value) for row in rows for column, value in row.items()
               if WHOLE_AS_FLOAT.match(value or "")]
        assert bad == [], bad


def test_issue25_travellers_name_the_players_beside_their_ids(individual):
    names = EventFolder.open(individual).players().set_index("player")["name"]
    rows = csv_rows(individual / "exports" / "travellers-round-1.csv")
    assert list(rows[0])[3:11] == ["北 N", "北姓名 N name", "东 E", "东姓名 E name",
                                   "南 S", "南姓名 S name", "西 W", "西姓名 W name"]
    for row in rows:
        for seat in "北东南西":
            player = row[f"{seat} {'NESW'['北东南西'.index(seat)]}"]
            assert row[f"{seat}姓名 {'NESW'['北东南西'.index(seat)]} name"] == names[player]
    md = (individual / "exports" / "travellers-round-1.md").read_text(encoding="utf-8")
    assert f"| {rows[0]['北 N']} | {names[rows[0]['北 N']]} |" in md


def test_issue25_the_adjusted_column_only_when_a_table_has_an_artificial_result(
        individual, tmp_path):
    exported = individual / "exports"
    assert "调整 Adjusted" not in csv_rows(exported / "travellers-round-1.csv")[0]
    for fmt in ("md", "html"):
        assert "调整 Adjusted" not in (exported / f"travellers-round-1.{fmt}").read_text("utf-8")
    travellers = EventFolder.open(individual).read(1, "travellers")
    assert "adjusted" in travellers.columns, "the Parquet column stays: a documented contract"
    assert travellers["adjusted"].isna().all()


def test_issue25_an_artificial_result_shows_the_adjusted_column(tmp_path):
    directory = seated_event(tmp_path)
    folder = EventFolder.open(directory)
    run("event", "ingest", directory, write(set_results(folder, 1, seed=1),
                                            tmp_path / "r1.parquet"), "--round", 1)
    run("event", "ledger", "add", directory, "artificial", "--round", 1, "--table", 2,
        "--set", 2, "--result", "A+/A-", "--reason", "a quarrel")
    run("event", "score", directory, "--round", 1)
    run("event", "export", directory, "--to", "csv")
    rows = csv_rows(directory / "exports" / "travellers-round-1.csv")
    shown = {(r["局 Set"], r["桌 Table"]): r["调整 Adjusted"] for r in rows}
    assert shown.pop(("2", "2")) == "A+/A-" and set(shown.values()) == {""}


def test_issue25_the_conversion_table_is_named_once(cup):
    for name in ("team-standings-round-1", "match-results-round-1"):
        rows = csv_rows(cup / "exports" / f"{name}.csv")
        named = [row["级差分换算表 Conversion table"] for row in rows]
        assert named == ["线性 linear"] + [""] * (len(rows) - 1), name
        md = (cup / "exports" / f"{name}.md").read_text(encoding="utf-8")
        assert md.count("线性 linear") == 1 and md.count("linear") == 1, name


def test_issue25_team_points_keep_their_halves_and_whole_numbers(cup):
    rows = csv_rows(cup / "exports" / "team-standings-round-1.csv")
    points = [row["场分 Match points"] for row in rows]
    assert "1.5" in points and "2" in points and "0" in points, points


def test_issue25_decided_by_reads_in_chinese_and_english(knockout):
    rows = csv_rows(knockout / "exports" / "bracket.csv")
    decided = {row["决胜 Decided by"] for row in rows}
    assert decided <= set(DECIDED_WORDS.values()) and decided, decided
    assert all(re.match(r"^[\u4e00-\u9fff]+ [a-z ]+$", d) for d in decided), decided


def test_issue25_every_way_a_match_is_decided_has_its_words():
    from guandan_dup.knockout.bracket import DECIDED_BY

    assert set(DECIDED_WORDS) == set(DECIDED_BY)


def test_issue25_the_standings_html_has_one_title_and_no_unbreakable_section(individual):
    html = (individual / "exports" / "standings-round-1.html").read_text(encoding="utf-8")
    title = "第1轮后排名 Standings after round 1"
    assert html.count(f"<h1>{title}</h1>") == 1 and f"<h2>{title}</h2>" not in html
    assert "section { break-inside: avoid" not in html and "table { break-inside" not in html


def long_standings_html(tmp_path: Path) -> Path:
    """The standings of 120 players with a decision below them, as the export writes."""
    import pandas as pd

    ranking = pd.DataFrame({"名次 Rank": [str(i) for i in range(1, 121)],
                            "选手 Player": [f"P{i:03d}" for i in range(1, 121)],
                            "累计 Total %": [50.0] * 120})
    decisions = pd.DataFrame({"原因 Reason": ["slow play"]})
    title = "第3轮后排名 Standings after round 3"
    html = render([Section(title, ranking), Section("判罚与调整 Penalties and adjustments",
                                                     decisions)], "html", title,
                  PERCENT_COLUMNS, "暂定 · provisional")
    path = tmp_path / "standings.html"
    path.write_text(html, encoding="utf-8")
    return path


@browser_support.needs_chromium
def test_issue25_a_long_standings_table_prints_from_page_1(tmp_path, browser):
    page = Watched(browser).open(long_standings_html(tmp_path))
    pdf = tmp_path / "standings.pdf"
    page.pdf(path=str(pdf), format="A4")
    page.close()
    out = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True,
                         check=True).stdout.decode("utf-8")
    pages = out.split("\f")
    assert len(pages) > 2, "a table longer than a page"
    assert "P001" in pages[0] and "名次 Rank" in pages[0], "the table starts on page 1"
    assert "名次 Rank" in pages[1], "its header row repeats on the next page"
    assert out.count("第3轮后排名 Standings after round 3") == 1


TEAM = "江苏省南京市鼓楼区老年大学掼蛋协会一队"


@browser_support.needs_chromium
def test_issue25_a_team_table_card_never_breaks_a_team_name(tmp_path, browser):
    """The HTML cards ``event seat`` writes: the caption wraps between words, never inside
    a team's name."""
    directory = named_teams(tmp_path, [TEAM, "北京队", "上海市浦东新区掼蛋俱乐部", "南京队"])
    watched = Watched(browser, width=700)
    page = watched.open(directory / "rounds" / "1" / "table-cards.html")
    lines = page.evaluate("""name => Array.from(document.querySelectorAll('.card h2'))
        .filter(h => h.textContent.includes(name)).map(h => {
            const walker = document.createTreeWalker(h, NodeFilter.SHOW_TEXT);
            let text = walker.nextNode();
            while (!text.textContent.includes(name)) { text = walker.nextNode(); }
            const at = text.textContent.indexOf(name);
            const range = document.createRange();
            range.setStart(text, at); range.setEnd(text, at + name.length);
            return new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top))).size;
        })""", TEAM)
    assert lines and set(lines) == {1}, lines
    assert watched.errors == []
    page.close()


def test_issue25_a_knockout_s_travellers_name_the_players(knockout):
    names = EventFolder.open(knockout).players().set_index("player")["name"]
    for r in (1, 2):
        for row in csv_rows(knockout / "exports" / f"travellers-round-{r}.csv"):
            assert row["东姓名 E name"] == names[row["东 E"]], row
