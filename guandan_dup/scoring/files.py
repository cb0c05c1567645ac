"""The ``score`` command's work: ingest results files, score them, write three Parquet files.

``scores.parquet``, ``standings.parquet`` and ``travellers.parquet`` change together or not
at all (``atomic.staged_writes``): a refused input raises before anything is staged, and a
failed write leaves the folder as it was. ``read_output`` reads one back for the reports.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from numbers import Real
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..atomic import staged_writes
from ..errors import GuandanError
from ..progress import progress
from ..results import load_results
from .compute import Scored, score
from .rates import Expected

OUTPUT_NAMES = ("scores", "standings", "travellers")


def score_files(
    paths: Sequence[str | os.PathLike],
    out_dir: str | os.PathLike,
    expected: Expected = None,
    compare_within: str = "event",
    boards_per_set: int | None = None,
    three_failures_reset: bool = False,
    adjusted_rates: Mapping[str, Real] | None = None,
    seed: int | str | bytes = 0,
    show_progress: bool = False,
) -> Scored:
    """Ingest ``paths`` (every round in them), score, and write ``out_dir/{scores,standings,
    travellers}.parquet``; returns the result with ingestion and scoring warnings."""
    if Path(out_dir).exists() and not Path(out_dir).is_dir():
        raise GuandanError(
            f"output folder {str(out_dir)!r} is a file: give a folder for --out (it is created "
            "if it does not exist)"
        )
    with progress(len(OUTPUT_NAMES) + 1, "Scoring", show_progress) as advance:
        ingested = load_results(
            paths,
            boards_per_set=boards_per_set,
            three_failures_reset=three_failures_reset,
            adjusted_rates=adjusted_rates,
        )
        advance()
        scored = score_to_files(ingested.sets, out_dir, expected, compare_within,
                                adjusted_rates, seed, advance=advance)
    return Scored(
        scored.scores, scored.standings, scored.travellers, ingested.warnings + scored.warnings
    )


def score_to_files(
    sets: pd.DataFrame,
    out_dir: str | os.PathLike,
    expected: Expected = None,
    compare_within: str = "event",
    adjusted_rates: Mapping[str, Real] | None = None,
    seed: int | str | bytes = 0,
    previous_positions: Mapping[str, int] | pd.Series | None = None,
    advance: Callable[[], None] = lambda: None,
) -> Scored:
    """``score`` an already validated set table and write the three files together.

    Each file is written in a worker thread while the next output is computed (Arrow writes
    without holding the GIL); a failure anywhere leaves ``out_dir`` as it was.
    """
    pending: list[Future] = []
    with staged_writes() as stage, ThreadPoolExecutor(max_workers=2) as pool:

        def on_ready(name: str, frame: pd.DataFrame) -> None:
            table = pa.Table.from_pandas(frame, preserve_index=False)
            dest = stage(Path(out_dir) / f"{name}.parquet")
            pending.append(pool.submit(_write, table, dest, dictionary=name != "standings"))
            advance()

        scored = score(sets, expected, compare_within, adjusted_rates, seed,
                       previous_positions, on_ready=on_ready)
        for done in pending:
            done.result()  # a failed write raises inside staged_writes: nothing lands
    return scored


def _write(table: pa.Table, dest: Path, dictionary: bool) -> None:
    """Write with min/max statistics on number columns only: on text (player ids) they help
    no reader and cost a third of the writing time. ``dictionary=False`` for the standings:
    one row per player and round, nearly every value distinct, a dictionary only costs."""
    numbers = [field.name for field in table.schema
               if not (pa.types.is_large_string(field.type) or pa.types.is_string(field.type))]
    pq.write_table(table, dest, write_statistics=numbers, use_dictionary=dictionary)


def read_output(directory: str | os.PathLike, name: str) -> pd.DataFrame:
    """Read back one file ``score_files`` wrote (``name`` one of scores, standings,
    travellers); a missing or unreadable file is an error that says how to make it."""
    path = Path(directory) / f"{name}.parquet"
    try:
        return pq.read_table(path).to_pandas()
    except (OSError, pa.ArrowInvalid) as error:
        raise GuandanError(
            f"cannot read {str(path)!r} ({error}); write it with "
            f"'guandan-dup score RESULTS.parquet --out {directory}'"
        ) from error
