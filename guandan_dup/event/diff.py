"""``event diff``: which positions moved between two published versions of a round's
standings, and which results or ledger rows moved them (SPEC 10, "Status").

history/ keeps every replaced standings file (``rounds-R-standings.STAMP.parquet``); the
version compared against is one of those, by its STAMP (default: the latest). Each
standings file records what it was scored from (``event.ledger.scoring_metadata``): the
SHA-256 of every round's results file and the last ledger row. The results files are found
again among the current and history versions by their hash and compared row by row.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

from ..errors import GuandanError
from ..levels import LEVEL_NAMES
from ..reading import read_parquet
from ..results.schema import RESULT_KEY, RESULT_VALUES
from .folder import EventFolder
from .ledger import LEDGER_LAST, RESULTS_FILES, read_ledger

MOVED_COLUMNS = ("player", "position_before", "position_after", "rank_before", "rank_after",
                 "cumulative_before", "cumulative_after")
RESULT_CHANGE_COLUMNS = ("round", "table", "set", "change", "before", "after")


@dataclass(frozen=True)
class Diff:
    """Two versions of round ``round``'s standings compared: ``moved`` (players whose
    position or rank changed), ``results`` (result rows added, removed or changed between
    the results they were scored from) and ``ledger`` (rows added in between)."""

    round: int
    since: str
    moved: pd.DataFrame
    results: pd.DataFrame
    ledger: pd.DataFrame
    results_known: bool


def versions(folder: EventFolder, round_no: int, name: str = "standings") -> dict[str, Path]:
    """The history versions of a round file, STAMP -> path, oldest first."""
    stem = f"rounds-{round_no}-{name}."
    found = sorted(folder.history_dir.glob(f"{stem}*.parquet")) if folder.history_dir.exists() \
        else []
    return {p.name[len(stem):-len(".parquet")]: p for p in found}


def _by_hash(folder: EventFolder, round_no: int) -> dict[str, Path]:
    current = folder.file(round_no, "results")
    paths = [*versions(folder, round_no, "results").values()]
    paths += [current] if current.exists() else []
    return {hashlib.sha256(p.read_bytes()).hexdigest(): p for p in paths}


def _sources(path: Path) -> tuple[dict[int, str], int]:
    meta = pq.read_schema(path).metadata or {}
    files = {int(r): h for r, h in json.loads(meta.get(RESULTS_FILES, b"{}")).items()}
    return files, int(meta.get(LEDGER_LAST, b"0"))


def _text(row) -> str:
    if pd.notna(row.get("adjusted")):
        return f"artificial {row['adjusted']}"
    seats = "/".join(str(row[c]) for c in ("north", "east", "south", "west"))
    return f"{LEVEL_NAMES[int(row['ns_level'])]}/{LEVEL_NAMES[int(row['ew_level'])]} ({seats})"


def _result_changes(before: pd.DataFrame | None, after: pd.DataFrame | None) -> list[tuple]:
    empty = pd.DataFrame(columns=[*RESULT_KEY, *RESULT_VALUES])
    old = (empty if before is None else before).set_index(RESULT_KEY)
    new = (empty if after is None else after).set_index(RESULT_KEY)
    out = []
    for key in sorted(set(old.index) | set(new.index)):
        a = old.loc[key] if key in old.index else None
        b = new.loc[key] if key in new.index else None
        if a is None or b is None:
            out.append((*key, "added" if a is None else "removed", "" if a is None else _text(a),
                        "" if b is None else _text(b)))
        elif [str(a[c]) for c in RESULT_VALUES] != [str(b[c]) for c in RESULT_VALUES]:
            out.append((*key, "changed", _text(a), _text(b)))
    return out


def diff_round(folder: EventFolder, round_no: int, since: str | None = None) -> Diff:
    """Compare rounds/R/standings.parquet with its history version ``since`` (a STAMP;
    default the latest)."""
    folder.plan.check_round(round_no)
    current = folder.file(round_no, "standings")
    if not current.exists():
        raise GuandanError(f"round {round_no} is not scored, so there is nothing to compare")
    known = versions(folder, round_no)
    if not known:
        raise GuandanError(f"round {round_no}'s standings were published once only: history/ "
                           "has no earlier version to compare with")
    since = since or list(known)[-1]
    if since not in known:
        raise GuandanError(f"no version {since!r} of round {round_no}'s standings in history/; "
                           f"versions: {', '.join(known)}")
    old_path = known[since]
    before, after = (read_parquet(p, "standings file").to_pandas() for p in (old_path, current))
    keep = ["player", "position", "rank_label", "cumulative"]
    both = before[keep].merge(after[keep], on="player", how="outer",
                              suffixes=("_before", "_after"))
    moved = both[(both["position_before"] != both["position_after"])
                 | (both["rank_label_before"] != both["rank_label_after"])]
    moved = moved.rename(columns={"rank_label_before": "rank_before",
                                  "rank_label_after": "rank_after"})
    moved = moved[list(MOVED_COLUMNS)].sort_values("position_after", ignore_index=True)
    (old_files, old_last), (new_files, new_last) = _sources(old_path), _sources(current)
    changes, results_known = [], True
    for r in range(1, round_no + 1):
        if r not in old_files or r not in new_files or old_files[r] == new_files[r]:
            results_known &= r in old_files and r in new_files
            continue
        found = _by_hash(folder, r)
        if old_files[r] not in found or new_files[r] not in found:
            results_known = False
            continue
        frames = [read_parquet(found[h], "results file").to_pandas()
                  for h in (old_files[r], new_files[r])]
        changes += _result_changes(*frames)
    ledger = read_ledger(folder)
    rows = ledger[(ledger["id"] > old_last) & (ledger["id"] <= new_last)
                  & (ledger["round"] <= round_no)]
    return Diff(round_no, since, moved, pd.DataFrame(changes, columns=RESULT_CHANGE_COLUMNS),
                rows.reset_index(drop=True), results_known)
