"""Variable artificial results: the better of the fixed rate and the player's own average.

The bridge "average plus" practice (SPEC 10): a player who could not play a set through no
fault of theirs keeps their own standard if it is better than the fixed rate. Partners may
then score differently on the same set, so this works on the per-player scores, after the
tables are rated. The average is exact (fractions), over the player's real results in the
rounds up to and including the set's round.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from ..errors import GuandanError

_KEY = ["round", "table", "set"]


def variable_rates(scores: pd.DataFrame, variable: pd.DataFrame) -> pd.DataFrame:
    """``scores`` with the rows of the artificial results in ``variable`` (columns round,
    table, set) raised to the player's own average where that is better."""
    marked = scores[_KEY].merge(variable[_KEY].drop_duplicates(), how="left", indicator=True)
    chosen = np.flatnonzero((marked["_merge"] == "both").to_numpy()
                            & scores["adjusted"].notna().to_numpy())
    if not len(chosen):
        return scores
    real = scores[scores["adjusted"].isna()]
    rates = {p: list(zip(g["round"], g["rate_num"], g["rate_den"], strict=True))
             for p, g in real.groupby("player", sort=False)}
    out = scores.copy()
    num, den = out["rate_num"].to_numpy().copy(), out["rate_den"].to_numpy().copy()
    for i in chosen:
        row = scores.iloc[i]
        own = [Fraction(int(n), int(d)) for r, n, d in rates.get(row["player"], [])
               if r <= row["round"]]
        rate = max(Fraction(int(num[i]), int(den[i])), sum(own) / len(own) if own else 0)
        if rate.denominator >= 2**62:
            raise GuandanError(f"player {row['player']!r}: the average for a variable "
                               "artificial result does not fit 64 bits")
        num[i], den[i] = rate.numerator, rate.denominator
    out["rate_num"], out["rate_den"] = num, den
    out["score_rate"] = num / den
    return out
