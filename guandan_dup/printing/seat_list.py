"""The seat list for the wall: every player of the round by name, with table and seat.

Players look for their own name, so the list is sorted by name (then id, for two players
of one name), in two columns of large print; under partner rotation a player's seat is
given per set. Players with a bye are listed too, so no one searches for a missing name.
"""

from __future__ import annotations

from reportlab.lib.units import mm

from ..seats import SEAT_COLUMNS
from .document import MARGIN, Document
from .source import RoundSource

SEAT_LABELS = dict(zip(SEAT_COLUMNS, ("北 North", "东 East", "南 South", "西 West"),
                       strict=True))
"""A seat on every printed page, Chinese first as on the site."""
SIZE = 13
ROW = 7.5 * mm
COLUMNS = 2
HEAD = 30 * mm
"""The room the page's title and the column headings take above the first row."""


def placements(source: RoundSource) -> list[tuple[str, str, str, str]]:
    """(name, id, table, seat) per player, sorted by name then id; a bye's table is
    "轮空 bye". Under partner rotation the seat says each set's: "第1局 set 1 北 North; ..."."""
    seats: dict[str, list[tuple[int, str, int | None]]] = {}
    for _, table, rows in source.tables():
        for _, row in rows.iterrows():
            for column in SEAT_COLUMNS:
                at = int(row["set"]) if "set" in row else None
                seats.setdefault(str(row[column]), []).append((table, column, at))
    found = []
    for player, places in seats.items():
        tables = sorted({t for t, _, _ in places})
        if all(s is None for _, _, s in places) or len({c for _, c, _ in places}) == 1:
            seat = SEAT_LABELS[places[0][1]]
        else:
            seat = "; ".join(f"第{s}局 set {s} {SEAT_LABELS[c]}" for _, c, s in places)
        found.append((source.names.get(player, player), player,
                      ", ".join(map(str, tables)), seat))
    for player in source.byes["player"].astype(str):
        found.append((source.names.get(player, player), player, "轮空 bye", ""))
    return sorted(found, key=lambda p: (p[0], p[1]))


def render(source: RoundSource, doc: Document) -> None:
    """Pages of two columns: name (id), table, seat."""
    people = placements(source)
    per_column = int((doc.height - 2 * MARGIN - HEAD) // ROW)
    per_page = per_column * COLUMNS
    title = f"{source.plan.name} · 第{source.round_no}轮 Round {source.round_no} · 座位表 seats"
    for start in range(0, max(len(people), 1), per_page):
        doc.new_page()
        top = doc.height - MARGIN
        doc.text(MARGIN, top - 8 * mm, title, 18, bold=True, fit=doc.width - 2 * MARGIN)
        width = (doc.width - 2 * MARGIN) / COLUMNS
        for c in range(COLUMNS):
            chunk = people[start + c * per_column:start + (c + 1) * per_column]
            _column(doc, chunk, MARGIN + c * width, top - HEAD + ROW, width - 4 * mm)


def _column(doc: Document, people: list[tuple[str, str, str, str]], x: float, y: float,
            width: float) -> None:
    """One column of the list from its heading at ``y`` down."""
    name_w, table_w = width * 0.5, width * 0.16
    doc.text(x, y, "姓名 Name", 9)
    doc.text(x + name_w, y, "桌 Table", 9)
    doc.text(x + name_w + table_w, y, "座位 Seat", 9)
    doc.line(x, y - 2 * mm, x + width, y - 2 * mm, 0.5)
    for name, player, table, seat in people:
        y -= ROW
        label = f"{name} ({player})" if name != player else name
        doc.text(x, y, label, SIZE, fit=name_w - 2 * mm)
        doc.text(x + name_w, y, table, SIZE, bold=True, fit=table_w - 2 * mm)
        doc.text(x + name_w + table_w, y, seat, SIZE, fit=width - name_w - table_w)
