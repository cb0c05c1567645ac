"""Per-player scores: each table's result spread to its four players (SPEC 6).

Both partners of a direction get that direction's rate; EW's score is -D. Rows keep the
table order of the travellers, seats in the order N, E, S, W. Strings are moved as Arrow
arrays (a take, never Python objects): two million rows build in a fraction of a second.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..seats import SEAT_COLUMNS

SCORES_COLUMNS = (
    "round", "group", "set", "table", "player", "seat", "direction", "adjusted", "score",
    "score_rate", "rate_num", "rate_den",
)
_SEAT_IS_NS = np.array([True, False, True, False])  # N E S W


def _text(indices: np.ndarray, words: list[str]) -> pd.Series:
    """A string column from small integer codes, without making a Python string per row."""
    coded = pa.DictionaryArray.from_arrays(pa.array(indices), pa.array(words))
    return coded.cast(pa.string()).to_pandas()


def _arrow(series: pd.Series) -> pa.Array:
    """The column as one Arrow array (pandas may hold it in several chunks)."""
    array = pa.array(series)
    return array.combine_chunks() if isinstance(array, pa.ChunkedArray) else array


def player_scores(travellers: pd.DataFrame) -> pd.DataFrame:
    """One row per player per table-set, from the travellers of ``rates.rate_tables``."""
    count = len(travellers)
    ns = np.tile(_SEAT_IS_NS, count)

    def each(column: str, dtype=np.int64) -> np.ndarray:
        return np.repeat(travellers[column].to_numpy(dtype), 4)

    def by_seat(ns_column: str, ew_column: str) -> np.ndarray:
        ns_values, ew_values = travellers[ns_column].to_numpy(), travellers[ew_column].to_numpy()
        return np.stack([ns_values, ew_values, ns_values, ew_values], axis=1).ravel()

    seat_major = (np.arange(4 * count) % 4) * count + np.repeat(np.arange(count), 4)
    players = pa.concat_arrays(
        [_arrow(travellers[c]).cast(pa.large_string()) for c in SEAT_COLUMNS]
    ).take(pa.array(seat_major))
    rows = pa.array(np.repeat(np.arange(count), 4))
    adjusted = pc.if_else(
        pa.array(ns),
        _arrow(travellers["ns_adjusted"]).take(rows),
        _arrow(travellers["ew_adjusted"]).take(rows),
    )
    d = travellers["ns_score"].to_numpy(np.int8, na_value=0)
    return pd.DataFrame({
        **{c: each(c) for c in ("round", "group", "set", "table")},
        "player": players.to_pandas(),
        "seat": _text(np.tile(np.arange(4, dtype=np.int8), count), ["N", "E", "S", "W"]),
        "direction": _text((~ns).astype(np.int8), ["NS", "EW"]),
        "adjusted": adjusted.to_pandas(),
        "score": pd.arrays.IntegerArray(
            np.stack([d, -d, d, -d], axis=1).ravel(),
            np.repeat(travellers["ns_score"].isna().to_numpy(), 4)),
        "score_rate": by_seat("ns_rate", "ew_rate"),
        "rate_num": by_seat("ns_rate_num", "ew_rate_num"),
        "rate_den": each("rate_den"),
    }, copy=False)


def rates_by_player(travellers: pd.DataFrame) -> pd.DataFrame:
    """The columns ``standings`` needs (round, player, score_rate, rate_num, rate_den), one
    row per player per table-set, seat by seat: cheap to build (no interleaving), so the
    standings can be computed while ``player_scores`` builds the full table."""
    ns_ew = ("ns", "ew", "ns", "ew")
    return pd.DataFrame({
        "round": np.tile(travellers["round"].to_numpy(np.int64), 4),
        "player": pd.concat([travellers[c] for c in SEAT_COLUMNS], ignore_index=True),
        "score_rate": np.concatenate([travellers[f"{d}_rate"].to_numpy() for d in ns_ew]),
        "rate_num": np.concatenate([travellers[f"{d}_rate_num"].to_numpy() for d in ns_ew]),
        "rate_den": np.tile(travellers["rate_den"].to_numpy(np.int64), 4),
    }, copy=False)
