"""The bracket page's data: a knockout's matches laid out as a tree of rounds.

The main bracket is drawn as one column per round (a tree: each match sits between the two
it is fed by); the classification matches follow in a block of their own, each bracket of
places under its own heading (the 3rd-4th place match, 三四名决赛, first), then the final
places. Every played match links to its result: the row of its table
on the traveller of the round's set.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

from ...knockout.source import Source


def round_title(round_no: int, rounds: int) -> tuple[str, dict[str, int]]:
    """A round's label key and its arguments: final, semi-finals, quarter-finals, round n.

    >>> [round_title(r, 4)[0] for r in (1, 2, 3, 4)]
    ['round_n', 'quarter_finals', 'semi_finals', 'final']
    """
    names = {rounds: "final", rounds - 1: "semi_finals", rounds - 2: "quarter_finals"}
    return names.get(round_no, "round_n"), {"n": round_no}


def _side(side: Any, name: Any, winner: Any, source: Any) -> dict[str, Any] | None:
    """A side as the template draws it: known (id, name, won), still to come (``source``:
    the label key and round and match it comes from), or ``None`` (a bye)."""
    if side is None and source is None:
        return None
    if side is None:
        found = Source.from_text(str(source))
        return {"source": (f"{found.kind}_of", {"r": found.round, "m": found.match})}
    return {"id": side, "name": name if name is not None else side, "won": side == winner,
            "source": None}


def match_cards(rows: pd.DataFrame, set_href: Callable[[int], str]) -> list[dict[str, Any]]:
    """One card per match: its sides (the winner marked), result, how it was decided, link."""
    frame = rows.astype(object).where(rows.notna(), None)
    cards = []
    for m in frame.to_dict("records"):
        played = m["result"] not in (None, "")
        cards.append({
            "round": int(m["round"]),
            "match": int(m["match"]),
            "places": m["places"],
            "table": None if m["table"] is None else int(m["table"]),
            "a": _side(m["side_a"], m["side_a_name"], m["winner"], m["from_a"]),
            "b": _side(m["side_b"], m["side_b_name"], m["winner"], m["from_b"]),
            "result": m["result"] or "",
            "decided_by": m["decided_by"],
            "href": f"{set_href(int(m['set']))}#t{int(m['table'])}" if played else None,
        })
    return cards


def classification_groups(view: pd.DataFrame, rounds: int,
                          set_href: Callable[[int], str]) -> list[dict[str, Any]]:
    """The classification matches under a heading each: the 3rd-4th place match first
    (三四名决赛: ``third``), then each other bracket of places by round (``places`` with
    its round's label key and arguments, e.g. places 5-8 in the semi-finals' round)."""
    extra = view[view["places"] != "main"]
    order = extra.assign(after_third=extra["places"] != "3-4",
                         first=extra["places"].str.split("-").str[0].astype(int))
    groups = []
    for (_, r, _, places), rows in order.groupby(["after_third", "round", "first", "places"],
                                                 sort=True):
        key, args = round_title(int(r), rounds)
        groups.append({"places": places, "third": places == "3-4", "title_key": key,
                       "args": args, "matches": match_cards(rows, set_href)})
    return groups


def bracket_context(
    view: pd.DataFrame,
    places: pd.DataFrame | None,
    rounds: int,
    set_href: Callable[[int], str],
) -> dict[str, Any]:
    """What ``bracket.html.j2`` draws: main rounds, classification groups, places."""
    main = []
    for r in range(1, rounds + 1):
        key, args = round_title(r, rounds)
        rows = view[(view["round"] == r) & (view["places"] == "main")]
        main.append({"n": r, "title_key": key, "args": args,
                     "matches": match_cards(rows, set_href)})
    shown = None
    if places is not None:
        shown = places.astype(object).where(places.notna(), None).to_dict("records")
    return {"main": main, "classification": classification_groups(view, rounds, set_href),
            "places": shown}


def current_round(view: pd.DataFrame, rounds: int) -> int:
    """The round a reader of the bracket wants first: the earliest with a match not yet
    decided (no winner shown), or the final once every match is."""
    open_rounds = view.loc[view["winner"].isna(), "round"]
    return int(open_rounds.min()) if len(open_rounds) else rounds
