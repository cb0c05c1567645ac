"""Standings with penalties and with every registered player: slow, exact, obvious.

Penalties (SPEC 10, art. 51.3) come off a player's cumulative average, never off a set, so no
opponent's figure moves. From the first round a penalty is in force, ``exact_standings``
re-ranks every round with Python fractions (avg - points/100), so ties are decided exactly,
never by floats; the ranks, labels and strict positions follow the same rules as
``standings`` (exact value, previous position, lot, id). Penalties are rare, so the fast
path stays as it is for the rounds before.

``with_unplaced`` adds the registered players who have not played yet (a round-1 bye) to each
round, with 0 sets, after everyone who has: every registered player is in the standings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

import numpy as np
import pandas as pd

from ..lots import draw_lots
from ..ranking import standing_ranks
from .standings import STANDINGS_COLUMNS


def _points(penalties: pd.DataFrame) -> pd.DataFrame:
    """round, player, exact points (decimal text or numbers read through their text)."""
    return pd.DataFrame({
        "round": penalties["round"].astype("int64"),
        "player": penalties["player"].astype(str),
        "points": [Fraction(str(p)) for p in penalties["points"]],
    })


def penalty_through(penalties: pd.DataFrame, round_no: int) -> dict[str, Fraction]:
    """Each player's points in force after ``round_no`` (every penalty of rounds <= it)."""
    table = _points(penalties)
    total: dict[str, Fraction] = {}
    for player, points in zip(table.loc[table["round"] <= round_no, "player"],
                              table.loc[table["round"] <= round_no, "points"], strict=True):
        total[player] = total.get(player, Fraction(0)) + points
    return total


def _strict_order(ids: list[str], values: list, previous: Mapping[str, float], seed) -> list[int]:
    """Indices best first: value (higher first), previous position, lot, id."""
    lots = draw_lots(seed, ids) if ids else np.zeros(0, np.uint64)
    keys = [(-v, previous.get(p, float("inf")), int(lot), p)
            for p, v, lot in zip(ids, values, lots, strict=True)]
    return sorted(range(len(ids)), key=keys.__getitem__)


def exact_standings(
    scores: pd.DataFrame,
    rounds: Sequence[int],
    penalties: pd.DataFrame,
    seed,
    previous: Mapping[str, float],
) -> pd.DataFrame:
    """Standings after each of ``rounds`` (ascending) from ``scores``, exactly, with the
    ``penalty`` points in force; ``previous`` is each player's position before the first."""
    out = []
    totals: dict[str, Fraction] = {}
    counts_of: dict[str, int] = {}
    _accumulate(scores[scores["round"] < rounds[0]], totals, counts_of)
    for round_no in rounds:
        mine = scores[scores["round"] == round_no]
        _accumulate(mine, totals, counts_of)
        round_avg = mine.groupby("player")["score_rate"].mean()
        taken = penalty_through(penalties, round_no)
        ids = sorted(totals)
        values = [totals[p] / counts_of[p] - taken.get(p, Fraction(0)) / 100 for p in ids]
        rows = [(counts_of[p], round_avg.get(p, np.nan), float(v), float(taken.get(p, 0)))
                for p, v in zip(ids, values, strict=True)]
        order = _strict_order(ids, values, previous, seed)
        code = {v: k for k, v in enumerate(sorted(set(values), reverse=True))}  # exact
        ranks, labels = standing_ranks(np.array([code[values[i]] for i in order], np.int64))
        for position, (i, rank, label) in enumerate(
                zip(order, ranks.tolist(), labels.to_pylist(), strict=True), start=1):
            sets, average, cumulative, penalty = rows[i]
            out.append((round_no, ids[i], sets, average, cumulative, rank, label, position,
                        penalty))
        previous = {ids[i]: p for p, i in enumerate(order, start=1)}
    return _frame(out)


def _accumulate(rows: pd.DataFrame, totals: dict, counts: dict) -> None:
    """Add ``rows``' exact rates to each player's running total and set count (summed per
    denominator first, so each Fraction addition covers many sets)."""
    by_den = rows.groupby(["player", "rate_den"])["rate_num"].agg(["sum", "size"])
    for (player, den), total, size in zip(by_den.index, by_den["sum"], by_den["size"],
                                          strict=True):
        totals[player] = totals.get(player, Fraction(0)) + Fraction(int(total), int(den))
        counts[player] = counts.get(player, 0) + int(size)


def _frame(rows: list[tuple]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=[*STANDINGS_COLUMNS, "penalty"])
    return frame.astype({"round": "int64", "sets": "int64", "rank": "int64",
                         "position": "int64", "round_avg": "float64", "cumulative": "float64",
                         "penalty": "float64", "player": "str", "rank_label": "str"})


def with_penalties(
    standings: pd.DataFrame,
    scores: pd.DataFrame,
    penalties: pd.DataFrame,
    seed,
    previous_positions: Mapping[str, int] | pd.Series | None,
) -> pd.DataFrame:
    """``standings`` with a ``penalty`` column (points taken off, 0 for most) and every round
    from the first penalty on re-ranked by ``exact_standings``."""
    rounds = sorted(set(standings["round"]))
    charged = _points(penalties)
    charged = charged[charged["points"] != 0]
    first = [r for r in rounds if (charged["round"] <= r).any()]
    if not first:
        return standings.assign(penalty=0.0)
    kept = standings[standings["round"] < first[0]].assign(penalty=0.0)
    if len(kept):
        last = kept[kept["round"] == kept["round"].max()]
        previous = dict(zip(last["player"], last["position"].astype(float), strict=True))
    else:
        previous = {} if previous_positions is None else {
            str(p): float(v) for p, v in dict(previous_positions).items() if pd.notna(v)}
    redone = exact_standings(scores, first, penalties, seed, previous)
    return pd.concat([kept, redone], ignore_index=True)


def with_unplaced(
    standings: pd.DataFrame,
    players: Sequence[str],
    seed,
    previous_positions: Mapping[str, int] | pd.Series | None,
    penalties: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Every registered player in every round's standings: those with no set yet come last
    with 0 sets and no average, sharing one rank, in the order of the previous round (the
    seeding before round 1), then the lot; their ``penalty`` is the points in force."""
    previous = {} if previous_positions is None else _positions(previous_positions)
    frames = []
    for round_no, table in standings.groupby("round", sort=True):
        missing = sorted(set(map(str, players)) - set(table["player"].tolist()))
        order = _strict_order(missing, [0] * len(missing), previous, seed)
        ranks, labels = standing_ranks(np.zeros(len(missing), np.int64), above=len(table))
        extra = pd.DataFrame({
            "round": round_no, "player": [missing[i] for i in order], "sets": 0,
            "round_avg": np.nan, "cumulative": np.nan, "rank": ranks,
            "rank_label": labels.to_pylist(),
            "position": range(len(table) + 1, len(table) + 1 + len(missing)),
        })
        if "penalty" in table:
            taken = {} if penalties is None else penalty_through(penalties, round_no)
            extra["penalty"] = [float(taken.get(p, 0)) for p in extra["player"]]
        both = pd.concat([table, extra.astype(table.dtypes.to_dict())], ignore_index=True)
        frames.append(both)
        previous = dict(zip(both["player"].tolist(), both["position"].astype(float).tolist(),
                            strict=True))
    return pd.concat(frames, ignore_index=True) if frames else standings


def _positions(previous_positions: Mapping[str, int] | pd.Series) -> dict[str, float]:
    """Player -> previous position as floats, the missing ones left out, by whole columns
    (element by element took 9 s for a million players)."""
    known = pd.Series(previous_positions if isinstance(previous_positions, pd.Series)
                      else dict(previous_positions), dtype="object").dropna()
    return dict(zip(known.index.astype(str).tolist(), known.astype(float).tolist(),
                    strict=True))
