"""The director's console (issue 22 item 2; SPEC 10, 11): the way in by the printed link,
the grid kept live by Server-Sent Events, corrections that become ledger rows, the ledger's
forms and the round loop's buttons calling the commands' own functions, in a real uvicorn
on 127.0.0.1 and headless Chromium.
"""

from __future__ import annotations

from pathlib import Path

import browser_support
import httpx
import live_support
import pytest
from live_page_support import ZH, api_set, open_page, screenshot, script_errors, view
from live_support import tokens, wait_for

from guandan_dup.event import EventFolder
from guandan_dup.event.ledger import read_ledger
from guandan_dup.event.transaction import reading
from guandan_dup.live.callers import DIRECTOR_COOKIE

pytestmark = browser_support.needs_chromium
browser = browser_support.browser


template, event, base = live_support.template, live_support.event, live_support.base


@pytest.fixture
def console(event, base, browser):
    """The console opened by the link ``serve`` prints; the page and its recorder."""
    watched = open_page(browser, f"{base}/director?token={tokens(event).director}", 1200, 900)
    yield watched
    assert script_errors(watched) == []
    watched.page.close()


def ledger(path: Path) -> list[dict]:
    """The folder's ledger rows, read under its shared lock (the server writes beside)."""
    with reading(path) as folder:
        return read_ledger(folder).to_dict("records")


def result(page) -> str:
    box = page.locator("#result")
    box.wait_for()
    return box.inner_text()


# ---- the way in ----


def test_the_printed_link_sets_a_strict_cookie_and_leaves_the_address_bar(event, base):
    answer = httpx.get(f"{base}/director", params={"token": tokens(event).director})
    assert answer.status_code == 303 and answer.headers["location"] == "/director"
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{DIRECTOR_COOKIE}={tokens(event).director};")
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/" in cookie
    page = httpx.get(f"{base}/director", cookies={DIRECTOR_COOKIE: tokens(event).director})
    assert page.status_code == 200 and 'id="grid"' in page.text
    assert ZH["site_help"].format(folder=event) in page.text and "DIR" not in page.text
    assert page.headers["cache-control"] == "no-store"


def test_without_the_cookie_the_console_says_how_to_open_it(event, base):
    closed = httpx.get(f"{base}/director")
    assert closed.status_code == 401
    assert f"guandan-dup serve {event}" in closed.text and 'id="grid"' not in closed.text
    assert f"{event}/director.token" in closed.text and "DIR" not in closed.text
    wrong = httpx.get(f"{base}/director", params={"token": "guess"})
    assert wrong.status_code == 401 and ZH["console_bad_token"] in wrong.text
    table = httpx.get(f"{base}/director", cookies={DIRECTOR_COOKIE: tokens(event).tables[1]})
    assert table.status_code == 401  # a table's token is no director's


def test_a_form_without_its_csrf_token_does_nothing(event, base):
    cookies = {DIRECTOR_COOKIE: tokens(event).director}
    answer = httpx.post(f"{base}/director/ledger", cookies=cookies, data={
        "round": "1", "kind": "late", "set": "1", "table": "1", "side": "NS",
        "minutes": "3", "reason": "forged", "csrf": "forged"})
    assert answer.status_code == 403 and ZH["csrf_refused"] in answer.text
    assert ledger(event) == []
    assert httpx.post(f"{base}/director/score", data={"round": "1"}).status_code == 401


# ---- the grid and the queue ----


def test_the_grid_follows_the_tables_by_server_sent_events(event, base, console):
    page = console.page
    page.locator("#live:not(.off)").wait_for()
    cell = page.locator("#cell-2-1")
    assert cell.get_attribute("data-state") == "missing"
    api_set(base, event, 2, 1, verify=False)
    page.locator("#cell-2-1[data-state='entered']").wait_for(timeout=5000)
    page.locator("#queue tr[data-table='2'][data-set='1']").wait_for()
    httpx.post(f"{base}/api/v1/rounds/1/tables/2/sets/1/dispute", json={"note": "board 2?"},
               headers=tokens(event).table(2))
    page.locator("#cell-2-1[data-state='disputed']").wait_for(timeout=5000)
    assert "board 2?" in page.locator("#queue tr[data-table='2']").inner_text()
    httpx.post(f"{base}/api/v1/rounds/1/tables/2/sets/1/verify",
               headers=tokens(event).table(2))
    page.locator("#cell-2-1[data-state='verified']").wait_for(timeout=5000)
    assert page.locator("#counts [data-state='verified']").inner_text().endswith("1")


def test_the_director_verifies_a_set_from_the_queue(event, base, console):
    api_set(base, event, 3, 2, verify=False)
    page = console.page
    page.locator("#queue tr[data-table='3'][data-set='2'] button", has_text=ZH["queue_verify"]
                 ).click()
    assert "Round 1 table 3 set 2: verified by the director" in result(page)
    assert view(base, event, 3)["sets"][1]["state"] == "verified"


def test_a_correction_of_a_verified_set_becomes_a_ledger_row(event, base, console):
    api_set(base, event, 1, 1)
    page = console.page
    page.locator("#cell-1-1").click()  # fills the form with table 1, set 1
    form = page.locator("#correct-form")
    assert form.locator("select[name=table]").input_value() == "1"
    form.locator("select[name=ns_level]").select_option("8")
    form.locator("select[name=ew_level]").select_option("4")
    form.locator("input[name=reason]").fill("both sides agree board 3 was NS +3")
    form.locator("button[type=submit]").click()
    assert "Round 1 table 1 set 1: 8/4 (NS/EW) entered by the director" in result(page)
    corrected = wait_for(lambda: [r for r in ledger(event) if r["kind"] == "corrected"])
    assert [r["reason"] for r in corrected] == ["both sides agree board 3 was NS +3"]
    assert view(base, event, 1)["sets"][0]["levels"] == {"ns": "8", "ew": "4"}
    assert "both sides agree board 3 was NS +3" in page.locator("#ledger-rows").inner_text()


def test_a_refused_correction_says_why(event, base, console):
    page = console.page
    form = page.locator("#correct-form")
    form.locator("select[name=ns_level]").select_option("A+")
    form.locator("select[name=ew_level]").select_option("2")
    form.locator("input[name=reason]").fill("paper scoresheet")
    form.locator("button[type=submit]").click()
    text = result(page)
    assert page.locator("#result.refused").count() == 1
    assert "not accepted" in text and "no set of at most 3 boards" in text


# ---- the ledger ----


def test_the_ledger_form_records_a_late_arrival(event, base, console):
    page = console.page
    form = page.locator("#ledger-form")
    form.locator("select[name=kind]").select_option("late")
    assert form.locator("[data-field='minutes']").is_visible()
    assert not form.locator("[data-field='tables']").is_visible()
    form.locator("input[name=set]").fill("2")
    form.locator("input[name=table]").fill("3")
    form.locator("select[name=side]").select_option("NS")
    form.locator("input[name=minutes]").fill("4")
    form.locator("input[name=reason]").fill("traffic")
    form.locator("input[name=article]").fill("32.1")
    form.locator("button[type=submit]").click()
    assert "Ledger row 1: round 1, table 3, set 2: NS late 4 minutes, so EW start at level 3" \
        in result(page)
    row = ledger(event)[0]
    assert (row["kind"], row["reason"], row["article"]) == ("late", "traffic", "32.1")
    assert row["command"].startswith("guandan-dup event ledger add ")
    assert "late --round 1 --set 2 --table 3 --side NS --minutes 4.0" in row["command"]
    assert view(base, event, 3)["sets"][1]["start"] == {"ns": "2", "ew": "3"}  # art. 32


def test_a_refused_ledger_row_says_why_and_withdraw_takes_one_back(event, base, console):
    page = console.page
    form = page.locator("#ledger-form")
    form.locator("select[name=kind]").select_option("penalty")
    form.locator("input[name=reason]").fill("slow play")
    form.locator("button[type=submit]").click()
    assert "--player" in result(page)  # the ledger's own words: what is missing
    page.on("dialog", lambda dialog: dialog.accept())
    form = page.locator("#ledger-form")
    form.locator("select[name=kind]").select_option("penalty")
    form.locator("input[name=player]").fill("P001")
    form.locator("input[name=points]").fill("1")
    form.locator("input[name=reason]").fill("slow play")
    form.locator("button[type=submit]").click()
    assert "Ledger row 1:" in result(page)
    withdraw = page.locator("#withdraw-form")
    withdraw.locator("input[name=id]").fill("1")
    withdraw.locator("input[name=reason]").fill("entered by mistake")
    withdraw.locator("button[type=submit]").click()
    assert "Ledger row 2: round 1: withdraws row 1" in result(page)


# ---- the round loop ----


def test_the_round_loop_runs_from_the_console(event, base, console):
    page = console.page
    page.locator("#score-form button[type=submit]").click()
    assert "round 1 has no results yet" in result(page)  # the command's refusal
    for table in (1, 2, 3, 4):
        for set_no in (1, 2):
            api_set(base, event, table, set_no)
    page.locator("#score-form button[type=submit]").click()
    scored = result(page)
    assert page.locator("#result.refused").count() == 0, scored
    assert EventFolder.open(event).file(1, "standings").exists()
    page.locator("#deal-form input[name=round]").fill("2")
    page.locator("#deal-form button[type=submit]").click()
    assert "rounds/2/boards.parquet" in result(page)
    page.locator("#seat-form input[name=round]").fill("2")
    page.locator("#seat-form button[type=submit]").click()
    assert "Table cards:" in result(page)
    page.locator("h1", has_text=ZH["round_n"].format(n=2)).wait_for()  # the seated round
    wait_for(lambda: page.locator("#grid tbody tr").count() == 4)
    page.locator("#site-form button[type=submit]").click()
    assert result(page).strip().endswith("index.html")
    assert (event / "site" / "index.html").exists()
    screenshot(page, "console")
