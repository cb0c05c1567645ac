"""Score rates, standings and travellers from the normalised set table (SPEC 6).

``score`` is pure (frames in, frames out); ``score_files`` is the ``score`` command: ingest
results files, score them and write ``scores``, ``standings`` and ``travellers`` Parquet files
together. ``docs/scoring.md`` gives the policy with a worked example.
"""

from .compute import TRAVELLERS_COLUMNS, Scored, score
from .files import OUTPUT_NAMES, read_output, score_files, score_to_files

__all__ = [
    "OUTPUT_NAMES", "TRAVELLERS_COLUMNS", "Scored", "read_output", "score", "score_files",
    "score_to_files",
]
