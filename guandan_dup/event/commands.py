"""The commands the event folder's messages tell a director to paste: the folder as the
director gave it (``EventFolder.path``: ``event status`` run on ``cup`` says ``cup``),
the round, and the results sheet to fill in, never a placeholder.

Results come in through a sheet the director fills in (``event sheet``); the messages name
it after the folder and the round, ``cup-round-2.xlsx`` beside the folder ``cup``, so a
director who follows them has that file, and one with a file of their own sees where it
goes.

>>> ingest_command("cup", 2)
'guandan-dup event ingest cup cup-round-2.xlsx --round 2'
>>> sheet_command("南京赛", 1)
'guandan-dup event sheet 南京赛 --round 1 --out 南京赛-round-1.xlsx'
"""

from __future__ import annotations

import os
from pathlib import Path

from ..wording import event_command, pasteable


def sheet_name(folder: str | os.PathLike, round_no: int) -> str:
    """The results sheet of round R suggested for ``folder``: ``cup-round-2.xlsx``, in the
    folder the commands are run from."""
    name = Path(folder).name or Path(folder).resolve().name
    return f"{name}-round-{round_no}.xlsx"


def sheet_command(folder: str | os.PathLike, round_no: int) -> str:
    """``event sheet`` writing round R's sheet (``sheet_name``)."""
    return event_command(folder, "sheet", round_no, "--out",
                         pasteable(sheet_name(folder, round_no)))


def ingest_command(folder: str | os.PathLike, round_no: int,
                   file: str | os.PathLike | None = None) -> str:
    """``event ingest`` of ``file`` into round R, by default the round's sheet
    (``sheet_name``)."""
    file = sheet_name(folder, round_no) if file is None else file
    return event_command(folder, "ingest", None, pasteable(file), f"--round {round_no}")
