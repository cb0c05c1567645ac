"""Who won a team knockout match (seed 000 art. 29.1, 49.2; SPEC 9).

A match is scored as in a Swiss (``teams.score_matches``: 场分 and 级差分 from the two rooms)
and decided by 场分, then 级差分, then 级差; a match still level is decided by extra boards,
and a results row of the match names the winning team in its ``tiebreak`` column. A match
decided on 场分 with no 级差 (both rooms artificial, e.g. A+/A- for a team that did not
turn up) is a forfeit.

>>> results = pd.DataFrame({"round": [1, 1], "match": [1, 1], "team": [1, 2],
...     "opponent": [2, 1], "home": [True, False], "levels": [0, 0],
...     "match_points": [1.0, 1.0], "level_points": [13.0, 13.0]})
>>> team_outcome(results.iloc[0], results.iloc[1], 2)
(2, 'extra boards', [])
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

#: Criteria in order: (match_results column, its decided_by name, scale to exact integers).
CRITERIA = (("match_points", "场分", 2), ("level_points", "级差分", 100), ("levels", "级差", 1))
LEVEL_MATCH = (
    "the match is level on 场分, 级差分 and 级差: a knockout match is decided by extra boards "
    "(seed 000 art. 49.2); name the team that won them in a tiebreak column (its number or "
    "its name in the players file)"
)


def team_outcome(home: Mapping, away: Mapping, tiebreak: int | None) -> tuple:
    """(winning team or None, decided_by, problems as (column, value, rule)) of one match,
    from its two match_results rows and the team named as winning the extra boards."""
    teams = (int(home["team"]), int(away["team"]))
    for column, name, scale in CRITERIA:
        a, b = home[column], away[column]
        if pd.isna(a) or pd.isna(b):
            continue
        a, b = round(float(a) * scale), round(float(b) * scale)
        if a != b:
            artificial = pd.isna(home["levels"])
            decided = "forfeit" if artificial else name
            problems = []
            if tiebreak is not None:
                problems.append(("tiebreak", tiebreak, f"this match is decided by {decided}, "
                                 "so no extra boards were needed; leave it empty"))
            return teams[0] if a > b else teams[1], decided, problems
    if tiebreak is None:
        return None, None, [("tiebreak", None, LEVEL_MATCH)]
    if tiebreak not in teams:
        return None, None, [("tiebreak", tiebreak, f"names neither team of the match "
                             f"({teams[0]} v {teams[1]})")]
    return tiebreak, "extra boards", []


def team_outcomes(
    matches: pd.DataFrame, match_results: pd.DataFrame, tiebreaks: Mapping[int, int]
) -> tuple[pd.DataFrame, list[tuple]]:
    """Each played match's winner (team number as text, keyed by its open-room ``table``) and
    ``decided_by``, and the problems as (match, column, value, rule).

    ``matches`` and ``match_results`` are one round's (``teams`` schemas); ``tiebreaks``
    maps match -> the team named as winning its extra boards.
    """
    rows, problems = [], []
    by_match = {m: rows for m, rows in match_results.groupby("match")}
    for m in matches[matches["away"].notna()].itertuples():
        scored = by_match.get(m.match)
        if scored is None:
            continue
        home = scored[scored["home"].astype(bool)].iloc[0]
        away = scored[~scored["home"].astype(bool)].iloc[0]
        winner, decided_by, found = team_outcome(home, away, tiebreaks.get(int(m.match)))
        problems += [(int(m.match), *p) for p in found]
        if winner is not None:
            rows.append((int(m.open_table), str(winner), decided_by))
    outcomes = pd.DataFrame(rows, columns=["table", "winner", "decided_by"])
    return outcomes.astype({"table": "int64", "winner": "str", "decided_by": "str"}), problems
