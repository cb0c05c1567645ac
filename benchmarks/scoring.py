"""Benchmark: score a large event with guandan-dup, and the same work as DuckDB SQL.

    python benchmarks/scoring.py                 # 500,000 table-set rows (2,000,000 scores)
    python benchmarks/scoring.py --rows 5000000  # ten times that

The synthetic event is deterministic (numpy's generator is fine for test data): 5 rounds,
4 sets a round, every table of a round plays every set of it (so a set has rows/20 results),
players reseated at random each round, levels drawn from the results a set can really end
with, 1 table in 500 with an artificial result. It is written once as a set-level results
file. Each measurement then runs in a fresh process (interpreter start and imports
included), interleaved with the others and repeated; the best wall time is shown, with that
run's CPU time and the highest peak resident memory of all runs (from ``wait4``, which sees
numpy, Arrow and DuckDB buffers alike):

* guandan-dup: read the file (no checks: the SQL's starting point), score, write the three
  Parquet files (``score_to_files``);
* the ``guandan-dup score`` command: the same plus every check of ingestion, and the CLI;
* DuckDB SQL, with its default threads (one per core) and with ``threads = 1``: read the
  file, matchpoints with window RANK/COUNT per set and direction, per-player cumulative
  averages over rounds (byes included), RANK, write three Parquet files. This is the
  "obvious SQL": it ranks float averages, so genuinely equal averages whose float sums differ
  in the last bit get different ranks (see docs/scoring.md); ours does not.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
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


def make_event(rows: int, path: Path) -> None:
    """Write the synthetic set-level results file of ``rows`` table-set rows."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    from guandan_dup.levels import LEVEL_NAMES
    from guandan_dup.rules.progression import reachable_levels

    rng = np.random.default_rng(20261129)
    tables = rows // (ROUNDS * SETS_PER_ROUND)
    players = np.char.add("p", np.arange(tables * 4).astype(str)).astype(object)
    pairs = np.array(sorted(reachable_levels(None)))
    names = np.array(LEVEL_NAMES, dtype=object)
    columns: dict[str, list] = {k: [] for k in (
        "round", "group", "table", "set", "north", "east", "south", "west", "ns_level",
        "ew_level", "adjusted")}
    for rnd in range(1, ROUNDS + 1):
        seats = players[rng.permutation(len(players))].reshape(tables, 4)
        for s in range(SETS_PER_ROUND):
            pick = pairs[rng.integers(0, len(pairs), tables)]
            artificial = rng.random(tables) < 0.002
            columns["round"].append(np.full(tables, rnd))
            columns["group"].append(np.arange(tables) // GROUP_TABLES + 1)
            columns["table"].append(np.arange(1, tables + 1))
            columns["set"].append(np.full(tables, (rnd - 1) * SETS_PER_ROUND + s + 1))
            for i, seat in enumerate(("north", "east", "south", "west")):
                columns[seat].append(seats[:, i])
            columns["ns_level"].append(np.where(artificial, None, names[pick[:, 0]]))
            columns["ew_level"].append(np.where(artificial, None, names[pick[:, 1]]))
            columns["adjusted"].append(np.where(artificial, "A+/A-", None))
    table = pa.table({k: pa.array(np.concatenate(v)) for k, v in columns.items()})
    pq.write_table(table, path)


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


def child(which: str, src: str, out: str) -> None:
    if which == "ours":
        run_ours(src, out)
    else:
        run_duckdb(src, out, which.removeprefix("duckdb-"))


MEASUREMENTS = {
    "guandan-dup: read + score + write": "ours",
    "guandan-dup score command (checks too)": "command",
    "DuckDB SQL, default threads": "duckdb-default",
    "DuckDB SQL, threads = 1": "duckdb-1",
}


def measure(which: str, src: Path, out: Path) -> tuple[float, float, float]:
    """Run one measurement in a fresh process: wall seconds, CPU seconds, peak RSS bytes."""
    out.mkdir(parents=True, exist_ok=True)
    if which == "command":
        command = [sys.executable, "-c", "from guandan_dup.cli import main; main()",
                   "score", str(src), "--out", str(out), "--quiet"]
    else:
        command = [sys.executable, __file__, "--child", which, str(src), str(out)]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"{which} failed with exit code {process.returncode}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=500_000, help="table-set rows")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each measurement, interleaved; the best wall time is "
                             "shown (the machine may be shared)")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "results.parquet"
        make_event(args.rows, src)
        runs = {label: [] for label in MEASUREMENTS}
        for _ in range(args.repeat):
            for label, which in MEASUREMENTS.items():
                runs[label].append(measure(which, src, Path(tmp) / which))
    players = args.rows // (ROUNDS * SETS_PER_ROUND) * 4
    print(f"{args.rows:,} table-set rows, {4 * args.rows:,} player scores, {players:,} players, "
          f"{ROUNDS} rounds, {os.cpu_count()} cores; best wall of {args.repeat} runs")
    print(f"{'':40} {'wall':>8} {'CPU':>8} {'peak RSS':>9}")
    for label, got in runs.items():
        wall, cpu, _ = min(got)
        peak = max(rss for *_, rss in got)
        print(f"{label:40} {wall:7.2f}s {cpu:7.2f}s {peak / 2**30:7.2f}GB")


if __name__ == "__main__":
    main()
