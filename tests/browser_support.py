"""Shared by the browser tests: headless Chromium (Debian's package) via Playwright, a page
that records its console errors, and the check that a page fits a 390 px phone.

Importing this module skips the importing test module when Playwright is missing; a test
module takes ``pytestmark = needs_chromium`` (skipped without Chromium) and
``browser = browser_support.browser`` (the fixture, one browser per module).
"""

from __future__ import annotations

from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE_WIDTH = 390

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install playwright)"
)
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (apt-get install chromium)"
)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


class Watched:
    """A page that records console errors and uncaught exceptions while it is used."""

    def __init__(self, browser, width: int = 1000):
        self.page = browser.new_page(viewport={"width": width, "height": 800})
        self.errors: list[str] = []
        self.page.on(
            "console", lambda m: self.errors.append(m.text) if m.type == "error" else None
        )
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def open(self, path: Path):
        self.page.goto(path.resolve().as_uri())
        return self.page


# Wrappers whose content is wider than the wrapper: a table the reader must scroll inside.
OVERFLOWING = """Array.from(document.querySelectorAll('.scroll'))
    .filter(e => e.scrollWidth > e.clientWidth).map(e => e.firstElementChild.id)"""


def assert_fits_a_phone(page, kind: str) -> None:
    """No sideways scroll of the page, and no table wider than its scroll box."""
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= PHONE_WIDTH, (kind, width)
    assert page.evaluate(OVERFLOWING) == [], kind
