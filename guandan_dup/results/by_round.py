"""Results files read a block of rounds at a time, with every check of ingestion.

A national event's results do not fit in memory as one table, but every check of ingestion
(duplicates, players at two tables, board numbering) is within a round, and scoring compares
a set's results only with the same set's: so the rounds are taken in blocks no set crosses
(usually one round each), and a block is read, checked and scored on its own.

``layout`` looks at the ``round`` and ``set`` columns only, row group by row group, and says
where each round's rows are; ``ingest_block`` reads one block's row groups, keeps its rows and
ingests them exactly as ``load_results`` would, rows numbered as in the files. A layout is
plain data, so a Dask worker can ingest a block from it (the files must be readable there).

A path may be a folder: a Parquet dataset, every ``*.parquet`` file below it in name order,
hive-partitioned or not. A folder named ``round=N`` gives its files' rows round N when the
files have no ``round`` column (the way Dask, Spark and Arrow write ``partition_on``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..arrays import to_arrow, to_numpy
from ..errors import Problem
from .clean import clean_block
from .ingested import Ingested
from .schema import allowed_codes


@dataclass(frozen=True)
class Layout:
    """Where the rounds are: per file, each row group's first row and the rounds in it, and
    the round its folder gives (None: its own column); ``blocks`` the rounds in blocks no set
    crosses, in order."""

    paths: tuple[str, ...]
    row_groups: tuple[tuple[tuple[int, frozenset[int]], ...], ...]
    blocks: tuple[tuple[int, ...], ...]
    folder_rounds: tuple[int | None, ...] = ()


def dataset_files(paths: Sequence[str | os.PathLike]) -> list[tuple[str, int | None]]:
    """Each results file of ``paths`` (folders expanded) with the round its folder names."""
    files = []
    for path in map(Path, paths):
        if not path.is_dir():
            files.append((str(path), None))
            continue
        hidden = (".", "_")  # temporary and metadata files of dataset writers
        found = sorted(p for p in path.rglob("*.parquet")
                       if not any(part.startswith(hidden) for part in p.relative_to(path).parts))
        for file in found:
            rounds = [part.split("=", 1)[1] for part in file.relative_to(path).parent.parts
                      if part.startswith("round=")]
            files.append((str(file), int(rounds[-1]) if rounds and rounds[-1].isdigit() else None))
    return files


def _with_round(table: pa.Table, folder_round: int | None) -> pa.Table:
    """The table with the round its folder gives, if it has no round column of its own."""
    if folder_round is None or "round" in table.column_names:
        return table
    return table.append_column("round", to_arrow(np.full(len(table), folder_round)))


def _round_set(table: pa.Table) -> tuple[np.ndarray, np.ndarray] | None:
    """The round and set numbers of a row group, or None if any is missing, below 1 or
    beyond 2**31 - 1 (such rows are for ``load_results`` to report)."""
    columns = []
    for name in ("round", "set"):
        column = table[name]
        if column.null_count or not pa.types.is_integer(column.type):
            return None
        values = to_numpy(column).astype(np.int64)
        if len(values) and _in_range((values.min(), values.max())) is None:
            return None
        columns.append(values)
    return columns[0], columns[1]


def _distinct_pairs(rounds: np.ndarray, sets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct (round, set) pairs of a row group (numbers from 1 to 2**31 - 1, or the
    row group is read whole instead), found by hashing one integer per row."""
    key = to_numpy(pc.unique(to_arrow(rounds << 31 | sets)))
    return key >> 31, key & (2**31 - 1)


def round_blocks(rounds: np.ndarray, sets: np.ndarray) -> list[list[int]]:
    """The rounds grouped into blocks no set crosses, in order.

    >>> round_blocks(np.array([1, 1, 2, 3, 4]), np.array([1, 2, 3, 2, 4]))
    [[1, 2, 3], [4]]
    """
    pairs = np.unique(np.stack([rounds, sets], axis=1).astype(np.int64), axis=0)
    distinct_sets, set_at = np.unique(pairs[:, 1], return_inverse=True)
    last = np.zeros(len(distinct_sets), np.int64)  # the last round each set is played in
    np.maximum.at(last, set_at, pairs[:, 0])
    distinct_rounds, round_at = np.unique(pairs[:, 0], return_inverse=True)
    reach = np.zeros(len(distinct_rounds), np.int64)  # the last round each round's sets reach
    np.maximum.at(reach, round_at, last[set_at])
    blocks: list[list[int]] = []
    end = None
    for round_no, far in zip(distinct_rounds.tolist(), reach.tolist(), strict=True):
        if end is None or round_no > end:
            blocks.append([])
            end = far
        blocks[-1].append(round_no)
        end = max(end, far)
    return blocks


def layout(paths: Sequence[str | os.PathLike]) -> Layout | None:
    """The layout of ``paths``, or None when a file cannot be read a round at a time (not
    Parquet, no integer round/set column, an empty or missing round): ``load_results`` then
    reads them whole and reports what is wrong.

    The files' statistics (each row group's lowest and highest round and set, which Parquet
    writers record) usually settle it without reading a value; otherwise the round and set
    columns are read, a row group at a time."""
    files = dataset_files(paths)
    opened = []
    for path, folder_round in files:
        try:
            parquet = pq.ParquetFile(path)
        except (OSError, pa.ArrowException):
            return None
        names = set(parquet.schema_arrow.names) | ({"round"} if folder_round else set())
        if not {"round", "set"} <= names:
            return None
        opened.append((parquet, folder_round))
    found = _from_statistics(opened) or _from_columns(opened)
    if found is None:
        return None
    groups, blocks = found
    return Layout(tuple(path for path, _ in files), groups, blocks,
                  tuple(folder_round for _, folder_round in files))


def _from_statistics(opened) -> tuple | None:
    """Row groups and blocks as the statistics state them, or None unless they prove every
    round a block of its own: each row group holds one round, and the sets a round's row
    groups span (lowest to highest) meet no other round's span."""
    groups, spans = [], []
    for parquet, folder_round in opened:
        leaves = {parquet.metadata.schema.column(j).path: j
                  for j in range(parquet.metadata.num_columns)}
        start, mine = 0, []
        for index in range(parquet.num_row_groups):
            group = parquet.metadata.row_group(index)
            sets = _stated_range(parquet, group, leaves, "set")
            rounds = _stated_range(parquet, group, leaves, "round") if "round" in leaves \
                else _in_range((folder_round, folder_round))
            if group.num_rows and (sets is None or rounds is None or rounds[0] != rounds[1]):
                return None
            mine.append((start, frozenset({rounds[0]} if group.num_rows else ())))
            spans += [(*sets, rounds[0])] if group.num_rows else []
            start += group.num_rows
        groups.append(tuple(mine))
    if not spans:
        return None
    reach, owner = 0, None  # the highest set of the spans met so far that overlap, and their round
    for low, high, round_no in sorted(spans):
        if low <= reach and round_no != owner:
            return None  # two rounds might share a set: the columns say which
        reach, owner = (max(reach, high), owner) if low <= reach else (high, round_no)
    return tuple(groups), tuple((round_no,) for round_no in sorted({r for *_, r in spans}))


def _stated_range(parquet: pq.ParquetFile, group, leaves: Mapping[str, int],
                  name: str) -> tuple[int, int] | None:
    """The lowest and highest ``name`` of a row group by its statistics; None if they are not
    written, or show a missing number or one out of 1..2**31-1, or the column is not of
    integers (``_round_set`` reports such rows)."""
    if not pa.types.is_integer(parquet.schema_arrow.field(name).type):
        return None
    stats = group.column(leaves[name]).statistics
    if stats is None or not (stats.has_min_max and stats.has_null_count) or stats.null_count:
        return None
    return _in_range((stats.min, stats.max))


def _in_range(lowest_highest: tuple[int, int]) -> tuple[int, int] | None:
    """The range if its numbers are from 1 to 2**31 - 1 (what a round or set may be, and what
    ``_distinct_pairs`` packs), else None."""
    return lowest_highest if 1 <= lowest_highest[0] <= lowest_highest[1] < 2**31 else None


def _from_columns(opened) -> tuple | None:
    """Row groups and blocks from the round and set columns, read a row group at a time;
    None if a row group has a missing or bad number, or there are no rows at all."""
    groups, pairs = [], []
    for parquet, folder_round in opened:
        columns = [c for c in ("round", "set") if c in parquet.schema_arrow.names]
        start, mine = 0, []
        for index in range(parquet.num_row_groups):
            found = _round_set(_with_round(parquet.read_row_group(index, columns=columns),
                                           folder_round))
            if found is None:
                return None
            rounds, sets = _distinct_pairs(*found)
            mine.append((start, frozenset(rounds.tolist())))
            pairs.append((rounds, sets))
            start += parquet.metadata.row_group(index).num_rows
        groups.append(tuple(mine))
    if not pairs or not sum(len(rounds) for rounds, _ in pairs):
        return None
    blocks = round_blocks(*(np.concatenate(column) for column in zip(*pairs, strict=True)))
    return tuple(groups), tuple(map(tuple, blocks))


@lru_cache(maxsize=1)
def _row_group(path: str, index: int, modified: int) -> pa.Table:
    """One row group, kept until the next is read: a row group holding several rounds (a
    whole file is often one) is read once, not once per block."""
    return pq.ParquetFile(path).read_row_group(index)


def _read_block(path: str, row_groups, block: tuple[int, ...], folder_round: int | None):
    """The rows of ``block``'s rounds in one file, and their row numbers (from 1)."""
    wanted = [i for i, (_, rounds) in enumerate(row_groups) if rounds & set(block)]
    if not wanted:
        return None, None
    tables, rows = [], []
    for index in wanted:
        first, rounds = row_groups[index]
        table = _with_round(_row_group(path, index, os.stat(path).st_mtime_ns), folder_round)
        if rounds <= set(block):  # the whole row group: kept as read, not copied
            tables.append(table)
            rows.append(first + 1 + np.arange(table.num_rows))
            continue
        wanted = to_arrow(np.array(block)).cast(table["round"].type)
        keep = pc.is_in(table["round"], value_set=wanted)
        tables.append(table.filter(keep))
        rows.append(first + 1 + np.flatnonzero(to_numpy(keep)))
    return pa.concat_tables(tables), np.concatenate(rows)


def ingest_block(
    plan: Layout,
    block: Sequence[int],
    boards_per_set: int | None = None,
    three_failures_reset: bool = False,
    adjusted_rates: Mapping[str, float] | None = None,
) -> Ingested:
    """Read and check the rounds ``block`` of every file; raises ``InvalidResultsError`` with
    every problem in them, rows numbered as in the files. A sound block of plain set-level
    files is accepted by ``clean.clean_block`` (with its players' codes), the rest ingested
    in full."""
    folder_rounds = plan.folder_rounds or (None,) * len(plan.paths)
    read = [(path, *_read_block(path, row_groups, tuple(block), folder_round))
            for path, row_groups, folder_round in zip(plan.paths, plan.row_groups,
                                                      folder_rounds, strict=True)]
    read = [(path, table, rows) for path, table, rows in read if table is not None]
    codes = allowed_codes(adjusted_rates)
    clean = clean_block([table for _, table, _ in read], boards_per_set, three_failures_reset,
                        codes)
    if clean is not None:
        return Ingested(clean.sets, [], (clean.players, clean.seats, clean.hashes))
    from .ingest import _ingest  # the full path, and its pandas, only for a block that needs it
    from .load import read_table, renumbered

    # rows numbered as in the file, not the block
    raws = [renumbered(read_table(table, path), rows) for path, table, rows in read]
    return _ingest(raws, boards_per_set, three_failures_reset, codes)


def file_order(plan: Layout, problems: list[Problem]) -> list[Problem]:
    """Problems of several blocks in file order, then row order (stable within a row)."""
    files = {name: i for i, name in enumerate(plan.paths)}
    return sorted(problems, key=lambda p: (files.get(p.file, len(files)), p.row or 0))


