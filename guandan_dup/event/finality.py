"""When a round is final (art. 48): its end, its correction deadline and the guard on changing it.

A round ends at its ``ends`` ledger row or else when it was first scored, a time recorded
in rounds/R/scored.json (``SCORED_FILE``) beside the outputs so that scoring stays
reproducible byte for byte; past the correction minutes recorded with it the round is final,
and a step that would change it needs ``--override``, which the ledger records. This is
kept apart from ``event.ledger`` because it is a question of time and of files other than
ledger.parquet: the ledger reads it to build its ``Context`` (``final``), and scoring,
ingestion, status, export and the live board ask it when rounds close.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pandas as pd

from ..errors import GuandanError
from ..ledger import LEDGER_FILE, add, dump
from ..ledger.status import deadlines, final_rounds, round_ends
from .folder import EventFolder


def now_utc() -> pd.Timestamp:
    return pd.Timestamp(datetime.now(UTC))


def history_stamp(version: str) -> pd.Timestamp:
    """The UTC time a history version was set aside, from the end of its file name.

    >>> history_stamp("20261130T133849.020901Z-2.parquet")
    Timestamp('2026-11-30 13:38:49.020901+0000', tz='UTC')
    """
    text = version.rsplit(".", 1)[0].split("-")[0]
    return pd.Timestamp(datetime.strptime(text, "%Y%m%dT%H%M%S.%fZ"), tz="UTC")


SCORED_FILE = "scored.json"
"""rounds/R/scored.json: when round R was first scored (art. 48's end of a round without an
``ends`` row), written in the step of its first scoring and never replaced."""


def scored_times(folder: EventFolder) -> dict[int, pd.Timestamp]:
    """When each scored round was first scored: as recorded in its ``SCORED_FILE``, which
    a copy of the folder carries along (a file's time does not survive ``cp -r``). The
    time is kept beside the outputs, never in them, so scoring stays reproducible byte for
    byte. A round scored before the record existed falls back to its files' times
    (``file_time``)."""
    out = {}
    for r in folder.rounds_scored():
        path = folder.file(r, SCORED_FILE)
        out[r] = recorded_time(folder, r) if path.exists() else file_time(folder, r)
    return out


def recorded_time(folder: EventFolder, round_no: int) -> pd.Timestamp:
    """The first scoring time in round ``round_no``'s ``SCORED_FILE``; a clear error, with
    the command that gives the round's end instead, if it was damaged."""
    path = folder.file(round_no, SCORED_FILE)
    try:
        return pd.Timestamp(json.loads(path.read_text(encoding="utf-8"))["first_scored"])
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as failure:
        if isinstance(failure, KeyError):
            failure = f"it has no {failure.args[0]!r}"
        raise GuandanError(
            f"cannot read {str(path)!r} ({failure}): it records when the round was first "
            "scored (art. 48). Restore it from a copy of the folder, or give the round's "
            f"end with `guandan-dup event ledger add {folder.path} ends --round {round_no} "
            "--at TIME` (TIME: when the round ended, such as 2026-05-01T15:30+08:00)"
        ) from None


def file_time(folder: EventFolder, round_no: int) -> pd.Timestamp | None:
    """When a round scored before ``SCORED_FILE`` existed was scored, as its files show it:
    the scored file's modification time, or the earliest time an earlier version of it was
    set aside in history/; ``None`` for a round not scored."""
    path = folder.file(round_no, folder.standings_name)
    if not path.exists():
        return None
    times = [pd.Timestamp(path.stat().st_mtime, unit="s", tz="UTC")]
    stem = "-".join(path.relative_to(folder.path).with_suffix("").parts) + "."
    if folder.history_dir.exists():
        times += [history_stamp(p.name[len(stem):])
                  for p in folder.history_dir.glob(f"{stem}*{path.suffix}")]
    return min(times)


def first_scored(folder: EventFolder, round_no: int) -> dict:
    """The ``SCORED_FILE`` to write with a scoring of ``round_no``: none once recorded (a
    re-scoring keeps the first time); the time its files show for a round scored before
    the record existed, else now."""
    path = folder.file(round_no, SCORED_FILE)
    if path.exists():
        return {}
    at = file_time(folder, round_no) or now_utc()
    text = json.dumps({"round": round_no, "first_scored": at.isoformat(),
                       "correction_minutes": folder.plan.correction_minutes}) + "\n"
    return {path: text.encode()}


def correction_times(folder: EventFolder, rounds) -> dict[int, int]:
    """Art. 48's correction minutes of each of ``rounds``: as recorded when the round was
    first scored (``SCORED_FILE``), so a hand edit of event.toml's ``correction_minutes``
    never reopens a round already final; event.toml's for a round not scored yet (or
    scored before the minutes were recorded)."""
    out = {}
    for r in rounds:
        path = folder.file(r, SCORED_FILE)
        minutes = None
        if path.exists():
            try:
                minutes = json.loads(path.read_text(encoding="utf-8")).get("correction_minutes")
            except (OSError, UnicodeDecodeError, ValueError, AttributeError):
                minutes = None  # recorded_time names the damage
        out[r] = minutes if isinstance(minutes, int) and not isinstance(minutes, bool) \
            and minutes >= 0 else folder.plan.correction_minutes
    return out


def round_deadlines(folder: EventFolder, ledger: pd.DataFrame) -> dict[int, pd.Timestamp]:
    """Each ended round's correction deadline (art. 48)."""
    ends = round_ends(ledger, scored_times(folder))
    return deadlines(ends, correction_times(folder, ends))


def final(folder: EventFolder, ledger: pd.DataFrame, now: pd.Timestamp | None = None):
    """The rounds past their correction deadline at ``now``."""
    ends = round_ends(ledger, scored_times(folder))
    return final_rounds(ends, correction_times(folder, ends), now or now_utc())


def guard_final(folder: EventFolder, round_no: int, override: bool, command: str,
                what: str, now: pd.Timestamp | None = None) -> dict:
    """Files to write with a step that changes ``round_no``: none while the round is
    provisional; an ``override`` ledger row if it is final and ``override`` is given; else
    a ``GuandanError`` (art. 48)."""
    from .ledger import event_context, read_ledger  # ledger imports this module

    ledger = read_ledger(folder)
    now = now or now_utc()
    if round_no not in final(folder, ledger, now):
        return {}
    if not override:
        deadline = round_deadlines(folder, ledger)[round_no]
        raise GuandanError(
            f"round {round_no} is final: its correction deadline (art. 48) passed at "
            f"{deadline:%Y-%m-%d %H:%M} UTC; nothing was changed. Add --override to {what} "
            "anyway (the override is recorded in the ledger)")
    new = add(ledger, event_context(folder, ledger, now), "override", round_no,
              f"{what} after the correction deadline", time=now, command=command,
              override=True)
    return {folder.path / LEDGER_FILE: dump(new)}
