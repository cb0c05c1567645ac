"""A knockout's bracket and final places as tables to post (bilingual headers, one section
per round), from the frames the event side gathers (``event.knockout_tables``)."""

from __future__ import annotations

import pandas as pd

from .render import Section, render

ROUND, MATCH, PLACES, TABLE = "轮 Round", "场 Match", "名次段 For places", "桌 Table"
SIDE_A, SIDE_B, RESULT = "甲方 Side A (N-S)", "乙方 Side B (E-W)", "成绩 Result"
WINNER, DECIDED = "胜方 Winner", "决胜 Decided by"
PLACE, SIDE, NAME = "名次 Place", "参赛对 Pair", "姓名 Names"
#: How each bracket is named on a notice board.
PLACES_NAMES = {"main": "主赛 main", "3-4": "3-4名", "5-8": "5-8名", "5-6": "5-6名",
                "7-8": "7-8名"}


def _side(ids: pd.Series, names: pd.Series) -> pd.Series:
    return (ids.astype(str) + " " + names.fillna("").astype(str)).where(ids.notna(), "")


def bracket_sections(view: pd.DataFrame) -> list[Section]:
    """One table per round of ``view`` (``event.knockout_tables.VIEW_COLUMNS``)."""
    table = pd.DataFrame({
        ROUND: view["round"],
        MATCH: view["match"],
        PLACES: view["places"].map(PLACES_NAMES),
        TABLE: view["table"].astype("Int64").astype(str).replace("<NA>", ""),
        SIDE_A: _side(view["side_a"], view["side_a_name"]),
        SIDE_B: _side(view["side_b"], view["side_b_name"]).replace("", "轮空 bye"),
        RESULT: view["result"],
        WINNER: view["winner"].fillna("").astype(str),
        DECIDED: view["decided_by"].fillna("").astype(str),
    })
    return [
        Section(f"第{r}轮 Round {r}", rows.reset_index(drop=True))
        for r, rows in table.groupby(ROUND, sort=True)
    ]


def places_table(places: pd.DataFrame) -> pd.DataFrame:
    """``side, place, place_label, name`` as a notice-board table, best first."""
    return pd.DataFrame({PLACE: places["place_label"], SIDE: places["side"],
                         NAME: places["name"].fillna("")}).reset_index(drop=True)


def bracket_report(view: pd.DataFrame, fmt: str, title: str) -> str | bytes:
    return render(bracket_sections(view), fmt, f"{title} · 淘汰赛 Knockout", frozenset())


def places_report(places: pd.DataFrame, fmt: str, title: str) -> str | bytes:
    heading = f"{title} · 最终名次 Final places"
    return render([Section(heading, places_table(places))], fmt, heading, frozenset())
