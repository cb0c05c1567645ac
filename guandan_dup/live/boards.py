"""The boards route's side of the server: a table's boards for a platform, once the round is
open (``event.opening``), and every answer recorded before it goes out.

The answer depends on four files: ledger.parquet (is the round open?), event.toml, the
round's boards.parquet and seating.parquet. ``TableBoards`` keeps each (round, table)'s
answer with the files' stamps (``os.stat``: mtime, size, inode) and builds it again when a
stamp changed, so ``event open`` from a terminal counts at the next request, without a
restart, and a platform polling every table costs a few stats per request.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from ..errors import GuandanError
from ..event.opening import NoSuchTableError, RoundNotOpenError, record_release, table_boards
from ..event.transaction import reading
from ..ledger import LEDGER_FILE
from .round_files import file_stamps

READ_WAIT = 5.0
"""Seconds a request waits for a command holding the folder."""


class TableBoards:
    """The boards of the folder at ``path``'s tables, for platforms (see the module
    docstring)."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self._cache: dict[tuple[int, int], tuple[tuple, int, dict]] = {}
        self._lock = threading.Lock()

    def _files(self, round_no: int) -> tuple[Path, ...]:
        folder_round = self.path / "rounds" / str(round_no)
        return (self.path / LEDGER_FILE, self.path / "event.toml",
                folder_round / "boards.parquet", folder_round / "seating.parquet")

    def answer(self, platform: str, round_no: int, table: int) -> tuple[int, dict]:
        """(status, body): ``200`` the table's boards (the release recorded first),
        ``404`` an unknown round or table, ``403`` a round not open yet."""
        stamp = file_stamps(self._files(round_no))
        with self._lock:
            cached = self._cache.get((round_no, table))
        if cached is None or cached[0] != stamp:
            try:
                with reading(self.path, wait=READ_WAIT) as folder:
                    status, body = 200, table_boards(folder, round_no, table)
            except NoSuchTableError as failure:
                status, body = 404, {"error": str(failure)}
            except RoundNotOpenError as failure:
                status, body = 403, {"error": str(failure)}
            except GuandanError as failure:
                status, body = 409, {"error": str(failure)}
            cached = (stamp, status, body)
            with self._lock:
                self._cache[(round_no, table)] = cached
        _, status, body = cached
        if status == 200:
            record_release(self.path, platform, round_no, table)
        return status, body
