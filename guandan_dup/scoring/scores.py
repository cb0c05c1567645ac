"""Per-player scores: each table's result spread to its four players (SPEC 6).

Both partners of a direction get that direction's rate; EW's score is -D. Rows keep the
table order of the travellers, seats in the order N, E, S, W.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..seats import SEAT_COLUMNS

SCORES_COLUMNS = (
    "round", "group", "set", "table", "player", "seat", "direction", "adjusted", "score",
    "score_rate", "matchpoints", "top", "rate_num", "rate_den",
)
_NS = np.array([True, False, True, False])  # N E S W


def player_scores(travellers: pd.DataFrame) -> pd.DataFrame:
    """One row per player per table-set, from the travellers of ``rates.rate_tables``."""
    rows = np.repeat(np.arange(len(travellers)), 4)
    ns = np.tile(_NS, len(travellers))
    take = travellers.take(rows).reset_index(drop=True)
    players = travellers[list(SEAT_COLUMNS)].to_numpy(object).ravel()

    def by_side(ns_column: str, ew_column: str) -> pd.Series:
        return take[ns_column].where(ns, take[ew_column])

    return pd.DataFrame({
        "round": take["round"],
        "group": take["group"],
        "set": take["set"],
        "table": take["table"],
        "player": pd.array(players, dtype="str"),
        "seat": pd.array(np.tile(np.array(["N", "E", "S", "W"]), len(travellers)), dtype="str"),
        "direction": pd.array(np.where(ns, "NS", "EW"), dtype="str"),
        "adjusted": by_side("ns_adjusted", "ew_adjusted"),
        "score": take["ns_score"].where(ns, -take["ns_score"]).astype("Int8"),
        "score_rate": by_side("ns_rate", "ew_rate"),
        "matchpoints": by_side("ns_matchpoints", "ew_matchpoints"),
        "top": take["top"],
        "rate_num": by_side("ns_rate_num", "ew_rate_num"),
        "rate_den": take["rate_den"],
    })
