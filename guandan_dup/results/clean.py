"""A block of set-level results accepted the short way, when no check of ingestion would object.

Ingestion (``ingest._ingest``) reads each file into pandas, coerces every column, parses each
distinct text and checks rows, repeats, players and levels, keeping each row's file and row
number so that every problem can be named. At a national event nearly every block is sound,
and that path spends most of its time preparing to explain problems that are not there. So
``clean_block`` first looks at a block's Arrow tables with column operations only: when the
files are set-level Parquet in the plain types (integer numbers, text ids, levels written
exactly as ``LEVEL_NAMES``, canonical adjusted codes) and every check passes, it returns the
normalised set table ``_ingest`` would return (tests hold the two equal on random inputs),
with the players' codes: the ids are hashed once here, and scoring uses the codes. Columns
only, no frame: the table is Arrow, and neither this path nor scoring loads pandas.

Anything unusual (a problem, a repeated row, a type or a spelling the full path would coerce,
board-level rows) gives None, and the full path runs: it reports the problems, or accepts
the block with its warnings. So this module only ever has to say yes for certain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..arrays import distinct_ids, encode_ids, filled, scalar, strings, to_arrow, to_numpy
from ..levels import LEVEL_NAMES
from ..seats import SEAT_COLUMNS
from .masks import possible_levels, repeated
from .schema import LARGEST, NORMALISED_DTYPES, SET_LEVEL

_NUMBERS = ("round", "group", "table", "set")
# Python's whitespace (``str.isspace``, what ``str.strip`` takes off), as an RE2 class.
SPACE_CLASS = (r"[\t-\r\x{1c}-\x{20}\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}"
               r"\x{202f}\x{205f}\x{3000}]")
# Ids the full path would strip or find empty.
_NOT_AS_IS = f"^{SPACE_CLASS}|{SPACE_CLASS}$|^$"


@dataclass(frozen=True)
class CleanBlock:
    """A sound block: the normalised set table (as Arrow), the distinct player ids, each
    row's players as codes into them (rows of ``sets``, seats N E S W), and the ids'
    ``arrays.id_hashes`` if they were coded by them (scoring keeps the event's ids by them)."""

    sets: pa.Table
    players: pa.Array
    seats: np.ndarray
    hashes: np.ndarray | None = None


def clean_block(
    tables: Sequence[pa.Table], boards_per_set: int | None, three_failures_reset: bool,
    codes: tuple[str, ...],
) -> CleanBlock | None:
    """The block of ``tables`` (one per file, rows of the block's rounds) normalised, or None
    if the full ingestion must look at it (see the module docstring)."""
    parts = [_plain(table, codes) for table in tables if table.num_rows]
    if not parts or any(part is None for part in parts):
        return None
    table = pa.concat_tables(parts)
    number = {c: to_numpy(table[c]) for c in _NUMBERS}
    if not _in_order(number):  # files are usually written in this order already
        order = np.lexsort((number["table"], number["set"], number["round"]))
        table = table.take(to_arrow(order))
        number = {c: values[order] for c, values in number.items()}
    round_set = _round_sets(number)
    players, seats, first, hashes = _seat_codes(table, number, round_set)
    if not _as_is(players):  # every id is one of the distinct ones: a quarter to look at
        return None
    # Ids all distinct (``hashes``) seat no player twice in a set, at one table or two.
    if not ((hashes is not None or _seats_distinct(seats[first]))
            and _one_result_each(round_set, number["table"])
            and (hashes is not None or _one_table_each(round_set[first], seats[first],
                                                       len(players)))
            and _possible(table, possible_levels(boards_per_set, three_failures_reset,
                                                 (0, 0)))):
        return None
    return CleanBlock(_normalised(table, number, codes), players, seats, hashes)


def _plain(table: pa.Table, codes: tuple[str, ...]) -> pa.Table | None:
    """One file's rows in the block's common types, or None unless every column is plain and
    every cell acceptable as it stands."""
    names = set(table.column_names)
    if SET_LEVEL.required - names or names & {"board", "finish", "tiebreak"}:
        return None
    columns = {}
    for name in _NUMBERS:
        if name == "group" and name not in names:
            columns[name] = to_arrow(np.ones(table.num_rows, np.int64))
            continue
        column = table[name]
        if not pa.types.is_integer(column.type):
            return None
        if name == "group":
            column = pc.coalesce(column, scalar(1).cast(column.type))
        if column.null_count or pc.min(column).as_py() < 1 or pc.max(column).as_py() > LARGEST:
            return None
        columns[name] = column.cast(pa.int64())
    for name in SEAT_COLUMNS:
        column = _text(table[name])
        if column is None or column.null_count:
            return None
        columns[name] = column
    adjusted = _text(table["adjusted"]) if "adjusted" in names else pa.nulls(
        table.num_rows, pa.large_string())
    if adjusted is None or not _all(pc.is_in(adjusted.drop_null(), _pairs(codes))):
        return None
    artificial = adjusted.is_valid()
    for name in ("ns_level", "ew_level"):
        text = _text(table[name])
        if text is None:
            return None
        index = pc.index_in(text, strings(LEVEL_NAMES))
        # A real result has a known level; an artificial one has none at all.
        if not _all(pc.if_else(artificial, text.is_null(), index.is_valid())):
            return None
        columns[name] = index.cast(pa.int8())
    columns["adjusted"] = adjusted
    return pa.table(columns)


def _pairs(codes: tuple[str, ...]) -> pa.Array:
    """The artificial results a file may give: "NS/EW" of any two ``codes``."""
    return strings(f"{ns}/{ew}" for ns in codes for ew in codes)


def _all(mask: pa.ChunkedArray) -> bool:
    """Every value true (none at all counts as every)."""
    return pc.all(mask, min_count=0).as_py()


def _as_is(ids: pa.ChunkedArray) -> bool:
    """No id the full path would strip or find empty: letters and digits only is the quick
    answer (a tenth of the time); the whitespace pattern looks only at other ids."""
    return _all(pc.utf8_is_alnum(ids)) or not pc.any(
        pc.match_substring_regex(ids, _NOT_AS_IS)).as_py()


def _text(column: pa.ChunkedArray) -> pa.ChunkedArray | None:
    """A text column as large strings (a dictionary of text decoded; all-null allowed), or
    None for any other type."""
    kind = column.type.value_type if pa.types.is_dictionary(column.type) else column.type
    if pa.types.is_null(kind) or pa.types.is_string(kind) or pa.types.is_large_string(kind):
        return column.cast(pa.large_string())
    return None


def _seat_codes(table: pa.Table, number: dict[str, np.ndarray], round_set: np.ndarray):
    """The distinct ids, each row's codes (as ``encode_ids``), a mask of the rows whose
    seating was hashed, and the ids' ``id_hashes`` if no id repeats among those rows (else
    None). A round's later sets are usually played at the same tables by the same players
    as its first; such a set (same groups, tables and four ids, row by row) takes the codes
    of the first set's rows: comparing ids is a fraction of the cost of hashing them, and
    hashing was a third of a block's checks. The ids' order is unchanged: a repeated set
    adds no id that was not seen before it. A block seated once (one round whose sets share
    a seating, the usual block) is coded by ``distinct_ids``, without a hash table."""
    starts = np.flatnonzero(np.r_[True, round_set[1:] != round_set[:-1]])
    bounds = np.r_[starts, len(round_set)]
    copies: dict[int, int] = {}  # set of the block (by position) -> the earlier set it repeats
    first = 0
    for i in range(1, len(starts)):
        if number["round"][starts[i]] != number["round"][starts[first]] or not _same_seating(
                table, number, bounds[first:first + 2], bounds[i:i + 2]):
            first = i
        else:
            copies[i] = first
    hashed = np.ones(table.num_rows, bool)
    for i in copies:
        hashed[bounds[i]:bounds[i + 1]] = False
    spans = [(bounds[i], bounds[i + 1]) for i in range(len(starts)) if i not in copies]
    columns = [pa.chunked_array([chunk for a, b in spans
                                 for chunk in table[c].slice(a, b - a).chunks], table[c].type)
               for c in SEAT_COLUMNS]
    distinct = distinct_ids(columns) if len(spans) == 1 else None
    if distinct is None:
        (players, codes), hashes = encode_ids(columns), None
    else:
        players, hashes = distinct
        codes = np.arange(len(players), dtype=np.int32).reshape(len(SEAT_COLUMNS), -1).T
    seats = np.empty((table.num_rows, len(SEAT_COLUMNS)), codes.dtype)
    seats[hashed] = codes
    for i, like in copies.items():
        seats[bounds[i]:bounds[i + 1]] = seats[bounds[like]:bounds[like + 1]]
    return players, seats, hashed, hashes


def _same_seating(table: pa.Table, number: dict[str, np.ndarray], one, other) -> bool:
    """The rows ``one`` and ``other`` (start, stop) hold the same groups, tables and ids."""
    size = one[1] - one[0]
    if other[1] - other[0] != size:
        return False
    if not all(np.array_equal(number[c][one[0]:one[1]], number[c][other[0]:other[1]])
               for c in ("group", "table")):
        return False
    return all(_all(pc.equal(table[c].slice(one[0], size), table[c].slice(other[0], size)))
               for c in SEAT_COLUMNS)


def _in_order(number: dict[str, np.ndarray]) -> bool:
    """Rows sorted by round, then set, then table (a look at each pair of neighbours, a
    fifth of the time of sorting them to see)."""
    rounds, sets, tables = number["round"], number["set"], number["table"]
    same_round, same_set = rounds[1:] == rounds[:-1], sets[1:] == sets[:-1]
    return bool(((rounds[1:] > rounds[:-1])
                 | same_round & ((sets[1:] > sets[:-1]) | same_set & (tables[1:] >= tables[:-1])))
                .all())


def _possible(table: pa.Table, possible: np.ndarray) -> bool:
    """Every real result's pair of levels one a set can end with (``possible``, a mask by
    NS and EW level): the pairs counted, then looked up, not each row's looked up."""
    ns, ew = (filled(table[c], 0).astype(np.intp) for c in ("ns_level", "ew_level"))
    pairs = np.bincount(ns * len(possible) + ew, minlength=possible.size)
    pairs[0] -= table["ns_level"].null_count  # artificial results: no levels, counted as 0, 0
    return bool(possible.ravel()[pairs > 0].all())


def _seats_distinct(seats: np.ndarray) -> bool:
    """No player in two seats of one table."""
    return all((seats[:, i] != seats[:, j]).all() for i in range(4) for j in range(i + 1, 4))


def _round_sets(number: dict[str, np.ndarray]) -> np.ndarray:
    """Each row's (round, set) as 0, 1, ... (rows sorted by round, then set)."""
    rounds, sets = number["round"], number["set"]
    starts = np.r_[True, (rounds[1:] != rounds[:-1]) | (sets[1:] != sets[:-1])]
    return np.cumsum(starts) - 1


def _one_result_each(round_set: np.ndarray, tables: np.ndarray) -> bool:
    """No (round, table, set) given twice (the full path warns of a repeat or refuses it);
    rows sorted by round, set and table."""
    same = (round_set[1:] == round_set[:-1]) & (tables[1:] == tables[:-1])
    return not same.any()


def _one_table_each(round_set: np.ndarray, seats: np.ndarray, players: int) -> bool:
    """No player at two tables of one (round, set)."""
    keys = np.repeat(round_set, 4) * players + seats.ravel()
    return not repeated(keys).any()


def _normalised(table: pa.Table, number: dict[str, np.ndarray], codes: tuple[str, ...]
                ) -> pa.Table:
    """The normalised set table (``schema.NORMALISED_DTYPES``, as Arrow: what
    ``pa.Table.from_pandas`` makes of the frame) of sound sorted rows, whose artificial
    results are written with ``codes`` (each half taken by the pair's place among them)."""
    columns = {c: to_arrow(number[c]) for c in ("round", "group", "table", "set")}
    columns |= {c: table[c] for c in (*SEAT_COLUMNS, "ns_level", "ew_level", "adjusted")}
    pair = pc.index_in(table["adjusted"], _pairs(codes))
    columns["ns_adjusted"] = strings(ns for ns in codes for _ in codes).take(pair)
    columns["ew_adjusted"] = strings(ew for _ in codes for ew in codes).take(pair)
    columns["boards"] = pa.nulls(table.num_rows, pa.int16())
    return pa.table({c: columns[c] for c in NORMALISED_DTYPES})
