"""Round robin by Berger tables (the standard circle method, seed 000 art. 25).

With n teams (a dummy added when n is odd: meeting it is a bye), round r of the cycle
pairs team n (or the dummy) with the first of a rotating list and the rest from the
outside in; the first listed team is home (art. 29.1). Rounds beyond one cycle start a
second cycle with home and away swapped (a double round robin).

>>> berger_round(6, 1)
[(1, 6), (2, 5), (3, 4)]
>>> berger_round(6, 2)
[(6, 4), (5, 3), (1, 2)]
>>> berger_round(3, 1)
[(1, None), (2, 3)]
"""

from __future__ import annotations


def cycle_length(teams: int) -> int:
    """Rounds in one cycle: n - 1 for even n, n for odd n."""
    return teams - 1 if teams % 2 == 0 else teams


def berger_round(teams: int, round_no: int) -> list[tuple[int, int | None]]:
    """(home, away) pairs of ``round_no``; ``away`` is None for the team with a bye."""
    size = teams + teams % 2
    length = size - 1
    cycle, r = divmod(round_no - 1, length)
    rotating = [(r * (size // 2) + k) % length + 1 for k in range(length)]
    first = rotating[0]
    pairs: list[tuple[int, int]] = [(first, size) if r % 2 == 0 else (size, first)]
    pairs += [(rotating[k], rotating[length - k]) for k in range(1, size // 2)]
    if cycle % 2:
        pairs = [(away, home) for home, away in pairs]
    out: list[tuple[int, int | None]] = []
    for home, away in pairs:
        if size > teams and size in (home, away):
            out.append((away if home == size else home, None))
        else:
            out.append((home, away))
    return out
