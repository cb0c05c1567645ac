"""Levels through a set (SPEC 4): finishing orders, move-ups, A must be played, passing A.

Pure functions over a frozen :class:`SetState`; ``play_set`` is the slow obvious reference
that the vectorised board-level ingestion (``guandan_dup.results.boards``) is tested against.

>>> [s.to_text() for s in parse_finish("NS")]
['N', 'S', 'E', 'W']
>>> move_up(parse_finish("ENS"))
('EW', 1)
>>> final = play_set(["NS", "WNE"])
>>> final.ns_level, final.ew_level, final.board_level
(3, 2, 2)

Rules as implemented (Decisions where SPEC 4 is silent are marked):

- Only the side of the 上游 moves up: +3 for 双下, +2 partner 3rd, +1 partner last.
- Board 1 is played at the lower of the two start levels (level 2 unless a director set other
  start levels; Decision). Each later board is played at the winner's level after its move-up.
- A must be played: a side below A stops at A, whatever its move-up.
- Passing A: a board played at level A, won by a side whose own level is A with its partner
  not last (+2/+3), takes that side to A+ and ends the set. Otherwise a side at A stays at A.
- Three failures at A (house rule, off by default; Decision on its reading): a *failure* of a
  side is a board played at level A while that side's own level is A, on which it does not
  pass A - whether the opponents won the board or it won with its partner last. Both sides at
  A can fail on the same board. Failures are counted per set; the third sends that side back
  to level 2 and clears its count, after the board's move-up, so a side that wins with +1 on
  its third failure falls to 2 and the next board is played at 2.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache

from ..errors import IllegalPlayError, NotationError
from ..levels import LEVEL_A, LEVEL_PASSED_A
from ..seats import Seat

#: Move-up of the winner's side by the place (0-based) its partner finished in.
MOVE_UP_BY_PARTNER_PLACE = {1: 3, 2: 2, 3: 1}
FAILURES_BEFORE_RESET = 3


def finish_problem(text: str) -> str | None:
    """Why ``text`` is not a finishing order (``None`` if it is one), for messages.

    >>> finish_problem("NWS") is None, finish_problem("NN")
    (True, 'seat N finishes twice')
    """
    letters = str(text).strip().upper()
    unknown = [c for c in letters if c not in "NESW"]
    if unknown:
        return f"unknown seat letter {unknown[0]!r}; seats are N, E, S, W"
    repeated = [c for i, c in enumerate(letters) if c in letters[:i]]
    if repeated:
        return f"seat {repeated[0]} finishes twice"
    if not 2 <= len(letters) <= 4:
        return (
            f"{len(letters)} letters: expected the 4 seats in order of finishing (e.g. 'NWSE'),"
            " 3 (the last is implied) or 2 partners for a 双下"
        )
    if len(letters) == 2 and Seat.from_text(letters[1]) != Seat.from_text(letters[0]).partner:
        return (
            f"{letters[0]} and {letters[1]} are not partners; two letters are only allowed"
            " for a 双下 (partners finishing 1st and 2nd)"
        )
    return None


def parse_finish(text: str) -> tuple[Seat, ...]:
    """The full finishing order (上游 first) of a written one such as ``"NWSE"``.

    Three letters imply the fourth; two letters are only complete for a 双下 (partners 1st and
    2nd, the other two places do not matter and are filled in seat order). Raises
    ``NotationError`` saying what is wrong (see :func:`finish_problem`).
    """
    problem = finish_problem(text)
    if problem is not None:
        raise NotationError(f"finishing order {text!r}: {problem}")
    seats = tuple(Seat.from_text(c) for c in str(text).strip().upper())
    return seats + tuple(s for s in Seat if s not in seats)


def move_up(finish: tuple[Seat, ...]) -> tuple[str, int]:
    """The side of the 上游 and how many levels it moves up (before the A rules)."""
    winner = finish[0]
    return winner.side, MOVE_UP_BY_PARTNER_PLACE[finish.index(winner.partner)]


@dataclass(frozen=True)
class SetState:
    """Where a set stands between boards: both levels, the next board's level, failures at A.

    ``board_level`` is the level the next board is played at; ``ended`` is true once a side
    has passed A (no further board may be played).
    """

    ns_level: int = 0
    ew_level: int = 0
    board_level: int = 0
    played: int = 0
    ended: bool = False
    ns_fails_at_a: int = 0
    ew_fails_at_a: int = 0

    @classmethod
    def start(cls, ns_level: int = 0, ew_level: int = 0) -> SetState:
        """A fresh set; board 1 is played at the lower start level (2 when both start at 2)."""
        return cls(ns_level, ew_level, board_level=min(ns_level, ew_level))


def apply_board(
    state: SetState, finish: tuple[Seat, ...], three_failures_reset: bool = False
) -> SetState:
    """The state after one more board with this finishing order.

    Raises ``IllegalPlayError`` if the set already ended by a side passing A.
    """
    if state.ended:
        raise IllegalPlayError(
            f"board {state.played + 1} is after the end of the set: a side passed A on"
            f" board {state.played}"
        )
    side, amount = move_up(finish)
    before = {"NS": state.ns_level, "EW": state.ew_level}
    levels = dict(before)
    fails = {"NS": state.ns_fails_at_a, "EW": state.ew_fails_at_a}
    played_at_a = state.board_level == LEVEL_A
    passes = played_at_a and before[side] == LEVEL_A and amount >= 2
    if passes:
        levels[side] = LEVEL_PASSED_A
    else:
        levels[side] = min(before[side] + amount, LEVEL_A)  # A must be played
    for who in ("NS", "EW"):
        # A side that was at A before this board and did not pass it fails once more.
        if played_at_a and before[who] == LEVEL_A and not (passes and who == side):
            fails[who] += 1
            if three_failures_reset and fails[who] == FAILURES_BEFORE_RESET:
                levels[who], fails[who] = 0, 0
    return replace(
        state,
        ns_level=levels["NS"],
        ew_level=levels["EW"],
        board_level=levels[side],
        played=state.played + 1,
        ended=passes,
        ns_fails_at_a=fails["NS"],
        ew_fails_at_a=fails["EW"],
    )


def play_set(
    finishes: Iterable[str | tuple[Seat, ...]],
    start: tuple[int, int] = (0, 0),
    three_failures_reset: bool = False,
) -> SetState:
    """The final state of a set played with these finishing orders (text or parsed)."""
    state = SetState.start(*start)
    for finish in finishes:
        order = parse_finish(finish) if isinstance(finish, str) else finish
        state = apply_board(state, order, three_failures_reset)
    return state


_OUTCOMES = tuple(
    parse_finish(text) for text in ("NS", "NES", "NEW", "EW", "ENW", "ENS")
)  # one finishing order per (side, amount): NS +3 +2 +1, EW +3 +2 +1


def _successors(state: SetState, three_failures_reset: bool) -> list[SetState]:
    """The states one board later, one per possible (side, move-up); counters irrelevant to the
    outcome are cleared so equivalent states merge."""
    after = [apply_board(state, finish, three_failures_reset) for finish in _OUTCOMES]
    if three_failures_reset:
        return [replace(s, played=0) for s in after]
    return [replace(s, played=0, ns_fails_at_a=0, ew_fails_at_a=0) for s in after]


def reachable_levels(
    boards: int | None, three_failures_reset: bool = False, start: tuple[int, int] = (0, 0)
) -> frozenset[tuple[int, int]]:
    """Every (ns_level, ew_level) a set of ``boards`` boards from 2/2 (or ``start``, level
    indices, e.g. after a late arrival) can end with.

    A set ends after its boards or earlier when a side passes A, so this is every state after
    exactly ``boards`` boards plus every A+ result reached on the way; ``boards=None`` means
    any number of boards (at least one). The state space is small (levels, next board's level,
    failure counts), so a breadth-first walk is exact and quick (and cached).
    """
    return _reachable_levels(boards, bool(three_failures_reset), tuple(start))


@cache
def _reachable_levels(
    boards: int | None, three_failures_reset: bool, start: tuple[int, int] = (0, 0)
) -> frozenset[tuple[int, int]]:
    frontier = {SetState.start(*start)}
    visited: set[SetState] = set()
    finals: set[tuple[int, int]] = set()
    played = 0
    while frontier and (boards is None or played < boards):
        following = {s for state in frontier for s in _successors(state, three_failures_reset)}
        finals |= {(s.ns_level, s.ew_level) for s in following if s.ended}
        frontier = {s for s in following if not s.ended}
        if boards is None:
            frontier -= visited
            visited |= frontier
        played += 1
    ongoing = visited if boards is None else frontier
    return frozenset(finals | {(s.ns_level, s.ew_level) for s in ongoing})


def reachable(
    ns_level: int, ew_level: int, boards: int | None, three_failures_reset: bool = False
) -> bool:
    """Could a set of ``boards`` boards (``None``: any number) end with these levels?

    >>> reachable(1, 0, 1), reachable(1, 1, 1), reachable(13, 0, 4), reachable(13, 0, 5)
    (True, False, False, True)
    """
    return (ns_level, ew_level) in reachable_levels(boards, three_failures_reset)
