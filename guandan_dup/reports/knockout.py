"""A knockout's bracket and final places as tables to post (bilingual headers, one section
per round), from the frames the event side gathers (``event.formats.knockout``)."""

from __future__ import annotations

import pandas as pd

from ..knockout.source import Source
from .render import Section, render

ROUND, MATCH, PLACES, TABLE = "轮 Round", "场 Match", "名次段 For places", "桌 Table"
RESULT, WINNER, DECIDED = "成绩 Result", "胜方 Winner", "决胜 Decided by"
PLACE, NAME = "名次 Place", "名称 Name"
#: The two sides' headers and an entry's, for pairs (side A sits N-S) and teams (A at home).
SIDES = {
    "pairs": ("甲方 Side A (N-S)", "乙方 Side B (E-W)", "参赛对 Pair"),
    "teams": ("主队 Home", "客队 Away", "队 Team"),
}
#: How each bracket is named on a notice board.
PLACES_NAMES = {"main": "主赛 main", "3-4": "三四名决赛 3rd-4th place",
                "5-8": "5-8名 places 5-8", "5-6": "5-6名 places 5-6", "7-8": "7-8名 places 7-8"}


#: ``decided_by`` (``knockout.bracket.DECIDED_BY``) in Chinese and English, for pairs and
#: teams alike; the site's words (``reports.site.labels``: 级数, 加赛, 弃权, 轮空).
DECIDED_WORDS = {
    "levels": "级数 levels", "extra boards": "加赛 extra boards", "bye": "轮空 bye",
    "forfeit": "弃权 forfeit", "场分": "场分 match points", "级差分": "级差分 level points",
    "级差": "级差 level difference",
}


def decided_text(decided) -> str:
    """How a match was decided, in words; empty while it is to play.

    >>> decided_text("场分"), decided_text("levels"), decided_text(None)
    ('场分 match points', '级数 levels', '')
    """
    if not isinstance(decided, str):
        return ""
    return DECIDED_WORDS.get(decided, decided)


FROM = {"winner": "第{r}轮第{m}场胜者 winner of round {r} match {m}",
        "loser": "第{r}轮第{m}场负者 loser of round {r} match {m}"}


def source_text(source) -> str:
    """Where a side of a match still to come comes from, ``"winner 1.2"`` as words; empty
    for none (a bye).

    >>> source_text("loser 3.1")
    '第3轮第1场负者 loser of round 3 match 1'
    """
    if not isinstance(source, str):
        return ""
    found = Source.from_text(source)
    return FROM[found.kind].format(r=found.round, m=found.match)


def _side(ids: pd.Series, names: pd.Series, sources: pd.Series | None = None) -> pd.Series:
    """Each side as "id name" (the id alone without a name); where there is none yet, where
    it comes from (``sources``), or nothing."""
    known = (ids.astype(str) + " " + names.fillna("").astype(str)).str.strip()
    return known.where(ids.notna(), "" if sources is None else sources.map(source_text))


def bracket_sections(view: pd.DataFrame, kind: str = "pairs") -> list[Section]:
    """One table per round of ``view`` (``event.formats.knockout.VIEW_COLUMNS``)."""
    side_a, side_b, _ = SIDES[kind]
    table = pd.DataFrame({
        ROUND: view["round"],
        MATCH: view["match"],
        PLACES: view["places"].map(PLACES_NAMES),
        TABLE: view["table"].astype("Int64").astype(str).replace("<NA>", ""),
        side_a: _side(view["side_a"], view["side_a_name"], view["from_a"]),
        side_b: _side(view["side_b"], view["side_b_name"], view["from_b"]).replace("", "轮空 bye"),
        RESULT: view["result"],
        WINNER: _side(view["winner"], view["winner_name"]),
        DECIDED: view["decided_by"].map(decided_text),
    })
    return [
        Section(f"第{r}轮 Round {r}", rows.reset_index(drop=True))
        for r, rows in table.groupby(ROUND, sort=True)
    ]


def places_table(places: pd.DataFrame, kind: str = "pairs") -> pd.DataFrame:
    """``side, place, place_label, name`` as a notice-board table, best first."""
    return pd.DataFrame({PLACE: places["place_label"], SIDES[kind][2]: places["side"],
                         NAME: places["name"].fillna("")}).reset_index(drop=True)


def bracket_report(view: pd.DataFrame, fmt: str, title: str, kind: str = "pairs") -> str | bytes:
    """Every round's matches (``kind``: pairs or teams) as one document in ``fmt``."""
    sections = bracket_sections(view, kind)
    return render(sections, fmt, f"{title} · 淘汰赛 Knockout", frozenset())


def places_report(places: pd.DataFrame, fmt: str, title: str, kind: str = "pairs") -> str | bytes:
    heading = f"{title} · 最终名次 Final places"
    return render([Section(heading, places_table(places, kind))], fmt, heading, frozenset())
