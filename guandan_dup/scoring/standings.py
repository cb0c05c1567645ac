"""Standings after every round: averages, shared ranks, "1=" labels and a strict position.

Ties are decided on exact values: every rate is an integer numerator over an integer
denominator (see ``rates``), and ``exact`` compares the averages built from them exactly with
int64 arithmetic; the float averages in the output are for display only.

Players appear in a round's standings from their first set on; a player with no set in a
round (a bye) keeps their cumulative average, with ``round_avg`` left empty. Players are
integer codes throughout (``players.encode_seats``); ids are taken only for the output and
for the few players whose lot is drawn.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .exact import average_residues, exact_order, maybe_equal, value_order
from .players import text

STANDINGS_COLUMNS = (
    "round", "player", "sets", "round_avg", "cumulative", "rank", "rank_label", "position",
)


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
    prefixed = hashlib.sha256(b"guandan-dup/lot\0" + secret + b"\0")
    digests = []
    for player in players:  # one hash per tied player: no column operation computes SHA-256
        digest = prefixed.copy()
        digest.update(player.encode())
        digests.append(digest.digest()[:8])
    return np.frombuffer(b"".join(digests), dtype=">u8").astype(np.uint64)


def _ranks(key: np.ndarray, round_code: np.ndarray, bounds: np.ndarray):
    """Rank (1 + players of the round with a greater average) and tie size, per row.

    Keys ascend with the round first (``exact.exact_order``), so the rows of round r with a
    key at most k are all rows with a key at most k, less the earlier rounds' rows.
    """
    size = np.bincount(key)
    through = np.cumsum(size)
    return bounds[round_code + 1] - through[key] + 1, size[key]


def _first_previous(
    names: pa.Array, previous_positions: Mapping[str, int] | pd.Series | None
) -> np.ndarray:
    """Each player's place before the first round, as 1, 2, ... (equal positions given stay
    equal); ``len(names) + 1`` for players without one, who come after the others."""
    unplaced = np.full(len(names), len(names) + 1, np.int64)
    if previous_positions is None:
        return unplaced
    known = pd.Series(previous_positions, dtype="float64").reindex(names.to_pylist())
    code = pd.factorize(known.to_numpy(), sort=True)[0]
    return np.where(code >= 0, code + 1, unplaced)


def _positions(
    bounds: np.ndarray,
    player: np.ndarray,
    key: np.ndarray,
    names: pa.Array,
    previous: np.ndarray,
    seed: int | str | bytes,
) -> tuple[np.ndarray, np.ndarray]:
    """Strict order per round: exact average, then previous round's position, then the lot,
    then the player id. Returns the rows by round and position, and each row's position.

    Rows of round i are ``bounds[i]:bounds[i + 1]``. A loop over rounds, not rows: each
    round's tie-break needs the position just computed. Lots are drawn only for players
    whose average and previous position are both equal: usually only in the first round.
    """
    position = np.zeros(len(player), np.int64)
    placed = np.zeros(len(player), np.int64)
    for start, stop in zip(bounds[:-1], bounds[1:], strict=True):
        who, mine = player[start:stop], key[start:stop]
        pair = (mine.max() - mine) * (len(names) + 2) + previous[who]
        order = np.argsort(pair, kind="stable")
        same = pair[order[1:]] == pair[order[:-1]]
        slots = np.flatnonzero(np.r_[False, same] | np.r_[same, False])
        if len(slots):
            tied = order[slots]
            ids = names.take(pa.array(who[tied]))
            by_id = pc.rank(ids, tiebreaker="first").to_numpy()
            order[slots] = tied[np.lexsort((by_id, draw_lots(seed, ids.to_pylist()), pair[tied]))]
        position[start + order] = np.arange(1, stop - start + 1)
        placed[start:stop] = start + order
        previous = np.full(len(previous), len(names) + 1, np.int64)
        previous[who] = position[start:stop]
    return placed, position


def standings(
    travellers: pd.DataFrame,
    names: pa.Array,
    seats: np.ndarray,
    seed: int | str | bytes = 0,
    previous_positions: Mapping[str, int] | pd.Series | None = None,
) -> pd.DataFrame:
    """Standings after each round present in ``travellers`` (from ``rates.rate_tables``),
    with the player ids ``names`` and the (4, tables) ``seats`` codes of
    ``players.encode_seats``.

    ``previous_positions`` (player -> position) breaks ties in the first round present, e.g.
    the positions after the round before it; players not in it come after those who are.
    """
    if travellers.empty:
        return pd.DataFrame({c: pd.Series(dtype="int64") for c in STANDINGS_COLUMNS})
    round_code, rounds = pd.factorize(travellers["round"].to_numpy(np.int64), sort=True)
    shape = (len(names), len(rounds))
    cell = (seats.astype(np.int64) * shape[1] + round_code).ravel()  # seat by seat

    def by_seat(column: str) -> np.ndarray:
        ns, ew = travellers[f"ns_{column}"].to_numpy(), travellers[f"ew_{column}"].to_numpy()
        return np.concatenate([ns, ew, ns, ew])

    counts = np.bincount(cell, minlength=shape[0] * shape[1]).reshape(shape)
    sums = np.bincount(cell, by_seat("rate"), counts.size).reshape(shape)
    cum_counts, cum_sums = counts.cumsum(axis=1), sums.cumsum(axis=1)

    r, p = np.nonzero(cum_counts.T > 0)  # every player from their first round on, by round
    sets = cum_counts[p, r]
    cumulative = cum_sums[p, r] / sets
    by_value = value_order(r, cumulative)
    maybe = maybe_equal(r, cumulative, by_value)
    residues, chosen = average_residues(
        cell, by_seat("rate_num"), np.tile(travellers["rate_den"].to_numpy(np.int64), 4),
        shape, p[maybe], r[maybe], sets[maybe])
    key, cumulative = exact_order(r, cumulative, maybe, residues, chosen, by_value)
    bounds = np.searchsorted(r, np.arange(shape[1] + 1))
    rank, equal = _ranks(key, r, bounds)
    played = counts[p, r]
    round_avg = np.where(played > 0, sums[p, r] / np.maximum(played, 1), np.nan)
    placed, position = _positions(
        bounds, p, key, names, _first_previous(names, previous_positions), seed)

    rank = rank[placed]
    labels = pc.binary_join_element_wise(
        pc.cast(pa.array(rank), pa.string()), pc.if_else(pa.array(equal[placed] > 1), "=", ""), "")
    return pd.DataFrame({
        "round": rounds[r],
        "player": text(p[placed], names),
        "sets": sets[placed].astype(np.int64),
        "round_avg": round_avg[placed],
        "cumulative": cumulative[placed],
        "rank": rank,
        "rank_label": labels.to_pandas(),
        "position": position[placed],
    }, copy=False)
