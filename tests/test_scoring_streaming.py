"""``score_files`` reads, checks and scores a block of rounds at a time: the same outputs and
the same error report as reading everything at once."""

import errno
import os

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scoring_support import PAIRS, as_file_table, events, seeded_event
from write_support import disk_full, inode, record_writes

from guandan_dup.errors import InvalidResultsError
from guandan_dup.results import load_results
from guandan_dup.results.by_round import layout, round_blocks
from guandan_dup.scoring import OUTPUT_NAMES, files, read_output, score, score_files


def write_split(sets: pd.DataFrame, folder, files: int, row_group: int, seed: int) -> list:
    """The rows shuffled over ``files`` files of row groups of ``row_group`` rows (never an
    empty file: a file with no rows adds no results and is refused)."""
    order = np.random.default_rng(seed).permutation(len(sets))
    paths = []
    for i, part in enumerate(np.array_split(order, min(files, len(sets)))):
        path = folder / f"part{i}.parquet"
        pq.write_table(as_file_table(sets.iloc[np.sort(part)]), path, row_group_size=row_group)
        paths.append(path)
    return paths


def reachable(sets: pd.DataFrame) -> pd.DataFrame:
    """``sets`` with each real result's levels replaced by a pair a set can end with (the
    reference's random levels include 2/2, which ingestion refuses), ties kept alike."""
    real = sets["ns_level"].notna()
    pick = (sets.loc[real, "ns_level"].astype(int) * 14 + sets.loc[real, "ew_level"].astype(int))
    pairs = np.array(PAIRS)[pick.to_numpy() % len(PAIRS)]
    sets = sets.copy()
    sets.loc[real, "ns_level"], sets.loc[real, "ew_level"] = pairs[:, 0], pairs[:, 1]
    return sets


def assert_same_as_in_memory(paths, out, **options):
    scored = score_files(paths, out, **options)
    whole = score(load_results(paths).sets, **options)
    for name in OUTPUT_NAMES:
        written = read_output(out, name)
        pd.testing.assert_frame_equal(written, getattr(whole, name), check_dtype=False,
                                      check_categorical=False)
        pd.testing.assert_frame_equal(getattr(scored, name), getattr(whole, name))
    assert scored.warnings == whole.warnings


@settings(max_examples=25, deadline=None)
@given(events().filter(len).map(reachable), st.integers(1, 3), st.integers(1, 7),
       st.integers(0, 9))
def test_block_at_a_time_equals_all_at_once(tmp_path_factory, sets, files, row_group, seed):
    folder = tmp_path_factory.mktemp("split")
    assert_same_as_in_memory(write_split(sets, folder, files, row_group, seed), folder / "out")


def test_seeded_event_in_many_row_groups(tmp_path):
    paths = write_split(seeded_event(), tmp_path, 3, 17, 1)
    assert_same_as_in_memory(paths, tmp_path / "out", expected=14)


def test_rounds_accepted_the_short_way_or_the_full_way_score_alike(tmp_path):
    """Round 2's ids written with spaces around them go the full way (``results.clean``
    leaves them to it, and it strips them); every other round goes the short way. The files
    written are those of the same event written plainly."""
    sets = seeded_event()
    plain = write_split(sets, tmp_path, 1, 40, 0)
    spaced = sets.copy()
    second = spaced["round"] == 2
    spaced.loc[second, "north"] = " " + spaced.loc[second, "north"] + "\u3000"
    spaced_paths = [tmp_path / "spaced.parquet"]
    pq.write_table(as_file_table(spaced), spaced_paths[0], row_group_size=40)
    score_files(plain, tmp_path / "plain", expected=14)
    score_files(spaced_paths, tmp_path / "spaced", expected=14)
    for name in OUTPUT_NAMES:
        assert pq.read_table(tmp_path / "spaced" / f"{name}.parquet").equals(
            pq.read_table(tmp_path / "plain" / f"{name}.parquet"))


def test_a_set_played_in_two_rounds_links_them_into_one_block(tmp_path):
    sets = seeded_event()
    sets.loc[sets["set"] == 6, "set"] = 1  # round 3 replays set 1 of round 1
    paths = write_split(sets, tmp_path, 2, 11, 2)
    assert layout(paths).blocks == ((1, 2, 3), (4,))
    assert_same_as_in_memory(paths, tmp_path / "out")


def test_round_blocks_chain_through_shared_sets():
    rounds = np.array([1, 2, 2, 3, 4, 5, 6])
    sets = np.array([1, 2, 9, 9, 3, 4, 3])
    assert round_blocks(rounds, sets) == [[1], [2, 3], [4, 5, 6]]


def write_by_round(sets: pd.DataFrame, path, **options) -> list:
    """One row group a round, rows in round order (as a platform writes a night's event)."""
    table = as_file_table(sets.sort_values(["round", "set", "table"]))
    with pq.ParquetWriter(path, table.schema, **options) as writer:
        for round_no in sorted(set(table["round"].to_pylist())):
            writer.write_table(table.filter(pc.equal(table["round"], round_no)))
    return [path]


def test_layout_from_statistics_reads_no_round_or_set(tmp_path, monkeypatch):
    paths = write_by_round(seeded_event(), tmp_path / "r.parquet")
    read = layout(paths)
    monkeypatch.setattr(pq.ParquetFile, "read_row_group", None)  # any read would fail
    assert layout(paths) == read
    assert read.blocks == ((1,), (2,), (3,), (4,))
    assert [rounds for _, rounds in read.row_groups[0]] == [{1}, {2}, {3}, {4}]


def test_without_statistics_the_round_and_set_columns_are_read(tmp_path):
    stated = layout(write_by_round(seeded_event(), tmp_path / "stated.parquet"))
    bare = layout(write_by_round(seeded_event(), tmp_path / "bare.parquet",
                                 write_statistics=False))
    assert (bare.row_groups, bare.blocks) == (stated.row_groups, stated.blocks)


def test_rounds_whose_set_spans_overlap_are_read_to_see_if_they_share_a_set(tmp_path):
    sets = seeded_event()
    sets.loc[sets["set"] == 2, "set"] = 11  # round 1: sets 1, 3 and 11, spanning every round's
    paths = write_by_round(sets, tmp_path / "r.parquet")
    assert layout(paths).blocks == ((1,), (2,), (3,), (4,))
    sets.loc[sets["set"] == 4, "set"] = 3  # and round 2 now replays set 3 of round 1
    paths = write_by_round(sets, tmp_path / "shared.parquet")
    assert layout(paths).blocks == ((1, 2), (3,), (4,))
    assert_same_as_in_memory(paths, tmp_path / "out")


@pytest.mark.parametrize("round_no", [0, 2**31])
def test_a_folder_round_out_of_range_is_named_as_a_round_folder_naming_no_round(
        tmp_path, round_no):
    folder = tmp_path / "results" / f"round={round_no}"
    folder.mkdir(parents=True)
    table = as_file_table(seeded_event().query("round == 1"))
    pq.write_table(table.drop_columns(["round"]), folder / "part.0.parquet")
    assert layout([tmp_path / "results"]) is None
    with pytest.raises(InvalidResultsError) as streamed:
        score_files([tmp_path / "results"], tmp_path / "out")
    assert str(streamed.value).endswith(
        f"  {folder}: value 'round={round_no}': a partition folder is named round=N, N a "
        "round number from 1 to 2147483647")


def test_problems_in_several_rounds_and_files_are_all_reported_as_at_once(tmp_path):
    sets = seeded_event()
    paths = write_split(sets, tmp_path, 2, 13, 3)
    for path, row in ((paths[0], 3), (paths[1], 40)):  # a bad level in round 1 and round 4
        table = pq.read_table(path)
        levels = table["ns_level"].to_pylist()
        levels[row] = "Z"
        pq.write_table(table.set_column(table.column_names.index("ns_level"), "ns_level",
                                        pa.array(levels)), path, row_group_size=13)
    with pytest.raises(InvalidResultsError) as whole:
        load_results(paths)
    (tmp_path / "out").mkdir()
    with pytest.raises(InvalidResultsError) as streamed:
        score_files(paths, tmp_path / "out")
    assert str(streamed.value) == str(whole.value)
    assert len(streamed.value.problems) >= 2
    assert list((tmp_path / "out").iterdir()) == []


def test_files_not_readable_a_round_at_a_time_are_read_whole(tmp_path):
    path = tmp_path / "r.parquet"
    table = as_file_table(seeded_event())
    rounds = table["round"].to_pylist()
    rounds[5] = None  # a missing round: reported as load_results reports it
    pq.write_table(table.set_column(0, "round", pa.array(rounds, pa.int64())), path)
    assert layout([path]) is None
    with pytest.raises(InvalidResultsError, match="round"):
        score_files([path], tmp_path / "out")


def test_issue20_each_output_is_synced_once_before_the_three_renames(tmp_path, monkeypatch):
    paths = write_split(seeded_event(), tmp_path, 2, 17, 1)
    events = record_writes(monkeypatch)
    score_files(paths, tmp_path / "out", expected=14)
    outputs = [inode(tmp_path / "out" / f"{name}.parquet") for name in OUTPUT_NAMES]
    first_rename = next(i for i, e in enumerate(events) if e[0] == "replace")
    assert sorted(e[1] for e in events[:first_rename] if e[0] == "sync file") == sorted(outputs)
    assert events[first_rename:] == [
        *[("replace", file, tmp_path / "out" / f"{name}.parquet")
          for file, name in zip(outputs, OUTPUT_NAMES, strict=True)],
        ("sync dir", inode(tmp_path / "out")),
    ]


@pytest.mark.parametrize("failure", ["a row group", "a sync"])
def test_issue20_a_failed_write_leaves_the_old_outputs_and_no_temporary_file(
    tmp_path, monkeypatch, failure
):
    sets = seeded_event()
    out = tmp_path / "out"
    score_files(write_split(sets, tmp_path, 1, 40, 0), out, expected=14)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    paths = write_split(sets[sets["round"] < 3], tmp_path, 2, 17, 1)
    if failure == "a row group":
        appended, append = [], files.append_row_group

        def second_fails(writer, table):  # the first row group written, the next one not
            appended.append(table)
            if len(appended) == 2:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            append(writer, table)

        monkeypatch.setattr(files, "append_row_group", second_fails)
    else:
        disk_full(monkeypatch, after=1)
    with pytest.raises(OSError, match="No space left"):
        score_files(paths, out, expected=14)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
