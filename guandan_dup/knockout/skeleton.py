"""The shape of a knockout bracket: every match of every round, and where its sides come from.

The shape depends on the number of entrants n and the layout only, never on results, so the
tables each round needs are known at ``event init``. With P the smallest power of two >= n
the bracket has log2(P) rounds and P - n byes in round 1.

- ``seeded`` (team knockouts, seed 000 art. 24 and 29.1; pairs with a seeding list): the
  standard seeding positions, seed s meeting seed P+1-s in round 1, so every round-1 match
  sums to P+1, seeds 1 and 2 can meet only in the final, 1-4 only in the semi-finals; the
  byes fall to seeds 1, 2, ... (their missing opponents are the seeds above n).
- ``lot`` (pairs by lot, seed 003): round-1 table t has the lot's entries 2t-1 and 2t. With
  byes, the matches that carry them are those the seeded layout would give them (so bye
  holders meet round-1 winners and are spread over the bracket) and they go to the lot's
  last entries.

Later rounds: the winners of main matches 2k-1 and 2k meet in main match k. Places 1-8 are
played out: quarter-final losers play for 5-8 (losers of quarter-finals 2k-1 and 2k meet in
5-8 match k), then 5-6 and 7-8; semi-final losers play for 3-4. A match with one side only
is a bye; a match with no side does not exist.

>>> [(m.round, m.places, m.match, m.table) for m in skeleton(5, "seeded")][:4]
[(1, 'main', 1, None), (1, 'main', 2, 1), (1, 'main', 3, None), (1, 'main', 4, None)]
>>> seed_positions(8)
[1, 8, 4, 5, 2, 7, 3, 6]
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..errors import InvalidPlanError
from ..wording import words
from .source import Source

LAYOUTS = ("seeded", "lot")
#: Bracket names in the order their matches are numbered within a round.
PLACES = ("main", "3-4", "5-8", "5-6", "7-8")


@dataclass(frozen=True)
class Slot:
    """One match of the bracket: ``slot`` is its index within its bracket (``places``) and
    round; ``match`` its number in the round (main matches first, so main slot k is match k);
    ``table`` the table it plays at (``None`` for a bye)."""

    round: int
    places: str
    slot: int
    match: int
    table: int | None
    a: Source | None
    b: Source | None


def bracket_size(entries: int) -> int:
    """The smallest power of two holding ``entries`` (at least 2 are needed)."""
    if not isinstance(entries, int) or entries < 2:
        raise InvalidPlanError(f"a knockout needs at least 2 entries, got {entries!r}")
    return 1 << (entries - 1).bit_length()


def rounds_needed(entries: int) -> int:
    """Rounds of a knockout of ``entries``: log2 of the bracket size."""
    return bracket_size(entries).bit_length() - 1


def seed_positions(size: int) -> list[int]:
    """Seeds in bracket order for a power-of-two ``size``: seeds 1 and 2 in opposite halves,
    1-4 in different quarters, and so on; adjacent positions meet in round 1."""
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [x for s in order for x in (s, mirror - s)]
    return order


def _first_round(entries: int, layout: str) -> list[tuple[Source | None, Source | None]]:
    size = bracket_size(entries)
    seeds = seed_positions(size)
    pairs = [(seeds[i], seeds[i + 1]) for i in range(0, size, 2)]
    if layout == "seeded":
        return [
            tuple(Source("entry", s) if s <= entries else None for s in pair) for pair in pairs
        ]
    if layout != "lot":
        raise InvalidPlanError(f"knockout layout {layout!r}: expected {words(LAYOUTS, 'or')}")
    byes = [max(pair) > entries for pair in pairs]
    played = iter(range(1, entries + 1))
    out = []
    for bye in byes:
        if not bye:
            out.append((Source("entry", next(played)), Source("entry", next(played))))
    last = iter(range(entries - sum(byes) + 1, entries + 1))
    matches = iter(out)
    return [(Source("entry", next(last)), None) if bye else next(matches) for bye in byes]


def _feeds(rounds: int, r: int) -> list[tuple[str, int, str, str]]:
    """The brackets of round ``r`` (r >= 2): (places, slots, feeding bracket, side taken)."""
    feeds = [("main", 1 << (rounds - r), "main", "winner")]
    if r == rounds:
        feeds.append(("3-4", 1, "main", "loser"))
        if rounds >= 3:
            feeds += [("5-6", 1, "5-8", "winner"), ("7-8", 1, "5-8", "loser")]
    if rounds >= 3 and r == rounds - 1:
        feeds.append(("5-8", 2, "main", "loser"))
    return feeds


def skeleton(entries: int, layout: str) -> list[Slot]:
    """Every match of a knockout of ``entries``, round by round, in match order."""
    rounds = rounds_needed(entries)
    raw: dict[int, list[tuple[str, int, Source | None, Source | None]]] = {
        1: [("main", k, a, b) for k, (a, b) in enumerate(_first_round(entries, layout), 1)]
    }
    # (round, places, slot) -> (match number, is a real match: two sides)
    exists: dict[tuple[int, str, int], tuple[int, bool]] = {}
    for r in range(1, rounds + 1):
        if r > 1:
            raw[r] = []
            for places, count, feeding, side in _feeds(rounds, r):
                for k in range(1, count + 1):
                    a = _outcome(exists, side, r - 1, feeding, 2 * k - 1)
                    b = _outcome(exists, side, r - 1, feeding, 2 * k)
                    raw[r].append((places, k, a, b))
        raw[r] = [
            (p, k, a, b) if a is not None else (p, k, b, a)
            for p, k, a, b in raw[r]
            if a is not None or b is not None
        ]
        raw[r].sort(key=lambda m: (PLACES.index(m[0]), m[1]))
        for match, (places, k, _, b) in enumerate(raw[r], 1):
            exists[(r, places, k)] = (match, b is not None)
    slots = []
    for r in range(1, rounds + 1):
        table = 0
        for match, (places, k, a, b) in enumerate(raw[r], 1):
            table += b is not None
            slots.append(Slot(r, places, k, match, table if b is not None else None, a, b))
    return slots


def _outcome(exists: dict, side: str, r: int, places: str, slot: int) -> Source | None:
    """The winner or loser of an earlier match, or ``None`` if there is none: no such match,
    or the loser of a bye."""
    found = exists.get((r, places, slot))
    if found is None or (side == "loser" and not found[1]):
        return None
    return Source(side, round=r, match=found[0])


def sources(entries: int, layout: str) -> pd.DataFrame:
    """Every match of the bracket with where its sides come from, for drawing the rounds not
    seated yet: ``round, match, table, places, from_a, from_b``; a source is a ``Source``'s
    text, ``"entry N"``, ``"winner R.M"`` or ``"loser R.M"`` (round R's match M), empty for
    a bye.

    >>> sources(3, "seeded").loc[2:3, ["places", "from_a"]].to_numpy().tolist()
    [['main', 'winner 1.1'], ['3-4', 'loser 1.2']]
    """
    def text(source: Source | None) -> str | None:
        return None if source is None else source.to_text()

    rows = [(s.round, s.match, s.table, s.places, text(s.a), text(s.b))
            for s in skeleton(entries, layout)]
    frame = pd.DataFrame(rows, columns=["round", "match", "table", "places", "from_a", "from_b"])
    return frame.astype({"round": "int64", "match": "int64", "table": "Int64"})


def tables_per_round(entries: int, layout: str = "lot") -> dict[int, int]:
    """How many tables (matches with two sides) each round needs.

    >>> tables_per_round(12)
    {1: 4, 2: 4, 3: 4, 4: 4}
    """
    counts = dict.fromkeys(range(1, rounds_needed(entries) + 1), 0)
    for slot in skeleton(entries, layout):
        counts[slot.round] += slot.table is not None
    return counts
