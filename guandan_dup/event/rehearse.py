"""Rehearse a whole event end to end: the loop behind ``guandan-dup demo``.

For each round: deal, seat, *play*, ingest, score; then export. Everything but the play goes
through the same functions the director's commands use, so a rehearsal exercises the real
event folder. The play is a function ``play(folder, round_no) -> DataFrame`` returning a
results file (set- or board-level, SPEC 5) for every table of the round; the default is the
seeded :class:`RandomModel`, and the simulator can supply real play with the same signature.

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
from .create import create_event
from .deal import deal_round
from .export import export_event
from .folder import EventFolder, parquet_bytes
from .ingest import ingest
from .knockout_tables import places_view
from .random_model import RandomModel
from .score import score_round
from .seat import seat_event_round
from .teams import teams_of
from .transaction import writing

PlayFunction = Callable[[EventFolder, int], pd.DataFrame]

SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾"
GIVEN = (
    "伟", "芳", "娜", "敏", "静", "丽", "强", "磊", "军", "洋", "勇",
    "艳", "杰", "娟", "涛", "明", "超", "秀英", "霞", "平", "刚", "桂英",
    "建华", "文", "斌", "宇", "浩", "凯",
)


@dataclass(frozen=True)
class Rehearsal:
    """The rehearsed event's folder, its final standings (with names; a knockout's final
    places) and the exports."""

    folder: EventFolder
    standings: pd.DataFrame
    exports: list[Path]


def demo_players(count: int, kind: str = "individual") -> pd.DataFrame:
    """``count`` players with Chinese names (id, name[, pair]), the same for every call."""
    ids = [f"P{i:03d}" for i in range(1, count + 1)]
    names = [SURNAMES[i % len(SURNAMES)] + GIVEN[(i * 11) % len(GIVEN)] for i in range(count)]
    players = pd.DataFrame({"id": ids, "name": names})
    if kind == "pairs":
        players["pair"] = [f"D{i // 2 + 1:03d}" for i in range(count)]
    return players


def rehearsal_key(seed: int) -> bytes:
    """A public, seed-derived key: reproducible rehearsals, never a real event's key."""
    return hashlib.sha256(f"guandan-dup rehearsal key\0{seed}".encode()).digest()


def rehearse(
    path: str | os.PathLike,
    players: int = 32,
    rounds: int = 3,
    tables_per_group: int = 4,
    sets_per_round: int = 2,
    boards_per_set: int = 4,
    kind: str = "individual",
    seed: int = 0,
    play: PlayFunction | None = None,
    show_progress: bool = False,
    fmt: str | None = None,
) -> Rehearsal:
    """Create an event at ``path`` and run every round of it.

    ``play(folder, round_no)`` is called after the round is dealt and seated (read
    ``folder.read(round_no, "seating")`` and ``"boards"``) and must return a results frame,
    set- or board-level (SPEC 5), for every table and set of the round. It is written to
    ``results-round-R.parquet`` at the top of the folder and ingested from there like a
    director's file, so it is checked against the plan and the seating. ``play`` defaults to
    ``RandomModel(seed)``. The whole rehearsal holds the folder's write lock.

    A pairs knockout (``fmt="knockout"``) takes its rounds from its entries (``rounds``,
    ``tables_per_group`` and ``sets_per_round`` are not used); its play function must name
    the winner of the extra boards of a level match (a ``tiebreak`` column), and the
    rehearsal's ``standings`` are its final places.
    """
    knockout = fmt == "knockout"
    path = Path(path)
    play = RandomModel(seed) if play is None else play
    with tempfile.TemporaryDirectory() as scratch:
        csv = Path(scratch) / "players.csv"
        csv.write_text(demo_players(players, kind).to_csv(index=False), encoding="utf-8")
        folder = create_event(
            path,
            csv,
            None if knockout else tables_per_group,
            None if knockout else sets_per_round,
            boards_per_set,
            None if knockout else rounds,
            kind=kind,
            name=f"Rehearsal 演练 (seed {seed})",
            key=rehearsal_key(seed),
            fmt=fmt,
        )
    return play_rounds(folder, folder.plan.rounds, play, show_progress)


def play_rounds(
    folder: EventFolder, rounds: int, play: PlayFunction, show_progress: bool = False
) -> Rehearsal:
    """Deal, seat, play, ingest and score every round of a new event, then export, holding
    the folder's write lock throughout.

    The final standings carry names: players' (``standings``) or, in a team event, the
    teams' (``team_standings`` with teams.parquet's ``name``); a knockout's are its places.
    """
    path = folder.path
    with (
        writing(path, "rehearse") as folder,
        progress(rounds, "Rehearsing rounds", show_progress) as advance,
    ):
        for r in range(1, rounds + 1):
            deal_round(folder, r)
            seat_event_round(folder, r)
            results = path / f"results-round-{r}.parquet"
            folder.replace_files({results: parquet_bytes(play(folder, r))})
            ingest(folder, results, r)
            score_round(folder, r)
            advance()
        exports = export_event(folder).paths
    if folder.plan.format == "knockout":
        standings = places_view(folder)
    elif folder.plan.kind == "teams":
        names = teams_of(folder)[["team", "name"]]
        standings = folder.read(rounds, "team_standings").merge(names, on="team", how="left")
    else:
        names = folder.players()[["player", "name"]]
        standings = folder.read(rounds, "standings").merge(names, on="player", how="left")
    return Rehearsal(folder, standings, exports)
