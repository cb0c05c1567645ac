"""Benchmark: score a large event with guandan-dup, DuckDB SQL and Polars, side by side.

    python benchmarks/scoring.py                          # 500,000 and 2,000,000 table-sets
    python benchmarks/scoring.py --rows 500000 --repeat 1
    python benchmarks/scoring.py --rows --big 2000000 50000000   # local and Dask engines

The synthetic event is deterministic (numpy's generator is fine for test data): 4 sets a
round, every table of a round plays every set of it, players reseated at random each round,
levels drawn from the results a set can really end with, 1 table in 500 with an artificial
result. It is written a (round, set) at a time, so even 50 million rows need little memory.
The compared sizes have 5 rounds (as the issue's table); the ``--big`` ones have
``--players`` players (default a million) and as many rounds as the size needs.

Each measurement runs in a fresh process (interpreter start and imports included), into an
empty output folder, after ``sync`` (so no run pays for writing back or deleting another's
files); the compared ones interleaved and repeated, the median shown. Peak memory is the
largest of the process's own peak (``wait4``) and the resident memory of it and its children
summed, sampled every 0.1 s (the Dask engine's workers are children):

* ``guandan-dup score`` (the command: every check of ingestion, the CLI);
* guandan-dup reading the file without checks (the SQL's starting point), scoring and writing
  the three files (``score_to_files``);
* DuckDB SQL and Polars with their default threads (one per core): read the file, matchpoints
  with window RANK/COUNT per set, per-player cumulative averages over rounds (byes
  included), RANK, write three Parquet files. This is the "obvious SQL": it ranks float
  averages, so genuinely equal averages whose float sums differ in the last bit get different
  ranks (see docs/scoring.md); ours does not;
* ``--big``: ``guandan-dup score`` on a folder hive-partitioned by round, with
  ``--engine local`` and ``--engine dask`` (a local cluster: one worker per core).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROUNDS, SETS_PER_ROUND, GROUP_TABLES = 5, 4, 10

DUCKDB_SQL = """
CREATE TEMP TABLE t AS
  SELECT *, list_position({levels}, ns_level) - list_position({levels}, ew_level) AS d
  FROM read_parquet('{src}');
CREATE TEMP TABLE rated AS
  SELECT *,
    CASE WHEN adjusted IS NOT NULL THEN
           CASE split_part(adjusted, '/', 1) WHEN 'A+' THEN 0.6 WHEN 'A' THEN 0.5 ELSE 0.4 END
         WHEN count(d) OVER w = 1 THEN 0.5
         ELSE ((rank() OVER (PARTITION BY set, adjusted IS NULL ORDER BY d) - 1) * 2
               + count(d) OVER (PARTITION BY set, d) - 1) / (2.0 * (count(d) OVER w - 1))
    END AS ns_rate,
    CASE WHEN adjusted IS NOT NULL THEN
           CASE split_part(adjusted, '/', 2) WHEN 'A+' THEN 0.6 WHEN 'A' THEN 0.5 ELSE 0.4 END
         ELSE 1 - ns_rate
    END AS ew_rate
  FROM t WINDOW w AS (PARTITION BY set);
CREATE TEMP TABLE scores AS
  SELECT round, "group", set, "table", player, direction, score, rate AS score_rate FROM (
    SELECT *, north AS player, 'NS' AS direction, d AS score, ns_rate AS rate FROM rated
    UNION ALL SELECT *, south, 'NS', d, ns_rate FROM rated
    UNION ALL SELECT *, east, 'EW', -d, ew_rate FROM rated
    UNION ALL SELECT *, west, 'EW', -d, ew_rate FROM rated);
CREATE TEMP TABLE per_round AS
  SELECT player, round, count(*) AS n, sum(score_rate) AS total
  FROM scores GROUP BY player, round;
CREATE TEMP TABLE grid AS
  SELECT p.player, r.round, coalesce(pr.n, 0) AS n, pr.total
  FROM (SELECT player, min(round) AS first FROM per_round GROUP BY player) p
  JOIN (SELECT DISTINCT round FROM per_round) r ON r.round >= p.first
  LEFT JOIN per_round pr ON pr.player = p.player AND pr.round = r.round;
CREATE TEMP TABLE standings AS
  SELECT round, player, sets, round_avg, cumulative,
    rank() OVER (PARTITION BY round ORDER BY cumulative DESC) AS rank,
    row_number() OVER (PARTITION BY round ORDER BY cumulative DESC, player) AS position
  FROM (
    SELECT round, player,
      sum(n) OVER c AS sets,
      CASE WHEN n > 0 THEN total / n END AS round_avg,
      sum(coalesce(total, 0)) OVER c / sum(n) OVER c AS cumulative
    FROM grid WINDOW c AS (PARTITION BY player ORDER BY round));
COPY scores TO '{out}/scores.parquet' (FORMAT parquet);
COPY standings TO '{out}/standings.parquet' (FORMAT parquet);
COPY rated TO '{out}/travellers.parquet' (FORMAT parquet);
"""


def make_event(rows: int, path: Path, players: int | None = None, dataset: bool = False) -> None:
    """Write the synthetic set-level results of ``rows`` table-set rows, a (round, set) at a
    time (a row group each), so 50 million rows need no more memory than one set's.

    ``players`` fixes the field (tables = players / 4, rounds = rows / (tables x 4 sets));
    by default there are 5 rounds. ``dataset`` writes a folder hive-partitioned by round
    (``round=N/part.0.parquet``, no round column in the files) instead of one file.
    """
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    from guandan_dup.levels import LEVEL_NAMES
    from guandan_dup.rules.progression import reachable_levels

    rng = np.random.default_rng(20261129)
    if players is None:
        tables, rounds = rows // (ROUNDS * SETS_PER_ROUND), ROUNDS
    else:
        tables = players // 4
        rounds = max(rows // (tables * SETS_PER_ROUND), 1)
    ids = pa.array(np.char.add("p", np.arange(tables * 4).astype(str)))
    pairs = np.array(sorted(reachable_levels(None)))
    names = pa.array(LEVEL_NAMES)
    writer = None
    for rnd in range(1, rounds + 1):
        if dataset:
            (path / f"round={rnd}").mkdir(parents=True, exist_ok=True)
            writer = writer_close(writer)
        seats = rng.permutation(tables * 4).reshape(tables, 4)
        for s in range(SETS_PER_ROUND):
            pick = pairs[rng.integers(0, len(pairs), tables)]
            artificial = rng.random(tables) < 0.002
            columns = {
                "round": pa.array(np.full(tables, rnd)),
                "group": pa.array(np.arange(tables) // GROUP_TABLES + 1),
                "table": pa.array(np.arange(1, tables + 1)),
                "set": pa.array(np.full(tables, (rnd - 1) * SETS_PER_ROUND + s + 1)),
                **{seat: ids.take(pa.array(seats[:, i]))
                   for i, seat in enumerate(("north", "east", "south", "west"))},
                "ns_level": names.take(pa.array(pick[:, 0], mask=artificial)),
                "ew_level": names.take(pa.array(pick[:, 1], mask=artificial)),
                "adjusted": pa.array(np.where(artificial, "A+/A-", None)),
            }
            if dataset:
                del columns["round"]
            table = pa.table(columns)
            if writer is None:
                where = path / f"round={rnd}" / "part.0.parquet" if dataset else path
                writer = pq.ParquetWriter(where, table.schema)
            writer.write_table(table)
    writer_close(writer)


def writer_close(writer) -> None:
    if writer is not None:
        writer.close()


def read_unvalidated(src: str):
    """The normalised set table straight from the file, without ingestion's checks: the same
    starting point the SQL has."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from guandan_dup.levels import LEVEL_NAMES

    table = pq.read_table(src)
    sets = table.drop_columns(["ns_level", "ew_level"]).to_pandas()
    for column in ("ns_level", "ew_level"):
        index = pc.index_in(table[column], value_set=pa.array(LEVEL_NAMES)).cast(pa.int8())
        sets[column] = index.to_pandas(types_mapper={pa.int8(): pd.Int8Dtype()}.get)
    halves = pc.split_pattern(table["adjusted"], "/")
    sets["ns_adjusted"] = pc.list_element(halves, 0).to_pandas()
    sets["ew_adjusted"] = pc.list_element(halves, 1).to_pandas()
    sets["boards"] = pd.Series(pd.NA, index=sets.index, dtype="Int16")
    return sets


def run_ours(src: str, out: str) -> None:
    """Read, score, write: the same work as the SQL (no validation)."""
    from guandan_dup.scoring import score_to_files

    score_to_files(read_unvalidated(src), out, keep=False)


def run_duckdb(src: str, out: str, threads: str) -> None:
    import duckdb

    from guandan_dup.levels import LEVEL_NAMES

    levels = "[" + ", ".join(f"'{name}'" for name in LEVEL_NAMES) + "]"
    connection = duckdb.connect()
    if threads != "default":
        connection.execute(f"SET threads = {int(threads)}")
    connection.execute(DUCKDB_SQL.format(src=src, out=out, levels=levels))


def run_polars(src: str, out: str) -> None:
    """The DuckDB SQL's computation in Polars (lazy, default threads): the same float
    averages and ranks, the same three files."""
    import polars as pl

    from guandan_dup.levels import LEVEL_NAMES

    level = {name: i for i, name in enumerate(LEVEL_NAMES)}
    fixed = {"A+": 0.6, "A": 0.5}

    def artificial(part: int) -> pl.Expr:
        code = pl.col("adjusted").str.split("/").list.get(part)
        return code.replace_strict(fixed, default=0.4, return_dtype=pl.Float64)

    t = pl.scan_parquet(src).with_columns(
        d=pl.col("ns_level").replace_strict(level, return_dtype=pl.Int32)
        - pl.col("ew_level").replace_strict(level, return_dtype=pl.Int32))
    n = pl.col("d").count().over("set")
    below = pl.col("d").rank("min").over("set") - 1
    same = pl.len().over("set", "d")
    rated = t.with_columns(
        ns_rate=pl.when(pl.col("adjusted").is_not_null()).then(artificial(0))
        .when(n == 1).then(0.5)
        .otherwise((below * 2 + same - 1) / (2.0 * (n - 1))),
    ).with_columns(
        ew_rate=pl.when(pl.col("adjusted").is_not_null()).then(artificial(1))
        .otherwise(1 - pl.col("ns_rate")))
    keys = ["round", "group", "set", "table"]
    scores = pl.concat([
        rated.select(*keys, player=pl.col(seat), direction=pl.lit(side),
                     score=sign * pl.col("d"), score_rate=pl.col(rate))
        for seat, side, sign, rate in (("north", "NS", 1, "ns_rate"), ("south", "NS", 1, "ns_rate"),
                                       ("east", "EW", -1, "ew_rate"), ("west", "EW", -1, "ew_rate"))
    ])
    per_round = scores.group_by("player", "round").agg(n=pl.len(), total=pl.col("score_rate").sum())
    first = per_round.group_by("player").agg(first=pl.col("round").min())
    grid = (first.join(per_round.select("round").unique(), how="cross")
            .filter(pl.col("round") >= pl.col("first"))
            .join(per_round, on=["player", "round"], how="left")
            .sort("player", "round"))
    standings = grid.with_columns(
        sets=pl.col("n").fill_null(0).cum_sum().over("player"),
        round_avg=pl.col("total") / pl.col("n"),
        cumulative=pl.col("total").fill_null(0).cum_sum().over("player")
        / pl.col("n").fill_null(0).cum_sum().over("player"),
    ).with_columns(
        rank=pl.col("cumulative").rank("min", descending=True).over("round"),
    ).sort("round", "cumulative", "player", descending=[False, True, False]).with_columns(
        position=pl.int_range(1, pl.len() + 1).over("round"),
    ).select("round", "player", "sets", "round_avg", "cumulative", "rank", "position")
    frames = pl.collect_all([scores, standings, rated])
    for name, frame in zip(("scores", "standings", "travellers"), frames, strict=True):
        frame.write_parquet(f"{out}/{name}.parquet")


def child(which: str, src: str, out: str) -> None:
    if which == "ours":
        run_ours(src, out)
    elif which == "polars":
        run_polars(src, out)
    else:
        run_duckdb(src, out, which.removeprefix("duckdb-"))


COMPARED = {
    "guandan-dup score (checks too)": "command",
    "guandan-dup read + score + write": "ours",
    "DuckDB SQL, default threads": "duckdb-default",
    "Polars, default threads": "polars",
}


def measure(which: str, src: Path, out: Path) -> tuple[float, float, float]:
    """Run one measurement in a fresh process: wall seconds, CPU seconds (with children),
    peak memory in bytes: the largest of the process's own peak (``wait4``) and the summed
    resident memory of it and its children sampled every 0.1 s (Dask's workers)."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    os.sync()
    if which in ("command", "dask"):
        command = [sys.executable, "-c", "from guandan_dup.cli import main; main()",
                   "score", str(src), "--out", str(out), "--quiet"]
        command += ["--engine", "dask"] if which == "dask" else []
    else:
        command = [sys.executable, __file__, "--child", which, str(src), str(out)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    sampled = [0]
    sampler = threading.Thread(target=_sample, args=(process, sampled), daemon=True)
    sampler.start()
    process.wait()  # the wall time to the exit itself, not to the next sample
    wall = time.perf_counter() - start
    sampler.join()
    if process.returncode:
        raise SystemExit(f"{which} failed with exit code {process.returncode}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, max(sampled[0], after.ru_maxrss * 1024 if after.ru_maxrss > before.ru_maxrss
                             else 0)


def _sample(process: subprocess.Popen, sampled: list[int]) -> None:
    """The largest summed resident memory of ``process`` and its children, every 0.1 s."""
    import psutil

    try:
        watched = psutil.Process(process.pid)
    except psutil.Error:  # already gone
        return
    while process.poll() is None:
        try:
            tree = [watched, *watched.children(recursive=True)]
            sampled[0] = max(sampled[0], sum(p.memory_info().rss for p in tree))
        except psutil.Error:
            pass
        time.sleep(0.1)


def compare(rows: int, repeat: int, tmp: Path) -> list[str]:
    """guandan-dup, DuckDB and Polars on one input, interleaved: medians of ``repeat``."""
    src = tmp / f"results-{rows}.parquet"
    make_event(rows, src)
    runs: dict[str, list] = {label: [] for label in COMPARED}
    for _ in range(repeat):
        for label, which in COMPARED.items():
            runs[label].append(measure(which, src, tmp / which))
    src.unlink()
    players = rows // (ROUNDS * SETS_PER_ROUND) * 4
    lines = [f"{rows:,} table-sets, {4 * rows:,} player scores, {players:,} players, {ROUNDS} "
             f"rounds; median of {repeat}"]
    duckdb = statistics.median(w for w, *_ in runs["DuckDB SQL, default threads"])
    for label, got in runs.items():
        wall = statistics.median(w for w, *_ in got)
        cpu = statistics.median(c for _, c, _ in got)
        peak = max(p for *_, p in got)
        lines.append(f"  {label:34} {wall:7.2f}s  CPU {cpu:7.2f}s  peak {peak / 2**30:5.2f} GiB"
                     f"  {wall / duckdb:4.2f}x DuckDB")
    return lines


def big(rows: int, players: int, engines: list[str], tmp: Path) -> list[str]:
    """One run of each engine on a dataset of ``rows`` table-sets, hive-partitioned by round."""
    src = tmp / f"dataset-{rows}"
    make_event(rows, src, players=players, dataset=True)
    tables = players // 4
    rounds = rows // (tables * SETS_PER_ROUND)
    lines = [f"{rows:,} table-sets, {4 * rows:,} player scores, {players:,} players, "
             f"{rounds} rounds (a folder by round); one run"]
    for engine in engines:
        out = tmp / f"out-{engine}"
        wall, cpu, peak = measure("command" if engine == "local" else "dask", src, out)
        lines.append(f"  guandan-dup score --engine {engine:6} {wall:8.1f}s  CPU {cpu:8.1f}s  "
                     f"peak {peak / 2**30:5.2f} GiB")
        shutil.rmtree(out)
    shutil.rmtree(src)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="*", default=[500_000, 2_000_000],
                        help="sizes (table-sets) compared with DuckDB and Polars")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each measurement, interleaved; the median is shown")
    parser.add_argument("--big", type=int, nargs="*", default=[],
                        help="sizes run once by the local and Dask engines (e.g. 50000000)")
    parser.add_argument("--players", type=int, default=1_000_000,
                        help="players of the --big events (rounds follow from the size)")
    parser.add_argument("--engines", nargs="*", default=["local", "dask"])
    parser.add_argument("--dir", type=Path, default=None,
                        help="folder (made if missing) for inputs and outputs; they are removed "
                        "at the end (default: the system's temporary folder)")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    if args.dir:
        args.dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start")
        for rows in args.rows:
            print("\n".join(compare(rows, args.repeat, Path(tmp))), flush=True)
        for rows in args.big:
            print("\n".join(big(rows, args.players, args.engines, Path(tmp))), flush=True)
        print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
