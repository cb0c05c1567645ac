"""Shared by the site tests: the fixture events and a small reader for the generated HTML.

Three rehearsed events (Chinese names, byes, two groups): ``full`` plays every table and
reveals the key; ``partial`` loses half the results of set 4 (round 2), is scored anyway,
and keeps its key secret, so set 4 must never show a deal anywhere on the site; ``hostile``
has a 40-letter name, an e-mail address as an id and two players of one name.
"""

from __future__ import annotations

import sys
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest

from guandan_dup.event.create import reveal_key
from guandan_dup.event.entrants import demo_players
from guandan_dup.event.folder import EventFolder
from guandan_dup.event.ledger import add_entry
from guandan_dup.event.publish import build_event_site
from guandan_dup.event.random_model import RandomModel
from guandan_dup.event.rehearse import rehearse

EVENT = dict(players=18, rounds=3, tables_per_group=2, sets_per_round=2, boards_per_set=2)
INCOMPLETE_SET = 4
SEED = 5


def _full(path: Path) -> Path:
    rehearse(path, seed=SEED, **EVENT)
    reveal_key(path)
    return path


def _partial(path: Path) -> Path:
    """Round 2's results for set 4 come back from tables 1 and 2 only."""
    model = RandomModel(SEED)

    def play(folder, round_no: int) -> pd.DataFrame:
        results = model(folder, round_no)
        lost = (results["set"] == INCOMPLETE_SET) & (results["table"] > 2)
        return results[~lost]

    rehearse(path, seed=SEED, play=play, **EVENT)
    return path


def build_site(event: Path, out: Path | None = None, **options) -> Path:
    """The site of the event folder at ``event``, as `event site DIR` builds it."""
    return build_event_site(EventFolder.open(event), out, **options)


LONG_NAME = "Wolfeschlegelsteinhausenbergerdorffvoralt"  # 40 letters, no break
EMAIL_ID = "very.long.address.of.a.player@example-tournament.org"
TWIN_NAME = "韩梅梅"  # two players share it


def hostile_players(count: int, pairs: bool = False) -> pd.DataFrame:
    """The demo players with a 40-letter unbroken name, an e-mail address as an id and two
    players of the same name: what a phone page and a 400-player event must cope with."""
    players = demo_players(count, pairs=pairs)
    players.loc[1, "name"] = LONG_NAME
    players.loc[2, "id"] = EMAIL_ID
    players.loc[[3, 4], "name"] = TWIN_NAME
    return players


def _hostile(path: Path) -> Path:
    with pytest.MonkeyPatch.context() as patch:
        by_standing = sys.modules["guandan_dup.event.formats.by_standing"]
        patch.setattr(by_standing, "demo_players", hostile_players)
        rehearse(path, seed=SEED, **EVENT)
    return path


_MAKERS = {"full": _full, "partial": _partial, "hostile": _hostile}
_MADE: dict[str, Path] = {}


def ended_long_ago(path: Path) -> Path:
    """Every round's scheduled end in the ledger, long past: their correction deadlines (art.
    48) are over, so only pending sets can make standings provisional."""
    folder = EventFolder.open(path)
    for r in range(1, folder.plan.rounds + 1):
        add_entry(folder, "ends", r, "the schedule", at="2026-01-01T12:00:00")
    return path


def shared_event(kind: str, tmp_path_factory) -> Path:
    """The ``full``, ``partial`` or ``hostile`` event, rehearsed once per test session and
    ended long ago; tests that change an event folder must work on a copy."""
    if kind not in _MADE:
        _MADE[kind] = ended_long_ago(_MAKERS[kind](tmp_path_factory.mktemp(kind) / "event"))
    return _MADE[kind]


_BUILT: dict[str, Path] = {}


def shared_site(kind: str, tmp_path_factory) -> Path:
    """The site of the ``full``, ``partial`` or ``hostile`` event, built once per session; tests
    only read it."""
    if kind not in _BUILT:
        event = shared_event(kind, tmp_path_factory)
        _BUILT[kind] = build_site(event, tmp_path_factory.mktemp(f"{kind}-site") / "site").parent
    return _BUILT[kind]


class PageReader(HTMLParser):
    """Links, asset references and table cells of one page (enough for the tests)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.assets: list[str] = []
        self.tables: dict[str, list[list[str]]] = {}
        self.text: list[str] = []
        self.meta_charset: str | None = None
        self.html_lang: str | None = None
        self._table: str | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.html_lang = attrs.get("lang")
        if tag == "meta" and "charset" in attrs:
            self.meta_charset = attrs["charset"]
        if tag == "a" and "href" in attrs:
            self.links.append(attrs["href"])
        if tag in ("link", "script", "img", "iframe", "source", "embed", "object"):
            self.assets += [v for k, v in attrs.items() if k in ("href", "src", "data") and v]
        if tag == "table":
            self._table = attrs.get("id", "")
            self.tables[self._table] = []
        if tag == "tr" and self._table is not None:
            self.tables[self._table].append([])
        if tag in ("td", "th") and self._table is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[self._table][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        if tag == "table":
            self._table = None

    def handle_data(self, data):
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)


def read_page(path: Path) -> PageReader:
    reader = PageReader()
    reader.feed(path.read_text(encoding="utf-8"))
    return reader


def page_text(path: Path) -> str:
    """A page's text with tags removed and whitespace collapsed."""
    return " ".join(" ".join(read_page(path).text).split())
