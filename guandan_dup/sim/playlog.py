"""Play logs: every tribute, return, play and pass of a table's sets, as Parquet.

One row per step, in the order the steps were taken (the replay relies on row order within a
set; sets may be interleaved in any order). Columns:

=========  =======  ==========================================================
round      int64    round number
group      int64    group number (1 when the event has one group)
table      int64    table number
set        int64    event-wide set number
board      int64    event-wide board number
trick      int64    trick number within the board from 1; 0 for tribute/return
seat       str      "N", "E", "S" or "W": who acted
action     str      "tribute", "return", "play" or "pass"
cards      str      the cards in card text (``"S3 H3"``), sorted; "" for a pass
=========  =======  ==========================================================

>>> frame = log_frame([])
>>> list(frame.columns)
['round', 'group', 'table', 'set', 'board', 'trick', 'seat', 'action', 'cards']
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa

from ..atomic import write_parquet
from ..cards import format_cards, parse_cards
from ..errors import GuandanError, NotationError
from ..reading import read_parquet
from ..rules.replay import IllegalStepError, LogStep, replay_set
from ..rules.setplay import SetRecord
from ..seats import Seat
from ..wording import numbered, words
from .boards import set_deals

COLUMNS = ("round", "group", "table", "set", "board", "trick", "seat", "action", "cards")
INT_COLUMNS = COLUMNS[:6]
TEXT_COLUMNS = COLUMNS[6:]
ACTIONS = ("tribute", "return", "play", "pass")

SCHEMA = pa.schema(
    [pa.field(name, pa.int64()) for name in INT_COLUMNS]
    + [pa.field(name, pa.string()) for name in TEXT_COLUMNS]
)


class PlayLogError(GuandanError):
    """A play-log file that cannot be read or lacks the expected columns."""


def set_rows(
    record: SetRecord, round_: int, group: int, table: int, set_: int
) -> list[tuple]:
    """The log rows of one played set, in playing order."""
    return [
        (round_, group, table, set_, played.board, move.trick, move.seat.to_text(),
         move.action, format_cards(move.cards))
        for played in record.boards
        for move in played.moves
    ]


def log_table(rows: Iterable[Sequence]) -> pa.Table:
    """A play log as an Arrow table with the contract's schema, from row tuples."""
    columns = list(zip(*rows, strict=True)) or [()] * len(COLUMNS)
    return pa.Table.from_arrays([pa.array(c, f.type) for c, f in zip(columns, SCHEMA,
                                                                     strict=True)],
                                schema=SCHEMA)


def log_frame(rows: Iterable[Sequence]) -> pd.DataFrame:
    """A play-log frame with the contract's columns and dtypes from row tuples."""
    return log_table(rows).to_pandas()


def dump(frame: pd.DataFrame, path: str | os.PathLike) -> None:
    """Write a play log atomically."""
    write_parquet(path, pa.Table.from_pandas(frame[list(COLUMNS)], schema=SCHEMA,
                                             preserve_index=False))


def load(path: str | os.PathLike) -> pd.DataFrame:
    """Read a play log; ``PlayLogError`` names the file if it is unreadable or incomplete."""
    table = read_parquet(path, "play log", PlayLogError)
    missing = [name for name in COLUMNS if name not in table.column_names]
    if missing:
        raise PlayLogError(
            f"play log {str(path)!r} lacks {numbered('column', missing)}: expected "
            f"{words(COLUMNS)}"
        )
    try:
        table = table.select(list(COLUMNS)).cast(SCHEMA)
    except (pa.ArrowException, ValueError) as error:
        raise PlayLogError(f"play log {str(path)!r} has mistyped columns: {error}") from None
    empty = [name for name in COLUMNS[:-1] if table.column(name).null_count]
    if empty:
        raise PlayLogError(
            f"play log {str(path)!r} has empty cells in {numbered('column', empty)}: only "
            "'cards' may be empty (for a pass)"
        )
    return table.to_pandas().fillna({"cards": ""})


@dataclass(frozen=True)
class LogSummary:
    """What a legal log held."""

    sets: int
    boards: int
    steps: int
    plays: int


def _steps(frame: pd.DataFrame, rows: np.ndarray) -> list[LogStep]:
    """The log's rows as replay steps; ``row`` numbers count data rows from 1."""
    part = frame.iloc[rows]
    columns = zip(
        (rows + 1).tolist(), *(part[name].tolist() for name in ("board", "trick", "seat",
                                                                 "action", "cards")),
        strict=True,
    )
    steps = []
    for row, board, trick, seat, action, cards in columns:
        try:
            step = LogStep(row, board, trick, Seat.from_text(seat), action,
                           tuple(parse_cards(cards)))
        except NotationError as error:
            raise IllegalStepError(None, board, f"row {row}: {error}") from None
        if action not in ACTIONS:
            raise IllegalStepError(
                None, board, f"row {row}: action {action!r} is not one of {', '.join(ACTIONS)}"
            )
        steps.append(step)
    return steps


def validate_log(
    log: pd.DataFrame | str | os.PathLike,
    boards: pa.Table,
    three_failures_reset: bool = False,
) -> LogSummary:
    """Replay every set of a play log against its board set (``deals.boardset.load``).

    Raises ``IllegalStepError`` (an ``IllegalPlayError``) at the first illegal step, giving
    the row, board, trick, seat, cards and the rule broken.
    """
    frame = log if isinstance(log, pd.DataFrame) else load(log)
    frame = frame.reset_index(drop=True)
    by_set = set_deals(boards)
    sets = frame.groupby(["round", "group", "table", "set"], sort=False).indices
    played = 0
    for (_, _, _, set_no), rows in sets.items():
        if set_no not in by_set:
            held = ", ".join(map(str, sorted(by_set)))
            raise IllegalStepError(
                None, int(frame.at[rows[0], "board"]),
                f"row {rows[0] + 1}: set {set_no} is not in the board set (it holds sets "
                f"{held}: is it the board set of this round?)",
            )
        dealt = by_set[set_no]
        record = replay_set(_steps(frame, rows), dealt.boards, dealt.deals, dealt.leader,
                            three_failures_reset=three_failures_reset)
        played += len(record.boards)
    plays = int((frame["action"] == "play").sum())
    return LogSummary(sets=len(sets), boards=played, steps=len(frame), plays=plays)
