"""New results rows joining a round's stored ones: merged into the whole files, or appended
as a part (``event.parts``), checked the same way either way.

``event ingest`` of a file writes the round's results.parquet whole (``merge_results``),
compacting any parts; the live server's store appends its batch as a part
(``append_part``) unless ``parts.should_compact`` says to write the round whole. A part's
write reads no whole round: the stored rows come from ``parts.TABLES`` (read once while
their files are unchanged) as Arrow, and only the rows a check needs become a frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import InvalidResultsError
from ..results import validate_sets
from ..seats import SEAT_COLUMNS
from .folder import EventFolder, parquet_bytes
from .parts import (
    ENTERED,
    TABLES,
    combined,
    last_rows,
    next_part,
    part_files,
    read_rows,
    whole_file,
)


def merge_results(earlier: pd.DataFrame | None, new: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """Earlier results with those of the same (table, set) replaced (``parts.combined``, as
    a round's parts are read); and how many were."""
    frames = [new] if earlier is None else [earlier, new]
    merged = combined(frames, "results")
    return merged, sum(map(len, frames)) - len(merged)


def _seating(frame: pd.DataFrame, players: pa.Array) -> np.ndarray:
    """Whether each row of ``frame`` seats one of ``players`` (by whole columns in Arrow:
    pandas' ``isin`` of a string column loops in Python, 13 s for 200,000 players)."""
    near = np.zeros(len(frame), dtype=bool)
    for seat in SEAT_COLUMNS:
        column = pa.array(frame[seat], type=pa.large_string(), from_pandas=True)
        near |= pc.is_in(column, value_set=players).to_numpy(zero_copy_only=False)
    return near


def new_players(new: pd.DataFrame) -> pa.Array:
    """The distinct ids ``new`` seats, as Arrow (``_seating``'s value set)."""
    ids = pd.unique(pd.concat([new[seat] for seat in SEAT_COLUMNS]).dropna())
    return pa.array(ids, type=pa.large_string(), from_pandas=True)


def check_merged(merged: pd.DataFrame, new: pd.DataFrame, earlier: pd.DataFrame | None,
                 file: str, start_levels: pd.DataFrame) -> None:
    """``validate_sets`` of the round's ``merged`` results, looking only where ``new`` can
    have made a problem: the new rows, the earlier rows seating a player of a new row (a
    player at two tables) and those the ledger gives a start level (art. 32, possibly
    recorded after they were stored). The earlier rows were checked when
    they were stored, by this same check, and a check of one row or of a player's tables
    needs no others; so a round's last write of a million players checks a batch, not
    500,000 rows. When the part checked has a problem, the whole is checked again, so the
    refusal (its row numbers, every problem) is exactly the whole check's."""
    if earlier is None or len(new) * 4 > len(merged):
        validate_sets(merged, file=file, start_levels=start_levels)
        return
    near = _seating(merged, new_players(new))  # any row seating a new row's player
    if len(start_levels):
        keys = ["round", "table", "set"]
        near |= pd.MultiIndex.from_frame(merged[keys].astype("int64")).isin(
            pd.MultiIndex.from_frame(start_levels[keys].astype("int64")))
    try:
        validate_sets(merged[near], file=file, start_levels=start_levels)
    except InvalidResultsError:
        validate_sets(merged, file=file, start_levels=start_levels)
        raise


def merged_entered(entered: pd.DataFrame | None, sets: pd.DataFrame, marks: pd.DataFrame,
                   round_no: int) -> pd.DataFrame:
    """entered.parquet with the stored ``sets`` of ``marks`` in place of earlier rows of
    the same (table, set)."""
    keys = ["table", "set"]
    new = sets if "tiebreak" in sets else sets.assign(tiebreak=pd.NA)
    new = new[["round", *keys, "ns_level", "ew_level", "adjusted", "tiebreak", "boards"]]
    new = new.merge(pd.DataFrame(marks)[[*keys, "source", "journal", "seq", "verified_at"]],
                    on=keys, how="inner")
    new = new.assign(round=round_no)
    return combined([new] if entered is None else [entered, new], "entered")


def compacting(folder: EventFolder, round_no: int, entered: pd.DataFrame | None = None
               ) -> tuple[dict[Path, bytes], list[Path]]:
    """The files that write round ``round_no``'s entered rows whole (``entered`` if given,
    else the file and its parts combined, when there are parts), and the parts a whole
    write of the round retires (to history/)."""
    round_dir = folder.round_dir(round_no)
    parts = part_files(round_dir)
    if entered is None and part_files(round_dir, "entered"):
        entered = read_rows(round_dir, "entered")
    files = {} if entered is None else {folder.file(round_no, ENTERED): parquet_bytes(entered)}
    return files, parts


def compacted(folder: EventFolder, round_no: int) -> tuple[dict[Path, bytes], list[Path]]:
    """The files that write round ``round_no`` whole again if it has parts, and the parts
    that step moves to history/ (``parts``: the same bytes as the whole writes would have
    made); and for each earlier round with parts, its results as they now are, kept in
    history/ without touching its files (``event diff`` finds what round R's standings
    were scored from by its hash). Nothing to write: ``({}, [])``."""
    files, parts = compacting(folder, round_no)
    if parts:
        files[folder.file(round_no, "results")] = folder.results_bytes(round_no)
    for earlier in range(1, round_no):
        if part_files(folder.round_dir(earlier), "results"):
            path = folder.history_name(folder.file(earlier, "results"))
            files[path] = folder.results_bytes(earlier)
    return files, parts


@dataclass(frozen=True)
class Appended:
    """A batch appended as a part: the files to write, how many stored (table, set) it
    replaces, whether it changes any stored result, and the (table, set) stored after it."""

    files: dict[Path, bytes]
    replaced: int
    changed: bool
    stored: pd.DataFrame


def append_part(folder: EventFolder, round_no: int, sets: pd.DataFrame, marks: pd.DataFrame,
                start_levels: pd.DataFrame, file: str) -> Appended:
    """Round ``round_no``'s next part holding ``sets`` (normalised rows with their group) and
    their ``marks``' entered rows, checked as ``check_merged`` checks the merged round:
    the new rows with the stored rows seating one of their players or given a start level;
    a problem there is reported from the check of the whole, word for word."""
    round_dir = folder.round_dir(round_no)
    tables = [TABLES.read(p) for p in [whole_file(round_dir, "results"),
                                       *part_files(round_dir, "results")]]
    stored_table = np.concatenate([t["table"].to_numpy() for t in tables]).astype(np.int64)
    stored_set = np.concatenate([t["set"].to_numpy() for t in tables]).astype(np.int64)
    last = last_rows(stored_table, stored_set)
    width = int(max(stored_set.max(initial=0), sets["set"].max())) + 1
    key = stored_table * width + stored_set
    new_key = sets["table"].to_numpy(np.int64) * width + sets["set"].to_numpy(np.int64)
    mine = np.isin(key, new_key)
    replaced = last & mine
    near = _stored_seating(tables, new_players(sets))
    if len(start_levels):
        starts = start_levels["table"].to_numpy(np.int64) * width + start_levels[
            "set"].to_numpy(np.int64)
        near |= np.isin(key, starts)
    earlier = _rows(tables, replaced)
    near_rows = _rows(tables, last & ~mine & near)
    try:  # however large the batch: the whole round is never made a frame for it
        validate_sets(sets if near_rows is None else pd.concat(
            [near_rows, sets], ignore_index=True), file=file, start_levels=start_levels)
    except InvalidResultsError:
        merged, _ = merge_results(read_rows(round_dir, "results"), sets)
        validate_sets(merged, file=file, start_levels=start_levels)
        raise
    part = merge_results(None, sets)[0]
    changed = earlier is None or len(earlier) < len(sets) or not merge_results(
        earlier, sets)[0].equals(earlier)
    files = {next_part(round_dir, "results"): parquet_bytes(part),
             next_part(round_dir, "entered"): parquet_bytes(
                 merged_entered(None, sets, marks, round_no))}
    kept = last & ~mine
    stored = pd.DataFrame({"table": np.r_[stored_table[kept], sets["table"].to_numpy(np.int64)],
                           "set": np.r_[stored_set[kept], sets["set"].to_numpy(np.int64)]})
    return Appended(files, int(replaced.sum()), changed, stored)


def _stored_seating(tables: list[pa.Table], players: pa.Array) -> np.ndarray:
    """``_seating`` of the stored rows (``tables`` in order), in Arrow."""
    near = [np.zeros(t.num_rows, dtype=bool) for t in tables]
    for i, table in enumerate(tables):
        for seat in SEAT_COLUMNS:
            column = table[seat].cast(pa.large_string())
            near[i] |= pc.is_in(column, value_set=players).to_numpy(zero_copy_only=False)
    return np.concatenate(near) if near else np.zeros(0, bool)


def _rows(tables: list[pa.Table], chosen: np.ndarray) -> pd.DataFrame | None:
    """The ``chosen`` rows (a mask over the tables in order) as the round's file would hold
    them (``parts.combined``), or ``None`` if none is."""
    frames, start = [], 0
    for table in tables:
        mask = chosen[start:start + table.num_rows]
        start += table.num_rows
        if mask.any():
            frames.append(table.filter(pa.array(mask)).to_pandas())
    return combined(frames, "results") if frames else None
