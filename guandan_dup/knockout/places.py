"""Final places of a knockout from its decided brackets (seed 003: places 1 to 8 played out).

The last round's matches give their two places each (main 1-2, then 3-4, 5-6, 7-8; a bye's
side takes the better one). Main-bracket losers before the quarter-finals share a place: the
number of sides still in after their round, plus one ("9=" for the losers of a 16-entry
bracket's first round, "17=" for a 32-entry bracket's).
"""

from __future__ import annotations

import pandas as pd

from ..ranking import rank_labels
from .bracket import KnockoutError
from .skeleton import bracket_size, rounds_needed

PLACES_COLUMNS = ["side", "place", "place_label"]
_FINAL = {"main": 1, "3-4": 3, "5-6": 5, "7-8": 7}


def place_labels(places: pd.Series) -> pd.Series:
    """A place as shown: ``"9="`` when several sides share it, else the number, of
    ``places`` in order (best first; ``ranking.rank_labels``)."""
    return pd.Series(rank_labels(places.to_numpy()).to_pylist(), index=places.index)


def final_places(decided: pd.DataFrame, entries: list[str]) -> pd.DataFrame:
    """``side, place, place_label`` for every entry, best first, from every round's decided
    bracket (``decided``: the rounds stacked, with ``winner``)."""
    rounds = rounds_needed(len(entries))
    size = bracket_size(len(entries))
    if set(range(1, rounds + 1)) - set(decided["round"]) or decided["winner"].isna().any():
        raise KnockoutError(f"the knockout's {rounds} rounds are not all decided yet")
    rows = []
    for m in decided.itertuples():
        loser = None if pd.isna(m.side_b) else (m.side_b if m.winner == m.side_a else m.side_a)
        if m.round == rounds:
            rows.append((m.winner, _FINAL[m.places]))
            if loser is not None:
                rows.append((loser, _FINAL[m.places] + 1))
        elif m.places == "main" and m.round <= rounds - 3 and loser is not None:
            rows.append((loser, 1 + (size >> m.round)))
    places = pd.DataFrame(rows, columns=["side", "place"])
    counted = places["side"].value_counts()
    if sorted(places["side"]) != sorted(entries) or (counted > 1).any():
        raise KnockoutError("the decided brackets do not place every entry exactly once")
    places = places.sort_values(["place", "side"], ignore_index=True)
    return places.assign(place_label=place_labels(places["place"])).astype(
        {"side": "str", "place": "int64", "place_label": "str"}
    )
