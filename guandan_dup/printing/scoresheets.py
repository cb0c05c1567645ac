"""Scoresheets (记分表, seed 000 art. 46): one A4 page per table and set of a round.

West fills the sheet in board by board, North-South check it, both sides sign it before
they leave the table (art. 46.1, 46.2), and the director enters it, or the table its phone
(SPEC 11: paper stays valid). So a sheet carries what the phone's entry page shows: the
round, group, table, set and its boards, the four seats with names and ids (a ledger
substitute in the seat of the player replaced), the set's start levels (2/2, or a late
side's opponents higher: the ledger's ``late`` rows, art. 32), a row per board with boxes
for the finishing order and both sides' levels after it, the final levels, signature lines,
and the table's QR code and PIN (``event.access``: the same link as its table card).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..event.access import TableLink
from ..event.ledger import effects
from ..levels import level_to_text
from ..seats import SEAT_COLUMNS
from .document import MARGIN, Document
from .seat_list import SEAT_LABELS
from .source import RoundSource

GRID_HEADER = (("副号", "board"), ("上游", "1st"), ("二游", "2nd"), ("三游", "3rd"),
               ("下游", "4th"), ("南北级数", "N-S level"), ("东西级数", "E-W level"))
"""The board grid's columns: the finishing order as seat letters, then both levels."""
LATE_SIDE = {"NS": "North-South 南北", "EW": "East-West 东西"}


@dataclass(frozen=True)
class Sitter:
    """Who a scoresheet puts in a seat: ``replaces`` is the name of the registered player
    whose seat a ledger substitute takes (art. 19.2), else None."""

    seat: str
    player: str
    name: str
    replaces: str | None = None


@dataclass(frozen=True)
class Scoresheet:
    """One table's set as its sheet shows it; ``start`` is (N-S, E-W) as level indices,
    ``notes`` say why they are not 2/2 or why nothing is to be written (a set whose result
    the ledger decides), ``caption`` a team match's room."""

    round: int
    group: int
    table: int
    set: int
    boards: range
    seats: tuple[Sitter, ...]
    start: tuple[int, int]
    notes: tuple[str, ...]
    caption: str
    link: TableLink


def scoresheets(source: RoundSource) -> list[Scoresheet]:
    """The sheets of the round, by table then set (a table's pile together)."""
    decided = effects(source.folder)
    round_no = source.round_no
    starts = decided.start_levels[decided.start_levels["round"] == round_no]
    late = {(int(r.table), int(r.set)): r for r in starts.itertuples()}
    settled = {(int(r.table), int(r.set)) for r in decided.will_not_play.itertuples()
               if r.round == round_no}
    subs = decided.substitutes[decided.substitutes["round"] == round_no]
    substitute = dict(zip(subs["for_player"].astype(str), subs["player"].astype(str),
                          strict=True))
    sheets = []
    for group, table, rows in source.tables():
        for _, row in rows.iterrows():
            sitters = tuple(_sitter(seat, str(row[seat]), source.names, substitute)
                            for seat in SEAT_COLUMNS)
            for set_no in source.sets_of(row):
                start = late.get((table, set_no))
                notes = (() if start is None else (_late_text(start),)) + (
                    (DECIDED,) if (table, set_no) in settled else ())
                sheets.append(Scoresheet(
                    round_no, group, table, set_no, source.plan.boards_of_set(set_no),
                    sitters,
                    (0, 0) if start is None else (int(start.ns_start), int(start.ew_start)),
                    notes,
                    source.captions.get(table, ""), source.links[table]))
    return sorted(sheets, key=lambda sheet: (sheet.table, sheet.set))


def _sitter(seat: str, player: str, names: dict[str, str], substitute: dict[str, str]
            ) -> Sitter:
    if player in substitute:
        sub = substitute[player]
        return Sitter(seat, sub, names.get(sub, sub), names.get(player, player))
    return Sitter(seat, player, names.get(player, player))


DECIDED = ("本局结果已由裁判判定，无需记分 · This set's result is decided in the director's "
           "ledger: nothing to write")
"""The note of a set no results file will bring (forfeited, not played, assigned)."""


def _late_text(start) -> str:
    """Which side was late and the row deciding it, e.g. "East-West 东西 late 迟到 (art. 32,
    ledger row 3)": the side starting at 2 is the late one."""
    side = "EW" if start.ns_start > start.ew_start else "NS"
    return f"{LATE_SIDE[side]} late 迟到 (art. 32, ledger row {int(start.ledger_id)})"


def render(source: RoundSource, doc: Document) -> None:
    """Draw the round's scoresheets into ``doc``, one page each."""
    for sheet in scoresheets(source):
        doc.new_page()
        draw(doc, source.plan.name, sheet)


QR_SIZE = 96
ROW = 20
GRID_COLUMNS = (60, 60, 60, 60, 60, 105, 105)


def draw(doc: Document, event: str, sheet: Scoresheet) -> None:
    """One sheet on the current page, top to bottom."""
    left, top, width = MARGIN, doc.height - MARGIN, doc.width - 2 * MARGIN
    doc.text(left, top - 20, "记分表 Scoresheet", 20, bold=True)
    doc.text(left, top - 38, event, 11, fit=width - QR_SIZE - 10)
    heading = (f"第{sheet.round}轮 Round {sheet.round} · 第{sheet.table}桌 Table {sheet.table} · "
               f"第{sheet.set}局 Set {sheet.set} · 第{sheet.group}组 Group {sheet.group}")
    doc.text(left, top - 60, heading, 13, fit=width - QR_SIZE - 10, bold=True)
    doc.text(left, top - 78, f"副 Boards {sheet.boards[0]}-{sheet.boards[-1]}", 11)
    if sheet.caption:
        doc.text(left, top - 94, sheet.caption, 9, fit=width - QR_SIZE - 10)
    _draw_link(doc, sheet.link, left + width - QR_SIZE, top - QR_SIZE)
    y = _draw_seats(doc, sheet.seats, left, top - 130, width)
    y = _draw_start(doc, sheet, left, y - 24)
    y = _draw_boards(doc, sheet, left, y - 14)
    y = _draw_final(doc, left, y - 34)
    _draw_signatures(doc, left, min(y - 40, MARGIN + 120), width)


def _draw_link(doc: Document, link: TableLink, x: float, y: float) -> None:
    doc.qr(link.url, x, y, QR_SIZE)
    doc.centered(x + QR_SIZE / 2, y - 10, f"PIN {link.pin}", 10, bold=True)
    doc.centered(x + QR_SIZE / 2, y - 20, "scan to enter 扫码录入, or the PIN at", 7)
    pin_page = link.url.rsplit("/t/", 1)[0] + "/t"
    doc.centered(x + QR_SIZE / 2, y - 29, pin_page, 7, fit=QR_SIZE + 30)


def _draw_seats(doc: Document, seats: tuple[Sitter, ...], x: float, y: float,
                width: float) -> float:
    """The seats table (seat, id, name), its top at ``y``; returns its bottom."""
    columns = (x, x + 80, x + 200)
    doc.text(columns[0] + 4, y - 14, "Seat 方位", 9)
    doc.text(columns[1] + 4, y - 14, "ID 编号", 9)
    doc.text(columns[2] + 4, y - 14, "Name 姓名", 9)
    for i, sitter in enumerate(seats, 1):
        row_top = y - i * ROW
        doc.box(x, row_top - ROW, width, ROW, width=0.5)
        doc.text(columns[0] + 4, row_top - 14, SEAT_LABELS[sitter.seat], 11, bold=True)
        doc.text(columns[1] + 4, row_top - 14, sitter.player,
                 11, fit=112)
        name = sitter.name + (f"  (substitute 替补 for {sitter.replaces})"
                              if sitter.replaces else "")
        doc.text(columns[2] + 4, row_top - 14, name, 11, fit=width - 208)
    for column in columns[1:]:
        doc.line(column, y - ROW, column, y - 5 * ROW, width=0.5)
    return y - 5 * ROW


def _draw_start(doc: Document, sheet: Scoresheet, x: float, y: float) -> float:
    ns, ew = (level_to_text(i) for i in sheet.start)
    doc.text(x, y, f"Start levels 起始级数:  N-S 南北 {ns}  ·  E-W 东西 {ew}", 12, bold=True)
    for note in sheet.notes:
        y -= 14
        doc.text(x, y, note, 9)
    return y


def _draw_boards(doc: Document, sheet: Scoresheet, x: float, y: float) -> float:
    """The grid: a header, a start row with the start levels filled in, a row per board;
    rows shrink so that a long set still leaves room for the final levels and the
    signatures."""
    rows = len(sheet.boards) + 1
    height = min(24.0, max(8.0, (y - 30 - MARGIN - 166) / rows))
    edges = [x]
    for w in GRID_COLUMNS:
        edges.append(edges[-1] + w)
    for left, (chinese, english) in zip(edges, GRID_HEADER, strict=False):
        doc.text(left + 3, y - 12, chinese, 9, bold=True)
        doc.text(left + 3, y - 24, english, 8)
    top = y - 30
    size = min(11.0, height * 0.55)
    labels = [("start 起始", "", "", "", "", *(level_to_text(i) for i in sheet.start))]
    labels += [(str(b), "", "", "", "", "", "") for b in sheet.boards]
    for i, cells in enumerate(labels):
        row_top = top - i * height
        for left, w, cell in zip(edges, GRID_COLUMNS, cells, strict=False):
            doc.box(left, row_top - height, w, height, width=0.5)
            if cell:
                doc.centered(left + w / 2, row_top - height / 2 - size / 3, cell, size,
                             bold=i > 0 or w > 60)
    return top - rows * height


def _draw_final(doc: Document, x: float, y: float) -> float:
    doc.text(x, y + 6, "Final levels 最终级数", 12, bold=True)
    for offset, side in ((170, "N-S 南北"), (330, "E-W 东西")):
        doc.text(x + offset, y + 6, side, 11)
        doc.box(x + offset + 58, y - 2, 70, 24)
    return y - 2


def _draw_signatures(doc: Document, x: float, y: float, width: float) -> None:
    """Signature lines for both sides and the director, and how the sheet is kept."""
    half = width / 2
    for offset, words in ((0, "North-South 南北签名"), (half, "East-West 东西签名")):
        doc.text(x + offset, y, words, 10, bold=True)
        doc.line(x + offset, y - 26, x + offset + half - 20, y - 26)
    doc.text(x, y - 46, "Director 裁判 (corrections 更正)", 9)
    doc.line(x + 150, y - 46, x + half - 20, y - 46, width=0.5)
    notes = ("West 西家 writes each board as it ends: the finishing order as seat letters "
             "N E S W, then both sides' levels (2-10 J Q K A, A+ 过A). North-South check and "
             "sign; both sides sign before leaving the table; no corrections without the "
             "director's signature (art. 46).")
    _wrapped(doc, notes, x, y - 66, width, 8)


def _wrapped(doc: Document, text: str, x: float, y: float, width: float, size: float) -> None:
    """``text`` broken at spaces into lines no wider than ``width``."""
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}".strip()
        if line and doc.width_of(candidate, size) > width:
            doc.text(x, y, line, size)
            y -= size * 1.4
            candidate = word
        line = candidate
    doc.text(x, y, line, size)

