"""``event deal``: the board set of a round's sets and its printable hand records.

Boards are a pure function of the event key and the board number, so dealing a round again
gives the same bytes; the plan decides which boards a round needs.
"""

from __future__ import annotations

from pathlib import Path

from ..deals.boardset import make_board_set
from ..deals.render import to_html
from .folder import EventFolder, parquet_bytes


def deal_round(folder: EventFolder, round_no: int, show_progress: bool = False) -> list[Path]:
    """Write rounds/R/boards.parquet and hand-records.html; returns the two paths."""
    plan = folder.plan
    boards = [b for s in plan.sets_of_round(round_no) for b in plan.boards_of_set(s)]
    table = make_board_set(
        folder.key(),
        boards,
        plan.boards_per_set,
        delayed=plan.delayed,
        first_leader=plan.first_leader,
        show_progress=show_progress,
    )
    title = f"{plan.name} · Round {round_no} 第{round_no}轮 · hand records 牌例"
    files = {
        folder.file(round_no, "boards"): parquet_bytes(table),
        folder.file(round_no, "hand-records.html"): to_html(table, title=title).encode("utf-8"),
    }
    folder.replace_files(files)
    return list(files)
