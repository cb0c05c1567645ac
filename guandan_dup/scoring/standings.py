"""Standings after every round: averages, shared ranks, "1=" labels and a strict position.

Ties are decided on exact values: every rate is an integer numerator over an integer
denominator (see ``rates``), and ``exact`` compares the averages built from them exactly with
int64 arithmetic; the float averages in the output are for display only.

Players appear in a round's standings from their first set on; a player with no set in a
round (a bye) keeps their cumulative average, with ``round_avg`` left empty.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .exact import average_residues, exact_order, maybe_equal

STANDINGS_COLUMNS = (
    "round", "player", "sets", "round_avg", "cumulative", "rank", "rank_label", "position",
)
_UNPLACED = 2**62  # sorts after every real position; exact as a float too


def draw_lots(seed: int | str | bytes, players: Sequence[str]) -> np.ndarray:
    """A reproducible lot per player: the first 8 bytes of SHA-256(label, seed, player id).

    Anyone holding the seed (or the event key, once revealed) can redraw it; no numpy
    generator is involved, so it never changes with a library version. Only players left tied
    after the previous position are drawn, so the hashing stays off the bulk of the data.

    Golden values (a change here changes seatings; regenerate only on purpose):

    >>> draw_lots(7, ["p1", "p2"]).tolist()
    [238574266247995435, 2208810121226127604]
    """
    secret = seed if isinstance(seed, bytes) else str(seed).encode()
    prefix = b"guandan-dup/lot\0" + secret + b"\0"
    digests = b"".join(hashlib.sha256(prefix + p.encode()).digest()[:8] for p in players)
    return np.frombuffer(digests, dtype=">u8").astype(np.uint64)


def _ranks(key: np.ndarray, round_code: np.ndarray, bounds: np.ndarray):
    """Rank (1 + players of the round with a greater average) and tie size, per row.

    Keys ascend with the round first (``exact.exact_order``), so the rows of round r with a
    key at most k are all rows with a key at most k, less the earlier rounds' rows.
    """
    size = np.bincount(key)
    through = np.cumsum(size)
    return bounds[round_code + 1] - through[key] + 1, size[key]


def _positions(
    bounds: np.ndarray,
    player: np.ndarray,
    key: np.ndarray,
    id_order: np.ndarray,
    uniques: pd.Index,
    previous: np.ndarray,
    seed: int | str | bytes,
) -> np.ndarray:
    """Strict order per round: exact average, then previous round's position, then the lot.

    Rows of round i are ``bounds[i]:bounds[i + 1]``. A loop over rounds, not rows: each
    round's tie-break needs the position just computed.
    """
    position = np.zeros(len(player), np.int64)
    for start, stop in zip(bounds[:-1], bounds[1:], strict=True):
        who = player[start:stop]
        before = previous[who]
        pair = key[start:stop] * (len(uniques) + 1) + np.minimum(before, len(uniques))
        tied = pd.Series(pair).duplicated(keep=False).to_numpy()
        lot = np.zeros(len(who), np.uint64)
        lot[tied] = draw_lots(seed, uniques.take(who[tied]).to_numpy(object).tolist())
        order = np.lexsort((id_order[who], lot, before, -key[start:stop]))
        position[start + order] = np.arange(1, len(who) + 1)
        previous = np.full(len(previous), _UNPLACED, np.int64)
        previous[who] = position[start:stop]
    return position


def standings(
    scores: pd.DataFrame,
    seed: int | str | bytes = 0,
    previous_positions: Mapping[str, int] | pd.Series | None = None,
) -> pd.DataFrame:
    """Standings after each round present in ``scores`` (columns round, player, rate_num, rate_den).

    ``previous_positions`` (player -> position) breaks ties in the first round present, e.g.
    the positions after the round before it; players not in it come after those who are.
    """
    if scores.empty:
        return pd.DataFrame({c: pd.Series(dtype="int64") for c in STANDINGS_COLUMNS})
    round_code, rounds = pd.factorize(scores["round"].to_numpy(np.int64), sort=True)
    player_code, uniques = pd.factorize(scores["player"])
    shape = (len(uniques), len(rounds))
    cell = player_code * shape[1] + round_code
    counts = np.bincount(cell, minlength=shape[0] * shape[1]).reshape(shape)
    sums = np.bincount(cell, scores["score_rate"].to_numpy(np.float64), counts.size)
    sums = sums.reshape(shape)
    cum_counts, cum_sums = counts.cumsum(axis=1), sums.cumsum(axis=1)

    r, p = np.nonzero(cum_counts.T > 0)  # every player from their first round on, by round
    sets = cum_counts[p, r]
    cumulative = cum_sums[p, r] / sets
    maybe = maybe_equal(r, cumulative)
    residues, chosen = average_residues(
        cell, scores["rate_num"].to_numpy(np.int64), scores["rate_den"].to_numpy(np.int64),
        shape, p[maybe], r[maybe], sets[maybe])
    key, cumulative = exact_order(r, cumulative, maybe, residues, chosen)  # ties show alike
    bounds = np.searchsorted(r, np.arange(shape[1] + 1))
    rank, equal = _ranks(key, r, bounds)

    played = counts[p, r]
    round_avg = np.where(played > 0, sums[p, r] / np.maximum(played, 1), np.nan)
    previous = np.full(len(uniques), _UNPLACED, np.int64)
    if previous_positions is not None:
        known = pd.Series(previous_positions, dtype="float64").reindex(uniques)
        previous = known.fillna(_UNPLACED).to_numpy(np.int64)
    id_order = np.argsort(uniques.argsort(), kind="stable")
    position = _positions(bounds, p, key, id_order, uniques, previous, seed)

    order = np.lexsort((position, r))
    labels = pd.Series(rank[order]).astype(str) + np.where(equal[order] > 1, "=", "")
    return pd.DataFrame({
        "round": rounds[r[order]],
        "player": uniques.take(p[order]).astype("str"),
        "sets": sets[order].astype(np.int64),
        "round_avg": round_avg[order],
        "cumulative": cumulative[order],
        "rank": rank[order],
        "rank_label": labels.astype("str").to_numpy(),
        "position": position[order],
    }, copy=False)
