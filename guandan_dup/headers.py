"""Column headers as directors write them, and where a spreadsheet's header row is.

A Chinese club's sheet says 桌号 where the program says ``table``, may type it with a Chinese
input method's full-width letters (``ｔａｂｌｅ``), and puts a title row ("第3轮成绩") or a
blank row above the header. Every input file is read through these rules, so a header cell
names a column if, after Unicode NFKC (full-width to plain), trimming and lower-casing, it is
the column's name or one of its aliases (:data:`ALIASES`); the header is the first row, among
the first :data:`HEADER_SEARCH`, that names the columns the file needs.

>>> column_name(" 桌号 "), column_name("ＲＯＵＮＤ"), column_name("Notes")
('table', 'round', 'notes')
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Collection, Sequence

ALIASES = {
    # results files (issue 23)
    "轮次": "round", "轮": "round",
    "组": "group", "组别": "group",
    "桌号": "table", "桌": "table",
    "局": "set", "局号": "set",
    "副": "board", "副号": "board", "牌号": "board",
    "北": "north", "东": "east", "南": "south", "西": "west",
    "南北级数": "ns_level", "南北": "ns_level",
    "东西级数": "ew_level", "东西": "ew_level",
    "出完顺序": "finish", "游序": "finish",
    "调整": "adjusted",
    # players, teams and lineups files
    "编号": "id", "选手编号": "id",
    "姓名": "name", "名字": "name",
    "种子": "seed", "种子号": "seed",
    "搭档": "pair", "组合": "pair",
    "队": "team", "队伍": "team", "代表队": "team",
    "室": "room", "房间": "room",
    "场地": "venue", "赛场": "venue",
    "选手1": "player_1", "选手2": "player_2",
}
"""Header text (after NFKC and trimming) -> the column it names."""

HEADER_SEARCH = 20
"""How many rows from the top are searched for the header: enough for a title block,
few enough that a sheet of notes is not read to its end to find none."""


def normal(text: str) -> str:
    """A cell as a number, level or finishing order is read: NFKC (full-width ``Ｋ７，`` are
    ``K7,``, an ideographic space a space) and trimmed.

    >>> normal(" １０ "), normal("Ｋ"), normal("1，3")
    ('10', 'K', '1,3')
    """
    return unicodedata.normalize("NFKC", text).strip()


def column_name(text: str) -> str:
    """The column a header cell names: its alias's column, else its normal lower-case text."""
    name = normal(text).lower()
    return ALIASES.get(name, name)


def named_twice(names: Sequence[str]) -> str | None:
    """Why a header (its :func:`column_name` names) cannot be read, if it names a column
    twice: which of the two holds the values? Phrased after the file's name.

    >>> named_twice(["table", "set"]) is None
    True
    >>> named_twice([column_name(cell) for cell in ["table", "局", "桌号"]])
    "has two columns named 'table' (columns 1 and 3)"
    """
    twice = [n for n in dict.fromkeys(names) if n and names.count(n) > 1]
    if not twice:
        return None
    where = " and ".join(str(i + 1) for i, n in enumerate(names) if n == twice[0])
    return f"has two columns named {twice[0]!r} (columns {where})"


def naming(required: Collection[str]) -> Callable[[Sequence[str]], bool]:
    """A header test: the row names every one of ``required`` (after :func:`column_name`)."""
    wanted = set(required)
    return lambda names: wanted <= set(names)


def header_index(rows: Sequence[Sequence[str]], is_header: Callable[[Sequence[str]], bool]
                 ) -> int | None:
    """The position of the header among ``rows`` (raw cells): the first row, among the first
    :data:`HEADER_SEARCH`, whose column names pass ``is_header``; else the first row with a
    cell (so the problems say which columns it has); None for rows all blank.

    >>> header_index([["第3轮成绩"], [], ["桌号", "局"]], naming(["table"]))
    2
    >>> header_index([[""], ["x", "y"]], naming(["table"])), header_index([[], ["x"]], naming([]))
    (1, 1)
    """
    filled = None
    for i, row in enumerate(rows[:HEADER_SEARCH]):
        if not any(str(cell).strip() for cell in row):
            continue
        filled = i if filled is None else filled
        if is_header([column_name(str(cell)) for cell in row]):
            return i
    if filled is None:
        filled = next((i for i, row in enumerate(rows) if any(str(c).strip() for c in row)),
                      None)
    return filled
