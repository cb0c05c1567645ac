"""``guandan-dup score`` goes from Arrow to Parquet without pandas: each output table is the
one pyarrow makes of the frame it stands for (the same types and the same pandas metadata,
so the files are byte for byte what the frames would write and pandas reads back the same
dtypes), and scoring a sound event never imports pandas (a third of a second of every run)."""

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scoring_support import PAIRS, as_file_table, seeded_event

from guandan_dup.arrays import filled, strings, to_arrow, to_numpy
from guandan_dup.levels import LEVEL_NAMES
from guandan_dup.results import validate_sets
from guandan_dup.scoring.files import OUTPUT_NAMES, read_output, score_files
from guandan_dup.scoring.outputs import OPTIONAL, empty_table, pandas_version, to_frame
from guandan_dup.scoring.rounds import score_block
from guandan_dup.scoring.standings import Standings


def one_round(tables: int, artificial: bool, round_no: int = 1, seed: int = 1):
    """A round of two sets at ``tables`` tables (4 x ``tables`` players), as normalised."""
    rng = np.random.default_rng(seed)
    rows = []
    for set_no in (2 * round_no - 1, 2 * round_no):
        for table in range(1, tables + 1):
            ns, ew = PAIRS[rng.integers(0, len(PAIRS))]
            adjusted = "A+/A-" if artificial and table % 5 == 0 else None
            rows.append({"round": round_no, "group": 1, "table": table, "set": set_no,
                         **{seat: f"p{4 * table + i}" for i, seat in
                            enumerate(("north", "east", "south", "west"))},
                         "ns_level": None if adjusted else LEVEL_NAMES[ns],
                         "ew_level": None if adjusted else LEVEL_NAMES[ew], "adjusted": adjusted})
    return validate_sets(pd.DataFrame(rows)).sets


def pandas_metadata(table: pa.Table, codes: pa.Schema) -> dict:
    """The pandas metadata of ``table``, categorical codes as wide as in ``codes``."""
    metadata = json.loads(table.schema.metadata[b"pandas"])
    for column in metadata["columns"]:
        if column["pandas_type"] == "categorical":
            column["numpy_type"] = str(codes.field(column["name"]).type.index_type)
    return metadata


@pytest.mark.parametrize(("tables", "artificial"), [(5, True), (5, False), (40, True),
                                                    (9000, True)])
def test_each_output_is_the_table_of_its_frame(tables, artificial):
    # 20, 160 and 36,000 players: pandas codes them in int8, int16 and int32; the scores
    # file always in int32 (``scores._PLAYER_CODES``), which pandas reads back the same
    done = score_block(one_round(tables, artificial))
    standings = [Standings().add(sums) for sums in done.sums]
    for table in (done.travellers, done.scores, *standings):
        made = pa.Table.from_pandas(to_frame(table), preserve_index=False)
        assert table.equals(made.cast(table.schema))
        assert pandas_metadata(table, table.schema) == pandas_metadata(made, table.schema)


@pytest.mark.parametrize("name", OUTPUT_NAMES)
def test_an_empty_output_is_the_table_of_its_frame(name):
    empty = empty_table(name)
    made = pa.Table.from_pandas(to_frame(empty), preserve_index=False)
    assert empty.equals(made.cast(empty.schema), check_metadata=True)


def test_only_the_columns_that_may_be_empty_are_nullable_in_the_files(tmp_path):
    """The files declare every other column required (no definition levels to write); an
    event with artificial results and byes has empty cells in exactly the optional ones."""
    pq.write_table(as_file_table(seeded_event()), tmp_path / "results.parquet")
    score_files([tmp_path / "results.parquet"], tmp_path / "out")
    for name in OUTPUT_NAMES:
        written = pq.read_table(tmp_path / "out" / f"{name}.parquet")
        nullable = {field.name for field in written.schema if field.nullable}
        assert nullable == OPTIONAL[name]
        assert {c for c in written.column_names if written[c].null_count} <= nullable


def test_a_later_round_may_have_more_players_than_the_first(tmp_path):
    # 100 players, then 200: the ids' codes of both rounds fit the file's type
    sets = pd.concat([one_round(25, False), one_round(50, True, round_no=2)])
    pq.write_table(as_file_table(sets), tmp_path / "results.parquet")
    scored = score_files([tmp_path / "results.parquet"], tmp_path / "out")
    written = read_output(tmp_path / "out", "scores")
    assert scored.rounds == (1, 2)
    assert written["player"].nunique() == 200
    assert written["player"].tolist() == scored.scores["player"].tolist()


def test_the_metadata_names_the_installed_pandas_as_importlib_does():
    # Read from pandas' dist-info beside the package, not by importlib.metadata's search.
    from importlib.metadata import version

    assert pandas_version() == version("pandas") == pd.__version__


def test_scoring_a_sound_event_never_imports_pandas(tmp_path):
    pq.write_table(as_file_table(seeded_event()), tmp_path / "results.parquet")
    code = (
        "import sys\n"
        "from guandan_dup.cli import main\n"
        "sys.argv = ['guandan-dup', 'score', sys.argv[1], '--out', sys.argv[2], '--quiet']\n"
        "try:\n    main()\nexcept SystemExit as end:\n    assert not end.code, end.code\n"
        "assert 'pandas' not in sys.modules, 'pandas was imported'\n"
    )
    subprocess.run([sys.executable, "-c", code, str(tmp_path / "results.parquet"),
                    str(tmp_path / "out")], check=True, capture_output=True)
    assert pq.read_table(tmp_path / "out" / "scores.parquet").num_rows


numbers = st.lists(st.tuples(st.integers(-2**63, 2**63 - 1), st.booleans()), max_size=40)


@given(numbers, st.integers(0, 40))
def test_numbers_go_to_arrow_and_back_as_pyarrow_takes_them(rows, start):
    values = np.array([v for v, _ in rows], np.int64)
    missing = np.array([m for _, m in rows], bool)
    got = to_arrow(values, missing)
    assert got.equals(pa.array(values, mask=missing))
    assert np.array_equal(filled(got.slice(start), 7), np.where(missing, 7, values)[start:])
    assert np.array_equal(to_numpy(to_arrow(values).slice(start)), values[start:])


@given(st.lists(st.booleans(), max_size=40), st.integers(0, 40))
def test_flags_go_to_arrow_and_back_as_pyarrow_takes_them(flags, start):
    flags = np.array(flags, bool)
    assert to_arrow(flags).equals(pa.array(flags))
    assert np.array_equal(to_numpy(pa.array(flags).slice(start)), flags[start:])
    chunked = pa.chunked_array([pa.array(flags), pa.array(flags)])
    assert np.array_equal(to_numpy(chunked), np.r_[flags, flags])


@given(st.lists(st.text(max_size=5), max_size=10))
def test_strings_are_large_strings(words):
    assert strings(words).equals(pa.array(words, pa.large_string()))
