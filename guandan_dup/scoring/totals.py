"""Each player's exact total of rates, kept round by round and added up where a tie needs it.

The standings compare exact averages only where two float averages are within 1e-12 of each
other (``exact.sorted_keys``): in a first round nearly every player, in the later rounds of
a big field a few hundred or none (800,000 players, 5 rounds of 2 sets: 800,000, 430,575,
888, 10 and 4). Adding each round's exact sums into every player's running total moved all
totals to the round's new common denominator, usually with a prime more (a multiply and a
``exact.reduce`` a prime, ``exact.extend`` for the new one, over every player): 40-60 ms a
round at 800,000 players on the path each later round waits for, and some 100 MB of
temporaries at the run's peak.

So ``Totals`` keeps a round's sums as they come, by player code (residues as int32: each is
below 2**31), and works out a total only for the players asked for (``at``): each kept
round's sum moved to the event's common denominator, added. The kept rounds are folded into
running totals of every player (the same arithmetic, over all of them) only once they hold
more than ``FOLD_AFTER`` residues a player, so memory stays bounded in an event of many
rounds and the fold is done every few rounds instead of every round.

>>> totals = Totals()
>>> totals.add(np.array([1, 0]), np.array([[3, 4]]), primes(1), 4, players=2, most=1)
>>> totals.add(np.array([0]), np.array([[1]]), primes(1), 6, players=2, most=2)
>>> totals.scale, totals.at(np.array([0, 1]), 1).tolist()  # 4/4 + 1/6, 3/4 over 12
(12, [[14, 9]])
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from .exact import extend, primes, primes_for, reduce

FOLD_AFTER = 24
"""Residues a player the kept rounds may hold before they are folded into the running totals
(int32: 96 bytes a player; a round of a field of 800,000 needs 2 or 3)."""


class Totals:
    """The exact totals of an event's players: ``scale`` the common denominator of every
    round so far (the lcm of theirs); ``add`` a round, ``at`` the totals of some players."""

    def __init__(self, fold_after: int = FOLD_AFTER) -> None:
        self.fold_after = fold_after
        self.scale = 1
        # Each kept round: its denominator, its primes, its residues by player code.
        self.kept: list[tuple[int, tuple[int, ...], np.ndarray]] = []
        # Every player's total of the folded rounds: over ``folded_scale``, modulo ``chosen``.
        self.folded_scale, self.chosen = 1, ()
        self.folded = np.zeros((0, 0), np.int64)

    def add(self, codes: np.ndarray, residues: np.ndarray, chosen: tuple[int, ...],
            scale: int, players: int, most: int) -> None:
        """A round's exact sums: ``residues`` modulo ``chosen`` of each one's sum over
        ``scale``, column k the player of code ``codes[k]`` (distinct, below ``players``,
        the event's players so far); ``most`` the most sets any player has played."""
        by_code = np.zeros((len(chosen), players), np.int32)
        for row, values in zip(by_code, residues.astype(np.int32), strict=True):
            np.put(row, codes, values)  # half the time of by_code[:, codes] = residues
        self.kept.append((scale, chosen, by_code))
        self.scale = math.lcm(self.scale, scale)
        if sum(len(kept) for _, kept, _ in self.kept) > self.fold_after:
            self._fold(players, most)

    def at(self, rows: np.ndarray, count: int) -> np.ndarray:
        """The residues modulo ``primes(count)`` of the totals of the players ``rows``
        (codes) over ``scale``, one column each: ``count`` primes must make a product above
        every such total."""
        chosen, out, parts = primes(count), None, 0
        for scale, their, residues in self._parts():
            if len(rows) and rows.max() < residues.shape[1]:
                part = residues[:, rows].astype(np.int64, copy=False)  # folded: int64
            else:  # players added since hold nothing there
                part = np.zeros((len(their), len(rows)), np.int64)
                inside = rows < residues.shape[1]
                part[:, inside] = residues[:, rows[inside]]
            part = extend(part, their, count)[:count]
            for value, prime in zip(part, chosen, strict=True):
                if (factor := self.scale // scale % prime) != 1:
                    value *= factor
                    reduce(value, prime, out=value)
            if out is None:
                out = part
            else:
                out += part  # residues below 2**31: the sums of a few fit int64
            parts += 1
        if out is None:
            return np.zeros((count, len(rows)), np.int64)
        for row, prime in zip(out if parts > 1 else (), chosen, strict=False):
            reduce(row, prime, out=row)
        return out

    def _parts(self) -> Iterator[tuple[int, tuple[int, ...], np.ndarray]]:
        if self.chosen:
            yield self.folded_scale, self.chosen, self.folded
        yield from self.kept

    def _fold(self, players: int, most: int) -> None:
        """Every player's total into ``folded``, the kept rounds dropped: ``most`` sets of
        rates of at most 1 make a total of at most ``most * scale``."""
        count = primes_for(most * self.scale)
        self.folded = self.at(np.arange(players), count)
        self.folded_scale, self.chosen, self.kept = self.scale, primes(count), []
