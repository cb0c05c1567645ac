"""Pairs movement (SPEC 7 双人赛): fixed partnerships reseated by standing.

Pairs in standing order meet 1v2, 3v4, ...; a pair that has already met the next pair looks
further down the order, and the search backtracks so that no earlier meeting repeats when
that is possible at all. When it is not, the fewest repeats are allowed and reported in
``Seating.repeats``. The better placed pair of a table sits North-South. With an odd number of
pairs the lowest placed pair that has had the fewest byes sits out.

>>> members = {"A": ("a1", "a2"), "B": ("b1", "b2"), "C": ("c1", "c2"), "D": ("d1", "d2")}
>>> s = seat_pairs(["A", "B", "C", "D"], members, 2, met=[frozenset("AB")])
>>> s.seating[["table", "north", "east", "south", "west"]].to_numpy().tolist()
[[1, 'a1', 'c1', 'a2', 'c2'], [2, 'b1', 'd1', 'b2', 'd2']]
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from ..errors import InvalidPlanError
from ..wording import counted, plural, quoted, words
from .individual import Seating, byes_frame, check_order, choose_byes, group_and_table

#: Search nodes tried per allowed number of repeats before allowing one more.
SEARCH_BUDGET = 20_000


class _OutOfBudget(Exception):
    """The backtracking search took too long for this number of allowed repeats."""


def partnerships(players: pd.DataFrame) -> dict[str, tuple[str, str]]:
    """Each pair id's two players, in the players table's order (the first sits N or E)."""
    sizes = players.groupby("pair", sort=False)["player"].agg(list)
    wrong = {pair: ids for pair, ids in sizes.items() if len(ids) != 2}
    if wrong:
        raise InvalidPlanError(
            "every pair needs exactly 2 players; these do not: " + "; ".join(
                f"{pair}: {counted(len(ids), 'player')} ({words(ids)})" for pair, ids in
                wrong.items()))
    return {str(pair): (str(ids[0]), str(ids[1])) for pair, ids in sizes.items()}


def pair_order(standings: pd.DataFrame, pair_of: Mapping[str, str]) -> list[str]:
    """Pairs in standing order: a pair stands where its better placed player stands."""
    ranked = standings.sort_values("position")["player"].astype(str).map(pair_of)
    return ranked.dropna().drop_duplicates().tolist()


def earlier_meetings(seatings: pd.DataFrame, pair_of: Mapping[str, str]) -> set[frozenset]:
    """The pairs that have met, from earlier rounds' seating rows (north's pair v east's)."""
    ns = seatings["north"].astype(str).map(pair_of)
    ew = seatings["east"].astype(str).map(pair_of)
    return {frozenset(m) for m in zip(ns, ew, strict=True)}


def pair_byes(byes: pd.DataFrame, pair_of: Mapping[str, str]) -> list[str]:
    """One pair id per earlier pair bye, from byes rows (round, player) of both partners."""
    pairs = byes.assign(pair=byes["player"].astype(str).map(pair_of)).dropna(subset=["pair"])
    key = ["round", "pair"] if "round" in pairs.columns else ["pair"]
    return pairs.drop_duplicates(key)["pair"].tolist()


def _match(
    remaining: list[str], met: Collection[frozenset], allowed: int, budget: list[int]
) -> list[tuple[str, str]] | None:
    """Pair ``remaining[0]`` with the nearest pair that keeps the rest solvable."""
    if not remaining:
        return []
    first, rest = remaining[0], remaining[1:]
    for i, other in enumerate(rest):
        repeat = frozenset((first, other)) in met
        if repeat and allowed == 0:
            continue
        budget[0] -= 1
        if budget[0] < 0:
            raise _OutOfBudget
        tail = _match(rest[:i] + rest[i + 1 :], met, allowed - repeat, budget)
        if tail is not None:
            return [(first, other), *tail]
    return None


def match_pairs(order: Sequence[str], met: Collection[frozenset] = ()) -> list[tuple[str, str]]:
    """Tables as (better pair, other pair), best table first, with the fewest repeats found."""
    if len(order) % 2:
        raise InvalidPlanError(f"cannot match an odd number of pairs ({len(order)})")
    for allowed in range(len(order) // 2 + 1):
        try:
            tables = _match(list(order), met, allowed, [SEARCH_BUDGET])
        except _OutOfBudget:
            continue
        if tables is not None:
            return tables
    raise AssertionError("unreachable: with every meeting allowed the first choice succeeds")


def seat_pairs(
    order: Sequence[str],
    members: Mapping[str, tuple[str, str]],
    tables_per_group: int,
    met: Collection[frozenset] = (),
    byes_so_far: Iterable[str] = (),
    round_no: int = 1,
) -> Seating:
    """Seat round ``round_no`` of a pairs event from ``order`` (pair ids, best first).

    ``members`` gives each pair's two players; ``met`` the pairs (as frozensets of pair ids)
    that have already played each other; ``byes_so_far`` one pair id per earlier bye.
    """
    pairs = check_order(order, what="pair")
    unknown = sorted(set(pairs.tolist()) - set(members))
    if unknown:
        raise InvalidPlanError(f"{plural('pair', len(unknown))} {quoted(unknown)} in the order "
                               f"{plural('has', len(unknown), 'have')} no players")
    if len(pairs) < 2:
        raise InvalidPlanError(f"a round needs at least 2 pairs, got {len(pairs)}")
    bye = choose_byes(pairs, len(pairs) % 2, byes_so_far)
    tables = match_pairs([p for p in pairs.tolist() if p not in bye], met)
    group, table = group_and_table(len(tables), tables_per_group)
    ns = np.array([members[a] for a, _ in tables], dtype=object).reshape(-1, 2)
    ew = np.array([members[b] for _, b in tables], dtype=object).reshape(-1, 2)
    seating = pd.DataFrame(
        {
            "round": np.full(len(table), round_no, dtype="int64"),
            "group": group,
            "table": table,
            "north": pd.array(ns[:, 0], "str"),
            "east": pd.array(ew[:, 0], "str"),
            "south": pd.array(ns[:, 1], "str"),
            "west": pd.array(ew[:, 1], "str"),
        }
    )
    repeats = [(a, b) for a, b in tables if frozenset((a, b)) in met]
    return Seating(
        seating,
        byes_frame(round_no, [p for pair in bye for p in members[pair]]),
        pd.DataFrame(
            {
                "round": np.full(len(repeats), round_no, dtype="int64"),
                "ns": pd.array([a for a, _ in repeats], "str"),
                "ew": pd.array([b for _, b in repeats], "str"),
            }
        ),
    )
