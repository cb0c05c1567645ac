"""Standings after every round: averages, shared ranks, "1=" labels and a strict position.

Ties are decided on exact values: every rate is an integer numerator over an integer
denominator (see ``rates``), and ``exact`` compares the averages built from them exactly with
int64 arithmetic; the float averages in the output are for display only.

``Standings`` is the running state of an event, fed one round at a time: per player a set
count, a float sum and the exact sum as residues (``exact``). A round comes as a
``RoundSums`` (what a worker of the Dask engine returns for its partition): integer sums per
player of that round alone. Adding it and ranking cost O(players), so R rounds cost
O(players x R), and no earlier round is read again.

Players appear in a round's standings from their first set on; a player with no set in a
round (a bye) keeps their cumulative average, with ``round_avg`` left empty. Players are
integer codes: a round's ids are found among the event's by a hash table kept across rounds
(``known.KnownIds``: Arrow's ``index_in`` built one of the event's ids again every round,
0.4-0.7 s at 800,000 players), and ids are otherwise taken only for the output and for the
lots (once each: the lot is the player's for the whole event).

A lot is ``lots.draw_lots``: SHA-256 by ``hashlib``, one call a player, some 1.2 s for
800,000 players. The lots of the players new in a round are drawn on a thread of their own
as soon as they are coded, while the round's averages are compared, and waited for only
where the players left tied after the previous position are ordered (the values are the
same: a player's lot does not depend on when it is drawn). A numpy SHA-256 over all players
at once (one 64-byte block each, checked bit for bit against ``hashlib``) took as long, so
it was not kept.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..arrays import to_arrow, to_numpy
from ..lots import draw_lots
from ..ranking import standing_ranks
from .exact import (
    add_scaled,
    exact_order,
    extend,
    maybe_equal,
    primes,
    primes_for,
    rate_sums,
    value_order,
)
from .kernel import per_player
from .known import KnownIds, found
from .outputs import STANDINGS_DTYPES, empty_table, floats, output_table
from .players import text

if TYPE_CHECKING:
    import pandas as pd

STANDINGS_COLUMNS = tuple(STANDINGS_DTYPES)


@dataclass(frozen=True)
class RoundSums:
    """One round's integer sums per player: ``names`` (the round's distinct player ids),
    ``counts`` and float ``sums`` of their rates (in row order), and their exact sums as
    ``residues`` modulo ``chosen`` primes over the round's common denominator ``scale``."""

    round: int
    names: pa.Array
    counts: np.ndarray
    sums: np.ndarray
    scale: int
    residues: np.ndarray
    chosen: tuple[int, ...]


def round_sums(round_no: int, names: pa.Array, codes: np.ndarray, num: np.ndarray,
               den: np.ndarray, rate: np.ndarray) -> RoundSums:
    """The ``RoundSums`` of a round's per-player rates (``codes`` index ``names``)."""
    counts, sums = per_player(codes, rate, len(names))
    most = int(counts.max()) if len(counts) else 0
    scale, residues, chosen = rate_sums(codes, num, den, len(names), most)
    return RoundSums(round_no, names, counts, sums, scale, residues, chosen)


def _lots(seed: int | str | bytes, ids: pa.Array, chunk: int = 65536) -> np.ndarray:
    """``draw_lots`` for Arrow ids, a slice at a time: the ids and digests of a few hundred
    thousand players as Python objects would take some 70 MB at once."""
    return np.concatenate([draw_lots(seed, ids.slice(start, chunk).to_pylist())
                           for start in range(0, len(ids), chunk)] or [np.zeros(0, np.uint64)])


class Standings:
    """The standings of an event so far; ``add`` a round's sums, then ``table`` it."""

    def __init__(self, seed: int | str | bytes = 0,
                 previous_positions: Mapping[str, int] | pd.Series | None = None):
        self.seed, self.first_previous = seed, previous_positions
        self.known = KnownIds()
        self.counts = np.zeros(0, np.int64)
        self.sums = np.zeros(0)
        self.scale, self.chosen = 1, ()
        self.residues = np.zeros((0, 0), np.int64)
        self.previous = np.zeros(0, np.int64)  # position after the last round; 0: none
        self.lots = np.zeros(0, np.uint64)
        self.drawn = np.zeros(0, bool)
        self.drawing: list[tuple[int, Future]] = []  # (first code, its lots) being drawn

    def _codes(self, names: pa.Array) -> np.ndarray:
        """Event-wide codes of a round's player ids; players new to the event are added."""
        where = self.known.codes(names)
        if len(self.known.names) > len(self.counts):
            start = len(self.counts)
            self._grow(len(self.known.names) - start)
            self._draw(start)
        return where

    def _draw(self, start: int) -> None:
        """Draw the lots of the players from code ``start`` on, on a thread of their own:
        the ranking needs them only at its end, for the players left tied."""
        drawing = ThreadPoolExecutor(max_workers=1)
        self.drawing.append((start, drawing.submit(_lots, self.seed, self.names.slice(start))))
        drawing.shutdown(wait=False)

    def _drawn(self) -> None:
        """Wait for the lots being drawn and keep them."""
        for start, lots in self.drawing:
            drawn = lots.result()
            self.lots[start:start + len(drawn)] = drawn
            self.drawn[start:start + len(drawn)] = True
        self.drawing = []

    @property
    def names(self) -> pa.Array:
        """The event's player ids so far, by code."""
        return self.known.names

    def _grow(self, more: int) -> None:
        self.counts = np.r_[self.counts, np.zeros(more, np.int64)]
        self.sums = np.r_[self.sums, np.zeros(more)]
        self.residues = np.c_[self.residues, np.zeros((len(self.chosen), more), np.int64)]
        self.previous = np.r_[self.previous, np.zeros(more, np.int64)]
        self.lots = np.r_[self.lots, np.zeros(more, np.uint64)]
        self.drawn = np.r_[self.drawn, np.zeros(more, bool)]

    def add(self, part: RoundSums) -> pa.Table:
        """Add a round (rounds in order) and return its standings, rows by position (an
        Arrow table; ``outputs.to_frame`` gives the frame)."""
        codes = self._codes(part.names)
        self.counts[codes] += part.counts
        self.sums[codes] += part.sums
        scale = math.lcm(self.scale, part.scale)
        count = max(len(self.chosen), primes_for(int(self.counts.max()) * scale))
        self.residues = extend(self.residues, self.chosen, count)
        add_scaled(self.residues, scale // self.scale, extend(part.residues, part.chosen, count),
                   scale // part.scale, codes, primes(count))
        self.chosen, self.scale = primes(count), scale
        round_avg = np.full(len(self.names), np.nan)  # by code; empty for a bye
        played = part.counts > 0
        round_avg[codes[played]] = part.sums[played] / part.counts[played]
        return self._table(part.round, round_avg)

    def _exact_keys(self, who: np.ndarray, approx: np.ndarray):
        """Keys ordering the players ``who`` by exact cumulative average (equal keys for
        exact ties, larger for larger), the float shown for each (alike for a tie) and the
        order of ``approx`` (ascending: the keys' order but for near ties)."""
        groups = np.zeros(len(who), np.int64)
        order = value_order(groups, approx)
        maybe = maybe_equal(groups, approx, order)
        chosen, rows = self.chosen, who[maybe]
        sets = self.counts[rows]
        common = math.lcm(*np.unique(sets).tolist()) if len(rows) else 1
        count = max(len(chosen), primes_for(common * self.scale))
        residues = extend(self.residues[:, rows], chosen, count)
        chosen = primes(count)
        per_sets, sets_at = np.unique(sets, return_inverse=True)
        for i, prime in enumerate(chosen):
            factor = np.array([common // k % prime for k in per_sets.tolist()], np.int64)
            residues[i] = residues[i] * factor[sets_at] % prime
        return *exact_order(groups, approx, maybe, residues, chosen, order), order

    def _table(self, round_no: int, round_avg: np.ndarray) -> pa.Table:
        who = np.flatnonzero(self.counts > 0)  # every player from their first round on
        sets = self.counts[who]
        key, cumulative, by_value = self._exact_keys(who, self.sums[who] / sets)
        order = self._positions(who, key, by_value)
        del by_value  # some twenty arrays a player are alive here: free each when done
        rank, rank_label = standing_ranks(key[order])
        del key
        ranked = who[order]
        self.previous[:] = 0
        self.previous[ranked] = np.arange(1, len(who) + 1)
        return output_table("standings", {
            "round": np.full(len(who), round_no, np.int64),
            "player": text(ranked, self.names),
            "sets": sets[order].astype(np.int64),
            "round_avg": floats(round_avg[ranked]),
            "cumulative": cumulative[order],
            "rank": rank,
            "rank_label": rank_label,
            "position": np.arange(1, len(who) + 1, dtype=np.int64),
        })

    def _before(self, who: np.ndarray) -> np.ndarray:
        """Each player's place before this round, 1, 2, ...; ``len(names) + 1`` if none."""
        unplaced = len(self.names) + 1
        if self.previous.any() or self.first_previous is None:
            return np.where(self.previous[who] > 0, self.previous[who], unplaced)
        import pandas as pd  # positions given by a caller (an event's earlier standings)

        known = pd.Series(self.first_previous, dtype="float64")
        at = found(self.names.take(to_arrow(who)),
                    pa.array(known.index.astype("str"), pa.large_string()))
        place = np.full(len(who), np.nan)
        place[at >= 0] = known.to_numpy()[at[at >= 0]]
        code = pd.factorize(place, sort=True)[0]
        return np.where(code >= 0, code + 1, unplaced)

    def _positions(self, who: np.ndarray, key: np.ndarray, by_value: np.ndarray) -> np.ndarray:
        """The strict order of ``who``: exact average, then the previous round's position,
        then the lot, then the player id. Lots are used only for players whose average and
        previous position are both equal (usually only in the first round).

        ``by_value`` (ascending averages) reversed is nearly in order already, and a stable
        sort (a merge of runs) of a nearly sorted array is some 50 times quicker than a sort
        of a shuffled one. The order within equal ``pair`` is left to ``_by_lot``."""
        pair = (key.max() - key) * (len(self.names) + 2) + self._before(who)
        order = by_value[::-1]
        order = order[np.argsort(pair[order], kind="stable")]
        same = pair[order[1:]] == pair[order[:-1]]
        slots = np.flatnonzero(np.r_[False, same] | np.r_[same, False])
        if len(slots):
            tied = order[slots]
            order[slots] = tied[self._by_lot(pair[tied], who[tied])]
        return order

    def _by_lot(self, pair: np.ndarray, players: np.ndarray) -> np.ndarray:
        """The order of tied players: by ``pair``, then by lot, then by id where two lots are
        equal (a chance of 2**-64 for two players: the ids are only sorted then)."""
        self._drawn()
        fresh = players[~self.drawn[players]]
        if len(fresh):
            self.lots[fresh] = _lots(self.seed, self.names.take(to_arrow(fresh)))
            self.drawn[fresh] = True
        lots = self.lots[players]
        order = np.lexsort((lots, pair))
        drawn_twice = (np.diff(pair[order]) == 0) & (np.diff(lots[order]) == 0)
        if not drawn_twice.any():
            return order
        ids = self.names.take(to_arrow(players))
        return np.lexsort((to_numpy(pc.rank(ids, tiebreaker="first")), lots, pair))


def empty_standings() -> pa.Table:
    """The standings of an event with no round yet: the columns, no rows."""
    return empty_table("standings")
