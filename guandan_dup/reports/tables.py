"""The tables a director posts: the ranking after a round and the per-set travellers.

Headers are bilingual (Chinese first, as on a tournament notice board); rates are shown as
percentages with two decimals and tied ranks as "1=". The frames built here are rendered to
csv, xlsx, md or html by :mod:`.render`: ``standings_document`` and ``travellers_document``
from tables given (the event export), ``standings_report`` and ``travellers_report`` from
what ``score`` wrote in a folder (the ``standings`` and ``travellers`` commands).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import GuandanError
from ..levels import LEVEL_NAMES
from ..reading import read_parquet, read_table
from ..scoring import read_output
from ..scoring.venues import venue_standings
from ..wording import numbered
from .render import Section, render

RANK, PLAYER, NAME, SETS = "名次 Rank", "选手 Player", "姓名 Name", "局数 Sets"
VENUE = "场地 Venue"
ROUND_PCT, TOTAL_PCT = "本轮 Round %", "累计 Total %"
SET, TABLE, GROUP = "局 Set", "桌 Table", "组 Group"
NORTH, EAST, SOUTH, WEST = "北 N", "东 E", "南 S", "西 W"
SEATS = {"north": NORTH, "east": EAST, "south": SOUTH, "west": WEST}
SEAT_NAMES = {"north": "北姓名 N name", "east": "东姓名 E name", "south": "南姓名 S name",
              "west": "西姓名 W name"}
"""A traveller's name column beside each seat's id column (the id columns are kept)."""
NS_LEVEL, EW_LEVEL, ADJUSTED = "南北级 NS level", "东西级 EW level", "调整 Adjusted"
NS_SCORE, NS_PCT, EW_PCT = "级差 NS diff", "南北 NS %", "东西 EW %"
PERCENT_COLUMNS = frozenset({ROUND_PCT, TOTAL_PCT, NS_PCT, EW_PCT})
NS_START, EW_START = "南北起始级 NS start", "东西起始级 EW start"
PENALTY, ARTICLE, REASON = "罚分 Penalty", "条款 Article", "原因 Reason"
ROUND, TEAM, TEAM_NAME, KIND = "轮 Round", "队号 Team", "队名 Team name", "类别 Kind"
MATCH_PENALTY, LEVEL_PENALTY = "罚场分 Match points", "罚级差分 Level points"
RESULT, DECISION = "结果 Result", "决定 Decision"
DECISIONS = "判罚与调整 Penalties and adjustments"
KINDS = {
    "penalty": ("罚分", "Penalty"), "overtime": ("超时", "Overtime"),
    "late": ("迟到", "Late arrival"), "absent": ("缺席", "Absent"),
    "excused": ("准假", "Excused"), "assigned": ("判定成绩", "Assigned result"),
    "artificial": ("人为成绩", "Artificial result"), "not-played": ("未打", "Not played"),
    "fouled": ("错牌", "Fouled boards"),
}
"""The ledger kinds a decisions table shows, in Chinese and English."""


def _in_round(frame: pd.DataFrame, round_: int, what: str) -> pd.DataFrame:
    part = frame[frame["round"] == round_]
    if part.empty:
        known = sorted(int(r) for r in frame["round"].unique())
        raise GuandanError(f"round {round_!r} has no {what}: "
                           + (f"{numbered('round', known)} scored" if known else
                              "no round is scored"))
    return part


def load_names(path: str | os.PathLike) -> pd.Series:
    """Player id -> name from a csv or Parquet file with columns ``player`` and ``name``.

    Read with the project's readers, so a csv saved by Excel (UTF-8 with a byte-order mark)
    works and an unreadable file is an error naming it.
    """
    if Path(path).suffix.lower() == ".parquet":
        frame = read_parquet(path, "names file").to_pandas()
    else:
        frame = read_table(path)
    missing = [c for c in ("player", "name") if c not in frame.columns]
    if missing:
        raise GuandanError(
            f"{str(path)!r} has no column {missing[0]!r}: expected columns 'player' and 'name'"
        )
    return frame.astype({"player": str, "name": str}).set_index("player")["name"]


def percent(rates):
    """Rates (a Series, array or one float) as percentages rounded half up to two decimals,
    as a director (or a spreadsheet's ROUND) would: 1/32 shows 3.13, not the 3.12 of rounding
    half to even. A rate held as a float may land a hair below an exact half (1/800 * 10000 is
    not exactly 12.5); the slack of a millionth of a hundredth rounds it up, and touches only
    values that close to a half. The site rounds with this too, so every page agrees.

    >>> percent(pd.Series([1 / 32, 1 / 800, 2 / 3, None])).tolist()
    [3.13, 0.13, 66.67, nan]
    """
    hundredths = np.floor(np.asarray(rates, dtype="float64") * 10_000 + 0.5 + 1e-6)
    if isinstance(rates, pd.Series):
        hundredths = pd.Series(hundredths, index=rates.index)
    return hundredths / 100


def ranking_table(
    standings: pd.DataFrame, round_: int, names: pd.Series | None = None
) -> pd.DataFrame:
    """The ranking after ``round_``, in position order, with bilingual headers."""
    part = _in_round(standings, round_, "standings").sort_values("position")
    table = pd.DataFrame({RANK: part["rank_label"].astype(str), PLAYER: part["player"]})
    if names is not None:
        table[NAME] = part["player"].map(names).fillna("")
    if "venue" in part:
        table[VENUE] = part["venue"].to_numpy()
    table[SETS] = part["sets"]
    table[ROUND_PCT] = percent(part["round_avg"])
    table[TOTAL_PCT] = percent(part["cumulative"])
    if "penalty" in part and part["penalty"].fillna(0).ne(0).any():
        table[PENALTY] = part["penalty"].fillna(0).to_numpy()  # percentage points taken off
    return table.reset_index(drop=True)


def decisions_table(decisions: pd.DataFrame, names: pd.Series | None = None,
                    team_names: pd.Series | None = None) -> pd.DataFrame:
    """The director's decisions (``event.decisions``' table), as posted: where, who, what
    kind, how much or which result, in words, under which article and why. A column no
    decision fills (a team's 场分 in an individual event) is left out."""
    rows = decisions.reset_index(drop=True)
    names = pd.Series(dtype="str") if names is None else names
    team_names = pd.Series(dtype="str") if team_names is None else team_names
    table = pd.DataFrame({
        ROUND: rows["round"], SET: rows["set"], TABLE: rows["table"],
        PLAYER: rows["player"], NAME: rows["player"].map(names),
        TEAM: rows["team"], TEAM_NAME: rows["team"].map(team_names),
        KIND: rows["kind"].map(lambda k: " ".join(KINDS.get(k, (k,)))),
        PENALTY: rows["points"], MATCH_PENALTY: rows["match_points"],
        LEVEL_PENALTY: rows["level_points"], RESULT: rows["result"],
        DECISION: rows["decision"], ARTICLE: rows["article"], REASON: rows["reason"],
    })
    always = {ROUND, KIND, DECISION, ARTICLE, REASON}
    empty = [c for c in table.columns
             if c not in always and table[c].replace("", None).isna().all()]
    return table.drop(columns=empty)


def decisions_document(decisions: pd.DataFrame, round_: int, fmt: str,
                       names: pd.Series | None = None, team_names: pd.Series | None = None,
                       note: str = "") -> str | bytes:
    """The decisions of ``round_`` as ``fmt``: the export ``decisions-round-R``."""
    title = f"第{round_}轮判罚与调整 Penalties and adjustments, round {round_}"
    table = decisions_table(decisions, names, team_names)
    return render([Section(title, table)], fmt, title, frozenset(), note)


def with_start_levels(travellers: pd.DataFrame, starts: pd.DataFrame) -> pd.DataFrame:
    """Travellers with ``ns_start`` and ``ew_start``: the level names a late arrival's
    set started at (art. 32, the ledger's ``start_levels``), empty for a set started at
    2/2."""
    keys = ["round", "set", "table"]
    found = travellers[keys].merge(starts[[*keys, "ns_start", "ew_start"]].astype(
        {k: "int64" for k in keys}), on=keys, how="left")
    return travellers.assign(**{
        column: level_text(found[column].astype("Int8")).to_numpy()
        for column in ("ns_start", "ew_start")})


def level_text(levels: pd.Series, otherwise: pd.Series | str = "") -> pd.Series:
    """Level names ("2".."A+") of a level-index column; ``otherwise`` where there is no level
    (an artificial result: the travellers leave it blank, the site shows its code).

    >>> level_text(pd.Series([0, 13, None], dtype="Int8")).tolist()
    ['2', 'A+', '']
    """
    names = levels.astype("Int64").map(dict(enumerate(LEVEL_NAMES)), na_action="ignore")
    return names.astype("str").where(levels.notna(), otherwise)


def traveller_sections(
    travellers: pd.DataFrame, round_: int, set_: int | None = None,
    starts: pd.DataFrame | None = None, names: pd.Series | None = None,
) -> list[Section]:
    """One titled table per set of ``round_`` (or just ``set_``): every table's result;
    with the levels each late arrival's set started at when ``starts`` (the ledger's
    ``start_levels``) has any for the round. With ``names`` (player id -> name) each seat's
    id is followed by the player's name, so a traveller posted on the wall names the players.
    The ``调整 Adjusted`` column (an artificial result's codes) is shown only when some
    table of the round has one: the Parquet travellers keep ``adjusted`` on every row."""
    part = _in_round(travellers, round_, "travellers")
    if set_ is not None:
        part = part[part["set"] == set_]
        if part.empty:
            raise GuandanError(f"set {set_!r} was not played in round {round_!r}")
    part = part.sort_values(["set", "group", "table"])
    seats: dict[str, pd.Series] = {}
    for seat, header in SEATS.items():
        seats[header] = part[seat]
        if names is not None:
            seats[SEAT_NAMES[seat]] = part[seat].astype(str).map(names).fillna("")
    table = pd.DataFrame({
        SET: part["set"], GROUP: part["group"], TABLE: part["table"], **seats,
        NS_LEVEL: level_text(part["ns_level"]), EW_LEVEL: level_text(part["ew_level"]),
        ADJUSTED: part["adjusted"].fillna(""), NS_SCORE: part["ns_score"],
        NS_PCT: percent(part["ns_rate"]), EW_PCT: percent(part["ew_rate"]),
    })
    if table[ADJUSTED].eq("").all():
        table = table.drop(columns=ADJUSTED)
    if starts is not None and len(starts[starts["round"] == round_]):
        started = with_start_levels(part, starts)
        table.insert(table.columns.get_loc(NS_LEVEL), NS_START, started["ns_start"])
        table.insert(table.columns.get_loc(NS_LEVEL), EW_START, started["ew_start"])
    return [
        Section(f"第{number}局 Set {number}", rows.reset_index(drop=True))
        for number, rows in table.groupby(SET, sort=True)
    ]


def standings_document(
    standings: pd.DataFrame,
    round_: int,
    fmt: str,
    names: pd.Series | None = None,
    note: str = "",
    decisions: pd.DataFrame | None = None,
    venue: str = "",
) -> str | bytes:
    """The ranking after ``round_`` as ``fmt`` (``note``: a line under the title), with the
    director's ``decisions`` (``decisions_table``) listed below it in md, html and xlsx
    (a sheet of its own). csv holds the ranking alone, so a spreadsheet sorts and sums it:
    the decisions have a csv of their own (``decisions_document``). With ``venue``, that
    venue's players only, ranked within it (``scoring.venues``)."""
    if venue:
        standings = venue_standings(_in_round(standings, round_, "standings"), venue)
    table = ranking_table(standings, round_, names)
    title = f"第{round_}轮后排名 Standings after round {round_}"
    if venue:
        title += f" · 场地 {venue}"
    sections = [Section(title, table)]
    if decisions is not None and len(decisions) and fmt != "csv":
        sections.append(Section(DECISIONS, decisions_table(decisions, names)))
    return render(sections, fmt, title, PERCENT_COLUMNS, note)


def travellers_document(
    travellers: pd.DataFrame, round_: int, fmt: str, set_: int | None = None, note: str = "",
    starts: pd.DataFrame | None = None, names: pd.Series | None = None,
) -> str | bytes:
    """The travellers of ``round_`` (one set with ``set_``) as ``fmt``, with late starts'
    levels from ``starts`` and the players' ``names`` (``traveller_sections``)."""
    sections = traveller_sections(travellers, round_, set_, starts, names)
    title = f"第{round_}轮成绩单 Travellers, round {round_}"
    return render(sections, fmt, title, PERCENT_COLUMNS, note)


def standings_report(
    directory: str | os.PathLike,
    round_: int,
    fmt: str,
    names: str | os.PathLike | None = None,
    venue: str = "",
) -> str | bytes:
    """The ranking after ``round_`` from ``directory/standings.parquet``, as ``fmt``; with
    ``venue``, that venue's players ranked within it."""
    standings = read_output(directory, "standings")
    return standings_document(standings, round_, fmt, None if names is None else load_names(names),
                              venue=venue)


def travellers_report(
    directory: str | os.PathLike, round_: int, fmt: str, set_: int | None = None,
    names: str | os.PathLike | None = None,
) -> str | bytes:
    """The travellers of ``round_`` (one set with ``set_``) from ``directory``, as ``fmt``;
    with ``names`` (a names file, ``load_names``) the players' names beside their ids."""
    return travellers_document(read_output(directory, "travellers"), round_, fmt, set_,
                               names=None if names is None else load_names(names))
