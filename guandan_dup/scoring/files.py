"""The ``score`` command's work: ingest results files, score them, write three Parquet files.

The files are read, checked and scored a block of rounds at a time (``results.by_round``;
usually a block is one round), each block's travellers and scores are appended to the
outputs as a row group and each round's standings follow, so memory holds one block and the
standings' per-player sums, never the event: 50 million table results score in a few GiB.

``scores.parquet``, ``standings.parquet`` and ``travellers.parquet`` change together or not
at all (``atomic.staged_writes``): a refused input raises before anything is renamed into
place (every block is still checked, so the error lists every problem in every file), and a
failed write leaves the folder as it was. Each file is synced to disk on its writer's thread
as soon as it is complete, before the renames. ``read_output`` reads one back for the reports.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from functools import partial
from numbers import Real
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa
import pyarrow.parquet as pq

from ..atomic import staged_writes, start_writeback, sync_file
from ..errors import GuandanError, InvalidResultsError, Problem
from ..progress import progress
from ..results.by_round import dataset_files, file_order, ingest_block, layout
from .folders import folder_problems, read_whole
from .options import ENGINES
from .outputs import empty_table
from .pool import returning_memory
from .rates import Expected
from .rounds import BlockScores, each_block, score_block
from .scored import Scored
from .scores import player_scores
from .standings import Standings

if TYPE_CHECKING:
    import pandas as pd

OUTPUT_NAMES = ("scores", "standings", "travellers")
_ROW_PER_RESULT = ("travellers", "scores")  # the big ones: rows per table or per seat


@dataclass(frozen=True)
class Settings:
    """What scoring a block needs besides its rows (plain data: a Dask task carries it)."""

    expected: Expected = None
    compare_within: str = "event"
    boards_per_set: int | None = None
    three_failures_reset: bool = False
    adjusted_rates: Mapping[str, Real] | None = None


@dataclass(frozen=True)
class Outcome:
    """One block: its scores, or the problems that refused it; and ingestion's warnings."""

    scored: BlockScores | None
    warnings: list[str]
    problems: list[Problem]


def block_outcome(plan, block, settings: Settings, score_it: bool = True) -> Outcome:
    """Ingest and score one block of ``plan`` (a ``results.by_round.Layout``); the unit of
    work of both engines. ``score_it=False`` only checks it (a refused input is reported
    whole, but not scored)."""
    try:
        ingested = ingest_block(plan, block, settings.boards_per_set,
                                settings.three_failures_reset, settings.adjusted_rates)
    except InvalidResultsError as error:
        return Outcome(None, [], error.problems)
    if not score_it:
        return Outcome(None, ingested.warnings, [])
    done = score_block(ingested.sets, settings.expected, settings.compare_within,
                       settings.adjusted_rates, ingested.seats)
    return Outcome(done, ingested.warnings, [])


# Table results the local engine holds in memory at once, in up to four blocks (about half
# a GB): blocks this small are scored two ahead, without waiting for earlier writes.
IN_MEMORY_ROWS = 600_000


def _local_outcomes(plan, settings: Settings, writing: list[Future]) -> Iterator[Outcome]:
    """Each block's outcome in order. The next block is read, checked and scored on a second
    thread while this one is ranked and written (reading, hashing ids and writing are Arrow's
    work, without the GIL); the first two blocks start together.

    Small blocks (four of the size of the largest so far within ``IN_MEMORY_ROWS``) are
    scored two ahead. A bigger block starts once the travellers and scores of the block two
    before it are written (``writing``: the last queued block's, see ``_Outputs``; the
    consumer queues a block's writes as soon as it takes it), so two blocks' rows are in
    memory at most."""
    blocks = plan.blocks
    with ThreadPoolExecutor(max_workers=1) as pool:  # one block at a time, in order
        ahead = {1: pool.submit(block_outcome, plan, blocks[1], settings)} if len(blocks) > 1 \
            else {}
        refused, largest = False, 0
        for i in range(len(blocks)):
            outcome = ahead.pop(i).result() if i else block_outcome(plan, blocks[0], settings)
            refused |= bool(outcome.problems)
            largest = max(largest, _rows(outcome))
            small = 4 * largest <= IN_MEMORY_ROWS
            for later in range(i + 1, min(i + (3 if small else 2), len(blocks))):
                if later not in ahead:
                    ahead[later] = pool.submit(_after, [] if small else list(writing),
                                               block_outcome, plan, blocks[later], settings,
                                               not refused)
            yield outcome
            del outcome  # not alive while the block after next is scored


def _rows(outcome: Outcome) -> int:
    """The table results of a scored block (0 if it was only checked)."""
    return 0 if outcome.scored is None else len(outcome.scored.travellers)


def _after(writes: list[Future], work: Callable, *args):
    """``work(*args)`` once ``writes`` are done (their failures are raised by the writer)."""
    wait(writes)
    return work(*args)


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
    engine: str = "local",
    scheduler: str | None = None,
    keep: bool = True,
) -> Scored:
    """Ingest ``paths`` (every round in them), score, and write ``out_dir/{scores,standings,
    travellers}.parquet``; returns the result with ingestion and scoring warnings.

    ``engine="dask"`` scores the blocks on a Dask cluster (``scheduler`` its address; none:
    a local cluster on 127.0.0.1); the files are the same. ``keep=False`` returns the
    written row counts and rounds but not the frames (None), so memory stays one block's and
    a sound event is scored without importing pandas.
    """
    if Path(out_dir).exists() and not Path(out_dir).is_dir():
        raise GuandanError(
            f"output folder {str(out_dir)!r} is a file: give a folder for --out (it is created "
            "if it does not exist)"
        )
    if engine not in ENGINES:
        raise GuandanError(f"engine {engine!r}: expected one of {', '.join(ENGINES)}")
    if scheduler is not None and engine != "dask":
        raise GuandanError("--scheduler is the address of a Dask scheduler: give --engine dask")
    settings = Settings(expected, compare_within, boards_per_set, three_failures_reset,
                        adjusted_rates)
    if problems := folder_problems(paths):
        raise InvalidResultsError(problems)
    plan = layout(paths)
    if plan is None:  # not readable a round at a time: read whole, with the usual report
        sets = _read_whole(paths, boards_per_set, three_failures_reset, adjusted_rates)
        return score_to_files(sets.sets, out_dir, expected, compare_within, adjusted_rates,
                              seed, keep=keep, warnings=sets.warnings)
    with progress(len(plan.blocks), "Scoring", show_progress) as advance, returning_memory():
        if engine == "dask":
            from .dask_engine import dask_outcomes

            with dask_outcomes(plan, settings, scheduler) as outcomes:
                return write_outcomes(outcomes, plan, out_dir, seed, None, keep, advance)
        writing: list[Future] = []
        return write_outcomes(_local_outcomes(plan, settings, writing), plan, out_dir, seed,
                              None, keep, advance, writing)


def _read_whole(paths, boards_per_set, three_failures_reset, adjusted_rates):
    """``paths`` read whole by ``load_results`` (folders as their files), every problem of
    every file reported at once; never a part of them: a folder's file whose round its folder
    gives cannot be read whole, so it is either named with what is wrong or, when nothing
    is, the run stops rather than score without it."""
    from ..results import load_results

    files, problems = read_whole(paths)
    try:
        sets = load_results(files, boards_per_set=boards_per_set,
                            three_failures_reset=three_failures_reset,
                            adjusted_rates=adjusted_rates)
    except InvalidResultsError as error:
        raise InvalidResultsError(error.problems + problems) from None
    if problems:
        raise InvalidResultsError(problems)
    if len(files) < len(dataset_files(paths)):
        raise GuandanError(
            f"the results in {', '.join(map(repr, map(str, paths)))} cannot be read a round "
            "at a time, and their round=N folders' files cannot be read whole: give each "
            "file a round column of its own (docs/scale.md)")
    return sets


def score_to_files(
    sets: pd.DataFrame,
    out_dir: str | os.PathLike,
    expected: Expected = None,
    compare_within: str = "event",
    adjusted_rates: Mapping[str, Real] | None = None,
    seed: int | str | bytes = 0,
    previous_positions: Mapping[str, int] | pd.Series | None = None,
    advance: Callable[[], None] = lambda: None,
    keep: bool = True,
    warnings: Sequence[str] = (),
) -> Scored:
    """``score`` an already validated set table and write the three files together, a block
    at a time as ``score_files`` does."""
    outcomes = (Outcome(score_block(block, expected, compare_within, adjusted_rates), [], [])
                for block in each_block(sets))
    scored = write_outcomes(outcomes, None, out_dir, seed, previous_positions, keep, advance)
    return Scored(scored.scores, scored.standings, scored.travellers,
                  [*warnings, *scored.warnings], scored.written, scored.rounds)


class _Outputs:
    """The three staged Parquet files, each appended a row group at a time on a thread of its
    own (Arrow writes without the GIL) while the next block is scored, then closed and synced
    to disk there (``finish``), so the syncs wait on the disk beside other work."""

    def __init__(self, stage: Callable[..., Path], out_dir: str | os.PathLike,
                 writing: list[Future]):
        # The last queued block's writes of its travellers and scores (its standings, a row
        # per player, are a fraction of the size), for whoever waits on them.
        self.writing = writing
        self.dests = {name: stage(Path(out_dir) / f"{name}.parquet", synced=True)
                      for name in OUTPUT_NAMES}
        self.writers: dict[str, pq.ParquetWriter] = {}
        self.rows = dict.fromkeys(OUTPUT_NAMES, 0)
        self.pools = {name: ThreadPoolExecutor(max_workers=1) for name in OUTPUT_NAMES}
        self.pending: dict[str, Future | None] = dict.fromkeys(OUTPUT_NAMES)
        self.finished: set[str] = set()
        self.lock = threading.Lock()

    def append(self, tables: Mapping[str, pa.Table | _Later]) -> None:
        """Queue tables of a block (output name -> table), each once the previous block's
        table of that file is written: one block's outputs are in memory at most. A file is
        appended to by one thread; the travellers and scores by another than the standings."""
        for name, table in tables.items():
            self._wait(name)
            queued = self.pools[name].submit(self._write, name, table)
            with self.lock:
                self.rows[name] += table.num_rows
                self.pending[name] = queued
                self.writing[:] = [self.pending[big] for big in _ROW_PER_RESULT
                                   if self.pending[big] is not None]

    def _wait(self, name: str) -> None:
        """The queued write of file ``name`` done; its failure raises."""
        with self.lock:
            done, self.pending[name] = self.pending[name], None
        if done is not None:
            done.result()

    def flush(self) -> None:
        """Every queued write done; the first failure raises."""
        for name in self.pending:
            self._wait(name)

    def _write(self, name: str, table: pa.Table | _Later) -> None:
        if isinstance(table, _Later):
            table = table.make()
        if name not in self.writers:
            self.writers[name] = _writer(self.dests[name], table.schema)
        elif table.schema != self.writers[name].schema:  # codes of another width: the file's
            table = table.cast(self.writers[name].schema)
        append_row_group(self.writers[name], table)
        start_writeback(self.dests[name])  # the disk writes it while the next blocks are scored

    def finish(self, names: Iterable[str]) -> None:
        """No more rows for the files ``names``: close each and sync it to disk on its thread,
        after its queued writes (a failed write raises from ``flush``, the sync not done)."""
        for name in names:
            if name in self.finished:
                continue
            self.finished.add(name)
            with self.lock:
                self.pending[name] = self.pools[name].submit(
                    self._finish, name, self.pending[name]
                )

    def _finish(self, name: str, written: Future | None) -> None:
        if written is not None:
            written.result()  # done: the pool runs a file's tasks in order
        self.writers[name].close()
        sync_file(self.dests[name])

    def close(self) -> None:
        """Wait for every write (and ``finish``), then close the files; the first failure
        raises."""
        try:
            self.flush()
        finally:
            for pool in self.pools.values():
                pool.shutdown()
            for writer in self.writers.values():
                writer.close()


_KEYS = ("round", "group", "set", "table")
_FEW_VALUES = ("round", "group", "set", "seat", "direction", "adjusted")
_STEPS = ("table", "rank", "position")  # ascending by small steps within a row group
_IDS = ("player", "north", "east", "south", "west")


def _writer(dest: Path, schema: pa.Schema) -> pq.ParquetWriter:
    """Settings chosen by what each column holds, measured on a round of 400k players (scores,
    travellers and standings together: 253 against 346 ms, 57 against 51 MB):

    * Min/max statistics on the keys only (round, group, set, table: what a reader picks row
      groups by); on ids, rates and sums they help no reader and cost a fifth of the time.
    * Dictionary pages only for columns with few distinct values in a row group (round,
      group, set, seat, direction, adjusted): on the others (tables, rates, player ids) a
      dictionary outgrows its page and the writer starts again in plain, which made the ids
      of a round's scores three times dearer to write (0.25 against 0.09 s). The player
      column keeps its Arrow dictionary type in the file's schema, so readers still get it
      coded.
    * Columns that climb by small steps (table, rank, position) delta-encoded: 1.6 MB of a
      round's positions become 10 kB, quicker than plain values.
    * Player ids not compressed: Snappy halved them at 0.5 GB/s, the dearest work of the
      writing (a round's ids 60 of its 346 ms); the other columns keep Snappy.
    """
    names = schema.names
    return pq.ParquetWriter(
        dest, schema,
        write_statistics=[name for name in names if name in _KEYS],
        use_dictionary=[name for name in names if name in _FEW_VALUES],
        column_encoding={name: "DELTA_BINARY_PACKED" for name in names if name in _STEPS},
        compression={name: "none" if name in _IDS else "snappy" for name in names},
    )


def append_row_group(writer: pq.ParquetWriter, table: pa.Table) -> None:
    """One row group more in an output file (the one place outputs are written)."""
    writer.write_table(table, row_group_size=max(len(table), 1))


def write_outcomes(
    outcomes: Iterable[Outcome],
    plan,
    out_dir: str | os.PathLike,
    seed: int | str | bytes,
    previous_positions: Mapping[str, int] | pd.Series | None,
    keep: bool,
    advance: Callable[[], None],
    writing: list[Future] | None = None,
) -> Scored:
    """Append each block's outputs (blocks in round order) and the standings of its rounds
    (ranked on a thread of their own, see ``_rank``); raise every problem of every block at
    the end, before anything is renamed into place. ``writing`` is kept holding the last
    block's queued writes of travellers and scores (see ``_local_outcomes``)."""
    standing = Standings(seed, previous_positions)
    kept: dict[str, list[pa.Table]] = {name: [] for name in OUTPUT_NAMES}
    problems: list[Problem] = []
    warnings: list[str] = []
    scoring_warnings: list[str] = []
    rounds: list[int] = []
    ranked: list[Future] = []
    with staged_writes() as stage:
        outputs = _Outputs(stage, out_dir, [] if writing is None else writing)
        ranking = ThreadPoolExecutor(max_workers=1)  # rounds in order, off this thread
        try:
            for outcome in outcomes:
                problems += outcome.problems
                warnings += outcome.warnings
                if outcome.scored is not None and not problems:
                    done = outcome.scored
                    tables = {"travellers": done.travellers, "scores": done.scores if keep else
                              _Later(4 * done.travellers.num_rows, partial(
                                  player_scores, done.travellers, done.names, done.codes))}
                    outputs.append(tables)
                    if len(ranked) > 1:  # two blocks' sums waiting at most
                        ranked[-2].result()
                    ranked.append(ranking.submit(_rank, standing, done.sums, outputs, keep))
                    rounds += [sums.round for sums in done.sums]
                    for name, table in tables.items():
                        kept[name] += [table] if keep else []
                    scoring_warnings += done.warnings
                    del done, tables  # only the writers hold them now
                del outcome
                advance()
            if outputs.rows["travellers"] and not problems:  # no rows more for them: the
                outputs.finish(_ROW_PER_RESULT)  # big files sync while the last rounds rank
            kept["standings"] = [table for done in ranked for table in done.result()]
            if problems:
                raise InvalidResultsError(file_order(plan, problems) if plan else problems)
            _empty_outputs(outputs, kept, keep)
            outputs.finish(OUTPUT_NAMES)
        finally:
            ranking.shutdown(cancel_futures=True)
            outputs.close()
    return Scored.of(kept, warnings + scoring_warnings, dict(outputs.rows), tuple(rounds))


def _rank(standing: Standings, sums: Sequence, outputs: _Outputs, keep: bool) -> list:
    """Add a block's rounds to the standings and queue their rows for writing; the tables if
    ``keep``. Ranking runs on a thread of its own, so the loop of ``write_outcomes`` takes
    the next block as soon as it is scored, and its travellers and scores are written (and
    their memory freed) without waiting for this block's ranking. Unless they are kept, the
    standings' tables are made on their writer's thread (``_Later``): their text columns
    (a string per player) are not the ranking's work, which the next round waits for."""
    ranked = [standing.rank(part) for part in sums]
    if not keep:
        outputs.append({"standings": _Later(sum(r.num_rows for r in ranked), partial(
            _concat, ranked))})
        return []
    table = _concat(ranked)
    outputs.append({"standings": table})
    return [table]


def _concat(ranked: list) -> pa.Table:
    return pa.concat_tables([one.table() for one in ranked])


@dataclass(frozen=True)
class _Later:
    """A table of ``num_rows`` rows that ``make`` makes when it is written, on its file's
    writing thread (``_Outputs._write``): the scores of a block and the standings' text
    columns are not work the next block or round waits for, and are in memory only while
    they are written."""

    num_rows: int
    make: Callable[[], pa.Table]


def _empty_outputs(outputs: _Outputs, kept: dict[str, list[pa.Table]], keep: bool) -> None:
    """No rounds at all: write each file empty, with its columns (and keep them if
    ``keep``)."""
    if outputs.rows["travellers"]:
        return
    tables = {name: empty_table(name) for name in OUTPUT_NAMES}
    outputs.append(tables)
    for name, table in tables.items():
        kept[name] = [table] if keep else []


def read_output(directory: str | os.PathLike, name: str) -> pd.DataFrame:
    """Read back one file ``score_files`` wrote (``name`` one of scores, standings,
    travellers); a missing or unreadable file is an error that says how to make it."""
    path = Path(directory) / f"{name}.parquet"
    try:
        return pq.read_table(path).to_pandas()
    except (OSError, pa.ArrowInvalid) as error:
        what = f"cannot be read ({error})" if path.exists() else "does not exist"
        raise GuandanError(
            f"{str(path)!r} {what}: give an event folder, or a folder written by "
            f"'guandan-dup score' (your results files, then '--out {directory}')"
        ) from error
