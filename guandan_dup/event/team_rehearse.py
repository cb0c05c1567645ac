"""Rehearse a team event (SPEC 8): made-up teams, then the same round loop as ``rehearse``.

Each team registers four players (the default lineup); the teams are named after the
cities where Guandan is played. The key is derived from the seed, as in every rehearsal.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pandas as pd

from .create import create_event
from .random_model import RandomModel
from .rehearse import PlayFunction, Rehearsal, demo_players, play_rounds, rehearsal_key

CITIES = ("淮安", "南京", "北京", "上海", "苏州", "扬州", "合肥", "无锡", "徐州", "常州",
          "镇江", "南通", "盐城", "宿迁", "连云港", "泰州")


def demo_teams(count: int, per_team: int = 4) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(players with ``team`` labels T01.., teams ``team, name``), the same for every call."""
    labels = [f"T{i:02d}" for i in range(1, count + 1)]
    players = demo_players(count * per_team).assign(
        team=[label for label in labels for _ in range(per_team)])
    names = [CITIES[i % len(CITIES)] + ("队" if i < len(CITIES) else f"{i // len(CITIES) + 1}队")
             for i in range(count)]
    return players, pd.DataFrame({"team": labels, "name": names})


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
    """Create a team event at ``path`` and run every round of it (``rehearse``'s loop); a
    knockout (``fmt="knockout"``, ``rounds`` None) has the rounds its bracket needs."""
    path = Path(path)
    with tempfile.TemporaryDirectory() as scratch:
        players, names = demo_teams(teams)
        files = Path(scratch) / "players.csv", Path(scratch) / "teams.csv"
        for frame, file in zip((players, names), files, strict=True):
            file.write_text(frame.to_csv(index=False), encoding="utf-8")
        folder = create_event(
            path, files[0], None, None, boards_per_set, rounds, kind="teams",
            name=f"Team rehearsal 团体赛演练 (seed {seed})", key=rehearsal_key(seed), fmt=fmt,
            team_names=files[1],
        )
    return play_rounds(folder, folder.plan.rounds, RandomModel(seed) if play is None else play,
                       show_progress)
