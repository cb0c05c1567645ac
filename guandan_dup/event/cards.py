"""Table cards: one printable card per table saying who sits where and which sets it plays.

Rendered from a jinja2 template (``templates/table-cards.html.j2``); each card keeps together
when printed. With partner rotation a card shows one compass per set. Each card carries the
table's entry link for the round as a QR code (inline SVG: the page fetches nothing) and its
PIN, for the phones of ``guandan-dup serve`` (``event.access``); ``relink`` puts new ones
into a page already written (a table revoked, the address phones use changed), so the
director reprints a card from the same file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import jinja2
import pandas as pd
import segno
from markupsafe import Markup

from ..seats import SEAT_COLUMNS
from .plan import EventPlan

if TYPE_CHECKING:
    from .access import TableLink  # access refreshes the cards: it imports this module



class Room(NamedTuple):
    """A team match's table as its cards and printed pages name it, Chinese first: the
    match ("第2场 Match 2"), the room ("开室 open room") and both teams, each whole
    ("主队 5 北京队", "客队 2 南京队"), so a card can keep a team on one line."""

    match: str
    room: str
    home: str
    away: str

    @property
    def caption(self) -> str:
        """"第2场 Match 2 · 开室 open room · 主队 5 北京队 v 客队 2 南京队"."""
        return f"{self.match} · {self.room} · {self.home} v {self.away}"


ROOM_NAMES = {"open": "开室 open room", "closed": "闭室 closed room"}

_ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
)


def to_html(
    plan: EventPlan,
    round_no: int,
    seating: pd.DataFrame,
    byes: pd.DataFrame,
    names: Mapping[str, str],
    links: Mapping[int, TableLink],
    rooms: Mapping[int, Room] | None = None,
) -> str:
    """The table cards of one round; ``names`` maps player id -> name; ``links`` maps table
    -> its entry link (``access.round_links``); ``rooms`` (table -> ``Room``) replaces the
    group in a card's heading with a team match's room, each team on a line of its own."""

    def person(player_id: str) -> dict:
        return {"id": player_id, "name": names.get(player_id, player_id)}

    cards = []
    for (group, table), rows in seating.groupby(["group", "table"], sort=True):
        layouts = []
        for _, row in rows.iterrows():
            sets = [int(row["set"])] if "set" in row else plan.sets_of_group(round_no, group)
            layout = {seat: person(row[seat]) for seat in SEAT_COLUMNS}
            layouts.append(layout | {"sets": sets, "boards": plan.board_ranges(sets)})
        cards.append({"group": int(group), "table": int(table), "layouts": layouts,
                      "room": (rooms or {}).get(int(table)), "entry": entry(links[int(table)])})
    return _ENV.get_template("table-cards.html.j2").render(
        title=f"{plan.name} · 第{round_no}轮 Round {round_no} · 座位卡 table cards",
        cards=cards,
        byes=[person(p) for p in byes["player"]],
    )


ENTRY = re.compile(r"<!-- entry (\d+) -->.*?<!-- /entry -->", re.S)
"""A card's entry block as ``templates/table-entry.html.j2`` writes it."""


def entry(link: TableLink) -> dict:
    """What a card shows of its table's link: the QR code, the PIN, the PIN page's address."""
    return {"table": link.table, "qr": qr_svg(link.url, f"Table {link.table}"),
            "pin": link.pin, "pin_page": link.url.rsplit("/t/", 1)[0] + "/t"}


def relink(html: str, links: Mapping[int, TableLink]) -> str:
    """The cards page ``html`` with each table's entry block drawn again from ``links``
    (tables it does not name keep theirs)."""
    template = _ENV.get_template("table-entry.html.j2")

    def redraw(block: re.Match) -> str:
        link = links.get(int(block[1]))
        return block[0] if link is None else template.render(entry=entry(link))

    return ENTRY.sub(redraw, html)


def qr_svg(url: str, title: str) -> Markup:
    """``url`` as an inline SVG QR code (error correction M: a card may get creased).

    The mask is fixed: segno's search of all eight costs 15 ms a code, 8 s for the cards of
    500 tables, and a link ending in a random token reads as well under any of them.
    """
    code = segno.make(url, error="m", micro=False, mask=0)
    return Markup(code.svg_inline(border=2, omitsize=True, title=title, svgclass="qr"))
