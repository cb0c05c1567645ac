"""The tables a team event posts: team standings and match results (SPEC 8).

Headers are bilingual like the individual tables; 级差分 shows two decimals (art. 50), 场分
halves as they are, and tied ranks as "3=". Every page and export names the 级差分
conversion table the points came from. Frames in, rendered documents out: the event side
reads the files and hands the tables over.
"""

from __future__ import annotations

import pandas as pd

from .render import Section, render
from .tables import DECISIONS, decisions_table

RANK, TEAM, NAME = "名次 Rank", "队号 Team", "队名 Name"
PLAYED, WON, DRAWN, LOST = "场次 Played", "胜 Won", "平 Drawn", "负 Lost"
MATCH_POINTS, LEVEL_POINTS = "场分 Match points", "级差分 Level points"
LEVELS, OPPONENT_POINTS = "级差 Levels", "对手分 Opponents' points"
MATCH, HOME, AWAY, TABLES = "场 Match", "主队 Home", "客队 Away", "桌 Tables"
HOME_MP, AWAY_MP = "主队场分 Home match points", "客队场分 Away match points"
HOME_LP, AWAY_LP = "主队级差分 Home level points", "客队级差分 Away level points"
CONVERSION = "级差分换算表 Conversion table"
PENALTY_MP, PENALTY_LP = "罚场分 Penalty match points", "罚级差分 Penalty level points"
TWO_DECIMALS = frozenset({LEVEL_POINTS, HOME_LP, AWAY_LP, PENALTY_LP})


def _team_label(numbers: pd.Series, names: pd.Series) -> pd.Series:
    return numbers.map(lambda t: f"{int(t)} {names.get(int(t), '')}".strip()
                       if pd.notna(t) else "轮空 bye")


def team_standings_table(standings: pd.DataFrame, names: pd.Series) -> pd.DataFrame:
    """Standings of one round in position order; ``names`` maps team number -> name."""
    part = standings.sort_values("position")
    table = pd.DataFrame({
        RANK: part["rank_label"].astype(str),
        TEAM: part["team"],
        NAME: part["team"].map(names).fillna(""),
        PLAYED: part["played"], WON: part["wins"], DRAWN: part["draws"], LOST: part["losses"],
        MATCH_POINTS: part["match_points"],
        LEVEL_POINTS: part["level_points"],
        LEVELS: part["level_diff"],
        OPPONENT_POINTS: part["opponent_points"],
    }).reset_index(drop=True)
    taken = ("penalty_match_points", "penalty_level_points")
    if any(c in part and part[c].fillna(0).ne(0).any() for c in taken):  # art. 51.3
        table[PENALTY_MP] = part["penalty_match_points"].fillna(0).to_numpy()
        table[PENALTY_LP] = part["penalty_level_points"].fillna(0).to_numpy()
    return table


def matches_with_results(
    match_results: pd.DataFrame, matches: pd.DataFrame, how: str = "left"
) -> pd.DataFrame:
    """The matches table with the home team's ``levels``, ``match_points`` and
    ``level_points`` and the away team's as ``match_points_away``, ``level_points_away``
    (a bye's team counts as home); ``how="inner"`` keeps scored matches only."""
    is_home = match_results["home"].fillna(True).astype(bool)
    home = match_results[is_home].drop(columns="home")
    away = match_results[~is_home][["round", "match", "match_points", "level_points"]]
    rows = matches.merge(home, left_on=["round", "match", "home"],
                         right_on=["round", "match", "team"], how=how)
    return rows.merge(away, on=["round", "match"], how="left", suffixes=("", "_away"))


def match_results_table(
    match_results: pd.DataFrame, matches: pd.DataFrame, names: pd.Series
) -> pd.DataFrame:
    """One row per match of a round: both teams, the home team's 级差, both awards."""
    rows = matches_with_results(match_results, matches)
    tables = rows.apply(lambda r: "" if pd.isna(r["open_table"]) else
                        f"{int(r['open_table'])} / {int(r['closed_table'])}", axis=1)
    return pd.DataFrame({
        MATCH: rows["match"], HOME: _team_label(rows["home"], names),
        AWAY: _team_label(rows["away"], names), TABLES: tables,
        LEVELS: rows["levels"],
        HOME_MP: rows["match_points"], AWAY_MP: rows["match_points_away"],
        HOME_LP: rows["level_points"], AWAY_LP: rows["level_points_away"],
    }).sort_values(MATCH, ignore_index=True)


def named_once(table: pd.DataFrame, conversion: str) -> pd.DataFrame:
    """``table`` with a last column ``CONVERSION`` naming the conversion table on its first
    row, empty below: said once, as a header would, yet still a column a spreadsheet keeps.

    >>> named_once(pd.DataFrame({"x": [1, 2]}), "linear")[CONVERSION].tolist()
    ['linear', '']
    """
    return table.assign(**{CONVERSION: [conversion] + [""] * (len(table) - 1)}) if len(
        table) else table.assign(**{CONVERSION: pd.Series(dtype="str")})


CONVERSION_NAMES = {"linear": "线性", "half": "减半"}
"""The Chinese names of the shipped 级差分 tables (``teams.conversion.PRESETS``)."""


def conversion_name(name: str, lang: str) -> str:
    """The 级差分 table's name as a page shows it: a preset's Chinese name with the name the
    director typed after it (the site's Chinese pages), a director's own table as named.

    >>> conversion_name("linear", "zh"), conversion_name("half", "en")
    ('线性 linear', 'half')
    >>> conversion_name("城市杯表", "zh")
    '城市杯表'
    """
    chinese = CONVERSION_NAMES.get(name)
    return f"{chinese} {name}" if chinese and lang == "zh" else name


def team_reports(
    standings: pd.DataFrame,
    match_results: pd.DataFrame,
    matches: pd.DataFrame,
    names: pd.Series,
    round_no: int,
    conversion: str,
    fmt: str,
    decisions: pd.DataFrame | None = None,
    note: str = "",
) -> dict[str, str | bytes]:
    """``team-standings`` and ``match-results`` of one round rendered as ``fmt``; the
    standings list the director's ``decisions`` (``tables.decisions_table``) below them
    (not in csv: the decisions have a csv of their own). ``note`` (art. 48's provisional)
    is a line under both titles, as on the individual standings.

    md and html name the conversion table in the title; csv and xlsx, which hold only the
    table, in a last column ``CONVERSION`` filled on the first row only (``named_once``),
    so the name travels with every copy without repeating on every row."""
    named = f"级差分换算表 conversion table: {conversion_name(conversion, 'zh')}"
    standings_title = f"第{round_no}轮后团体排名 Team standings after round {round_no} · {named}"
    results_title = f"第{round_no}轮比赛结果 Match results, round {round_no} · {named}"
    tables = {
        "team-standings": [Section(standings_title, team_standings_table(standings, names))],
        "match-results": [Section(results_title,
                                  match_results_table(match_results, matches, names))],
    }
    if fmt in ("csv", "xlsx"):
        tables = {name: [Section(s.heading, named_once(s.table, conversion_name(conversion, "zh")))
                         for s in sections] for name, sections in tables.items()}
    if decisions is not None and len(decisions) and fmt != "csv":
        tables["team-standings"].append(
            Section(DECISIONS, decisions_table(decisions, team_names=names)))
    return {name: render(sections, fmt, sections[0].heading, TWO_DECIMALS, note)
            for name, sections in tables.items()}
