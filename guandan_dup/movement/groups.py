"""How many tables a group (组) should have: the rule ``event init`` suggests by.

Groups take ``T`` tables at a time, the last one of each venue what is left (SPEC 7), so
some sizes leave a last group of a table or two beside full ones: the players moved into
it by standing meet only each other, and a group compared within itself has too few
results to compare. A size is *awkward* when a last group holds fewer than half the
tables of a full one. The suggestion is the size nearest the one wanted (a director's, or
``MOST_TABLES`` when none was given) that is not awkward anywhere, the smaller of two as
near; with at most ``MOST_TABLES`` tables, one group.

>>> awkward([7], 6), awkward([7], 4), awkward([7], 20)
(True, False, False)
>>> suggested_tables_per_group([7]), suggested_tables_per_group([7], 6)
(7, 7)
>>> suggested_tables_per_group([57]), suggested_tables_per_group([10], 3)
(6, 2)
"""

from __future__ import annotations

from collections.abc import Sequence

MOST_TABLES = 8
"""Tables in a group when the director names no size: a group of up to 32 players, whom a
round's movement reseats among themselves by standing."""


def group_sizes(tables: int, per_group: int) -> list[int]:
    """The tables of each group of one venue (or of the whole event): full groups, then
    what is left.

    >>> group_sizes(7, 4), group_sizes(7, 7)
    ([4, 3], [7])
    """
    full, left = divmod(tables, per_group)
    return [per_group] * full + ([left] if left else [])


def awkward(venue_tables: Sequence[int], per_group: int) -> bool:
    """Whether ``per_group`` leaves a venue (each of ``venue_tables``, one number for an
    event in one room) a last group of fewer than half the tables of a full one."""
    return any(0 < tables % per_group < per_group / 2 for tables in venue_tables
               if tables > per_group)


def suggested_tables_per_group(venue_tables: Sequence[int], wanted: int | None = None) -> int:
    """The tables per group nearest ``wanted`` (default ``MOST_TABLES``) that is not
    ``awkward`` in any venue, at most the largest venue's tables; the smaller of two as
    near."""
    most = max([1, *venue_tables])
    wanted = MOST_TABLES if wanted is None else wanted
    return min((t for t in range(1, most + 1) if not awkward(venue_tables, t)),
               key=lambda t: (abs(t - wanted), t))
