"""Score rates, standings and travellers from the normalised set table (SPEC 6).

``score`` is pure (frames in, frames out); ``score_files`` is the ``score`` command: ingest
results files, score them and write ``scores``, ``standings`` and ``travellers`` Parquet files
together. ``docs/scoring.md`` gives the policy with a worked example.

The names below are imported on first use (PEP 562), so ``scoring.options`` can be read
without loading numpy and pandas.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

_HOME = {
    "OUTPUT_NAMES": "files", "TRAVELLERS_COLUMNS": "compute", "Scored": "compute",
    "read_output": "files", "score": "compute", "score_files": "files",
    "score_to_files": "files",
}
__all__ = [
    "OUTPUT_NAMES", "TRAVELLERS_COLUMNS", "Scored", "read_output", "score", "score_files",
    "score_to_files",
]

if TYPE_CHECKING:
    from .compute import TRAVELLERS_COLUMNS, Scored, score
    from .files import OUTPUT_NAMES, read_output, score_files, score_to_files


def __getattr__(name: str):
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
