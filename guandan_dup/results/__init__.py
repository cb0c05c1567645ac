"""Results of play: read set-level and board-level files, validate, normalise (SPEC 5).

``load_results`` turns results files into the normalised set table (one row per round,
table and set) or raises one ``InvalidResultsError`` listing every problem; ``validate_sets``
does the same for a frame built in Python. Nothing here writes files or knows the CLI.
"""

from .ingest import Ingested, load_results, validate_sets

__all__ = ["Ingested", "load_results", "validate_sets"]
