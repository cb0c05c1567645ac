"""What is wrong with a results folder, said before and instead of "is a folder".

A folder given to ``score`` is a Parquet dataset (docs/scale.md): ``*.parquet`` files below
it, hive-partitioned by ``round=N`` folders or with a ``round`` column of their own. Both
engines read it the same way (``results.by_round``), and a folder they cannot read a round at
a time used to reach ``load_results``, which reads files, not folders, and said only that it
"is a folder, not a results file". Here each such folder is explained by its files: a folder
without Parquet files, a file that is not Parquet, a ``round=`` folder that names no round,
and a file whose rows cannot be found by round, each named with what was expected, in the
local reader's words where it has them (files read whole are reported by ``load_results``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..errors import Problem
from ..results.by_round import dataset_files

_HIDDEN = (".", "_")  # dataset writers' temporary and metadata files, skipped as by_round does
_DATASET = "a results folder is a Parquet dataset, e.g. round=1/part.0.parquet (docs/scale.md)"


def folder_problems(paths: Sequence[str | os.PathLike]) -> list[Problem]:
    """The problems of each folder of ``paths`` seen from its names alone: no Parquet file,
    a file that is not ``.parquet`` (it would be skipped unseen, its results lost), a
    ``round=`` folder that names no round."""
    problems: list[Problem] = []
    for folder in (Path(path) for path in paths):
        if folder.is_dir():
            problems += _names_problems(folder)
    return problems


def _names_problems(folder: Path) -> list[Problem]:
    """``folder_problems`` of one folder."""
    problems, parquet = [], 0
    for path in sorted(folder.rglob("*")):
        parts = path.relative_to(folder).parts
        if any(part.startswith(_HIDDEN) for part in parts):
            continue
        if path.is_dir():
            if path.name.startswith("round=") and not _round_number(path.name):
                problems.append(Problem(str(path), None, None, path.name,
                                        "a partition folder is named round=N, N a round "
                                        "number from 1 to 2147483647"))
        elif path.suffix == ".parquet":
            parquet += 1
        else:
            problems.append(Problem(str(path), None, None, None,
                                    "is not a .parquet file, and a results folder is read as "
                                    "Parquet files only: give it as a file of its own, or "
                                    "start its name with _ to leave it unread"))
    if not parquet:
        problems.append(Problem(str(folder), None, None, None,
                                f"has no Parquet files (*.parquet): {_DATASET}"))
    return problems


def _round_number(name: str) -> bool:
    """Whether ``round=N`` names a round (N a whole number from 1 to 2**31 - 1, as a
    ``round`` column's numbers are)."""
    value = name.split("=", 1)[1]
    return value.isascii() and value.isdigit() and 1 <= int(value) < 2**31


def read_whole(paths: Sequence[str | os.PathLike]) -> tuple[list[str], list[Problem]]:
    """When ``paths`` cannot be read a round at a time: the files ``load_results`` reads
    whole and reports in its own words (folders expanded into their files), and the problems
    of the files whose round their folder gives, which it cannot read (it would miss their
    round column)."""
    files, problems = [], []
    for path, folder_round in dataset_files(paths):
        found = _by_round_problems(path) if folder_round is not None else None
        if found is None:
            files.append(path)
        else:
            problems += found
    return files, problems


def _by_round_problems(path: str) -> list[Problem] | None:
    """What keeps a file of a ``round=N`` folder from being read by round: its ``set``
    (and any ``round`` of its own) missing, empty in a row, not whole numbers from 1; no
    rows. None if it is not Parquet at all (``load_results`` names that)."""
    try:
        parquet = pq.ParquetFile(path)
    except (OSError, pa.ArrowException):
        return None
    if not parquet.metadata.num_rows:
        return [Problem(path, None, None, None, "has no rows: it adds no results")]
    names = parquet.schema_arrow.names
    if "set" not in names:
        return [Problem(path, None, "set", None, "is missing: a results file needs it")]
    return [Problem(path, None, name, None, rule)
            for name in ("round", "set") if name in names
            for rule in [_number_rule(parquet.read(columns=[name])[name])] if rule]


def _number_rule(column: pa.ChunkedArray) -> str | None:
    """Why ``column`` is not round or set numbers (whole numbers from 1 in every row)."""
    if not pa.types.is_integer(column.type):
        return f"is {column.type}, not whole numbers"
    if column.null_count:
        return f"is empty in {column.null_count} row(s): every row needs a number from 1"
    lowest, highest = pc.min_max(column).values()
    if lowest.as_py() < 1 or highest.as_py() >= 2**31:
        return f"has numbers from {lowest.as_py()} to {highest.as_py()}: expected 1 and above"
    return None
