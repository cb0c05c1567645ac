"""Standings after every round: averages, shared ranks, "1=" labels and a strict position.

Ties are decided on exact values: every rate is an integer numerator over an integer
denominator (see ``rates``), and ``exact`` compares the averages built from them exactly with
int64 arithmetic; the float averages in the output are for display only.

``Standings`` is the running state of an event, fed one round at a time: per player a set
count, a float sum and the exact total as residues (``totals.Totals``: each round's kept as
it came, added up only for the players whose float averages are too close to order). A
round comes as a ``RoundSums`` (what a worker of the Dask engine returns for its partition):
integer sums per player of that round alone. Adding it and ranking cost O(players), so R
rounds cost O(players x R), and no earlier round is read again.

Players appear in a round's standings from their first set on; a player with no set in a
round (a bye) keeps their cumulative average, with ``round_avg`` left empty. Players are
integer codes: a round's ids are found among the event's by a hash table kept across rounds
(``known.KnownIds``: Arrow's ``index_in`` built one of the event's ids again every round,
0.4-0.7 s at 800,000 players; the ids' hashes come with the round, made where it was
checked or scored), and ids are otherwise taken only for the output and for the lots (once each: the
lot is the player's for the whole event).

A round is ranked in value order: the players sorted once by float average, the exact keys
found along that order (``exact.sorted_keys``: residues gathered only for the players
within 1e-12 of a neighbour, and multiplied to a common count of sets only when their
counts differ), the strict order by one stable sort of (key, previous position), nearly
sorted already. When every player so far has played, the state's arrays are used as they
are, not gathered. ``rank`` returns the numbers (``Ranked``); its table, whose ids and rank
labels are a string per player, is made by ``Ranked.table``, which the ``score`` command
calls on the standings file's writing thread: the next round waits only for the numbers.

A lot is ``lots.draw_lots``: SHA-256 by ``hashlib``, one call a player, some 0.6 s for
800,000 players. The lots of the players new in a round are drawn on a thread of their own
as soon as they are coded, while the round's averages are compared, and waited for only
where the players left tied after the previous position are ordered (the values are the
same: a player's lot does not depend on when it is drawn). A lot is needed only inside such
a tie, but in a first round nearly everyone is in one (800,000 players with 2 sets: 1,566
distinct averages; 400,000 with 4 sets: 160,950), so every new player's lot is drawn at
once; in the later rounds of those events no tie reaches the lot. A numpy SHA-256 over all
players at once (one 64-byte block each, checked bit for bit against ``hashlib``) took as
long, so it was not kept.
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

from ..arrays import id_hashes, to_arrow, to_numpy
from ..lots import draw_lots
from ..ranking import standing_ranks
from .exact import primes, primes_for, rate_sums, reduce, sorted_keys
from .kernel import per_player
from .known import KnownIds, found
from .outputs import STANDINGS_DTYPES, empty_table, floats, output_table
from .players import text
from .totals import Totals

if TYPE_CHECKING:
    import pandas as pd

STANDINGS_COLUMNS = tuple(STANDINGS_DTYPES)


@dataclass(frozen=True)
class RoundSums:
    """One round's integer sums per player: ``names`` (the round's distinct player ids),
    ``counts`` and float ``sums`` of their rates (in row order), their exact sums as
    ``residues`` modulo ``chosen`` primes over the round's common denominator ``scale``, and
    the ids' ``known.id_hashes`` (None if they cannot be hashed so), made where the round is
    scored so that the ranking does not wait for them."""

    round: int
    names: pa.Array
    counts: np.ndarray
    sums: np.ndarray
    scale: int
    residues: np.ndarray
    chosen: tuple[int, ...]
    hashes: np.ndarray | None = None


def round_sums(round_no: int, names: pa.Array, codes: np.ndarray, num: np.ndarray,
               den: np.ndarray, rate: np.ndarray, hashes: np.ndarray | None = None
               ) -> RoundSums:
    """The ``RoundSums`` of a round's per-player rates (``codes`` index ``names``);
    ``hashes``, the names' ``id_hashes`` if ingestion made them, or they are made here."""
    codes = codes.astype(np.intp, copy=False)  # numpy counts by intp: once, not per count
    counts, sums = per_player(codes, rate, len(names))
    most = int(counts.max()) if len(counts) else 0
    scale, residues, chosen = rate_sums(codes, num, den, len(names), most)
    names = names.cast(pa.large_string())
    return RoundSums(round_no, names, counts, sums, scale, residues, chosen,
                     id_hashes(names) if hashes is None else hashes)


def _lots(seed: int | str | bytes, ids: pa.Array, chunk: int = 65536) -> np.ndarray:
    """``draw_lots`` for Arrow ids, a slice at a time: the ids and digests of a few hundred
    thousand players as Python objects would take some 70 MB at once."""
    return np.concatenate([draw_lots(seed, ids.slice(start, chunk).to_pylist())
                           for start in range(0, len(ids), chunk)] or [np.zeros(0, np.uint64)])


@dataclass(frozen=True)
class Ranked:
    """A round's standings as the ranking decided them: ``players`` (codes into ``names``)
    and their ``sets`` by position; ``round_avg`` by code; the exact-average ``keys`` and
    shown ``cumulative`` averages in value order, and ``at``, each position's place in that
    order. ``table`` makes the output table, its text columns (ids, rank labels) included:
    the ``score`` command makes it on the standings file's writing thread, not the ranking's.
    """

    round: int
    names: pa.Array
    players: np.ndarray
    sets: np.ndarray
    round_avg: np.ndarray
    keys: np.ndarray
    cumulative: np.ndarray
    at: np.ndarray

    @property
    def num_rows(self) -> int:
        return len(self.players)

    def table(self) -> pa.Table:
        """The round's standings table, rows by position."""
        rank, labels = standing_ranks(self.keys[self.at])
        return output_table("standings", {
            "round": np.full(self.num_rows, self.round, np.int64),
            "player": text(self.players, self.names),
            "sets": self.sets,
            "round_avg": floats(self.round_avg[self.players]),
            "cumulative": self.cumulative[self.at],
            "rank": rank,
            "rank_label": labels,
            "position": np.arange(1, self.num_rows + 1, dtype=np.int64),
        })


class Standings:
    """The standings of an event so far; ``add`` a round's sums, then ``table`` it."""

    def __init__(self, seed: int | str | bytes = 0,
                 previous_positions: Mapping[str, int] | pd.Series | None = None):
        self.seed, self.first_previous = seed, previous_positions
        self.known = KnownIds()
        self.counts = np.zeros(0, np.int64)
        self.sums = np.zeros(0)
        self.totals = Totals()
        self.previous = np.zeros(0, np.int64)  # position after the last round; 0: none
        self.lots = np.zeros(0, np.uint64)
        self.drawn = np.zeros(0, bool)
        self.drawing: list[tuple[int, Future]] = []  # (first code, its lots) being drawn

    def _codes(self, part: RoundSums) -> np.ndarray:
        """Event-wide codes of a round's player ids; players new to the event are added."""
        where = self.known.codes(part.names, part.hashes)
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
        self.previous = np.r_[self.previous, np.zeros(more, np.int64)]
        self.lots = np.r_[self.lots, np.zeros(more, np.uint64)]
        self.drawn = np.r_[self.drawn, np.zeros(more, bool)]

    def add(self, part: RoundSums) -> pa.Table:
        """Add a round (rounds in order) and return its standings, rows by position (an
        Arrow table; ``outputs.to_frame`` gives the frame)."""
        return self.rank(part).table()

    def rank(self, part: RoundSums) -> Ranked:
        """Add a round (rounds in order) and rank it; ``Ranked.table`` gives its table."""
        codes = self._codes(part)
        self.counts[codes] += part.counts
        self.sums[codes] += part.sums
        self.totals.add(codes, part.residues, part.chosen, part.scale, len(self.names),
                        int(self.counts.max()))
        round_avg = np.full(len(self.names), np.nan)  # by code; empty for a bye
        played = part.counts > 0
        if played.all():
            round_avg[codes] = part.sums / part.counts
        else:
            round_avg[codes[played]] = part.sums[played] / part.counts[played]
        return self._ranked(part.round, round_avg)

    def _ranked(self, round_no: int, round_avg: np.ndarray) -> Ranked:
        """Every player from their first round on, ranked. When every player so far has
        played (an online event's rounds after the first) the state's own arrays are used,
        not a copy of each."""
        who = None if self.counts.all() else np.flatnonzero(self.counts > 0)
        sets = self.counts if who is None else self.counts[who]
        averages = (self.sums if who is None else self.sums[who]) / sets
        order = np.argsort(averages)
        codes = order if who is None else who[order]  # the players in value order
        keys, cumulative = sorted_keys(averages[order], lambda at: self._residues(codes[at]))
        del averages, order, sets
        at = self._positions(codes, keys)
        ranked = codes[at]
        if who is not None:
            self.previous[:] = 0
        self.previous[ranked] = np.arange(1, len(ranked) + 1)
        return Ranked(round_no, self.names, ranked, self.counts[ranked], round_avg, keys,
                      cumulative, at)

    def _residues(self, rows: np.ndarray) -> tuple[np.ndarray, tuple[int, ...]]:
        """The residues of the exact cumulative averages of players ``rows`` (codes), over
        one common denominator, and their primes: their exact sums times the lcm of their set
        counts over each one's count (when all have played as many sets, their sums)."""
        sets = self.counts[rows]
        one = bool((sets == sets[0]).all())
        per_sets, sets_at = (sets[:1], None) if one else np.unique(sets, return_inverse=True)
        common = math.lcm(*per_sets.tolist())
        count = primes_for(common * self.totals.scale)
        residues, chosen = self.totals.at(rows, count), primes(count)
        if one:  # a common count: the sums compare as they are
            return residues, chosen
        for i, prime in enumerate(chosen):
            factor = np.array([common // k % prime for k in per_sets.tolist()], np.int64)
            residues[i] = reduce(residues[i] * factor[sets_at], prime)
        return residues, chosen

    def _before(self, codes: np.ndarray) -> np.ndarray:
        """Each player's place before this round, 1, 2, ...; ``len(names) + 1`` if none."""
        unplaced = len(self.names) + 1
        if self.previous.any() or self.first_previous is None:
            placed = self.previous[codes]
            return placed if placed.min(initial=1) > 0 else np.where(placed > 0, placed, unplaced)
        import pandas as pd  # positions given by a caller (an event's earlier standings)

        known = pd.Series(self.first_previous, dtype="float64")
        at = found(self.names.take(to_arrow(codes)),
                   pa.array(known.index.astype("str"), pa.large_string()))
        place = np.full(len(codes), np.nan)
        place[at >= 0] = known.to_numpy()[at[at >= 0]]
        code = pd.factorize(place, sort=True)[0]
        return np.where(code >= 0, code + 1, unplaced)

    def _positions(self, codes: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """The strict order of the players ``codes`` (in value order, ``keys`` their exact
        keys) as places in that order, best first: exact average, then the previous round's
        position, then the lot, then the player id. Lots are used only for players whose
        average and previous position are both equal (usually only in the first round).

        Value order reversed is nearly in order already, and a stable sort (a merge of runs)
        of a nearly sorted array is some 50 times quicker than a sort of a shuffled one. The
        order within equal ``pair`` is left to ``_by_lot``."""
        pair = (keys.max() - keys) * (len(self.names) + 2) + self._before(codes)
        descending = pair[::-1]
        order = np.argsort(descending, kind="stable")
        ordered = descending[order]
        same = ordered[1:] == ordered[:-1]
        at = len(pair) - 1 - order
        slots = np.flatnonzero(np.r_[False, same] | np.r_[same, False])
        if len(slots):
            tied = at[slots]
            at[slots] = tied[self._by_lot(pair[tied], codes[tied])]
        return at

    def _by_lot(self, pair: np.ndarray, players: np.ndarray) -> np.ndarray:
        """The order of tied players, given by ascending ``pair``: by ``pair``, then by lot,
        then by id where two lots are equal (a chance of 2**-64 for two players: the ids are
        only sorted then).

        One sort of 64-bit keys, each the number of its ``pair`` among the distinct ones
        followed by its lot's leading bits, is some seven times quicker than ``lexsort``
        (800,000 players tied in round 1: 25 against 180 ms). Where every key differs from
        the others, their order is that of (pair, whole lot); where two are equal (lots alike
        in their leading bits), the players are sorted by (pair, lot, id) instead."""
        self._drawn()
        fresh = players[~self.drawn[players]]
        if len(fresh):
            self.lots[fresh] = _lots(self.seed, self.names.take(to_arrow(fresh)))
            self.drawn[fresh] = True
        lots = self.lots[players]
        group = np.r_[0, np.cumsum(pair[1:] != pair[:-1])].astype(np.uint64)
        shift = np.uint64(int(group[-1]).bit_length())
        keys = lots if not shift else (group << np.uint64(64) - shift) | (lots >> shift)
        order = np.argsort(keys)
        if not (np.diff(keys[order]) == 0).any():
            return order
        ids = self.names.take(to_arrow(players))
        return np.lexsort((to_numpy(pc.rank(ids, tiebreaker="first")), lots, pair))


def empty_standings() -> pa.Table:
    """The standings of an event with no round yet: the columns, no rows."""
    return empty_table("standings")
