"""A round's boards released to platforms when it starts (issue 24 item 2).

``event open DIR --round R`` writes a ledger row of kind ``open`` (its time and command, as
every row records who decided and when): from then on a platform's token may fetch the
boards of round R's tables (``table_boards``, the server's
``GET /api/v1/rounds/R/tables/T/boards``). A round is opened once, after it is dealt and
seated; withdrawing the row (``event ledger withdraw``) closes it again.

Every release is recorded in ``live/releases.jsonl``: one JSON line ``{"platform",
"round", "table", "time"}`` per answer given, appended and synced to the disk before the
boards go out (``record_release``), so what a platform was given is known after any crash.
Decision: a file of its own, not the server's journal (``live/journal.sqlite``): the
journal's records are the desk's state, replayed in order on start to rebuild it, and a
release changes nothing the desk holds; and ``event status`` reads the releases from a
terminal while the server holds the journal. Append-only lines fit a log that only grows:
a line torn by a crash (the last, unsynced, so never acknowledged) is skipped on reading.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from ..cards import card_to_text
from ..deals.boardset import hands_of
from ..deals.boardset import load as load_boards
from ..errors import GuandanError
from ..ledger import LEDGER_FILE, add, dump
from ..ledger.kinds import active
from ..seats import SEAT_COLUMNS
from ..wording import event_command, spans
from .finality import now_utc
from .folder import EventFolder
from .ledger import event_context, read_ledger
from .transaction import step

RELEASES = "live/releases.jsonl"
OPEN = "open"


class RoundNotOpenError(GuandanError):
    """A round's boards asked for before ``event open``."""


class NoSuchTableError(GuandanError):
    """A round or table the plan or the seating does not have."""


def open_rounds(ledger: pd.DataFrame) -> dict[int, pd.Timestamp]:
    """Round -> when it was opened, from the ``open`` rows in force."""
    rows = active(ledger)
    rows = rows[rows["kind"] == OPEN].sort_values("id")
    return {int(r): pd.Timestamp(t) for r, t in zip(rows["round"], rows["time"], strict=True)}


@step("event open")
def open_round(folder: EventFolder, round_no: int, reason: str = "the round starts",
               command: str = "", now: pd.Timestamp | None = None) -> pd.Series:
    """Record that round ``round_no`` starts: its boards are released to platforms. Refused
    for a round not in the plan, not dealt, not seated or already open; returns the row."""
    folder.plan.check_round(round_no)
    ledger = read_ledger(folder)
    if not folder.file(round_no, "boards").exists():
        raise GuandanError(f"round {round_no} is not dealt yet, so it has no boards to "
                           f"release; run `{event_command(folder.path, 'deal', round_no)}` first")
    if folder.read(round_no, "seating") is None:
        raise GuandanError(f"round {round_no} is not seated yet, so no table knows its "
                           f"boards; run `{event_command(folder.path, 'seat', round_no)}` first")
    opened = open_rounds(ledger)
    if round_no in opened:
        raise GuandanError(f"round {round_no} is already open (since "
                           f"{opened[round_no]:%Y-%m-%d %H:%M} UTC); nothing was written")
    now = now or now_utc()
    new = add(ledger, event_context(folder, ledger, now), OPEN, round_no, reason, time=now,
              command=command)
    folder.replace_files({folder.path / LEDGER_FILE: dump(new)})
    return new.iloc[-1]


def sets_of_table(folder: EventFolder, round_no: int, table: int) -> list[int]:
    """The sets ``table`` plays in ``round_no`` (the plan's, for a seated table);
    ``NoSuchTableError`` for a round not in the plan or a table not seated."""
    plan = folder.plan
    if not 1 <= round_no <= plan.rounds:
        raise NoSuchTableError(f"round {round_no} is not in the plan "
                                f"({spans('round', range(1, plan.rounds + 1))})")
    seating = folder.read(round_no, "seating")
    tables = set() if seating is None else {int(t) for t in seating["table"]}
    if table not in tables:
        raise NoSuchTableError(f"round {round_no} has no table {table} seated" + (
            f" (its tables are {min(tables)}-{max(tables)})" if tables else ""))
    return sorted({s for t, s in plan.planned_results(round_no) if t == table})


def boards_of(folder: EventFolder, round_no: int) -> list[dict]:
    """Round ``round_no``'s boards as the API gives them: board, set, leader and each
    seat's cards in SPEC 2's text notation."""
    table = load_boards(folder.file(round_no, "boards"))
    hands = hands_of(table)
    return [
        {"board": board, "set": set_no, "leader": leader}
        | {seat: [card_to_text(int(c)) for c in hands[i][n]]
           for n, seat in enumerate(SEAT_COLUMNS)}
        for i, (board, set_no, leader) in enumerate(zip(
            table.column("board").to_pylist(), table.column("set").to_pylist(),
            table.column("leader").to_pylist(), strict=True))
    ]


def table_boards(folder: EventFolder, round_no: int, table: int,
                 opened: Iterable[int] | None = None,
                 boards: list[dict] | None = None) -> dict:
    """``{"round", "table", "boards": [...]}``: the boards of the sets ``table`` plays in
    ``round_no``. ``NoSuchTableError`` for an unknown round or table, ``RoundNotOpenError``
    before ``event open``. ``opened`` (the open rounds) and ``boards`` (``boards_of``) may
    be given by a caller that keeps them."""
    sets = set(sets_of_table(folder, round_no, table))
    opened = open_rounds(read_ledger(folder)) if opened is None else opened
    if round_no not in opened:
        raise RoundNotOpenError(f"round {round_no} is not open yet: its boards are released "
                                "when the director opens the round (`guandan-dup event open`)")
    boards = boards_of(folder, round_no) if boards is None else boards
    return {"round": round_no, "table": table,
            "boards": [b for b in boards if b["set"] in sets]}


@dataclass(frozen=True)
class Release:
    """One answer of the boards route: who was given which table's boards, when."""

    platform: str
    round: int
    table: int
    time: str


_appending = threading.Lock()


def record_release(path: str | os.PathLike, platform: str, round_no: int, table: int,
                   now: datetime | None = None) -> Release:
    """Append a release to ``live/releases.jsonl`` and sync it (see the module docstring)."""
    release = Release(platform, round_no, table,
                      (now or datetime.now(UTC)).isoformat(timespec="milliseconds"))
    line = (json.dumps(vars(release)) + "\n").encode("utf-8")
    file = Path(path) / RELEASES
    with _appending:
        fd = os.open(file, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)
    return release


def releases(path: str | os.PathLike) -> list[Release]:
    """Every release recorded, in order (a torn last line skipped)."""
    try:
        text = (Path(path) / RELEASES).read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    out = []
    for line in text.splitlines():
        try:
            data = json.loads(line)
            out.append(Release(str(data["platform"]), int(data["round"]),
                               int(data["table"]), str(data["time"])))
        except (ValueError, KeyError, TypeError):
            continue
    return out


def release_lines(folder: EventFolder, ledger: pd.DataFrame | None = None) -> list[str]:
    """``event status``'s line per open round: when it opened, and to which platforms its
    boards went (how many tables each).

    A round opened and not fetched yet says so."""
    opened = open_rounds(read_ledger(folder) if ledger is None else ledger)
    given: dict[int, dict[str, set[int]]] = {}
    for release in releases(folder.path):
        given.setdefault(release.round, {}).setdefault(release.platform, set()).add(
            release.table)
    lines = []
    for round_no, at in sorted(opened.items()):
        seating = folder.read(round_no, "seating")
        tables = 0 if seating is None else seating["table"].nunique()
        platforms = given.get(round_no, {})
        to = ", ".join(f"{name} ({len(t)} of {tables} tables)"
                       for name, t in sorted(platforms.items())) or "no platform yet"
        lines.append(f"Round {round_no} open since {at:%Y-%m-%d %H:%M} UTC: boards released "
                     f"to {to}")
    return lines
