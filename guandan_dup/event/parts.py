"""A round's results and entered files: the whole file, and the parts written since.

The live server stores verified sets a batch at a time (``live.store``). Rewriting a round's
results.parquet and entered.parquet whole for each batch made a write cost the whole round
(500,000 rows at a million players, seconds each, the interpreter held meanwhile), so a
batch is appended as a part instead::

    rounds/R/results.parquet, rounds/R/entered.parquet     the whole files, as before
    rounds/R/parts/results-000001.parquet                  a batch's results rows
    rounds/R/parts/entered-000001.parquet                  and its entered rows (same number)

A round's results (or entered rows) are the file's rows, then each part's in number order,
a (table, set) of a later part replacing an earlier row of the same (table, set), sorted as
the file is: exactly the rows the file would hold had each part been merged into it when
it was written (``event.ingest.merge_results``), and ``EventFolder.read`` reads them so.
A part is written in the same step (``replace_files``) as anything else of its batch, so a
kill leaves it whole or absent; the numbers only grow while parts are there.

**Compaction** writes the round's file whole again from its rows and moves the parts into
history/ (a rename each), in one step: ``event ingest`` of a file and ``event score`` do it
(the standings record the hash of the results file they were scored from, ``event diff``
finds it again by that hash), and so does the server's store when a round has
``MAX_PARTS`` parts (``should_compact``), so a round is never many files. The compacted
file is byte for byte the file the whole writes made.
"""

from __future__ import annotations

import os
import re
import stat
import threading
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from ..reading import read_parquet

PARTS = "parts"
"""rounds/R/parts/: the parts written since the round's files were last written whole."""
ENTERED = "entered.parquet"
"""rounds/R/entered.parquet: the (table, set) results of round R that came from the tables
(``take_rows``), one row each, as stored in results.parquet (``ns_level``/``ew_level``
level indices, ``adjusted``, ``tiebreak``, ``boards``), with ``source`` (``table``: both
sides verified it; ``director``: the director entered or corrected it), ``journal`` and
``seq`` (the server's journal record it came from, so a restarted server knows what is
stored) and ``verified_at`` (UTC)."""
ENTERED_DTYPES = {
    "round": "int64", "table": "int64", "set": "int64", "ns_level": "Int8",
    "ew_level": "Int8", "adjusted": "str", "tiebreak": "str", "boards": "Int16",
    "source": "str", "journal": "str", "seq": "int64", "verified_at": "datetime64[us, UTC]",
}
KEYS = ["table", "set"]
ORDER = {"results": ["round", "set", "table"], "entered": ["set", "table"]}
"""How each file's rows are sorted (``merge_results``, ``merged_entered``)."""
MAX_PARTS = 64
"""Parts a round may have before the store's next write compacts it (a small round's every
write being a part of one set, its reads would otherwise open a file per set)."""
_PART = re.compile(r"^(results|entered)-(\d{6,})\.parquet$")


def whole_file(round_dir: Path, name: str) -> Path:
    """rounds/R/results.parquet or rounds/R/entered.parquet."""
    return round_dir / (ENTERED if name == "entered" else f"{name}.parquet")


def part_files(round_dir: Path, name: str | None = None) -> list[Path]:
    """The round's parts (of ``name``, default both kinds), by number."""
    try:
        found = [(int(m[2]), m[1], entry.path) for entry in os.scandir(round_dir / PARTS)
                 if (m := _PART.match(entry.name)) and (name is None or m[1] == name)]
    except FileNotFoundError:
        return []
    return [Path(path) for _, _, path in sorted(found)]


def next_part(round_dir: Path, name: str) -> Path:
    """The path of the round's next part of ``name``: numbered after every part there."""
    numbers = [int(_PART.match(p.name)[2]) for p in part_files(round_dir)]
    return round_dir / PARTS / f"{name}-{max(numbers, default=0) + 1:06d}.parquet"


def file_stamp(path: str | os.PathLike) -> tuple | None:
    """A file's (mtime, size, inode), ``None`` if it is missing: what changes when a step
    replaces it (a step renames a new file in, so the inode at least), what the readers
    that keep what they read compare. A folder's is its inode and the names in it: its
    mtime may not move when a file is added or moved away on a clock coarser than the
    writes (ext4's 1-10 ms ticks on older kernels, FAT's 2 s), and a part missed so would
    be left out of the round when it is next written whole."""
    try:
        st = os.stat(path)
        if stat.S_ISDIR(st.st_mode):
            return (st.st_ino, tuple(sorted(os.listdir(path))))
    except FileNotFoundError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def stamps(round_dir: Path, name: str) -> tuple:
    """What changes when the round's ``name`` rows change: the whole file's and the parts
    folder's ``file_stamp``; a part is only ever added or moved away, which changes the
    folder's names."""
    return file_stamp(whole_file(round_dir, name)), file_stamp(round_dir / PARTS)


def combined(frames: list[pd.DataFrame], name: str) -> pd.DataFrame:
    """The rows of ``frames`` (the file's, then each part's) as one file's: a later row of
    a (table, set) replacing the earlier ones, sorted as the file is."""
    out = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    out = out[~out.duplicated(KEYS, keep="last")]
    if name == "entered":
        out = out.assign(verified_at=pd.to_datetime(out["verified_at"], utc=True))
        out = out.astype(ENTERED_DTYPES)
    return out.sort_values(ORDER[name], ignore_index=True)


def read_rows(round_dir: Path, name: str) -> pd.DataFrame | None:
    """The round's ``name`` rows (the file and its parts, ``combined``); ``None`` while
    there are none. Without parts, the file as it is.

    A round with parts is combined once while its files are unchanged (``stamps``): a
    scoring reads the round's results for its scores, for the digest its standings record
    and for the file it writes whole, 500,000 rows each time at a million players, and
    two of those on threads of their own (the first reads, the others wait for it). The
    frame is handed out as a copy (a shallow one under pandas 3's copy-on-write)."""
    file = whole_file(round_dir, name)
    parts = part_files(round_dir, name)
    if not parts:  # no combining to share: read, not kept (a scoring reads every round)
        return read_parquet(file, "event file").to_pandas() if file.exists() else None
    key = (str(round_dir), name)
    with _READING:
        stamp = stamps(round_dir, name)  # before the files are read: a change is seen later
        known = _ROWS.get(key)
        if known is None or known[0] != stamp:
            frames = [read_parquet(path, "event file").to_pandas()
                      for path in [file] * file.exists() + part_files(round_dir, name)]
            if len(_ROWS) > 2:
                _ROWS.clear()
            known = _ROWS[key] = (stamp, combined(frames, name))
    return known[1].copy(deep=DEEP_COPIES)


DEEP_COPIES = int(pd.__version__.split(".")[0]) < 3
"""Whether a frame kept for the next reader is handed out as a deep copy: before pandas 3
(copy-on-write) a shallow copy's values could be changed in place."""
_ROWS: dict[tuple[str, str], tuple[tuple, pd.DataFrame]] = {}
"""(round folder, name) -> (its ``stamps``, ``read_rows``) of a round with parts."""
_READING = threading.Lock()


def stored_keys(round_dir: Path) -> pd.DataFrame | None:
    """The (table, set) the round's results hold (the file and its parts; a set replaced
    by a later part counted once), read from those two columns only; ``None`` without
    results."""
    import pyarrow.parquet as pq

    file = whole_file(round_dir, "results")
    paths = [file] * file.exists() + part_files(round_dir, "results")
    if not paths:
        return None
    tables = [pq.read_table(path, columns=KEYS) for path in paths]
    keys = pa.concat_tables(tables).to_pandas()
    return keys if len(paths) == 1 else keys.drop_duplicates(ignore_index=True)


def should_compact(round_dir: Path) -> bool:
    """Whether the store's next write into the round writes its files whole (compacting
    the parts) rather than a part: when the round has no results file yet (a first batch
    is the file) or already ``MAX_PARTS`` parts. A write never costs the whole round
    otherwise; ``event score`` and ``event ingest`` write the round whole anyway."""
    if not whole_file(round_dir, "results").exists():
        return True
    return len(part_files(round_dir, "results")) >= MAX_PARTS


def last_rows(tables: np.ndarray, sets: np.ndarray) -> np.ndarray:
    """Whether each row is the last of its (table, set) (rows in file-then-parts order).

    >>> last_rows(np.array([1, 2, 1]), np.array([1, 1, 1])).tolist()
    [False, True, True]
    """
    if not len(tables):
        return np.zeros(0, bool)
    key = tables.astype(np.int64) * (int(sets.max()) + 1) + sets.astype(np.int64)
    _, first_from_end = np.unique(key[::-1], return_index=True)
    out = np.zeros(len(key), bool)
    out[len(key) - 1 - first_from_end] = True
    return out


class StoredTables:
    """The Arrow tables of a round's results file and parts, each read once while its file
    is unchanged: a part never changes once written and the file only when the round is
    written whole, so the server's store reads its round's 500,000 stored rows once, not
    at every write. ``pa.Table`` is immutable, so sharing them is safe."""

    LIMIT = 4 * MAX_PARTS

    def __init__(self) -> None:
        self._known: dict[str, tuple[tuple, pa.Table]] = {}

    def read(self, path: Path) -> pa.Table:
        stamp = file_stamp(path)
        known = self._known.get(str(path))
        if known is not None and known[0] == stamp:
            return known[1]
        table = read_parquet(path, "event file")
        if len(self._known) >= self.LIMIT:
            self._known.clear()
        self._known[str(path)] = (stamp, table)
        return table


TABLES = StoredTables()
