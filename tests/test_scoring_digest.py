"""The scoring outputs of a seeded event are pinned: a rewrite of the kernel changes nothing a
director sees.

The digests were computed with the scorer before the issue-13 rewrite (round-at-a-time
kernel). They hash each output's column names and values row by row, not its types (narrower
integer types are allowed); floats are taken to 12 decimals (they are for display: the exact
rates and ties are the integer columns and the ranks). Regenerate only on purpose.
"""

import hashlib
import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from scoring_support import as_file_table, seeded_event

from guandan_dup.scoring import OUTPUT_NAMES, read_output, score, score_files


def _value(value):
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return None
    if isinstance(value, float | np.floating):
        return f"{float(value):.12f}"
    if isinstance(value, int | np.integer):
        return int(value)
    return str(value)


def digest(frame: pd.DataFrame) -> str:
    """SHA-256 of the column names and every value, row by row, types aside."""
    table = pa.Table.from_pandas(frame, preserve_index=False)
    columns = {name: [_value(v) for v in table[name].to_pylist()] for name in table.column_names}
    text = json.dumps(columns, ensure_ascii=False, sort_keys=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


CASES = {
    "plain": {},
    "expected": {"expected": 14, "seed": 7},
    "groups": {"expected": {(s, g): 7 for s in range(1, 11) for g in (1, 2)},
               "compare_within": "group", "seed": "key",
               "previous_positions": {f"p{i:02d}": i % 9 for i in range(0, 56, 3)}},
}
PINNED = {
    "plain": {"scores": "e63ac9d84f8615ce", "standings": "658d507b42cbd3db",
              "travellers": "4a41cdf93ad049c7"},
    "expected": {"scores": "dc78e9fa4129dfbb", "standings": "de865aa12054c89e",
                 "travellers": "71c44d1dccc4a561"},
    "groups": {"scores": "0d61976d238caed7", "standings": "5c5c186c31970d74",
               "travellers": "522c7e08d45c0708"},
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_seeded_event_scores_as_pinned(case):
    scored = score(seeded_event(), **CASES[case])
    got = {name: digest(getattr(scored, name)) for name in OUTPUT_NAMES}
    assert got == PINNED[case]


def test_score_files_writes_the_pinned_values(tmp_path):
    pq.write_table(as_file_table(seeded_event()), tmp_path / "results.parquet")
    score_files([tmp_path / "results.parquet"], tmp_path / "out", expected=14, seed=7)
    got = {name: digest(read_output(tmp_path / "out", name)) for name in OUTPUT_NAMES}
    assert got == PINNED["expected"]
