"""Issue 23, items 3 and 5: exports Excel opens (UTF-8 with a byte-order mark, whole numbers
whole), the director's penalties and adjustments in a file of their own and in front of the
players they concern (standings, their own page), late starts' levels on the travellers,
and team standings marked provisional (art. 48) like the individual ones."""

import csv
import io
import re
from pathlib import Path

import browser_support
import pandas as pd
import pytest
from browser_support import PHONE_WIDTH, Watched, assert_fits_a_phone
from event_support import run, seated_event, set_results, swiss_cup, write

from guandan_dup.event import EventFolder
from guandan_dup.reports.render import BOM, Section, render

HALF_FLOAT = re.compile(r"^-?\d+\.0$")
browser = browser_support.browser  # the module-scoped headless Chromium fixture


@pytest.fixture(scope="module")
def event(tmp_path_factory) -> Path:
    """17 players, round 1 played and scored with three decisions: NS of table 1 three
    minutes late for set 1 (EW start at 3), an artificial A+/A- at table 2 set 2 and a
    2.5-point penalty on P002 (art. 41.3, a mobile phone rang)."""
    tmp_path = tmp_path_factory.mktemp("decisions")
    directory = seated_event(tmp_path)
    folder = EventFolder.open(directory)
    run("event", "ingest", directory, write(set_results(folder, 1, seed=1),
                                            tmp_path / "r1.parquet"), "--round", 1)
    run("event", "ledger", "add", directory, "late", "--round", 1, "--table", 1, "--set", 1,
        "--side", "NS", "--minutes", 3, "--reason", "traffic", "--article", "32")
    run("event", "ledger", "add", directory, "artificial", "--round", 1, "--table", 2,
        "--set", 2, "--result", "A+/A-", "--reason", "a quarrel at the table")
    run("event", "ledger", "add", directory, "penalty", "--round", 1, "--player", "P002",
        "--points", "2.5", "--reason", "mobile phone rang", "--article", "41.3")
    run("event", "score", directory, "--round", 1)
    run("event", "export", directory, "--to", "all")
    run("event", "site", directory, "--out", tmp_path / "site", "--quiet")
    return directory


@pytest.fixture(scope="module")
def cup(tmp_path_factory) -> Path:
    """A team Swiss, round 1 scored, still in its correction time, a team penalty."""
    tmp_path = tmp_path_factory.mktemp("cup")
    directory, folder = swiss_cup(tmp_path, [4, 4, 4, 4], 3)
    run("event", "ingest", directory, write(set_results(folder, 1, seed=1),
                                            tmp_path / "r1.parquet"), "--round", 1)
    run("event", "ledger", "add", directory, "penalty", "--team", 3, "--match-points", 1,
        "--round", 1, "--reason", "slow play", "--article", "52")
    run("event", "score", directory, "--round", 1)
    run("event", "export", directory, "--to", "all")
    run("event", "site", directory, "--out", tmp_path / "site", "--quiet")
    return directory


def csv_rows(path: Path) -> list[dict[str, str]]:
    """A csv as Excel on Chinese Windows reads it: the byte-order mark says UTF-8."""
    assert path.read_bytes().startswith(b"\xef\xbb\xbf"), f"{path.name} has no BOM"
    with path.open(encoding="utf-8-sig", newline="") as file:
        return list(csv.DictReader(file))


def page(event: Path, relative: str) -> str:
    return (event.parent / "site" / relative).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", [
    "standings-round-1.csv", "travellers-round-1.csv", "decisions-round-1.csv"])
def test_issue23_every_csv_export_has_a_bom_and_whole_numbers_are_whole(event, name):
    rows = csv_rows(event / "exports" / name)
    assert rows and all(not HALF_FLOAT.match(v) for row in rows for v in row.values()), rows


@pytest.mark.parametrize("name", [
    "team-standings-round-1.csv", "match-results-round-1.csv", "decisions-round-1.csv"])
def test_issue23_every_team_csv_export_has_a_bom_and_whole_numbers_are_whole(cup, name):
    rows = csv_rows(cup / "exports" / name)
    assert rows and all(not HALF_FLOAT.match(v) for row in rows for v in row.values()), rows


@pytest.mark.parametrize(("values", "shown"), [
    ([12.0, None], ["12", ""]),  # an integer column with an empty cell turns float
    ([2.5, 3.0], ["2.5", "3"]),  # 场分 move in halves
    (pd.array([-3, None], dtype="Int8"), ["-3", ""]),
])
def test_issue23_a_whole_number_is_shown_without_a_decimal(values, shown):
    text = render([Section("x", pd.DataFrame({"n": values}))], "csv", "x", frozenset())
    assert text.startswith(BOM)
    assert [row[0] if row else "" for row in csv.reader(io.StringIO(text[1:]))][1:] == shown


def test_issue23_the_decisions_file_lists_kind_article_and_reason(event):
    rows = csv_rows(event / "exports" / "decisions-round-1.csv")
    got = {(r["类别 Kind"], r["局 Set"], r["桌 Table"], r["选手 Player"], r["罚分 Penalty"],
            r["结果 Result"], r["条款 Article"], r["原因 Reason"]) for r in rows}
    assert got == {
        ("罚分 Penalty", "", "", "P002", "2.5", "", "41.3", "mobile phone rang"),
        ("迟到 Late arrival", "1", "1", "", "", "NS 2 / EW 3", "32", "traffic"),
        ("人为成绩 Artificial result", "2", "2", "", "", "NS A+ / EW A-", "",
         "a quarrel at the table"),
    }
    assert all(r["轮 Round"] == "1" for r in rows)
    for fmt in ("md", "html", "xlsx"):
        assert (event / "exports" / f"decisions-round-1.{fmt}").exists()


def test_issue23_standings_list_the_decisions_but_their_csv_holds_the_ranking_alone(event):
    text = (event / "exports" / "standings-round-1.md").read_text(encoding="utf-8")
    assert "判罚与调整 Penalties and adjustments" in text and "a quarrel at the table" in text
    ranking = csv_rows(event / "exports" / "standings-round-1.csv")
    assert len(ranking) == 17 and all(row["选手 Player"] for row in ranking)


def test_art32_the_travellers_show_a_late_start_s_levels(event):
    rows = csv_rows(event / "exports" / "travellers-round-1.csv")
    starts = {(r["局 Set"], r["桌 Table"]): (r["南北起始级 NS start"], r["东西起始级 EW start"])
              for r in rows}
    assert starts.pop(("1", "1")) == ("2", "3")
    assert set(starts.values()) == {("", "")}, "the other tables started at 2/2"
    traveller = page(event, "sets/set-1.html")
    assert traveller.count("late-start") == 1 and "开局 2 : 3" in traveller


def test_issue23_a_player_s_page_shows_the_penalty_with_article_and_reason(event):
    mine = page(event, "players/P002.html")
    section = mine[mine.index('id="decisions"'):mine.index('id="history"')]
    assert "mobile phone rang" in section and "41.3" in section and "-2.5" in section
    other = page(event, "players/P005.html")
    assert "mobile phone rang" not in other


def test_issue23_a_player_s_page_shows_an_adjustment_of_a_set_they_played(event):
    seating = EventFolder.open(event).read(1, "seating")
    table_2 = seating[seating["table"] == 2].iloc[0]
    at_table = page(event, f"players/{table_2['north']}.html")
    assert 'id="decisions"' in at_table and "a quarrel at the table" in at_table
    elsewhere = seating[seating["table"] == 3].iloc[0]["north"]
    assert "a quarrel at the table" not in page(event, f"players/{elsewhere}.html")


@browser_support.needs_chromium
def test_issue23_the_decisions_fit_a_390px_phone_with_article_and_reason_shown(event, browser):
    phone = Watched(browser, width=PHONE_WIDTH)
    for relative in ("players/P002.html", "standings/round-1.html", "sets/set-1.html"):
        opened = phone.open(event.parent / "site" / relative)
        assert_fits_a_phone(opened, relative)
        shown = opened.locator("#decisions:visible, .late-start:visible").first.inner_text()
        assert shown, relative
    decisions = phone.open(event.parent / "site" / "players/P002.html").locator("#decisions")
    assert "mobile phone rang" in decisions.inner_text() and "41.3" in decisions.inner_text()
    assert phone.errors == []
    phone.page.close()


def test_issue23_the_site_standings_list_every_decision(event):
    standings = page(event, "standings/round-1.html")
    for text in ("mobile phone rang", "traffic", "a quarrel at the table", "NS A+ / EW A-"):
        assert text in standings


def provisional_marks(cup: Path) -> tuple[bool, bool]:
    """Whether the exported team standings of round 1, and the site's, say provisional."""
    run("event", "export", cup, "--to", "md")
    run("event", "site", cup, "--out", cup.parent / "site", "--quiet")
    exported = (cup / "exports" / "team-standings-round-1.md").read_text(encoding="utf-8")
    site = page(cup, "standings/round-1.html")
    assert "slow play" in exported and "slow play" in site
    return "暂定 · provisional" in exported, 'id="provisional"' in site and "第四十八条" in site


def test_art48_team_standings_are_marked_provisional_like_the_individual_ones(cup):
    assert provisional_marks(cup) == (True, True)
    run("event", "ledger", "add", cup, "ends", "--round", 1, "--at", "2026-01-01T10:00:00",
        "--reason", "the schedule")
    assert provisional_marks(cup) == (False, False), "final after the correction deadline"


def test_issue23_a_withdrawn_decision_leaves_no_decisions_file_behind(tmp_path):
    directory = seated_event(tmp_path)
    folder = EventFolder.open(directory)
    run("event", "ingest", directory, write(set_results(folder, 1, seed=1),
                                            tmp_path / "r1.parquet"), "--round", 1)
    run("event", "ledger", "add", directory, "penalty", "--round", 1, "--player", "P002",
        "--points", "1", "--reason", "slow")
    run("event", "score", directory, "--round", 1)
    run("event", "export", directory, "--to", "csv")
    assert (directory / "exports" / "decisions-round-1.csv").exists()
    run("event", "ledger", "withdraw", directory, 1, "--reason", "a mistake")
    run("event", "score", directory, "--round", 1)
    out = run("event", "export", directory, "--to", "csv")
    assert not (directory / "exports" / "decisions-round-1.csv").exists(), out
