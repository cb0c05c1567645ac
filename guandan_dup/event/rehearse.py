"""Rehearse a whole event end to end: the loop behind ``guandan-dup demo``.

For each round: deal, seat, *play*, ingest, score; then export (``play_rounds``, which also
plays chosen rounds of an existing event for ``simulate --event``). Everything but the play goes
through the same functions the director's commands use, so a rehearsal exercises the real
event folder. The play is a function ``play(folder, round_no) -> DataFrame`` returning a
results file (set- or board-level, SPEC 5) for every table of the round; the default is the
seeded :class:`RandomModel`, and the simulator can supply real play with the same signature.
The entrants are made up by the event's format (``event.entrants``).

A rehearsal's key is derived from its seed so that the same seed gives the same event; it is
not secret and must never be used for a real event.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..progress import progress
from .create import create_from_request
from .deal import deal_round
from .export import export_event
from .folder import EventFolder, parquet_bytes
from .formats import format_named
from .ingest import ingest
from .random_model import RandomModel
from .score import score_round
from .seat import seat_event_round
from .transaction import writing

PlayFunction = Callable[[EventFolder, int], pd.DataFrame]


@dataclass(frozen=True)
class Rehearsal:
    """The rehearsed event's folder, its final standings (with names; a knockout's final
    places) and the exports."""

    folder: EventFolder
    standings: pd.DataFrame
    exports: list[Path]


def rehearsal_key(seed: int) -> bytes:
    """A public, seed-derived key: reproducible rehearsals, never a real event's key."""
    return hashlib.sha256(f"guandan-dup rehearsal key\0{seed}".encode()).digest()


def rehearse(
    path: str | os.PathLike,
    players: int = 32,
    rounds: int | None = 3,
    tables_per_group: int = 4,
    sets_per_round: int = 2,
    boards_per_set: int = 4,
    kind: str = "individual",
    seed: int = 0,
    play: PlayFunction | None = None,
    show_progress: bool = False,
    fmt: str | None = None,
) -> Rehearsal:
    """Create an event of made-up entrants at ``path`` and run every round of it.

    ``players`` counts the entrants as the format does: players of an individual or pairs
    event (two per pair), teams of a team event, the entries (pairs, teams) of a knockout.
    ``kind`` and ``fmt`` choose the format, as for ``create_event``; the shape options it
    does not take are not used (a knockout takes its rounds from its entries, a team event
    plays one set a round).

    ``play(folder, round_no)`` is called after the round is dealt and seated (read
    ``folder.read(round_no, "seating")`` and ``"boards"``) and must return a results frame,
    set- or board-level (SPEC 5), for every table and set of the round (a knockout's names
    the winner of the extra boards of a level match: a ``tiebreak`` column). It is written
    to ``results-round-R.parquet`` at the top of the folder and ingested from there like a
    director's file, so it is checked against the plan and the seating. ``play`` defaults
    to ``RandomModel(seed)``. The whole rehearsal holds the folder's write lock.
    """
    event_format = format_named(kind, fmt)
    offered = {"tables_per_group": tables_per_group, "sets_per_round": sets_per_round,
               "rounds": rounds}
    shape = {k: v for k, v in offered.items() if k in event_format.takes}
    with tempfile.TemporaryDirectory() as scratch:
        request = event_format.demo_request(
            Path(scratch), players, boards_per_set,
            name=f"{event_format.rehearsal_title} (seed {seed})", **shape)
        folder = create_from_request(path, event_format, request, rehearsal_key(seed))
    play = RandomModel(seed) if play is None else play
    exports = play_rounds(folder, range(1, folder.plan.rounds + 1), play, show_progress)
    return Rehearsal(folder, folder.plan.event_format.final_standings(folder), exports)


def rehearse_teams(
    path: str | os.PathLike,
    teams: int = 8,
    rounds: int | None = 3,
    boards_per_set: int = 4,
    fmt: str = "swiss",
    seed: int = 0,
    play: PlayFunction | None = None,
    show_progress: bool = False,
) -> Rehearsal:
    """``rehearse`` a team event of ``teams`` made-up teams of four (``fmt``: swiss,
    round-robin or knockout, whose rounds follow from its teams)."""
    return rehearse(path, teams, rounds, boards_per_set=boards_per_set, kind="teams",
                    seed=seed, play=play, show_progress=show_progress, fmt=fmt)


def play_rounds(
    folder: EventFolder, rounds: range, play: PlayFunction, show_progress: bool = False
) -> list[Path]:
    """Deal, seat, play, ingest and score ``rounds`` (in order), then export, holding the
    folder's write lock throughout; returns the exports.

    A round already dealt keeps its boards, and one already seated its seating unless the
    format says to seat it again (``reseat_because``): a rehearsal of an existing event
    (``simulate --event``) plays what its director prepared, as the day would."""
    path = folder.path
    with (
        writing(path, "rehearse") as folder,
        progress(len(rounds), "Rehearsing rounds", show_progress) as advance,
    ):
        for r in rounds:
            if not folder.file(r, "boards").exists():
                deal_round(folder, r)
            if (not folder.file(r, "seating").exists()
                    or folder.plan.event_format.reseat_because(folder, r)):
                seat_event_round(folder, r)
            results = path / f"results-round-{r}.parquet"
            folder.replace_files({results: parquet_bytes(play(folder, r))})
            ingest(folder, results, r)
            score_round(folder, r)
            advance()
        return export_event(folder).paths
