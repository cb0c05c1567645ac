"""Per-player scores: each table's result spread to its four players (SPEC 6).

Both partners of a direction get that direction's rate; EW's score is -D. Rows keep the
table order of the travellers, seats in the order N, E, S, W. The text columns (player,
seat, direction, adjusted) are categoricals built from integer codes (see ``players``), and
the keys int32: 50 bytes a row, not 100, and the Parquet file gets dictionaries without
hashing a string.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import pyarrow as pa

from .players import arrow, categories

SCORES_COLUMNS = (
    "round", "group", "set", "table", "player", "seat", "direction", "adjusted", "score",
    "score_rate", "rate_num", "rate_den",
)
_DIRECTION_OF_SEAT = np.array([0, 1, 0, 1], dtype=np.int8)  # N E S W -> NS EW


def _each_seat(values: np.ndarray) -> np.ndarray:
    """A table's value for each of its four seats, rows in table order."""
    return np.broadcast_to(values[:, None], (len(values), 4)).ravel()


def _by_seat(ns: np.ndarray, ew: np.ndarray) -> np.ndarray:
    """NS's value for seats N and S, EW's for E and W, rows in table order."""
    return np.stack([ns, ew, ns, ew], axis=1).ravel()


def _adjusted(travellers: pd.DataFrame) -> pd.Categorical:
    """Each seat's artificial-result code (its direction's), null for real results."""
    both = pa.chunked_array(
        [arrow(travellers[c]).cast(pa.large_string()) for c in ("ns_adjusted", "ew_adjusted")],
        type=pa.large_string(),
    ).dictionary_encode().combine_chunks()
    codes = both.indices.fill_null(-1).to_numpy(zero_copy_only=False).reshape(2, -1)
    return categories(_by_seat(codes[0], codes[1]), both.dictionary)


def player_scores(
    travellers: pd.DataFrame, player: Callable[[], pd.Categorical | pd.Series]
) -> pd.DataFrame:
    """One row per player per table-set, from the travellers of ``rates.rate_tables``.

    ``player()`` gives the player id column (``players.encode_seats`` order); it is asked for
    last, so the ids can still be hashing on another core while the rest is built.
    """
    count = len(travellers)
    d = travellers["ns_score"].to_numpy(np.int8, na_value=0)
    columns = {
        **{c: _each_seat(travellers[c].to_numpy(np.int32))
           for c in ("round", "group", "set", "table")},
        "seat": categories(np.tile(np.arange(4, dtype=np.int8), count), ["N", "E", "S", "W"]),
        "direction": categories(np.tile(_DIRECTION_OF_SEAT, count), ["NS", "EW"]),
        "adjusted": _adjusted(travellers),
        "score": pd.arrays.IntegerArray(
            _by_seat(d, -d), _each_seat(travellers["ns_score"].isna().to_numpy())),
        "score_rate": _by_seat(travellers["ns_rate"].to_numpy(), travellers["ew_rate"].to_numpy()),
        "rate_num": _by_seat(travellers["ns_rate_num"].to_numpy(),
                             travellers["ew_rate_num"].to_numpy()),
        "rate_den": _each_seat(travellers["rate_den"].to_numpy(np.int64)),
    }
    columns["player"] = player()
    return pd.DataFrame({c: columns[c] for c in SCORES_COLUMNS}, copy=False)
