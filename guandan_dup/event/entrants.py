"""Made-up entrants for rehearsals and tests: players with Chinese names, pairs, teams named
after the cities where Guandan is played. The same for every call."""

from __future__ import annotations

import pandas as pd

SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾"
GIVEN = (
    "伟", "芳", "娜", "敏", "静", "丽", "强", "磊", "军", "洋", "勇",
    "艳", "杰", "娟", "涛", "明", "超", "秀英", "霞", "平", "刚", "桂英",
    "建华", "文", "斌", "宇", "浩", "凯",
)
CITIES = ("淮安", "南京", "北京", "上海", "苏州", "扬州", "合肥", "无锡", "徐州", "常州",
          "镇江", "南通", "盐城", "宿迁", "连云港", "泰州")


def demo_players(count: int, pairs: bool = False) -> pd.DataFrame:
    """``count`` players (id, name[, pair]): with ``pairs``, players 1-2 form pair D001,
    3-4 pair D002, and so on."""
    ids = [f"P{i:03d}" for i in range(1, count + 1)]
    names = [SURNAMES[i % len(SURNAMES)] + GIVEN[(i * 11) % len(GIVEN)] for i in range(count)]
    players = pd.DataFrame({"id": ids, "name": names})
    if pairs:
        players["pair"] = [f"D{i // 2 + 1:03d}" for i in range(count)]
    return players


def demo_teams(count: int, per_team: int = 4) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(players with ``team`` labels T01.., teams ``team, name``)."""
    labels = [f"T{i:02d}" for i in range(1, count + 1)]
    players = demo_players(count * per_team).assign(
        team=[label for label in labels for _ in range(per_team)])
    names = [CITIES[i % len(CITIES)] + ("队" if i < len(CITIES) else f"{i // len(CITIES) + 1}队")
             for i in range(count)]
    return players, pd.DataFrame({"team": labels, "name": names})
