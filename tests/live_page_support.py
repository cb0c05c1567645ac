"""Helpers for the browser tests of the server's pages (the table's page, the console, the
board): pages that record their script errors, and results entered through the API as
another table would.

The event is ``live_support.individual``: 17 players at 4 tables, round 1 seated, sets 1
(boards 1-3) and 2 (boards 4-6). ``live_support.running`` serves it (on a free port, or on
the port given: the outbox test brings the server back where the page left it).
"""

from __future__ import annotations

from pathlib import Path

import httpx
from browser_support import Watched
from live_support import tokens

from guandan_dup.live.labels import LABELS

ZH = LABELS["zh"]
ARTIFACTS = Path(__file__).parent / "artifacts"
"""Screenshots kept for a human to look at (not checked in)."""
SET_BOARDS = {1: (1, 2, 3), 2: (4, 5, 6)}
PLAYED = ("NS", "ENW", "NES")
"""Three boards from level 2: NS +3 (5/2), EW +2 (5/4), NS +2 (7/4): NS 7, EW 4."""


def table_url(base: str, path: Path, table: int, round_no: int = 1) -> str:
    """The table's page, as its card's QR code gives it."""
    return f"{base}/t/{tokens(path, round_no).tables[table]}"


def open_page(browser, url: str, width: int = 390, height: int = 800) -> Watched:
    """A recorded page at ``url``, in a context of its own (its own localStorage)."""
    watched = Watched(browser, width)
    watched.page.set_viewport_size({"width": width, "height": height})
    watched.page.goto(url)
    return watched


def script_errors(watched: Watched) -> list[str]:
    """The page's script errors: uncaught exceptions and console errors, without Chromium's
    lines about a request the server answered 4xx or could not be reached for (the pages
    show those answers in words; they are no script's failure)."""
    return [e for e in watched.errors if not e.startswith("Failed to load resource")]


def tap(page, set_no: int, *finishes: str) -> None:
    """North-South tap each of ``finishes`` (e.g. "ENW"), board after board, on the keypad
    of set ``set_no``."""
    for seat in "".join(finishes):
        page.locator(f"#set-{set_no} .keypad [data-seat='{seat}']").click()


def api_set(base: str, path: Path, table: int, set_no: int, finishes=PLAYED,
            verify: bool = True, round_no: int = 1) -> None:
    """Table ``table`` enters ``finishes`` for the boards of ``set_no`` through the API,
    and East-West verify it (as another table's phone would)."""
    headers = tokens(path, round_no).table(table)
    api = f"{base}/api/v1/rounds/{round_no}/tables/{table}"
    for board, finish in zip(SET_BOARDS[set_no], finishes, strict=False):
        body = {"id": f"t{table}-b{board}-{finish}", "set": set_no, "board": board,
                "finish": finish}
        answer = httpx.post(f"{api}/entries", json=body, headers=headers)
        assert answer.status_code in (200, 201), answer.text
    if verify:
        answer = httpx.post(f"{api}/sets/{set_no}/verify", headers=headers)
        assert answer.status_code == 200, answer.text


def view(base: str, path: Path, table: int, round_no: int = 1) -> dict:
    """The table's view, as its phone loads it."""
    answer = httpx.get(f"{base}/api/v1/rounds/{round_no}/tables/{table}",
                       headers=tokens(path, round_no).table(table))
    assert answer.status_code == 200, answer.text
    return answer.json()


def screenshot(page, name: str) -> None:
    """Keep a full-page screenshot of ``page`` as tests/artifacts/``name``.png."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
