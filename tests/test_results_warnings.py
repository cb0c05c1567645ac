"""Issue 21, messages: a huge file's warnings of one kind are one summary line (the count,
the first few rows, how many more), never a line per row; a few stay lines of their own."""

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from guandan_dup.results import load_results

SEATS = {"north": ["p1", "p5"], "east": ["p2", "p6"], "south": ["p3", "p7"],
         "west": ["p4", "p8"]}
TWO = {"round": [1, 1], "table": [1, 2], "set": [1, 1], **SEATS,
       "ns_level": ["3", "3"], "ew_level": ["2", "2"]}


def repeated(path, columns, rows):
    """``columns``' rows repeated in turn to ``rows`` rows, as Parquet."""
    order = pa.array(np.arange(rows) % len(next(iter(columns.values()))))
    pq.write_table(pa.table({k: pa.array(v).take(order) for k, v in columns.items()}), path)
    return path


def test_issue21_many_exact_repeats_are_one_summary_line(tmp_path):
    path = repeated(tmp_path / "r.parquet", TWO, 20_000)
    read = load_results(path)
    assert len(read.sets) == 2
    (line,) = read.warnings
    assert line.startswith(
        f"19,998 rows repeat an earlier row exactly (one copy of each kept); the first 5: "
        f"{path} row 3 repeats {path} row 1 (result of round 1, table 1, set 1); "
        f"{path} row 4 repeats {path} row 2 (result of round 1, table 2, set 1); "), line
    assert line.endswith(f"{path} row 7 repeats {path} row 1 (result of round 1, table 1, "
                         "set 1); and 19,993 more")


def test_issue21_a_few_exact_repeats_keep_a_line_each(tmp_path):
    path = repeated(tmp_path / "r.parquet", TWO, 7)
    assert load_results(path).warnings == [
        f"{path} row {row} repeats {path} row {first} exactly (result of round 1, table "
        f"{table}, set 1); one copy kept"
        for row, first, table in [(3, 1, 1), (4, 2, 2), (5, 1, 1), (6, 2, 2), (7, 1, 1)]]


def test_issue21_many_short_sets_are_one_summary_line(tmp_path):
    tables = 40
    boards = {"round": [1] * tables, "table": list(range(1, tables + 1)), "set": [1] * tables,
              "board": [1] * tables,
              **{seat: [f"{seat[0]}{t}" for t in range(tables)] for seat in SEATS},
              "finish": ["NSEW"] * tables}
    pq.write_table(pa.table(boards), tmp_path / "b.parquet")
    (line,) = load_results(tmp_path / "b.parquet", boards_per_set=2).warnings
    assert line.startswith("40 sets have fewer than 2 boards and no side passed A; the first "
                           "5: round 1, table 1, set 1: only 1 of 2 boards and no side passed "
                           "A; round 1, table 2, set 1: only 1 of 2 boards"), line
    assert line.endswith("; and 35 more")
