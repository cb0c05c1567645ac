"""Issue 24: a venue director's console in headless Chromium: the link with its token opens
the console of its venue's tables only, kept live by the event stream (its venue's
progress), with no script error; the queue's verify button works on its tables."""

from __future__ import annotations

import shutil
from pathlib import Path

import browser_support
import httpx
import pytest
from event_support import run
from live_page_support import ZH, open_page, script_errors
from live_support import running, tokens
from venue_support import venue_event

pytestmark = browser_support.needs_chromium
browser = browser_support.browser

OWN = "南京"  # tables 1-3; 淮安 has 4-5
ENTRY = {"set": 1, "ns_level": "5", "ew_level": "2"}


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    directory = venue_event(tmp_path_factory.mktemp("venues"), rounds=2)
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1)
    return directory


def test_issue24_venue_console_shows_and_follows_its_tables_only(template, tmp_path, browser):
    event = Path(shutil.copytree(template, tmp_path / "event"))
    token = run("event", "tokens", event, "--venue", OWN).split()[-1]
    with running(event, store_delay=0.05) as base:
        watched = open_page(browser, f"{base}/director?token={token}", 1200, 900)
        page = watched.page
        page.locator("#live:not(.off)").wait_for()
        assert page.locator("#venue-scope").inner_text().startswith(f"场地 {OWN}")
        rows = page.locator("#grid tbody tr")
        assert rows.count() == 3
        assert page.locator("#cell-4-1").count() == 0
        boss = tokens(event).boss
        for table in (2, 4):  # the director enters a set at each venue
            answer = httpx.post(f"{base}/api/v1/rounds/1/tables/{table}/entries",
                                headers=boss, json=ENTRY | {"id": f"e{table}"})
            assert answer.status_code == 201, answer.text
        page.locator("#cell-2-1[data-state='entered']").wait_for(timeout=5000)
        assert page.locator("#queue tr[data-table='4']").count() == 0
        page.locator("#queue tr[data-table='2'][data-set='1'] button",
                     has_text=ZH["queue_verify"]).click()
        page.locator("#cell-2-1[data-state='verified']").wait_for(timeout=5000)
        assert script_errors(watched) == []
        watched.page.close()
