"""A round of a knockout as a table: its matches with their sides, and the matches decided.

``round_bracket`` fills the skeleton's round with sides: entries from the entry order (the
lot, or the seeding), later rounds from the winners and losers of the round before, read
from that round's decided bracket. ``complete`` adds ``winner`` and ``decided_by`` from the
outcomes of the matches played; a bye is won by its one side.

In every match ``side_a`` is the side earlier in the entry order (the better seed; in a lot,
the lower lot number): the home team of a team match, the pair sitting North-South.

>>> r1 = round_bracket(["A", "B", "C"], "seeded", 1)
>>> print(r1.to_string(index=False))
 round  match  table side_a side_b places
     1      1   <NA>      A    NaN   main
     1      2      1      B      C   main
>>> done = complete(r1, pd.DataFrame({"table": [1], "winner": ["C"], "decided_by": ["levels"]}))
>>> print(round_bracket(["A", "B", "C"], "seeded", 2, done).to_string(index=False))
 round  match  table side_a side_b places
     2      1      1      A      C   main
     2      2   <NA>      B    NaN    3-4
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ..errors import GuandanError, InvalidPlanError
from ..wording import numbered, plural, quoted, spans
from .skeleton import rounds_needed, skeleton
from .source import Source

BRACKET_COLUMNS = ["round", "match", "table", "side_a", "side_b", "places"]
DECIDED_COLUMNS = [*BRACKET_COLUMNS, "winner", "decided_by"]
DECIDED_BY = ("levels", "场分", "级差分", "级差", "extra boards", "bye", "forfeit")
_TYPES = {"round": "int64", "match": "int64", "table": "Int64", "side_a": "str",
          "side_b": "str", "places": "str", "winner": "str", "decided_by": "str"}


class KnockoutError(GuandanError):
    """A knockout step that cannot be taken: an earlier round not decided, a bad entry list."""


def typed(frame: pd.DataFrame) -> pd.DataFrame:
    """The bracket.parquet column types (table empty for a bye, side_b empty for a bye)."""
    return frame.astype({c: t for c, t in _TYPES.items() if c in frame.columns})


def check_entries(entries: Sequence[str]) -> list[str]:
    """The entry ids as text, refusing repeats (a side meets itself) and too few entries."""
    ids = [str(e) for e in entries]
    repeated = sorted({e for e in ids if ids.count(e) > 1})
    if repeated:
        raise InvalidPlanError(f"knockout {plural('entry', len(repeated), 'entries')} "
                               f"{quoted(repeated)} {plural('is', len(repeated), 'are')} "
                               "listed more than once")
    rounds_needed(len(ids))
    return ids


def _resolve(source: Source | None, entries: list[str], earlier: pd.DataFrame | None) -> str | None:
    if source is None:
        return None
    if source.is_entry:
        return entries[source.position - 1]
    r, match = source.round, source.match
    rows = pd.DataFrame() if earlier is None else earlier[
        (earlier["round"] == r) & (earlier["match"] == match)
    ]
    if rows.empty or "winner" not in rows or pd.isna(rows["winner"].iloc[0]):
        raise KnockoutError(
            f"round {r} match {match} is not decided yet: score round {r} first"
        )
    row = rows.iloc[0]
    if source.kind == "winner":
        return str(row["winner"])
    return str(row["side_b"] if row["winner"] == row["side_a"] else row["side_a"])


def round_bracket(
    entries: Sequence[str],
    layout: str,
    round_no: int,
    earlier: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Round ``round_no``'s matches (``BRACKET_COLUMNS``) of a knockout of ``entries``.

    ``entries`` are side ids in entry order (lot or seeding, first = 1); ``earlier`` holds
    the decided brackets of the earlier rounds (round 1 needs none).
    """
    entries = check_entries(entries)
    rounds = rounds_needed(len(entries))
    if not isinstance(round_no, int) or not 1 <= round_no <= rounds:
        raise InvalidPlanError(
            f"round {round_no!r}: a knockout of {len(entries)} entries has "
            f"{spans('round', range(1, rounds + 1))}"
        )
    rank = {e: i for i, e in enumerate(entries)}
    rows = []
    for slot in (s for s in skeleton(len(entries), layout) if s.round == round_no):
        a = _resolve(slot.a, entries, earlier)
        b = _resolve(slot.b, entries, earlier)
        if b is not None and rank[b] < rank[a]:
            a, b = b, a
        rows.append((round_no, slot.match, slot.table, a, b, slot.places))
    return typed(pd.DataFrame(rows, columns=BRACKET_COLUMNS))


def complete(bracket: pd.DataFrame, outcomes: pd.DataFrame) -> pd.DataFrame:
    """``bracket`` with ``winner`` and ``decided_by``: byes to their side, played matches from
    ``outcomes`` (table, winner, decided_by), every one of which must be given."""
    played = bracket[bracket["side_b"].notna()]
    given = outcomes.set_index("table")
    missing = sorted(set(played["table"].astype(int)) - set(given.index.astype(int)))
    if missing:
        raise KnockoutError(
            f"round {int(bracket['round'].iloc[0])} has no result yet for "
            f"{numbered('table', missing)}"
        )
    winner = bracket["table"].map(given["winner"]).where(bracket["side_b"].notna(),
                                                         bracket["side_a"])
    decided_by = bracket["table"].map(given["decided_by"]).where(bracket["side_b"].notna(), "bye")
    won = winner[played.index]
    wrong = played[(won != played["side_a"]) & (won != played["side_b"])]
    if not wrong.empty:
        row = wrong.iloc[0]
        raise KnockoutError(
            f"table {row['table']}: winner {winner[row.name]!r} is neither side of the match "
            f"({row['side_a']!r} v {row['side_b']!r})"
        )
    return typed(bracket.assign(winner=winner, decided_by=decided_by)[DECIDED_COLUMNS])
