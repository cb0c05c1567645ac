"""The table's page (issue 22 item 1; SPEC 4, 11; seed 000 art. 38.2, 38.3) and its way in
by PIN, in a real uvicorn on 127.0.0.1 and headless Chromium at a phone's 390 px.

North-South tap each board's finishing order, the page shows the levels the server
derives, a result the rules cannot produce is refused in words, East-West verify, after
which only the director changes a set, and the recap lists the table's sets. The outbox
keeps an entry made while the server is away and sends it, once, when it is back.
"""

from __future__ import annotations

import json
from pathlib import Path

import browser_support
import httpx
import live_support
from browser_support import Watched, assert_fits_a_phone
from live_page_support import (
    PLAYED,
    ZH,
    api_set,
    open_page,
    screenshot,
    script_errors,
    table_url,
    tap,
    view,
)
from live_support import free_port, knockout, running, teams, tokens, wait_for

from guandan_dup.levels import level_to_text
from guandan_dup.live.labels import LABELS, lang_of
from guandan_dup.live.tokens import table_links
from guandan_dup.rules.progression import play_set

pytestmark = browser_support.needs_chromium
browser = browser_support.browser
EN = LABELS["en"]


template, event, base = live_support.template, live_support.event, live_support.base


def set_text(page, set_no: int) -> str:
    return page.locator(f"#set-{set_no}").inner_text()


# ---- the way in ----


def test_labels_have_the_same_keys_in_both_languages():
    assert set(LABELS["zh"]) == set(LABELS["en"])


def test_lang_query_then_cookie_then_chinese():
    assert lang_of({}, {}) == "zh"
    assert lang_of({"lang": "en"}, {}) == "en"
    assert lang_of({"lang": "en"}, {"lang": "zh"}) == "zh"


def test_a_right_pin_opens_the_tables_page(event, base):
    pin = {link.table: link.pin for link in _links(event)}[3]
    answer = httpx.post(f"{base}/t", data={"pin": pin})
    assert answer.status_code == 303
    assert answer.headers["location"] == f"/t/{tokens(event).tables[3]}"
    page = httpx.get(base + answer.headers["location"])
    assert page.status_code == 200 and 'data-table="3"' in page.text
    assert page.headers["cache-control"] == "no-store"
    assert page.headers["referrer-policy"] == "no-referrer"


def test_a_wrong_pin_says_so_and_guesses_are_limited(event, base):
    used = {link.pin for link in _links(event)}
    wrong = next(p for p in (f"{n:06d}" for n in range(1000)) if p not in used)
    answer = httpx.post(f"{base}/t", data={"pin": wrong})
    assert answer.status_code == 401
    assert ZH["pin_wrong"].format(pin=wrong) in answer.text
    assert httpx.post(f"{base}/t", data={"pin": "12ab"}).status_code == 400
    for _ in range(4):
        httpx.post(f"{base}/t", data={"pin": wrong})
    limited = httpx.post(f"{base}/t", data={"pin": min(used)})  # even a right one now
    assert limited.status_code == 429
    assert int(limited.headers["retry-after"]) > 0
    assert ZH["pin_slow"].format(seconds=limited.headers["retry-after"]) in limited.text


def test_an_unknown_link_says_how_to_get_in(base):
    answer = httpx.get(f"{base}/t/not-a-token")
    assert answer.status_code == 404
    assert ZH["link_unknown"] in answer.text and 'href="/t"' in answer.text


def test_the_page_is_chinese_by_default_and_english_by_its_cookie(event, base):
    url = table_url(base, event, 1)
    assert '<html lang="zh-CN">' in httpx.get(url).text
    assert '<html lang="en">' in httpx.get(url, cookies={"lang": "en"}).text


# ---- the page at the table ----


def test_tapping_the_seats_enters_boards_and_shows_the_derived_levels(event, base, browser):
    watched = open_page(browser, table_url(base, event, 1))
    page = watched.page
    tap(page, 1, "NS")  # 双下: two taps end the board, NS up 3
    row = page.locator("#set-1 .board-row[data-board='1']")
    row.locator(".after", has_text=ZH["levels_pair"].format(ns="5", ew="2")).wait_for()
    assert "北 → 南" in row.inner_text()
    tap(page, 1, "ENW")  # three taps: the fourth seat is implied
    page.locator("#set-1 .board-row[data-board='2'] .after",
                 has_text=ZH["levels_pair"].format(ns="5", ew="4")).wait_for()
    assert "东 → 北 → 西 → 南" in page.locator("#set-1 .board-row[data-board='2']").inner_text()
    assert_fits_a_phone(page, "table page")
    entries = view(base, event, 1)["sets"][0]["entries"]
    assert [(e["board"], e["finish"]) for e in entries] == [(1, "NS"), (2, "ENWS")]
    assert page.locator(".status-bar").inner_text() == ZH["all_sent"]
    assert script_errors(watched) == []


def test_a_result_the_rules_cannot_produce_is_refused_in_words(event, base, browser):
    watched = open_page(browser, table_url(base, event, 2))
    page = watched.page
    page.locator("#set-1 .final-levels summary").click()
    page.locator("#set-1 select[name=ns_level]").select_option("A+")
    page.locator("#set-1 select[name=ew_level]").select_option("2")
    page.locator("#set-1 button.enter-levels").click()
    refusal = page.locator("#set-1 .notice.refused")
    refusal.wait_for()
    direct = httpx.post(f"{base}/api/v1/rounds/1/tables/2/entries", headers=tokens(event).table(2),
                        json={"id": "same", "set": 1, "ns_level": "A+", "ew_level": "2"})
    assert direct.status_code == 422
    for problem in direct.json()["problems"]:
        assert problem["message"] in refusal.inner_text()
    assert page.locator(".status-bar").inner_text() == ZH["all_sent"]  # dropped, not retried
    assert view(base, event, 2)["sets"][0]["state"] == "missing"
    assert script_errors(watched) == []


def tapped(browser, base: str, path: Path, table: int) -> Watched:
    """Table ``table``'s page once North-South tapped set 1's boards (``PLAYED``) and its
    verify button shows."""
    watched = open_page(browser, table_url(base, path, table))
    tap(watched.page, 1, *PLAYED)
    watched.page.locator("#set-1 button.verify").wait_for()
    return watched


def test_east_west_verify_and_then_only_the_director_changes_the_set(event, base, browser):
    watched = tapped(browser, base, event, 3)
    page = watched.page
    page.locator("#set-1 button.verify").click()
    page.locator("#set-1 .verified-note").wait_for()
    assert ZH["verified_note"] in set_text(page, 1)
    assert page.locator("#set-1 button.change").count() == 0
    assert page.locator("#set-1 .keypad").count() == 0
    assert view(base, event, 3)["sets"][0]["state"] == "verified"
    assert_fits_a_phone(page, "verified set")
    assert script_errors(watched) == []


def test_a_change_after_verification_is_refused_in_words(event, base, browser):
    watched = tapped(browser, base, event, 4)
    page = watched.page
    # The other phone of the table verified meanwhile; this page has not looked again yet.
    verified = httpx.post(f"{base}/api/v1/rounds/1/tables/4/sets/1/verify",
                          headers=tokens(event).table(4))
    assert verified.status_code == 200
    page.locator("#set-1 .board-row[data-board='3'] button.change").click()
    tap(page, 1, "EW")
    refusal = page.locator("#set-1 .notice.refused")
    refusal.wait_for()
    assert "only the director can change it now" in refusal.inner_text()
    page.locator("#set-1 .verified-note").wait_for()
    assert [e["finish"] for e in view(base, event, 4)["sets"][0]["entries"]] == [
        "NS", "ENWS", "NESW"]
    assert script_errors(watched) == []


def test_the_recap_lists_the_tables_sets_for_both_sides(event, base, browser):
    api_set(base, event, 1, 1)
    watched = open_page(browser, table_url(base, event, 1))
    page = watched.page
    recap = page.locator("#recap")
    assert recap.locator("h2").inner_text() == ZH["recap_title"]
    rows = recap.locator("tbody tr")
    assert rows.nth(0).inner_text().split() == ["1", "3", "7", "4", ZH["state_verified"]]
    assert rows.nth(1).locator("td").nth(4).inner_text() == ZH["state_missing"]
    page.locator("#set-2 .final-levels summary").click()  # set 2 by its final levels
    page.locator("#set-2 select[name=ns_level]").select_option("3")
    page.locator("#set-2 select[name=ew_level]").select_option("8")
    page.locator("#set-2 button.enter-levels").click()
    page.locator("#set-2 button.verify").click()
    page.locator("#recap.done").wait_for()
    assert ZH["recap_all_verified"] in recap.inner_text()
    assert rows.nth(1).inner_text().split()[2:] == ["3", "8", ZH["state_verified"]]
    assert_fits_a_phone(page, "recap")
    screenshot(page, "table-page")
    assert script_errors(watched) == []


def test_english_by_the_toggle_is_remembered(event, base, browser):
    watched = open_page(browser, table_url(base, event, 2))
    page = watched.page
    page.locator("button.lang-toggle").click()
    page.wait_for_function("document.documentElement.lang === 'en'")
    page.locator("#set-1 .keypad-title", has_text=EN["tap_board"].format(n=1)).wait_for()
    page.goto(table_url(base, event, 2))
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.locator(".status-bar").inner_text() == EN["all_sent"]
    assert_fits_a_phone(page, "english")
    assert script_errors(watched) == []


# ---- every format: a team match's room, a knockout's extra boards ----


def test_a_team_match_room_shows_its_match_and_who_sits_north_south(tmp_path, browser):
    cup = teams(tmp_path)
    with running(cup) as base:
        match = view(base, cup, 1)["match"]
        watched = open_page(browser, table_url(base, cup, 1))
        page = watched.page
        line = page.locator(".match-line")
        line.wait_for()
        ns = match["home"] if match["ns_team"] == match["home"]["team"] else match["away"]
        assert line.inner_text() == ZH["match_line"].format(
            match=match["match"], room=ZH["room_" + match["room"]], home=match["home"]["name"],
            away=match["away"]["name"], ns=ns["name"])
        tap(page, 1, *PLAYED)
        page.locator("#set-1 button.verify").click()
        page.locator("#set-1 .verified-note").wait_for()
        assert_fits_a_phone(page, "team room")
        assert script_errors(watched) == []


def test_a_level_knockout_match_asks_who_won_the_extra_boards(tmp_path, browser):
    ko = knockout(tmp_path)
    with running(ko) as base:
        watched = open_page(browser, table_url(base, ko, 1))
        page = watched.page
        tap(page, 1, "NS")
        tap(page, 1, "EW")  # 5 all after two boards
        page.locator("#set-1 .final-levels summary").click()
        page.locator("#set-1 select[name=ns_level]").select_option("5")
        page.locator("#set-1 select[name=ew_level]").select_option("5")
        page.locator("#set-1 button.enter-levels").click()
        page.locator("#set-1 .tiebreak-block").wait_for()  # a pairs match level on levels
        page.locator("#set-1 button.verify").click()
        assert "extra boards" in page.locator("#set-1 .notice.refused").inner_text()
        page.locator("#set-1 button.tiebreak[data-side='EW']").click()
        page.locator("#set-1 .tiebreak-block p.muted",
                     has_text=ZH["tiebreak_now"].format(side=ZH["ew"])).wait_for()
        page.locator("#set-1 button.verify").click()
        page.locator("#set-1 .verified-note").wait_for()
        assert view(base, ko, 1)["sets"][0]["tiebreak"] == "EW"
        assert ZH["tiebreak_now"].format(side=ZH["ew"]) in set_text(page, 1)
        assert script_errors(watched) == []


# ---- the outbox ----


def outbox(page) -> list[dict]:
    """The entries the page still keeps to send (its localStorage)."""
    return [item for key in page.evaluate("Object.keys(localStorage)")
            if key.startswith("guandan-dup.outbox.")
            for item in json.loads(page.evaluate(f"localStorage.getItem({key!r})"))]


def test_an_entry_made_while_the_server_is_away_lands_once_when_it_is_back(event, browser):
    port = free_port()
    with running(event, port) as base:
        watched = open_page(browser, table_url(base, event, 2))
        page = watched.page
        page.locator("#set-1 .keypad").wait_for()
    tap(page, 1, "NS")  # the server is gone
    page.locator(".status-bar.waiting", has_text=ZH["waiting_to_send"].format(n=1)).wait_for()
    waiting = outbox(page)
    assert [item["body"]["board"] for item in waiting] == [1]
    assert page.locator("#set-1 .board-row.pending[data-board='1']").count() == 1
    with running(event, port) as base:
        page.locator(".status-bar.sent").wait_for(timeout=45_000)
        assert outbox(page) == []
        entries = view(base, event, 2)["sets"][0]["entries"]
        assert [(e["id"], e["board"]) for e in entries] == [(waiting[0]["body"]["id"], 1)]
        page.locator("#set-1 .board-row[data-board='1'] .after",
                     has_text=ZH["levels_pair"].format(ns="5", ew="2")).wait_for()
    assert script_errors(watched) == []


def test_entries_kept_across_a_reload_are_sent_with_their_ids(event, browser):
    port = free_port()
    with running(event, port) as base:
        url = table_url(base, event, 3)
        watched = open_page(browser, url)
        page = watched.page
        page.locator("#set-1 .keypad").wait_for()
    tap(page, 1, "NS", "ENW")
    waiting = outbox(page)
    assert len(waiting) == 2
    with running(event, port) as base:
        page.goto(url)  # reloaded: the outbox is read back from localStorage
        page.locator(".status-bar.sent").wait_for(timeout=45_000)
        entries = view(base, event, 3)["sets"][0]["entries"]
        assert [e["id"] for e in entries] == [item["body"]["id"] for item in waiting]


def test_an_answer_lost_on_the_way_back_is_not_counted_twice(event, base, browser):
    watched = open_page(browser, table_url(base, event, 4))
    page = watched.page
    page.locator("#set-1 .keypad").wait_for()
    sent: list[str] = []

    def lose_the_first_answer(route):
        sent.append(json.loads(route.request.post_data)["id"])
        if len(sent) == 1:
            route.fetch()  # the server takes it ...
            route.abort("connectionreset")  # ... and the answer never reaches the phone
        else:
            route.continue_()

    page.route("**/entries", lose_the_first_answer)
    tap(page, 1, "NS")
    page.locator(".status-bar.sent").wait_for(timeout=20_000)
    assert len(sent) >= 2 and len(set(sent)) == 1  # resent, with the same id
    wait_for(lambda: view(base, event, 4)["sets"][0]["entries"])
    entries = view(base, event, 4)["sets"][0]["entries"]
    assert [e["id"] for e in entries] == sent[:1]


def _links(path: Path):
    return table_links(path, 1, "http://127.0.0.1:8000")


def test_played_boards_give_the_levels_the_tests_expect():
    """The boards ``api_set`` plays end NS 7, EW 4 (SPEC 4), which the recap test reads."""
    state = play_set(list(PLAYED))
    assert (level_to_text(state.ns_level), level_to_text(state.ew_level)) == ("7", "4")
