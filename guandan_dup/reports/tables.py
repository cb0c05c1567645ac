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
from ..reading import read_csv, read_parquet
from ..scoring import read_output
from .render import Section, render

RANK, PLAYER, NAME, SETS = "名次 Rank", "选手 Player", "姓名 Name", "局数 Sets"
ROUND_PCT, TOTAL_PCT = "本轮 Round %", "累计 Total %"
SET, TABLE, GROUP = "局 Set", "桌 Table", "组 Group"
NORTH, EAST, SOUTH, WEST = "北 N", "东 E", "南 S", "西 W"
NS_LEVEL, EW_LEVEL, ADJUSTED = "南北级 NS level", "东西级 EW level", "调整 Adjusted"
NS_SCORE, NS_PCT, EW_PCT = "级差 NS diff", "南北 NS %", "东西 EW %"
PERCENT_COLUMNS = frozenset({ROUND_PCT, TOTAL_PCT, NS_PCT, EW_PCT})


def _in_round(frame: pd.DataFrame, round_: int, what: str) -> pd.DataFrame:
    part = frame[frame["round"] == round_]
    if part.empty:
        known = ", ".join(str(r) for r in sorted(frame["round"].unique())) or "none"
        raise GuandanError(f"round {round_!r} has no {what}: rounds scored are {known}")
    return part


def load_names(path: str | os.PathLike) -> pd.Series:
    """Player id -> name from a csv or Parquet file with columns ``player`` and ``name``.

    Read with the project's readers, so a csv saved by Excel (UTF-8 with a byte-order mark)
    works and an unreadable file is an error naming it.
    """
    if Path(path).suffix.lower() == ".parquet":
        frame = read_parquet(path, "names file").to_pandas()
    else:
        frame = read_csv(path)
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
    table[SETS] = part["sets"]
    table[ROUND_PCT] = percent(part["round_avg"])
    table[TOTAL_PCT] = percent(part["cumulative"])
    return table.reset_index(drop=True)


def level_text(levels: pd.Series, otherwise: pd.Series | str = "") -> pd.Series:
    """Level names ("2".."A+") of a level-index column; ``otherwise`` where there is no level
    (an artificial result: the travellers leave it blank, the site shows its code).

    >>> level_text(pd.Series([0, 13, None], dtype="Int8")).tolist()
    ['2', 'A+', '']
    """
    names = levels.astype("Int64").map(dict(enumerate(LEVEL_NAMES)), na_action="ignore")
    return names.astype("str").where(levels.notna(), otherwise)


def traveller_sections(
    travellers: pd.DataFrame, round_: int, set_: int | None = None
) -> list[Section]:
    """One titled table per set of ``round_`` (or just ``set_``): every table's result."""
    part = _in_round(travellers, round_, "travellers")
    if set_ is not None:
        part = part[part["set"] == set_]
        if part.empty:
            raise GuandanError(f"set {set_!r} was not played in round {round_!r}")
    part = part.sort_values(["set", "group", "table"])
    table = pd.DataFrame({
        SET: part["set"], GROUP: part["group"], TABLE: part["table"],
        NORTH: part["north"], EAST: part["east"], SOUTH: part["south"], WEST: part["west"],
        NS_LEVEL: level_text(part["ns_level"]), EW_LEVEL: level_text(part["ew_level"]),
        ADJUSTED: part["adjusted"].fillna(""), NS_SCORE: part["ns_score"],
        NS_PCT: percent(part["ns_rate"]), EW_PCT: percent(part["ew_rate"]),
    })
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
) -> str | bytes:
    """The ranking after ``round_`` as ``fmt`` (``note``: a line under the title)."""
    table = ranking_table(standings, round_, names)
    title = f"第{round_}轮后排名 Standings after round {round_}"
    return render([Section(title, table)], fmt, title, PERCENT_COLUMNS, note)


def travellers_document(
    travellers: pd.DataFrame, round_: int, fmt: str, set_: int | None = None, note: str = ""
) -> str | bytes:
    """The travellers of ``round_`` (one set with ``set_``) as ``fmt``."""
    sections = traveller_sections(travellers, round_, set_)
    title = f"第{round_}轮成绩单 Travellers, round {round_}"
    return render(sections, fmt, title, PERCENT_COLUMNS, note)


def standings_report(
    directory: str | os.PathLike,
    round_: int,
    fmt: str,
    names: str | os.PathLike | None = None,
) -> str | bytes:
    """The ranking after ``round_`` from ``directory/standings.parquet``, as ``fmt``."""
    standings = read_output(directory, "standings")
    return standings_document(standings, round_, fmt, None if names is None else load_names(names))


def travellers_report(
    directory: str | os.PathLike, round_: int, fmt: str, set_: int | None = None
) -> str | bytes:
    """The travellers of ``round_`` (one set with ``set_``) from ``directory``, as ``fmt``."""
    return travellers_document(read_output(directory, "travellers"), round_, fmt, set_)
