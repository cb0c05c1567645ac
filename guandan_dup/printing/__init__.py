"""Printing for the venue: A4 PDFs of a seated round, Chinese fonts embedded.

``print_round(folder, round, what)`` writes one kind (``KINDS``) to
``DIR/print/round-R-WHAT.pdf`` (or ``out``). Each kind is a module with ``render(source,
doc)``: it reads the round from ``source`` (``source.RoundSource``) and draws pages on
``doc`` (``document.Document``), which writes the file atomically when it is done.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..errors import GuandanError
from ..event.folder import EventFolder
from . import hand_records, lineups, scoresheets, seat_list, table_cards
from .document import Document
from .fonts import find_cjk_font
from .source import RoundSource, seated_round

Render = Callable[[RoundSource, Document], None]

KINDS: dict[str, tuple[Render, str]] = {
    "table-cards": (table_cards.render, "座位卡 table cards"),
    "scoresheets": (scoresheets.render, "记分表 scoresheets"),
    "seat-list": (seat_list.render, "座位表 seat list"),
    "lineups": (lineups.render, "出场表 lineup forms"),
    "hand-records": (hand_records.render, "牌例 hand records"),
}
"""WHAT -> (the kind's ``render``, its caption in titles and footers)."""


@dataclass(frozen=True)
class Printed:
    """A PDF written: where, how many pages, and what to tell the director (the font)."""

    path: Path
    pages: int
    notes: list[str]


def default_out(folder: EventFolder, round_no: int, what: str) -> Path:
    """``DIR/print/round-R-WHAT.pdf``."""
    return folder.path / "print" / f"round-{round_no}-{what}.pdf"


def print_round(folder: EventFolder, round_no: int, what: str,
                out: str | os.PathLike | None = None,
                font: str | os.PathLike | None = None) -> Printed:
    """Print ``what`` (one of ``KINDS``) of ``round_no`` to ``out`` (default
    ``default_out``) with the font ``font`` (default: found, ``fonts.find_cjk_font``)."""
    if what not in KINDS:
        raise GuandanError(
            f"--what {what!r} is not something this program prints; choose one of "
            f"{', '.join(KINDS)}")
    source = seated_round(folder, round_no)
    render, caption = KINDS[what]
    chosen = find_cjk_font(font)
    path = Path(out) if out is not None else default_out(folder, round_no, what)
    if path.suffix.lower() != ".pdf":
        raise GuandanError(f"--out {str(path)!r}: the printed pages are a PDF; give a file "
                           "ending in .pdf")
    footer = f"{folder.plan.name} · 第{round_no}轮 Round {round_no} · {caption}"
    with Document(path, chosen, footer, footer) as doc:
        render(source, doc)
    return Printed(path, doc.pages, [n for n in (chosen.note, *doc.notes) if n])
