"""Helpers for the event-folder tests: players files, results files, folder snapshots."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from guandan_dup.event import EventFolder, RandomModel
from guandan_dup.event.entrants import demo_players
from guandan_dup.levels import level_to_text
from guandan_dup.rules.progression import play_set

KEY = bytes(range(32))
SET_KEY = ["round", "group", "table", "set", "north", "east", "south", "west"]


def players_csv(path: Path, count: int, kind: str = "individual", bom: bool = False) -> Path:
    """A players file with Chinese names, as a director would save it."""
    path.write_text(demo_players(count, pairs=kind == "pairs").to_csv(index=False), encoding="utf-8-sig" if bom
                    else "utf-8")
    return path


def board_results(folder: EventFolder, round_no: int, seed: int = 0) -> pd.DataFrame:
    """A board-level results file for every table of the round (the random model's)."""
    return RandomModel(seed)(folder, round_no)


def set_results(folder: EventFolder, round_no: int, seed: int = 0) -> pd.DataFrame:
    """The same results as a set-level file: final levels by the real level rules."""
    boards = board_results(folder, round_no, seed)
    rows = [
        (*key, *(level_to_text(x) for x in (state.ns_level, state.ew_level)))
        for key, group in boards.groupby(SET_KEY, sort=True)
        if (state := play_set(group["finish"].tolist()))
    ]
    return pd.DataFrame(rows, columns=[*SET_KEY, "ns_level", "ew_level"])


def write(frame: pd.DataFrame, path: Path) -> Path:
    frame.to_parquet(path, index=False)
    return path


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file's bytes under ``directory``, by relative path."""
    return {
        str(p.relative_to(directory)): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }
