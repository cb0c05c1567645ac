"""Scoring team matches: two rooms' set results -> each team's 级差, 场分 and 级差分.

A match is one set played in two rooms on the same boards (SPEC 8). In the open room the
home team sits E-W, in the closed room N-S, so the home team's net levels are
``L = (EW - NS in the open room) + (NS - EW in the closed room)``, in -26..26.

Matches not decided at the tables score fixed awards (``awards.ArtificialAwards``):

- a bye (a match row without ``away``);
- a row of the ``adjustments`` table (round, team, kind = ``forfeit`` | ``excused``), the
  director's decision about a team, e.g. from the ledger: it overrides the rooms;
- both rooms ``adjusted`` with the same codes for each team, the director's way through the
  results file: ``A+`` is the side present, ``A-`` a forfeit, ``A`` an excused absence
  (``A`` against ``A``: not played, a draw; ``A-`` against ``A-``: both forfeit);
- one room adjusted and the other played: the boards were not duplicated (art. 37), a draw.

Artificial matches carry no 级差 (``levels`` is empty) and count as neither won, drawn nor
lost. ``score_matches`` is general: any matches table with two rooms per match (a round of
a Swiss, a round robin or a knockout) is scored the same way.
"""

from __future__ import annotations

import pandas as pd

from ..errors import GuandanError
from .awards import DRAW, LOSS, WIN, ArtificialAwards, Award
from .conversion import ConversionTable

MATCH_COLUMNS = ("round", "match", "home", "away", "open_table", "closed_table")
MATCH_RESULT_COLUMNS = (
    "round", "match", "team", "opponent", "home", "levels", "match_points", "level_points",
)
ADJUSTMENT_COLUMNS = ("round", "team", "kind")
ADJUSTMENT_KINDS = ("forfeit", "excused")


def _code_awards(awards: ArtificialAwards) -> dict[tuple[str, str], tuple[Award, Award]]:
    """(home code, away code) of a wholly adjusted match -> (home award, away award)."""
    return {
        ("A+", "A-"): (awards.present, awards.forfeit),
        ("A-", "A+"): (awards.forfeit, awards.present),
        ("A", "A+"): (awards.excused, awards.present),
        ("A+", "A"): (awards.present, awards.excused),
        ("A", "A"): (awards.not_duplicated, awards.not_duplicated),
        ("A-", "A-"): (awards.forfeit, awards.forfeit),
    }


def _room(results: dict, round_no: int, table: int) -> dict | None:
    return results.get((round_no, table))


def _codes(room: dict, home_side: str) -> tuple[str, str]:
    """(home code, away code) of an adjusted room; the home team sits ``home_side``."""
    ns, ew = str(room["adjusted"]).split("/")
    return (ns, ew) if home_side == "ns" else (ew, ns)


def _real_levels(open_room: dict, closed_room: dict) -> int:
    return int(open_room["ew_level"] - open_room["ns_level"]) + int(
        closed_room["ns_level"] - closed_room["ew_level"]
    )


def _is_adjusted(room: dict) -> bool:
    value = room.get("adjusted")
    return value is not None and not pd.isna(value)


def _adjustment_awards(
    kinds: dict[int, str], home: int, away: int, awards: ArtificialAwards
) -> tuple[Award, Award]:
    """The two awards when the director decided about one or both teams of the match."""
    def award(team: int) -> Award:
        if team in kinds:
            return awards.forfeit if kinds[team] == "forfeit" else awards.excused
        return awards.present

    return award(home), award(away)


def check_adjustments(adjustments: pd.DataFrame | None, matches: pd.DataFrame) -> dict:
    """(round, team) -> kind, after checking every row of the rounds in ``matches`` names a
    team with an opponent (rows of later rounds wait for their round)."""
    if adjustments is None or adjustments.empty:
        return {}
    adjustments = adjustments[adjustments["round"].isin(matches["round"])]
    playing = {
        (int(m.round), int(t))
        for m in matches.itertuples() if not pd.isna(m.away) for t in (m.home, m.away)
    }
    problems, kinds = [], {}
    for i, row in enumerate(adjustments.itertuples(), 1):
        key = (int(row.round), int(row.team))
        if row.kind not in ADJUSTMENT_KINDS:
            problems.append(f"  adjustment {i}: kind {row.kind!r}: expected forfeit or excused")
        elif key not in playing:
            problems.append(f"  adjustment {i}: team {row.team} has no match in round {row.round}")
        else:
            kinds[key] = row.kind
    if problems:
        raise GuandanError("match adjustments that cannot be applied:\n" + "\n".join(problems))
    return kinds


def _outcome(levels: int) -> tuple[int, int]:
    """场分 in halves of (home, away) from the home team's net levels."""
    if levels > 0:
        return WIN, LOSS
    if levels < 0:
        return LOSS, WIN
    return DRAW, DRAW


def score_matches(
    matches: pd.DataFrame,
    results: pd.DataFrame,
    conversion: ConversionTable,
    fmt: str = "swiss",
    adjustments: pd.DataFrame | None = None,
    awards: ArtificialAwards = ArtificialAwards(),  # noqa: B008 - frozen, never mutated
) -> pd.DataFrame:
    """Match results (``MATCH_RESULT_COLUMNS``), one row per team per match, in match order.

    ``matches`` has ``MATCH_COLUMNS`` (``away`` empty for a bye); ``results`` is the
    normalised set table (round, table, ns_level, ew_level, adjusted); ``adjustments`` the
    director's decisions (``ADJUSTMENT_COLUMNS``); ``fmt`` picks the bye's award. A match
    whose rooms are missing, or adjusted in a way that names no clear outcome, is an error
    listing every such match.
    """
    rooms = {
        (int(r["round"]), int(r["table"])): r for r in results.to_dict("records")
    } if not results.empty else {}
    kinds = check_adjustments(adjustments, matches)
    by_codes = _code_awards(awards)
    rows, problems = [], []
    for m in matches.sort_values(["round", "match"]).itertuples():
        round_no, home = int(m.round), int(m.home)
        if pd.isna(m.away):
            bye = awards.bye(fmt)
            rows.append((round_no, m.match, home, pd.NA, pd.NA, pd.NA, bye.halves, bye.hundredths))
            continue
        away = int(m.away)
        where = f"round {round_no} match {m.match} (team {home} v team {away})"
        levels = pd.NA
        if (round_no, home) in kinds or (round_no, away) in kinds:
            mine = {t: kinds[(round_no, t)] for t in (home, away) if (round_no, t) in kinds}
            pair = _adjustment_awards(mine, home, away, awards)
        else:
            open_room = _room(rooms, round_no, int(m.open_table))
            closed_room = _room(rooms, round_no, int(m.closed_table))
            if open_room is None or closed_room is None:
                missing = [f"table {int(t)} ({name} room)" for t, name, room in (
                    (m.open_table, "open", open_room), (m.closed_table, "closed", closed_room))
                    if room is None]
                problems.append(f"  {where}: no result for {' and '.join(missing)}")
                continue
            adjusted = (_is_adjusted(open_room), _is_adjusted(closed_room))
            if adjusted == (False, False):
                levels = _real_levels(open_room, closed_room)
                halves = _outcome(levels)
                points = conversion.points(levels)
                pair = (Award(halves[0], points[0]), Award(halves[1], points[1]))
            elif adjusted == (True, True):
                codes = _codes(open_room, "ew"), _codes(closed_room, "ns")
                if codes[0] != codes[1] or codes[0] not in by_codes:
                    problems.append(
                        f"  {where}: both rooms are adjusted, but as home/away "
                        f"{'/'.join(codes[0])} (open) and {'/'.join(codes[1])} (closed); give "
                        "each team the same code in both rooms (A+ present, A- forfeit, A "
                        "excused), or record the decision as a match adjustment"
                    )
                    continue
                pair = by_codes[codes[0]]
            else:
                pair = (awards.not_duplicated, awards.not_duplicated)
        rows.append((round_no, m.match, home, away, True, levels, *_pair(pair[0])))
        rows.append((round_no, m.match, away, home, False,
                     -levels if levels is not pd.NA else pd.NA, *_pair(pair[1])))
    if problems:
        raise GuandanError("matches that cannot be scored:\n" + "\n".join(problems))
    return match_results_frame(rows)


def _pair(award: Award) -> tuple[int, int]:
    return award.halves, award.hundredths


def match_results_frame(rows: list[tuple]) -> pd.DataFrame:
    """Rows of (round, match, team, opponent, home, levels, halves, hundredths) as the
    ``match_results`` table: exact integers become decimals only here."""
    frame = pd.DataFrame(rows, columns=[*MATCH_RESULT_COLUMNS[:6], "halves", "hundredths"])
    frame = frame.astype({
        "round": "int64", "match": "int64", "team": "int64", "opponent": "Int64",
        "home": "boolean", "levels": "Int64", "halves": "int64", "hundredths": "int64",
    })
    frame["match_points"] = frame.pop("halves") / 2
    frame["level_points"] = frame.pop("hundredths") / 100
    return frame[list(MATCH_RESULT_COLUMNS)]


def exact_points(match_results: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """(场分 in halves, 级差分 in hundredths) of each row, as integers: read back exactly
    from the decimals of the file (a half and a hundredth are each within 1e-9 of a float)."""
    halves = (match_results["match_points"] * 2).round().astype("int64")
    hundredths = (match_results["level_points"] * 100).round().astype("int64")
    return halves, hundredths
