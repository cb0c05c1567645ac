"""Swiss pairing (积分编排, seed 000 art. 26) as SPEC 8 pins it down.

Round 1 is a slide by team number: with n teams, team i meets team i + n/2 (the strong
half against the weak half, art. 26.3). Later rounds take the teams in position order.
With an odd count the lowest-placed team without a bye sits out (art. 26.6). Then, top
down, the highest unpaired team meets the highest-placed unpaired team it has not met in
this stage; when the rest cannot be paired without a rematch the search backtracks
(depth first, in that same order). If no pairing avoids every rematch, the first pairing
with the fewest rematches in that search order is used and its rematches are reported.

Pairings are a pure function of the order, the meetings and the byes so far.

>>> swiss_round([1, 2, 3, 4, 5, 6], set(), set(), 1).pairs
((1, 4), (2, 5), (3, 6))
>>> swiss_round([1, 2, 3, 4], {frozenset((1, 2))}, set(), 2).pairs
((1, 3), (2, 4))
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cache

Meeting = frozenset[int]


@dataclass(frozen=True)
class SwissRound:
    """Pairs in pairing order (higher-placed team first), the bye, and any rematches."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None
    rematches: tuple[tuple[int, int], ...] = ()


def choose_bye(order: Sequence[int], had_bye: Collection[int]) -> int:
    """The lowest-placed team without a bye; the lowest-placed of all if every team had one."""
    fresh = [t for t in order if t not in had_bye]
    return (fresh or list(order))[-1]


def pair_top_down(order: Sequence[int], met: Collection[Meeting]) -> tuple[
    tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]
]:
    """Pairs of ``order`` (even length) with the fewest rematches, the first such in the
    top-down depth-first order; returns (pairs, rematches)."""
    teams = tuple(order)
    met = frozenset(met)

    @cache
    def search(rest: tuple[int, ...], allowed: int) -> tuple[tuple[int, int], ...] | None:
        """The first pairing of ``rest`` with at most ``allowed`` rematches, or None."""
        if not rest:
            return ()
        top, others = rest[0], rest[1:]
        for i, other in enumerate(others):
            rematch = frozenset((top, other)) in met
            if rematch and allowed == 0:
                continue
            tail = search(others[:i] + others[i + 1:], allowed - rematch)
            if tail is not None:
                return ((top, other), *tail)
        return None

    for allowed in range(len(teams) // 2 + 1):
        pairs = search(teams, allowed)
        if pairs is not None:
            return pairs, tuple(p for p in pairs if frozenset(p) in met)
    raise AssertionError("unreachable: every pairing has at most n/2 rematches")


def slide(teams: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """Round 1: team i meets team i + n/2 (``teams`` by team number, even count)."""
    half = len(teams) // 2
    return tuple(zip(teams[:half], teams[half:], strict=True))


def swiss_round(
    order: Sequence[int],
    met: Collection[Meeting],
    had_bye: Collection[int],
    round_no: int,
) -> SwissRound:
    """The pairing of ``round_no``: ``order`` is the teams by team number in round 1, else
    by position after the previous round; ``met`` the meetings of this stage so far."""
    order = list(order)
    bye = choose_bye(order, had_bye) if len(order) % 2 else None
    playing = [t for t in order if t != bye]
    if round_no == 1 and not met:
        return SwissRound(slide(sorted(playing)), bye)
    pairs, rematches = pair_top_down(playing, met)
    return SwissRound(pairs, bye, rematches)


def home_first(pair: tuple[int, int], round_no: int) -> tuple[int, int]:
    """(home, away) of a Swiss match: the lower team number is home in odd rounds, the
    higher in even rounds (art. 29.1)."""
    low, high = sorted(pair)
    return (low, high) if round_no % 2 else (high, low)
