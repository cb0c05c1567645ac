"""Benchmark: score a large event with guandan-dup, DuckDB SQL and Polars, side by side.

    python benchmarks/scoring.py                          # 500,000 and 2,000,000 table-sets
    python benchmarks/scoring.py --rows 500000 --repeat 1
    python benchmarks/scoring.py --rows --big 2000000 50000000   # local and Dask engines
    python benchmarks/scoring.py --rows 2000000 --shape online --duckdb-query lean

``--shape online`` is issue 24's field: 5 rounds of 2 sets, the tables as many as the size
needs (2,000,000 table-sets: 200,000 tables, 800,000 players), players reseated at random
every round; the default ``--shape benchmark`` keeps 4 sets a round (2,000,000 table-sets:
400,000 players). ``--duckdb-query lean`` compares with a leaner query too (``DUCKDB_LEAN``:
one window per set over the level differences, the level lookup the only join, no grid of
byes), checked first against ours on a small event of the same shape.

The synthetic event is deterministic (numpy's generator is fine for test data): 4 sets a
round, every table of a round plays every set of it, players reseated at random each round,
levels drawn from the results a set can really end with, 1 table in 500 with an artificial
result. It is written a (round, set) at a time, so even 50 million rows need little memory.
The compared sizes have 5 rounds (as the issue's table); the ``--big`` ones have
``--players`` players (default a million) and as many rounds as the size needs.

Each measurement runs in a fresh process (interpreter start and imports included), into an
empty output folder, after ``sync`` (so no run pays for writing back or deleting another's
files); the compared ones interleaved and repeated, the median shown. Peak memory is the
largest of the process's own peak (``wait4`` on that process) and the resident memory of it
and its children summed, sampled every 0.1 s (the Dask engine's workers are children):

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
SHAPES = {"benchmark": 4, "online": 2}  # sets a round; both shapes have ROUNDS rounds

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

# The leaner query of issue 24: the level lookup is the only join; one window per set over
# the level differences gives both the results below (RANK) and those below or tied (COUNT
# over the default RANGE frame, peers included), so 2 x below + same - 1 = (RANK - 1) +
# (COUNT - 1), and EW's is the rest of 2 x (n - 1) over the same divisor (not 1 - NS's float,
# which is off in the last bit; so both rates are the exact fractions rounded, as ours). The
# standings skip the grid of byes: every player of
# the synthetic events plays every set, so the cumulative average is a window over the
# player's rounds. Same three files.
DUCKDB_LEAN = """
CREATE TEMP TABLE lv AS SELECT * FROM (VALUES {level_rows}) v(name, i);
CREATE TEMP TABLE rated AS
  SELECT r.*, n.i - e.i AS d,
    CASE WHEN adjusted IS NOT NULL THEN
           CASE split_part(adjusted, '/', 1) WHEN 'A+' THEN 0.6 WHEN 'A' THEN 0.5 ELSE 0.4 END
         WHEN count(*) OVER a = 1 THEN 0.5
         ELSE (rank() OVER w - 1 + count(*) OVER w - 1) / (2.0 * (count(*) OVER a - 1))
    END AS ns_rate,
    CASE WHEN adjusted IS NOT NULL THEN
           CASE split_part(adjusted, '/', 2) WHEN 'A+' THEN 0.6 WHEN 'A' THEN 0.5 ELSE 0.4 END
         WHEN count(*) OVER a = 1 THEN 0.5
         ELSE (2 * count(*) OVER a - rank() OVER w - count(*) OVER w)
              / (2.0 * (count(*) OVER a - 1))
    END AS ew_rate
  FROM read_parquet('{src}') r
  LEFT JOIN lv n ON n.name = r.ns_level LEFT JOIN lv e ON e.name = r.ew_level
  WINDOW w AS (PARTITION BY set, adjusted IS NULL ORDER BY n.i - e.i),
         a AS (w ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING);
CREATE TEMP TABLE scores AS
  SELECT round, "group", set, "table", player, direction, score, score_rate FROM (
    SELECT round, "group", set, "table", north AS player, 'NS' AS direction, d AS score,
           ns_rate AS score_rate FROM rated
    UNION ALL SELECT round, "group", set, "table", south, 'NS', d, ns_rate FROM rated
    UNION ALL SELECT round, "group", set, "table", east, 'EW', -d, ew_rate FROM rated
    UNION ALL SELECT round, "group", set, "table", west, 'EW', -d, ew_rate FROM rated);
CREATE TEMP TABLE standings AS
  SELECT round, player, sets, round_avg, cumulative,
    rank() OVER (PARTITION BY round ORDER BY cumulative DESC) AS rank,
    row_number() OVER (PARTITION BY round ORDER BY cumulative DESC, player) AS position
  FROM (
    SELECT round, player, sum(n) OVER c AS sets, total / n AS round_avg,
      sum(total) OVER c / sum(n) OVER c AS cumulative
    FROM (SELECT player, round, count(*) AS n, sum(score_rate) AS total
          FROM scores GROUP BY player, round)
    WINDOW c AS (PARTITION BY player ORDER BY round));
COPY scores TO '{out}/scores.parquet' (FORMAT parquet);
COPY standings TO '{out}/standings.parquet' (FORMAT parquet);
COPY rated TO '{out}/travellers.parquet' (FORMAT parquet);
"""


def make_event(rows: int, path: Path, players: int | None = None, dataset: bool = False,
               sets_per_round: int = SETS_PER_ROUND) -> None:
    """Write the synthetic set-level results of ``rows`` table-set rows, a (round, set) at a
    time (a row group each), so 50 million rows need no more memory than one set's.

    ``players`` fixes the field (tables = players / 4, rounds = rows / (tables x sets a
    round)); by default there are 5 rounds of ``sets_per_round`` sets. ``dataset`` writes a
    folder hive-partitioned by round (``round=N/part.0.parquet``, no round column in the
    files) instead of one file.
    """
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    from guandan_dup.levels import LEVEL_NAMES
    from guandan_dup.rules.progression import reachable_levels

    rng = np.random.default_rng(20261129)
    if players is None:
        tables, rounds = rows // (ROUNDS * sets_per_round), ROUNDS
    else:
        tables = players // 4
        rounds = max(rows // (tables * sets_per_round), 1)
    ids = pa.array(np.char.add("p", np.arange(tables * 4).astype(str)))
    pairs = np.array(sorted(reachable_levels(None)))
    names = pa.array(LEVEL_NAMES)
    writer = None
    for rnd in range(1, rounds + 1):
        if dataset:
            (path / f"round={rnd}").mkdir(parents=True, exist_ok=True)
            writer = writer_close(writer)
        seats = rng.permutation(tables * 4).reshape(tables, 4)
        for s in range(sets_per_round):
            pick = pairs[rng.integers(0, len(pairs), tables)]
            artificial = rng.random(tables) < 0.002
            columns = {
                "round": pa.array(np.full(tables, rnd)),
                "group": pa.array(np.arange(tables) // GROUP_TABLES + 1),
                "table": pa.array(np.arange(1, tables + 1)),
                "set": pa.array(np.full(tables, (rnd - 1) * sets_per_round + s + 1)),
                **{seat: ids.take(pa.array(seats[:, i]))
                   for i, seat in enumerate(("north", "east", "south", "west"))},
                "ns_level": names.take(pa.array(pick[:, 0], mask=artificial)),
                "ew_level": names.take(pa.array(pick[:, 1], mask=artificial)),
                "adjusted": pa.array(np.where(artificial, "A+/A-", None), type=pa.string()),
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


def run_duckdb(src: str, out: str, threads: str, query: str = "obvious") -> None:
    import duckdb

    from guandan_dup.levels import LEVEL_NAMES

    levels = "[" + ", ".join(f"'{name}'" for name in LEVEL_NAMES) + "]"
    level_rows = ", ".join(f"('{name}', {i})" for i, name in enumerate(LEVEL_NAMES))
    connection = duckdb.connect()
    if threads != "default":
        connection.execute(f"SET threads = {int(threads)}")
    sql = DUCKDB_LEAN if query == "lean" else DUCKDB_SQL
    connection.execute(sql.format(src=src, out=out, levels=levels, level_rows=level_rows))


def check_lean(tmp: Path, sets_per_round: int) -> str:
    """Score a small event of the shape with ours and the lean query and hold them equal:
    every player score's rate exactly (both divide the same integers), the cumulative
    averages to 1e-12 (float sums in another order), and the rank wherever the exact
    averages of neighbours differ by more than that."""
    import numpy as np
    import pandas as pd

    src, ours, lean = tmp / "check.parquet", tmp / "check-ours", tmp / "check-lean"
    make_event(ROUNDS * sets_per_round * 300, src, sets_per_round=sets_per_round)
    for folder in (ours, lean):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
    run_ours(str(src), str(ours))
    run_duckdb(str(src), str(lean), "default", "lean")
    keys = ["round", "set", "table", "player"]
    got = {}
    for name, folder in (("ours", ours), ("lean", lean)):
        scores = pd.read_parquet(folder / "scores.parquet")[[*keys, "score_rate"]]
        scores["player"] = scores["player"].astype(str)
        standings = pd.read_parquet(folder / "standings.parquet")
        standings["player"] = standings["player"].astype(str)
        got[name] = (scores.sort_values(keys, ignore_index=True),
                     standings[["round", "player", "cumulative", "rank"]]
                     .sort_values(["round", "player"], ignore_index=True))
    (ours_scores, ours_standings), (lean_scores, lean_standings) = got["ours"], got["lean"]
    if len(ours_scores) != len(lean_scores) or not (
            ours_scores[keys].astype(str).equals(lean_scores[keys].astype(str))
            and np.array_equal(ours_scores["score_rate"].to_numpy(float),
                               lean_scores["score_rate"].to_numpy(float))):
        raise SystemExit("the lean DuckDB query's rates differ from ours")
    cumulative = ours_standings["cumulative"].to_numpy(float)
    if not np.allclose(cumulative, lean_standings["cumulative"].to_numpy(float),
                       rtol=0, atol=1e-12):
        raise SystemExit("the lean DuckDB query's cumulative averages differ from ours")
    # a rank is only comparable where no other average of the round is within 1e-12
    clear = np.ones(len(cumulative), bool)
    for _, where in ours_standings.groupby("round").indices.items():
        order = where[np.argsort(cumulative[where], kind="stable")]
        close = np.diff(cumulative[order]) <= 1e-12
        clear[order[1:][close]] = clear[order[:-1][close]] = False
    if not np.array_equal(ours_standings["rank"].to_numpy(int)[clear],
                          lean_standings["rank"].to_numpy(int)[clear]):
        raise SystemExit("the lean DuckDB query's ranks differ from ours")
    for path in (ours, lean):
        shutil.rmtree(path)
    src.unlink()
    return (f"lean DuckDB query checked against ours ({len(ours_scores):,} player scores: "
            f"rates exact, averages to 1e-12, {clear.sum():,} of {clear.size:,} ranks "
            "without a near tie equal)")


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
    elif which.startswith("lean-"):
        run_duckdb(src, out, which.removeprefix("lean-"), "lean")
    else:
        run_duckdb(src, out, which.removeprefix("duckdb-"))


COMPARED = {
    "guandan-dup score (checks too)": "command",
    "guandan-dup read + score + write": "ours",
    "DuckDB SQL, default threads": "duckdb-default",
    "Polars, default threads": "polars",
}
LEAN = {"DuckDB lean SQL, default threads": "lean-default"}


def measure(which: str, src: Path, out: Path) -> tuple[float, float, float]:
    """Run one measurement in a fresh process: wall seconds, CPU seconds (with children),
    peak memory in bytes: the largest of the process's own peak (its ``wait4`` usage) and
    the summed resident memory of it and its children sampled every 0.1 s (Dask's workers).

    The process's own peak is read from ``wait4`` on it, not from ``RUSAGE_CHILDREN``: that
    is the largest peak of every child reaped so far, so a run measured after a bigger one
    (DuckDB's 1.4 GiB before ours) fell back to the 0.1 s samples, which miss short peaks.
    And it is started by a small launcher (``run_measured``), so its peak does not begin at
    the benchmark's own size."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    os.sync()
    if which in ("command", "dask"):
        command = [sys.executable, "-c", "from guandan_dup.cli import main; main()",
                   "score", str(src), "--out", str(out), "--quiet"]
        command += ["--engine", "dask"] if which == "dask" else []
    else:
        command = [sys.executable, __file__, "--child", which, str(src), str(out)]
    return run_measured(command, which)


# Starts the measured process and reports its own peak. A process's peak (``ru_maxrss``)
# counts the memory of the process it was forked from before its exec, so a child of the
# benchmark (which has built the input and run DuckDB in itself) would start at the
# benchmark's size; a child of this small launcher starts at the launcher's few MB.
_LAUNCH = """import os, subprocess, sys
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
print(usage.ru_maxrss, flush=True)
sys.exit(os.waitstatus_to_exitcode(status))
"""


def run_measured(command: list[str], label: str) -> tuple[float, float, float]:
    """``measure``'s wall, CPU and peak for one process running ``command`` (started by a
    small launcher, ``_LAUNCH``, whose own start of some 30 ms is in the wall time); a failed
    run (named ``label``) stops the benchmark."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-c", _LAUNCH, *command],
                               stdout=subprocess.PIPE, text=True)
    sampled, done = [0], threading.Event()
    sampler = threading.Thread(target=_sample, args=(process.pid, sampled, done), daemon=True)
    sampler.start()
    reported = process.stdout.read()
    process.wait()  # the wall time to the exit itself, not to the next sample
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    if process.returncode:
        raise SystemExit(f"{label} failed with exit code {process.returncode}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, max(sampled[0], int(reported) * 1024)


def _sample(pid: int, sampled: list[int], done: threading.Event) -> None:
    """The largest summed resident memory of process ``pid``'s children (the launcher's
    child and, for Dask, its workers), every 0.1 s until ``done``."""
    import psutil

    try:
        watched = psutil.Process(pid)
    except psutil.Error:  # already gone
        return
    while not done.is_set():
        try:
            tree = watched.children(recursive=True)
            sampled[0] = max(sampled[0], sum(p.memory_info().rss for p in tree))
        except psutil.Error:
            pass
        done.wait(0.1)


def compare(rows: int, repeat: int, tmp: Path, shape: str = "benchmark",
            queries: tuple[str, ...] = ("obvious",), skip: tuple[str, ...] = ()) -> list[str]:
    """guandan-dup, DuckDB and Polars on one input, interleaved: medians of ``repeat``, the
    range of the wall times beside them, each against the first DuckDB query's median."""
    sets_per_round = SHAPES[shape]
    src = tmp / f"results-{rows}.parquet"
    make_event(rows, src, sets_per_round=sets_per_round)
    compared = {label: which for label, which in COMPARED.items() if which not in skip}
    if "obvious" not in queries:
        compared.pop("DuckDB SQL, default threads", None)
    if "lean" in queries:
        compared |= LEAN
    runs: dict[str, list] = {label: [] for label in compared}
    for _ in range(repeat):
        for label, which in compared.items():
            runs[label].append(measure(which, src, tmp / which))
    src.unlink()
    players = rows // (ROUNDS * sets_per_round) * 4
    lines = [f"{rows:,} table-sets, {4 * rows:,} player scores, {players:,} players, {ROUNDS} "
             f"rounds of {sets_per_round} sets; median of {repeat} (wall range)"]
    duckdbs = [label for label in runs if label.startswith("DuckDB")]
    for label, got in runs.items():
        walls = [w for w, *_ in got]
        wall = statistics.median(walls)
        cpu = statistics.median(c for _, c, _ in got)
        peak = max(p for *_, p in got)
        against = "  ".join(
            f"{wall / statistics.median(w for w, *_ in runs[d]):4.2f}x {d.split(',')[0]}"
            for d in duckdbs)
        lines.append(f"  {label:34} {wall:7.2f}s ({min(walls):.2f}-{max(walls):.2f})  "
                     f"CPU {cpu:7.2f}s  peak {peak / 2**30:5.2f} GiB  {against}")
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
    parser.add_argument("--shape", choices=sorted(SHAPES), default="benchmark",
                        help="benchmark: 5 rounds of 4 sets; online: issue 24's 5 rounds of "
                        "2 sets (2,000,000 table-sets: 800,000 players)")
    parser.add_argument("--duckdb-query", nargs="+", choices=["obvious", "lean"],
                        default=["obvious"], help="the DuckDB queries compared (lean is "
                        "checked against ours on a small event first)")
    parser.add_argument("--skip", nargs="*", default=[], choices=sorted(COMPARED.values()),
                        help="compared runs to leave out (e.g. polars)")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    if args.dir:
        args.dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start")
        if "lean" in args.duckdb_query and args.rows:
            print(check_lean(Path(tmp), SHAPES[args.shape]), flush=True)
        for rows in args.rows:
            print("\n".join(compare(rows, args.repeat, Path(tmp), args.shape,
                                     tuple(args.duckdb_query), tuple(args.skip))), flush=True)
        for rows in args.big:
            print("\n".join(big(rows, args.players, args.engines, Path(tmp))), flush=True)
        print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
