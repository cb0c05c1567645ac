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


def _by_lot(pair: np.ndarray, ids: pa.Array, seed: int | str | bytes) -> np.ndarray:
    """The order of tied players: by ``pair``, then by lot, then by id where two lots are
    equal (a chance of 2**-64 for two players: the ids are only sorted then)."""
    lots = draw_lots(seed, ids.to_pylist())
    order = np.lexsort((lots, pair))
    drawn_twice = (np.diff(pair[order]) == 0) & (np.diff(lots[order]) == 0)
    if not drawn_twice.any():
        return order
    return np.lexsort((pc.rank(ids, tiebreaker="first").to_numpy(), lots, pair))


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
        order = np.argsort(pair)
        same = pair[order[1:]] == pair[order[:-1]]
        slots = np.flatnonzero(np.r_[False, same] | np.r_[same, False])
        if len(slots):
            tied = order[slots]
            order[slots] = tied[_by_lot(pair[tied], names.take(pa.array(who[tied])), seed)]
        position[start + order] = np.arange(1, stop - start + 1)
        placed[start:stop] = start + order
        previous = np.full(len(previous), len(names) + 1, np.int64)
        previous[who] = position[start:stop]
    return placed, position


def _exact_keys(
    rates: tuple[np.ndarray, np.ndarray, np.ndarray],
    ends: np.ndarray,
    r: np.ndarray,
    p: np.ndarray,
    sets: np.ndarray,
    approx: np.ndarray,
    bounds: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Keys ordering each round's players by exact cumulative average (equal keys for exact
    ties; round i's keys lie in ``bounds[i]:bounds[i + 1]``) and the float shown for each.

    ``rates`` are each rate's (player, numerator, denominator), rounds in order, those of the
    rounds up to i being ``[:ends[i]]``. Each round is taken apart: its averages read only the
    rates so far, whose denominators need fewer primes than the whole event's.
    """
    key, shown = np.empty(len(r), np.int64), np.empty(len(r))
    for i, (start, stop) in enumerate(zip(bounds[:-1], bounds[1:], strict=True)):
        rows = slice(start, stop)
        by_value = value_order(r[rows], approx[rows])
        maybe = maybe_equal(r[rows], approx[rows], by_value)
        residues, chosen = average_residues(
            *(column[:ends[i]] for column in rates), p[rows][maybe], sets[rows][maybe])
        order_key, shown[rows] = exact_order(
            r[rows], approx[rows], maybe, residues, chosen, by_value)
        key[rows] = start + order_key
    return key, shown


def standings(
    scores: pd.DataFrame,
    names: pa.Array,
    players: np.ndarray,
    seed: int | str | bytes = 0,
    previous_positions: Mapping[str, int] | pd.Series | None = None,
) -> pd.DataFrame:
    """Standings after each round present in ``scores`` (from ``scores.player_scores``: rows
    by round), with the player ids ``names`` and each row's player code ``players``.

    ``previous_positions`` (player -> position) breaks ties in the first round present, e.g.
    the positions after the round before it; players not in it come after those who are.
    """
    if scores.empty:
        return pd.DataFrame({c: pd.Series(dtype="int64") for c in STANDINGS_COLUMNS})
    round_of_row = scores["round"].to_numpy(np.int64)
    ends = np.r_[np.flatnonzero(round_of_row[1:] != round_of_row[:-1]) + 1, len(round_of_row)]
    rounds = round_of_row[ends - 1]
    rate = scores["score_rate"].to_numpy()
    each_round = list(zip(np.r_[0, ends[:-1]], ends, strict=True))  # rows are by round
    counts = np.stack(
        [np.bincount(players[a:b], minlength=len(names)) for a, b in each_round], axis=1)
    sums = np.stack(
        [np.bincount(players[a:b], rate[a:b], len(names)) for a, b in each_round], axis=1)
    cum_counts, cum_sums = counts.cumsum(axis=1), sums.cumsum(axis=1)

    r, p = np.nonzero(cum_counts.T > 0)  # every player from their first round on, by round
    sets = cum_counts[p, r]
    bounds = np.searchsorted(r, np.arange(len(rounds) + 1))
    rates = (players, scores["rate_num"].to_numpy(), scores["rate_den"].to_numpy())
    key, cumulative = _exact_keys(
        rates, ends, r, p, sets, cum_sums[p, r] / sets, bounds)  # ties show alike
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
