"""Results of play: read set-level and board-level files, validate, normalise (SPEC 5).

``load_results`` turns results files into the normalised set table (one row per round,
table and set) or raises one ``InvalidResultsError`` listing every problem; ``validate_sets``
does the same for a frame built in Python. Nothing here writes files or knows the CLI.

The names below are imported on first use (PEP 562): ``score`` reads a sound national event
a block at a time (``by_round``, ``clean``) without loading the full ingestion's pandas.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

_HOME = {"Ingested": "ingested", "load_results": "ingest", "validate_sets": "ingest"}
__all__ = ["Ingested", "load_results", "validate_sets"]

if TYPE_CHECKING:
    from .ingest import load_results, validate_sets
    from .ingested import Ingested


def __getattr__(name: str):
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
