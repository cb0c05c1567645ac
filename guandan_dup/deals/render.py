"""Board sets for people: JSON, a plain-text hand record, and printable HTML hand records.

All three are level-independent: cards are listed by suit (♠ ♥ ♣ ♦, highest rank first) and
the jokers last, because the level card changes from board to board within a set. ``write``
picks the format from the output file's suffix unless told. Headings and seats lead in
Chinese, as the site's hand records do (第 13 副, 北, 首出 东), with the English after them.

>>> from .boardset import make_board_set
>>> print(to_text(make_board_set(bytes(32), [1, 2], boards_per_set=2)).splitlines()[0])
第 1 副 · 第 1 局第 1 副，共 2 副 · 首出 东 · Board 1  (set 1, board 1 of 2, East leads)
>>> print(to_text(make_board_set(bytes(32), [5])).splitlines()[0])
第 5 副 · 首出 东 · Board 5  (East leads)
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path

import numpy as np
import pyarrow as pa
from jinja2 import Environment, PackageLoader, select_autoescape

from ..atomic import write_text
from ..cards import (
    DIAMOND,
    HEART,
    RANK_NAMES,
    SMALL_JOKER,
    SUIT_SYMBOLS,
    card_to_text,
    card_to_unicode,
)
from ..seats import SEAT_COLUMNS, Seat
from .boardset import (
    DEFAULT_BOARDS_PER_SET,
    BoardSetError,
    BoardSetInfo,
    dump,
    hands_of,
    make_board_set,
    parse_board_range,
)

SEAT_NAMES = ("North", "East", "South", "West")
SEAT_ZH = ("北", "东", "南", "西")
SEAT_WORDS = tuple(f"{zh} {en}" for zh, en in zip(SEAT_ZH, SEAT_NAMES, strict=True))
"""A seat as the hand records name it: "北 North"."""
_RED_SUITS = (HEART, DIAMOND)


class OutputFormat(StrEnum):
    """The file types ``guandan-dup deal`` writes."""

    PARQUET = "parquet"
    JSON = "json"
    TEXT = "text"
    HTML = "html"


_SUFFIXES = {
    ".parquet": OutputFormat.PARQUET,
    ".json": OutputFormat.JSON,
    ".txt": OutputFormat.TEXT,
    ".html": OutputFormat.HTML,
    ".htm": OutputFormat.HTML,
}


def format_for_path(path: str | os.PathLike) -> OutputFormat:
    """The format a file name asks for by its suffix; Parquet if the suffix says nothing."""
    return _SUFFIXES.get(Path(path).suffix.lower(), OutputFormat.PARQUET)


def hand_by_suit(hand: np.ndarray) -> tuple[list[list[str]], list[str]]:
    """Rank names per suit (♠ ♥ ♣ ♦ order, highest first) and the jokers (big first).

    >>> hand_by_suit(np.array([0, 1, 48, 48, 53]))
    ([['A', 'A', '2'], ['2'], [], []], ['大王'])
    """
    cards = sorted((int(card) for card in hand), reverse=True)
    suits: list[list[str]] = [[] for _ in SUIT_SYMBOLS]
    for card in cards:
        if card < SMALL_JOKER:
            suits[card % 4].append(RANK_NAMES[card // 4])
    return suits, [card_to_unicode(card) for card in cards if card >= SMALL_JOKER]


def board_rows(table: pa.Table) -> list[dict]:
    """One dict per board: number, set, position, leader seat (or None) and its four hands."""
    hands = hands_of(table)
    leaders = table.column("leader").to_pylist()
    return [
        {
            "board": board,
            "set": set_number,
            "set_board": set_board,
            "leader": None if leader is None else Seat.from_text(leader),
            "hands": hands[row],
        }
        for row, (board, set_number, set_board, leader) in enumerate(
            zip(
                table.column("board").to_pylist(),
                table.column("set").to_pylist(),
                table.column("set_board").to_pylist(),
                leaders,
                strict=True,
            )
        )
    ]


def board_set_info(table: pa.Table) -> BoardSetInfo | None:
    """The file's metadata, or None for a bare table: hand records need no provenance."""
    try:
        return BoardSetInfo.from_table(table)
    except BoardSetError:
        return None


def leader_words(seat: int) -> str:
    """Who leads the board's first trick, Chinese first: ``首出 东 · East leads``."""
    return f"首出 {SEAT_ZH[seat]} · {SEAT_NAMES[seat]} leads"


def board_heading(row: dict, info: BoardSetInfo | None) -> str:
    """``第 7 副 · 第 2 局第 1 副，共 6 副 · 首出 东 · Board 7  (set 2, board 1 of 6, East
    leads)``; ``第 7 副 · 首出 东 · Board 7  (East leads)`` in board mode.

    With one board per set the set is the board, so saying so would only be noise; a bare
    table (no metadata) does not say how many boards its sets have.
    """
    boards_per_set = None if info is None else info.boards_per_set
    of = "" if boards_per_set is None else f" of {boards_per_set}"
    zh_of = "" if boards_per_set is None else f"，共 {boards_per_set} 副"
    zh, parts = [f"第 {row['board']} 副"], []
    if boards_per_set != 1:
        zh.append(f"第 {row['set']} 局第 {row['set_board']} 副{zh_of}")
        parts.append(f"set {row['set']}, board {row['set_board']}{of}")
    if row["leader"] is not None:
        zh.append(f"首出 {SEAT_ZH[row['leader']]}")
        parts.append(f"{SEAT_NAMES[row['leader']]} leads")
    english = f"Board {row['board']}  ({', '.join(parts)})" if parts else f"Board {row['board']}"
    return " · ".join([*zh, english])


def to_json(table: pa.Table) -> str:
    """A JSON list of boards, one per line; each hand is a list of card texts (``"ST"``)."""
    boards = [
        {
            "board": row["board"],
            "set": row["set"],
            "set_board": row["set_board"],
            "leader": None if row["leader"] is None else row["leader"].to_text(),
        }
        | {
            column: [card_to_text(card) for card in row["hands"][seat]]
            for seat, column in enumerate(SEAT_COLUMNS)
        }
        for row in board_rows(table)
    ]
    return "[\n" + ",\n".join(json.dumps(board) for board in boards) + "\n]\n"


def _text_hand(hand: np.ndarray) -> str:
    """``♠ A 10 2  ♥ 9  ♣ -  ♦ K  大王``: one seat's line of the plain hand record."""
    suits, jokers = hand_by_suit(hand)
    parts = [
        f"{symbol} {' '.join(ranks) or '-'}"
        for symbol, ranks in zip(SUIT_SYMBOLS, suits, strict=True)
    ]
    return "  ".join(parts + ([" ".join(jokers)] if jokers else []))


def to_text(table: pa.Table) -> str:
    """A plain hand record: a heading line per board, then one line per seat."""
    info = board_set_info(table)
    blocks = []
    for row in board_rows(table):
        lines = [board_heading(row, info)]
        lines += [
            f"  {SEAT_WORDS[seat]:<7}  {_text_hand(row['hands'][seat])}"
            for seat in range(len(SEAT_NAMES))
        ]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


_templates = Environment(
    loader=PackageLoader("guandan_dup.deals", "templates"),
    autoescape=select_autoescape(["html", "j2"]),
    trim_blocks=True,
    lstrip_blocks=True,
)


def html_hand(seat: int, hand: np.ndarray) -> dict:
    """What the template needs for one seat: name, grid area, suits with colour, jokers."""
    suits, jokers = hand_by_suit(hand)
    return {
        "name": SEAT_WORDS[seat],
        "place": SEAT_COLUMNS[seat],
        "suits": [
            {"symbol": symbol, "red": suit in _RED_SUITS, "ranks": " ".join(ranks) or "—"}
            for suit, (symbol, ranks) in enumerate(zip(SUIT_SYMBOLS, suits, strict=True))
        ],
        "jokers": jokers,
    }


def to_html(table: pa.Table, title: str = "牌例 Hand records") -> str:
    """Printable hand records: one block per board, hands in compass layout, never split."""
    info = board_set_info(table)
    boards = [
        {
            "heading": board_heading(row, info),
            "number": row["board"],
            "leader": None if row["leader"] is None else leader_words(row["leader"]),
            "hands": [html_hand(seat, row["hands"][seat]) for seat in range(len(SEAT_NAMES))],
        }
        for row in board_rows(table)
    ]
    return _templates.get_template("hand_records.html.j2").render(
        title=title, info=info, boards=boards
    )


def write(table: pa.Table, path: str | os.PathLike, fmt: OutputFormat | str | None = None) -> None:
    """Write ``table`` to ``path`` atomically as ``fmt`` (default: from the suffix).

    ``path`` ``-`` prints a text format (text by default) to standard output. ``BoardSetError``
    names ``path`` if it is a folder (checked first, so nothing is written) or cannot be
    written; the message gives the system's reason, not the temporary file's name.
    """
    if Path(path).is_dir():
        raise BoardSetError(f"cannot write the boards to {str(path)!r}: it is a folder")
    render = {OutputFormat.JSON: to_json, OutputFormat.TEXT: to_text, OutputFormat.HTML: to_html}
    if str(path) == "-":
        fmt = OutputFormat.TEXT if fmt is None else OutputFormat(fmt)
        if fmt is OutputFormat.PARQUET:
            raise BoardSetError("Parquet is binary and is not printed: give --out FILE.parquet")
        sys.stdout.write(render[fmt](table))
        return
    fmt = format_for_path(path) if fmt is None else OutputFormat(fmt)
    try:
        if fmt is OutputFormat.PARQUET:
            dump(table, path)
        else:
            write_text(path, render[fmt](table))
    except OSError as error:
        reason = os.strerror(error.errno) if error.errno else str(error)
        raise BoardSetError(f"cannot write the boards to {str(path)!r}: {reason}") from None


def deal_file(
    key: bytes,
    boards: str | Sequence[int],
    path: str | os.PathLike,
    fmt: OutputFormat | str | None = None,
    boards_per_set: int = DEFAULT_BOARDS_PER_SET,
    delayed: str = "",
    first_leader: str | Seat = "E",
    show_progress: bool = False,
) -> pa.Table:
    """Deal ``boards`` (numbers, or range text like ``"1-36"``) and ``write`` them to ``path``.

    What ``guandan-dup deal`` does; returns the table written (its metadata holds the
    commitment). A bad range, key or option raises before anything is written.
    """
    numbers = parse_board_range(boards) if isinstance(boards, str) else boards
    table = make_board_set(key, numbers, boards_per_set, delayed, first_leader, show_progress)
    write(table, path, fmt)
    return table
