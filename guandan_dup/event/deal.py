"""``event deal``: the board set of a round's sets and its printable hand records.

Boards are a pure function of the event key and the board number; the plan decides which
boards a round needs. A round is dealt once: dealing it again could only give the same boards,
so it is refused as the likely slip it is (a file deleted by hand is written again, identical).
"""

from __future__ import annotations

from pathlib import Path

from ..deals.boardset import make_board_set
from ..deals.render import to_html
from ..errors import GuandanError
from ..wording import words
from .folder import EventFolder, parquet_bytes
from .transaction import step


@step("event deal")
def deal_round(folder: EventFolder, round_no: int, show_progress: bool = False) -> list[Path]:
    """Write rounds/R/boards.parquet and hand-records.html; returns the two paths."""
    plan = folder.plan
    plan.check_round(round_no)
    outputs = [folder.file(round_no, "boards"), folder.file(round_no, "hand-records.html")]
    if all(path.exists() for path in outputs):
        raise GuandanError(
            f"round {round_no} is already dealt ({words(outputs)}); its boards "
            "are fixed by the event key, so dealing again would give the same ones. "
            "Nothing was changed"
        )
    boards = [b for s in plan.sets_of_round(round_no) for b in plan.boards_of_set(s)]
    table = make_board_set(
        folder.key(),
        boards,
        plan.boards_per_set,
        delayed=plan.delayed,
        first_leader=plan.first_leader,
        show_progress=show_progress,
    )
    title = f"{plan.name} · 第{round_no}轮 Round {round_no} · 牌例 hand records"
    contents = (parquet_bytes(table), to_html(table, title=title).encode("utf-8"))
    folder.replace_files(dict(zip(outputs, contents, strict=True)))
    return outputs
