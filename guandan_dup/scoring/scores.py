"""Per-player scores: each table's result spread to its four players (SPEC 6).

Both partners of a direction get that direction's rate; EW's score is -D. Rows keep the
table order of the travellers, seats in the order N, E, S, W. The text columns (player,
seat, direction, adjusted) are Arrow dictionaries built from integer codes (see
``players``; pandas reads them as categoricals), and the keys int32: 50 bytes a row, not 100,
and the Parquet file gets dictionaries without hashing a string.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from ..arrays import filled, strings, to_numpy
from .outputs import coded, floats, nullable, output_table

_DIRECTION_OF_SEAT = np.array([0, 1, 0, 1], dtype=np.int8)  # N E S W -> NS EW
_SEATS, _DIRECTIONS = strings(["N", "E", "S", "W"]), strings(["NS", "EW"])
# A file's column type is its first block's, so the ids' codes have one width for any block:
# the narrowest for the first round's players could not hold a bigger later round's.
_PLAYER_CODES = pa.int32()


def _each_seat(values: np.ndarray) -> np.ndarray:
    """A table's value for each of its four seats, rows in table order."""
    return np.repeat(values, 4)


def _by_seat(ns: np.ndarray, ew: np.ndarray) -> np.ndarray:
    """NS's value for seats N and S, EW's for E and W, rows in table order."""
    return np.stack([ns, ew, ns, ew], axis=1).ravel()


def _adjusted(travellers: pa.Table) -> pa.DictionaryArray:
    """Each seat's artificial-result code (its direction's), null for real results."""
    both = pa.chunked_array(
        [chunk for c in ("ns_adjusted", "ew_adjusted")
         for chunk in travellers[c].cast(pa.large_string()).chunks],
        type=pa.large_string(),
    ).dictionary_encode().combine_chunks()
    codes = filled(both.indices, -1).reshape(2, -1)
    return coded(_by_seat(codes[0], codes[1]), both.dictionary)


def seat_rates(travellers: pa.Table) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each seat's rate, rows in table order, seats N E S W (the scores' rows): its exact
    numerator and denominator and its float (``rate_num``, ``rate_den``, ``score_rate``)."""
    ns_rate, ew_rate = (to_numpy(travellers[c]) for c in ("ns_rate", "ew_rate"))
    ns_num, ew_num = (to_numpy(travellers[c]) for c in ("ns_rate_num", "ew_rate_num"))
    return (_by_seat(ns_num, ew_num), _each_seat(to_numpy(travellers["rate_den"])),
            _by_seat(ns_rate, ew_rate))


def player_scores(travellers: pa.Table, names: pa.Array, codes: np.ndarray) -> pa.Table:
    """One row per player per table-set (``outputs.SCORES_DTYPES``), from the travellers of
    ``rates.rate_tables``; ``codes`` index each seat's player in ``names`` (table by table,
    seats N E S W, as ``players.encode_seats`` gives them)."""
    count = travellers.num_rows
    d = filled(travellers["ns_score"], 0)
    missing = to_numpy(travellers["ns_score"].is_null())
    num, den, rate = seat_rates(travellers)
    return output_table("scores", {
        **{c: _each_seat(to_numpy(travellers[c]).astype(np.int32))
           for c in ("round", "group", "set", "table")},
        "player": coded(codes, names, _PLAYER_CODES),
        "seat": coded(np.tile(np.arange(4, dtype=np.int8), count), _SEATS),
        "direction": coded(np.tile(_DIRECTION_OF_SEAT, count), _DIRECTIONS),
        "adjusted": _adjusted(travellers),
        "score": nullable(_by_seat(d, -d), _each_seat(missing), "Int8"),
        "score_rate": floats(rate),
        "rate_num": num,
        "rate_den": den,
    })
