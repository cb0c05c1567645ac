"""Who won a pairs knockout match (seed 003; SPEC 9): levels, extra boards, or a forfeit.

A match is one set at one table. The higher final level wins (passing A, "A+", beats A);
equal levels are decided by extra boards played one at a time (seed 000 art. 49.2), and the
results row names the side that won them in its ``tiebreak`` column (``NS`` or ``EW``); a
level match without it cannot be decided and is refused with that explanation. An artificial
(adjusted) result, such as ``A+/A-`` for a side that did not turn up, is a forfeit won by the
side with the better code.

>>> results = pd.DataFrame({"table": [1, 2], "north": ["a1", "c1"], "east": ["b1", "d1"],
...     "ns_level": [13, 9], "ew_level": [12, 9], "ns_adjusted": [None, None],
...     "ew_adjusted": [None, None], "tiebreak": [None, "EW"]})
>>> pair_of = {"a1": "A", "b1": "B", "c1": "C", "d1": "D"}
>>> outcomes, problems = pair_outcomes(results, pair_of)
>>> outcomes.to_numpy().tolist(), problems
([[1, 'A', 'levels'], [2, 'D', 'extra boards']], [])
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from ..levels import level_to_text
from ..results.schema import ADJUSTED_CODES

#: One thing that keeps a match from being decided: (table, column, value, rule).
MatchProblem = tuple[int, str, object, str]
SIDES = ("NS", "EW")
LEVEL_MATCH = (
    "the levels are equal ({level} each): a knockout match level after its set is decided by "
    "extra boards (seed 000 art. 49.2); give the side that won them in a tiebreak column (NS "
    "or EW)"
)


def _text(value) -> str | None:
    return None if value is None or pd.isna(value) else str(value).strip().upper()


def pair_outcome(row: Mapping, codes: tuple[str, ...] = ADJUSTED_CODES) -> tuple:
    """(winning side ``NS``/``EW`` or None, decided_by, problems as (column, value, rule))."""
    tiebreak = _text(row.get("tiebreak"))
    ns_code, ew_code = _text(row.get("ns_adjusted")), _text(row.get("ew_adjusted"))
    if ns_code is not None or ew_code is not None:
        if ns_code == ew_code:
            rule = (f"{ns_code}/{ew_code} names no winner: an artificial result in a knockout "
                    "must favour one side (e.g. A+/A- when East-West forfeit)")
            return None, None, [("adjusted", f"{ns_code}/{ew_code}", rule)]
        better = codes.index(ns_code) < codes.index(ew_code)
        return ("NS" if better else "EW"), "forfeit", _no_tiebreak(tiebreak, "a forfeit")
    ns, ew = int(row["ns_level"]), int(row["ew_level"])
    if ns != ew:
        decided = f"the levels ({level_to_text(ns)} v {level_to_text(ew)})"
        return ("NS" if ns > ew else "EW"), "levels", _no_tiebreak(tiebreak, decided)
    if tiebreak is None:
        return None, None, [("tiebreak", None, LEVEL_MATCH.format(level=level_to_text(ns)))]
    if tiebreak not in SIDES:
        return None, None, [("tiebreak", row.get("tiebreak"),
                             "expected NS or EW: the side that won the extra boards")]
    return tiebreak, "extra boards", []


def _no_tiebreak(tiebreak: str | None, decided: str) -> list:
    if tiebreak is None:
        return []
    rule = f"this match is decided by {decided}, so no extra boards were needed; leave it empty"
    return [("tiebreak", tiebreak, rule)]


def pair_outcomes(
    results: pd.DataFrame, pair_of: Mapping[str, str]
) -> tuple[pd.DataFrame, list[MatchProblem]]:
    """Each table's winner (pair id) and ``decided_by``, and every problem found.

    ``results`` is the normalised set table of one round (level indices; ``tiebreak``
    optional); ``pair_of`` maps player id -> pair id.
    """
    rows, problems = [], []
    for row in results.to_dict("records"):
        side, decided_by, found = pair_outcome(row)
        table = int(row["table"])
        problems += [(table, *problem) for problem in found]
        winner = None if side is None else pair_of.get(str(row["north" if side == "NS"
                                                                  else "east"]))
        if winner is not None:  # None: undecided, or a player of no pair (the seating says)
            rows.append((table, winner, decided_by))
    outcomes = pd.DataFrame(rows, columns=["table", "winner", "decided_by"])
    return outcomes.astype({"table": "int64", "winner": "str", "decided_by": "str"}), problems
