"""The live scoreboard's figures: ``GET /api/v1/rounds/{R}/standings`` and the ``/board``
page (issue 22 item 3).

A projector in the hall asks every few seconds, and every table still playing can read it,
so the figures count a set only once it is public (SPEC 10, ``event.publish.public_sets``:
every planned table has a result or a ledger row saying it will not play it; ``compute``
applies ``complete_sets`` to the inputs ``public_sets`` reads, read once for the counted
sets and the tables each set waits for). The format
computes the standings (``EventFormat.provisional``) with the scoring's own ranks, in
memory, from the folder's stored results: nothing is written, and ``event score`` stays the
one step that makes a round's files.

``standings(path, R)`` answers (JSON-ready)::

    {"round": R, "event": name, "kind": "individual", "format": "",
     "provisional": true, "final_at": "2026-11-30T14:30:00+00:00" | null,
     "computed_at": "2026-11-30T13:58:02.123456+00:00",
     "counted_sets": [{"round": 1, "set": 1}, ...],
     "waiting": [{"set": 3, "tables": 1}, {"set": 4, "tables": 0}],
     "standings": [{"position", "rank", "rank_label", ...}, ...],
     "matches": [...]}                        # knockouts only

- ``standings``, best first, one row per entrant. Individual and pairs events, one per
  registered player: ``position``, ``rank``, ``rank_label`` ("1="), ``player``, ``name``,
  ``venue`` (events with venues only),
  ``cumulative`` (the cumulative score rate 0..1 as standings.parquet has it; ``null`` for
  a player with no set counted yet) and ``sets`` (sets counted). Before any set counts,
  every player has 0 sets and no average and all share rank 1 ("1="), in seeding order:
  how the scoring lists players yet to play. Team events, one per team: ``team`` (its
  number), ``name``, ``match_points`` (场分), ``level_points`` (级差分), both totals with
  penalties off as team_standings.parquet has them, and ``played`` (matches counted).
  Knockouts: the final places (``side``, ``name``; ``rank`` the place, ``rank_label``
  "9=") once the last round is public and decided, else an empty list.
- ``matches`` (knockouts): the round's matches, ``match``, ``places`` ("main", "3-4"),
  ``table`` (the bracket's table, a team match's open room), ``side_a``/``side_b`` with
  their ``..._name``, ``state`` (``bye``; ``playing`` until the round's set is public;
  ``decided`` with ``result``, ``winner``, ``winner_name`` and ``decided_by``; or
  ``undecided`` when the results decide nothing yet).
- ``waiting``: every set of round R with the number of its planned tables that have
  neither a result stored nor a ledger row saying they will not play it (0: public).
- ``counted_sets``: the (round, set)s of rounds 1..R the figures include; a round's
  figures count its earlier rounds' public sets too, since standings are cumulative.
- ``provisional``: ``false`` only once round R is scored, its scored files are up to date
  with the results and the ledger, every set of rounds 1..R is counted and its correction
  deadline (art. 48, ``final_at``) has passed: then the figures are the final standings.
  Until the round has ended ``final_at`` is ``null``.
- ``computed_at``: when the figures were computed from the folder (UTC).

Reading holds the folder's shared lock (``event.transaction.reading``), so a concurrent
writer is never seen half-way. Answers are cached by the folder's state (size, time and
inode of every file at the top and in ``rounds/*/``): a repeated call while nothing
changed costs a directory scan. The check of the cache needs no lock: a state that
matches the cached one is the consistent state the figures were computed in.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd

from ..event.finality import round_deadlines
from ..event.folder import EventFolder
from ..event.ledger import read_ledger, will_not_play_rows
from ..event.parts import PARTS
from ..event.publish import Row, complete_sets, planned_rows, stored_rows
from ..event.transaction import LOCK_FILE, reading
from ..scoring.venues import venue_standings

CACHED = 32
"""Answers kept (a folder and round each): the rounds a board pages through."""


@dataclass(frozen=True)
class Figures:
    """What a folder state gives for one round; ``answer`` adds what depends on the time."""

    body: dict
    settled: bool
    """Round R scored, up to date and counting every set of rounds 1..R."""
    deadline: pd.Timestamp | None

    def answer(self, now: pd.Timestamp) -> dict:
        """The JSON at ``now``: a copy, so a caller may change it without changing the
        cached figures."""
        final = self.settled and self.deadline is not None and now >= self.deadline
        copied = {name: [dict(row) for row in value] for name, value in self.body.items()
                  if isinstance(value, list)}
        return {**self.body, "provisional": not final, **copied}


_cache: OrderedDict[tuple[str, int], tuple[tuple, Figures]] = OrderedDict()
_guard = threading.Lock()


def standings(path_or_folder: str | os.PathLike | EventFolder, round_no: int,
              now: pd.Timestamp | None = None, venue: str | None = None) -> dict:
    """Round ``round_no``'s live standings (the module docstring's JSON) of the event folder
    at ``path_or_folder``; ``now`` (default: the clock) decides whether the round is final.
    With ``venue``, ``standings`` holds that venue's players only, ranked within it
    (``scoring.venues``), and the answer has ``"venue": V``; an unknown venue is a
    ``GuandanError`` naming the venues.

    Raises ``GuandanError`` for a folder that is not an event folder, a round the plan does
    not have, or files the scoring cannot read (its message says what to fix).
    """
    path = Path(path_or_folder.path if isinstance(path_or_folder, EventFolder)
                else path_or_folder)
    key = (str(path.resolve()), round_no)
    state = folder_state(path)
    with _guard:
        hit = _cache.get(key)
    if hit is None or hit[0] != state:
        with reading(path) as folder:
            folder.plan.check_round(round_no)
            state = folder_state(path)
            figures = compute(folder, round_no)
        with _guard:
            _cache[key] = (state, figures)
            _cache.move_to_end(key)
            while len(_cache) > CACHED:
                _cache.popitem(last=False)
        hit = (state, figures)
    answer = hit[1].answer(pd.Timestamp.now(tz=UTC) if now is None else now)
    return answer if venue is None else for_venue(answer, venue)


def for_venue(answer: dict, venue: str) -> dict:
    """``answer`` with its standings cut to ``venue``'s players, ranked within the venue."""
    rows = pd.DataFrame(answer["standings"])
    return {**answer, "venue": venue, "standings": records(venue_standings(rows, venue))}


def folder_state(path: Path) -> tuple:
    """(name, size, modification time, inode) of every file at the folder's top and in its
    round folders and their parts (``event.parts``): every file a round's figures are
    computed from. A step replaces files by renaming new ones in, so each write changes at
    least the time and inode."""
    if not path.is_dir():
        return ()  # no folder: ``reading`` says so, in a director's words
    folders = [path]
    rounds = path / "rounds"
    if rounds.is_dir():
        for folder in sorted(p for p in rounds.iterdir() if p.is_dir()):
            folders += [folder, *[folder / PARTS] * (folder / PARTS).is_dir()]
    state = []
    for folder in folders:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name != LOCK_FILE and entry.is_file(follow_symlinks=False):
                    st = entry.stat(follow_symlinks=False)
                    state.append((entry.path, st.st_size, st.st_mtime_ns, st.st_ino))
    return tuple(sorted(state))


def compute(folder: EventFolder, round_no: int) -> Figures:
    """Round R's figures from the folder as it stands (the caller holds the lock)."""
    plan = folder.plan
    rounds = range(1, round_no + 1)
    ledger = read_ledger(folder)
    planned, stored = planned_rows(folder, rounds), stored_rows(folder, rounds)
    declared = will_not_play_rows(folder, ledger)
    counted = complete_sets(planned, stored, declared)  # ``public_sets``, its inputs read once
    live = plan.event_format.provisional(folder, round_no, counted)
    body = {
        "round": round_no,
        "provisional": True,  # ``Figures.answer`` decides, at the time asked
        "event": plan.name,
        "kind": plan.kind,
        "format": plan.format,
        "final_at": None,
        "computed_at": datetime.now(UTC).isoformat(),
        "counted_sets": [{"round": r, "set": s} for r, s in sorted(counted)],
        "waiting": waiting(plan.sets_of_round(round_no),
                           [row for row in planned if row[0] == round_no], stored | declared),
        "standings": records(live.standings),
    }
    if live.matches is not None:
        body["matches"] = records(live.matches)
    every = all((r, s) in counted for r in rounds for s in plan.sets_of_round(r))
    scored = folder.file(round_no, folder.standings_name).exists()
    settled = every and scored and not folder.scored_out_of_date(round_no)
    deadline = round_deadlines(folder, ledger).get(round_no)
    if deadline is not None:
        body["final_at"] = deadline.isoformat()
    return Figures(body, settled, deadline)


def waiting(sets: list[int], planned: list[Row], done: set[Row]) -> list[dict]:
    """Each of the round's ``sets`` with how many of its ``planned`` (round, table, set)
    rows are not ``done`` (no result stored, no ledger row saying the table will not play
    it): ``complete_sets``' rule, so a set is public exactly when it waits for 0 tables.

    >>> waiting([1, 2], [(1, 1, 1), (1, 2, 1), (1, 1, 2), (1, 2, 2)], {(1, 1, 1), (1, 2, 1)})
    [{'set': 1, 'tables': 0}, {'set': 2, 'tables': 2}]
    """
    owed = dict.fromkeys(sets, 0)
    for row in planned:
        if row not in done:
            owed[row[2]] += 1
    return [{"set": s, "tables": n} for s, n in owed.items()]


def records(frame: pd.DataFrame) -> list[dict]:
    """``frame``'s rows as JSON-ready dicts: numpy numbers as Python ones, missing as
    ``None``."""
    columns = {c: frame[c].astype(object).where(frame[c].notna(), None).tolist()
               for c in frame.columns}
    return [{c: _plain(values[i]) for c, values in columns.items()} for i in range(len(frame))]


def _plain(value):
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value
