"""The short way of accepting a sound block (``results.clean``) says yes only when the full
ingestion would accept the block without a word, and then gives exactly its table."""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guandan_dup.arrays import id_hashes
from guandan_dup.errors import InvalidResultsError
from guandan_dup.results.clean import SPACE_CLASS, clean_block
from guandan_dup.results.ingest import _ingest
from guandan_dup.results.load import read_table
from guandan_dup.results.schema import ADJUSTED_CODES
from guandan_dup.seats import SEAT_COLUMNS


def _sound(tables: int = 3, sets: int = 2, rounds: int = 1, moving: bool = True
           ) -> dict[str, list]:
    """A sound set-level block: every table plays every set, distinct players per set;
    players change seats between a round's sets unless not ``moving``."""
    rows: dict[str, list] = {c: [] for c in ("round", "group", "table", "set", *SEAT_COLUMNS,
                                             "ns_level", "ew_level", "adjusted")}
    for r in range(1, rounds + 1):
        for s in range(1, sets + 1):
            for t in range(1, tables + 1):
                rows["round"].append(r)
                rows["group"].append(1 + t % 2)
                rows["table"].append(t)
                rows["set"].append((r - 1) * sets + s)
                for i, seat in enumerate(SEAT_COLUMNS):
                    rows[seat].append(f"p{4 * (t - 1) + (i + s * moving) % 4}")
                rows["ns_level"].append(["A", "5", "2"][t % 3])
                rows["ew_level"].append(["2", "K", "10"][t % 3])
                rows["adjusted"].append(None)
    return rows


def _full(table: pa.Table, boards=None, codes=ADJUSTED_CODES):
    """The full ingestion's answer: (table, warnings), or the problems it raised."""
    try:
        done = _ingest([read_table(table, "f.parquet")], boards, False, codes)
    except InvalidResultsError as error:
        return error.problems
    return done.sets, done.warnings


def _agrees(table: pa.Table, boards=None, codes=ADJUSTED_CODES) -> bool:
    """Assert the two ways agree; True when the short way accepted the block."""
    clean = clean_block([table], boards, False, codes)
    full = _full(table, boards, codes)
    if clean is None:
        return False
    assert isinstance(full, tuple), full
    sets, warnings = full
    assert warnings == []
    # the frame as scoring reads it (``rounds.score_block`` makes Arrow of a frame)
    assert clean.sets.equals(pa.Table.from_pandas(sets, preserve_index=False))
    for i, seat in enumerate(SEAT_COLUMNS):
        assert clean.players.take(pa.array(clean.seats[:, i])).to_pylist() == sets[seat].tolist()
    return True


def test_a_sound_block_is_accepted_the_short_way_with_the_full_table():
    assert _agrees(pa.table(_sound(tables=5, sets=3, rounds=2)))


def test_sets_of_a_round_played_in_the_same_seats_share_their_codes():
    rows = _sound(tables=5, sets=3, rounds=2, moving=False)
    assert _agrees(pa.table(rows))
    seats = clean_block([pa.table(rows)], None, False, ADJUSTED_CODES).seats
    assert (seats[:5] == seats[5:10]).all() and (seats[:5] == seats[10:15]).all()


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 35), st.sampled_from(SEAT_COLUMNS + ("table", "group")),
       st.sampled_from(["p0", "p5", "p9", "p30", " p0", ""]), st.integers(1, 3))
def test_property_a_change_to_a_repeated_seating_is_seen(row, column, player, number):
    rows = _sound(tables=6, sets=3, rounds=2, moving=False)
    rows[column][row] = number if column in ("table", "group") else player
    _agrees(pa.table(rows))


def test_an_artificial_result_with_canonical_codes_is_accepted():
    rows = _sound()
    rows["ns_level"][1] = rows["ew_level"][1] = None
    rows["adjusted"][1] = "A+/A-"
    assert _agrees(pa.table(rows))


def test_group_may_be_missing_or_empty():
    rows = _sound()
    rows["group"] = [None] * len(rows["round"])
    assert _agrees(pa.table(rows, schema=None).set_column(
        1, "group", pa.array(rows["group"], pa.int64())))
    del rows["group"]
    assert _agrees(pa.table(rows))


UNUSUAL = [
    ("lowercase_level", lambda r: r["ns_level"].__setitem__(0, "a")),
    ("level_with_spaces", lambda r: r["ns_level"].__setitem__(0, " A")),
    ("ten_written_t", lambda r: r["ns_level"].__setitem__(0, "T")),
    ("unknown_level", lambda r: r["ew_level"].__setitem__(0, "Z")),
    ("missing_level", lambda r: r["ew_level"].__setitem__(0, None)),
    ("unreachable_levels", lambda r: (r["ns_level"].__setitem__(0, "A+"),
                                      r["ew_level"].__setitem__(0, "A+"))),
    ("id_with_trailing_space", lambda r: r["north"].__setitem__(0, "p0 ")),
    ("id_with_ideographic_space", lambda r: r["north"].__setitem__(0, "\u3000p0")),
    ("empty_id", lambda r: r["north"].__setitem__(0, "")),
    ("missing_id", lambda r: r["north"].__setitem__(0, None)),
    ("player_in_two_seats", lambda r: r["south"].__setitem__(0, r["north"][0])),
    ("player_at_two_tables", lambda r: r["north"].__setitem__(1, r["north"][0])),
    ("repeated_result", lambda r: [r[c].__setitem__(1, r[c][0]) for c in r]),
    ("repeated_key_other_players", lambda r: r["table"].__setitem__(1, r["table"][0])),
    ("adjusted_lowercase", lambda r: (r["adjusted"].__setitem__(0, "a+/a-"),
                                      r["ns_level"].__setitem__(0, None),
                                      r["ew_level"].__setitem__(0, None))),
    ("adjusted_unknown", lambda r: (r["adjusted"].__setitem__(0, "B/A"),
                                    r["ns_level"].__setitem__(0, None),
                                    r["ew_level"].__setitem__(0, None))),
    ("adjusted_with_levels", lambda r: r["adjusted"].__setitem__(0, "A/A")),
    ("table_zero", lambda r: r["table"].__setitem__(0, 0)),
    ("round_huge", lambda r: r["round"].__setitem__(0, 10**10)),
    ("set_missing", lambda r: r["set"].__setitem__(0, None)),
]


# Two sets seated apart (ids hashed by Arrow's dictionary), and one set (a block seated once:
# ids coded by their hashes, the seating checks taken from the hashes being distinct).
SHAPES = {"two_seatings": {}, "seated_once": {"sets": 1}}


@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
@pytest.mark.parametrize("change", [c for _, c in UNUSUAL], ids=[n for n, _ in UNUSUAL])
def test_anything_unusual_goes_the_full_way(change, shape):
    rows = _sound(**shape)
    change(rows)
    assert not _agrees(pa.table(rows))


@pytest.mark.parametrize("shape,hashed", [
    ({"sets": 1}, True),
    ({"sets": 3, "moving": False}, True),  # later sets seated as the first: one seating
    ({"sets": 3}, False),  # players move between sets: ids repeat, Arrow's dictionary
    ({"sets": 1, "rounds": 2}, False),  # two rounds in one block: ids repeat
])
def test_a_block_seated_once_is_coded_by_its_ids_hashes(shape, hashed):
    rows = _sound(tables=5, **shape)
    assert _agrees(pa.table(rows))
    clean = clean_block([pa.table(rows)], None, False, ADJUSTED_CODES)
    assert (clean.hashes is not None) == hashed
    if hashed:
        assert clean.hashes.tolist() == id_hashes(clean.players).tolist()


@pytest.mark.parametrize("column,values", [
    ("round", lambda v: v.cast(pa.float64())),
    ("north", lambda v: pa.array(range(100, 100 + len(v)))),
    ("ns_level", lambda v: pa.array([2] * len(v))),
])
def test_other_column_types_go_the_full_way(column, values):
    table = pa.table(_sound())
    table = table.set_column(table.column_names.index(column), column, values(table[column]))
    assert not _agrees(table)


def test_board_level_or_tiebreak_files_go_the_full_way():
    rows = _sound()
    assert clean_block([pa.table(rows | {"tiebreak": [None] * len(rows["round"])})],
                       None, False, ADJUSTED_CODES) is None
    assert clean_block([], None, False, ADJUSTED_CODES) is None


def test_levels_reachable_only_in_more_boards_than_a_set_has_go_the_full_way():
    rows = _sound()
    rows["ns_level"] = ["A"] * len(rows["round"])
    rows["ew_level"] = ["2"] * len(rows["round"])
    assert _agrees(pa.table(rows)) and not _agrees(pa.table(rows), boards=1)


def test_the_whitespace_class_is_pythons():
    spaces = [c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace()]
    table = pa.array(spaces + ["a", "\u200b"])
    found = pa.compute.match_substring_regex(table, f"^{SPACE_CLASS}$").to_pylist()
    assert found == [True] * len(spaces) + [False, False]


_ID = st.sampled_from(["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", " p1", "p1 ", "", None])
_LEVEL = st.sampled_from(["2", "3", "A", "A+", "K", "10", "T", "a", "Z", None])
_ADJUSTED = st.sampled_from([None, None, None, "A+/A-", "A/A", "a/a", "A+", "A-/A+"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(1, 2), st.sampled_from([None, 1, 2]), st.integers(1, 3),
                          st.integers(1, 2), _ID, _ID, _ID, _ID, _LEVEL, _LEVEL, _ADJUSTED),
                min_size=1, max_size=8),
       st.sampled_from([None, 1, 3]))
def test_property_the_short_way_accepts_only_what_the_full_way_accepts_silently(rows, boards):
    columns = ("round", "group", "table", "set", *SEAT_COLUMNS, "ns_level", "ew_level",
               "adjusted")
    table = pa.table({c: [row[i] for row in rows] for i, c in enumerate(columns)})
    table = table.set_column(1, "group", table["group"].cast(pa.int64()))
    _agrees(table, boards)


def test_property_sound_blocks_are_accepted_in_any_row_order():
    rows = pd.DataFrame(_sound(tables=6, sets=2, rounds=2))
    for seed in range(5):
        shuffled = rows.sample(frac=1, random_state=seed)
        assert _agrees(pa.Table.from_pandas(shuffled, preserve_index=False))
    assert np.unique(rows["table"]).size == 6
