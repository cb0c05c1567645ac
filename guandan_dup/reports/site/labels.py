"""Page labels in Chinese (the default: players read the site on their phones) and English.

Labels live in one table per language with the same keys, so a template never hard-codes
words and switching ``--lang`` cannot leave half a page untranslated (a test holds the key
sets equal). Player names and ids are data, never translated.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...errors import GuandanError
from ..tables import KINDS

LABELS: Mapping[str, Mapping[str, str]] = {
    "zh": {
        "html_lang": "zh-CN",
        "site_title": "成绩公告",
        "home": "首页",
        "rounds": "轮次",
        "round": "轮",
        "round_n": "第 {n} 轮",
        "after_round": "第 {n} 轮后排名",
        "venue": "场地",
        "not_scored": "尚未计分",
        "standings": "排名",
        "seating": "座位表",
        "seating_n": "第 {n} 轮座位表",
        "group": "组",
        "rank": "名次",
        "player": "选手",
        "cumulative": "累计得分率",
        "round_rate": "本轮得分率",
        "sets": "局数",
        "move": "升降",
        "search": "搜索姓名或编号",
        "set": "局",
        "set_n": "第 {n} 局",
        "table": "桌",
        "seat": "方位",
        "partner": "搭档",
        "opponents": "对手",
        "result": "结果（级）",
        "score_rate": "得分率",
        "bye": "轮空",
        "position_chart": "各轮名次",
        "position": "名次",
        "history": "各局成绩",
        "traveller": "成绩单",
        "travellers": "各局成绩单",
        "ns": "南北",
        "ew": "东西",
        "ns_rate": "南北得分率",
        "ew_rate": "东西得分率",
        "levels": "级",
        "adjusted": "判定",
        "hand_records": "牌例",
        "board_n": "第 {n} 副",
        "leader": "首出",
        "pending": "待完成",
        "set_pending": "本局尚有桌次未完成：成绩单和牌例将在所有桌次打完后公布。",
        "provisional": "暂定",
        "standings_withheld": "第 {sets} 局尚有桌次未完成：本轮排名在所有桌次打完后公布。",
        "correcting_note": "本轮仍在更正时限内（第四十八条），成绩可能更正。",
        "decisions": "判罚与调整",
        "my_decisions": "裁判判罚与调整",
        "kind": "类别",
        "amount": "罚分或结果",
        "decision": "决定",
        "match_points_off": "场分",
        "level_points_off": "级差分",
        "late_start": "开局 {ns} : {ew}（迟到，第三十二条）",
        "article": "条款",
        "reason": "原因",
        **{f"kind:{kind}": zh for kind, (zh, _) in KINDS.items()},
        "standing_now": "第 {n} 轮后：名次 {rank}（共 {field} 人），累计得分率 {cumulative}",
        "commitment": "发牌承诺值（赛前公布）",
        "key": "发牌密钥",
        "key_hidden": "密钥将在最后一轮结束后公布。",
        "abandoned": "本赛事提前终止，密钥在所有牌局打完之前公布（{at}）。原因：{reason}",
        "verify": "任何人都可以用密钥重新生成并核对每一副牌：",
        "verify_how": (
            "下载本网站的文件夹（至少 event.key 和 boards 文件夹），在该文件夹中逐行运行："
        ),
        "boards_file": "牌例文件",
        "all_standings": "全部排名（共 {field} 人）",
        "find": "找自己：输入姓名或编号",
        "not_found": "没有找到",
        "verify_deals": "核对牌局",
        "bracket_now": "正在进行：{round}",
        "jump_to": "跳到",
        "N": "北",
        "E": "东",
        "S": "南",
        "W": "西",
        "joker_small": "小王",
        "joker_big": "大王",
        "chart_caption": "{name} 在各轮后的名次（越高越好）",
        "bracket": "对阵图",
        "final_places": "最终名次",
        "final": "决赛",
        "semi_finals": "半决赛",
        "quarter_finals": "1/4 决赛",
        "classification": "名次赛",
        "match_n": "第 {n} 场",
        "for_places": "第 {p} 名",
        "third_place": "三四名决赛",
        "places_in": "第 {p} 名{round}",
        "decided:levels": "级数",
        "decided:extra boards": "加赛",
        "decided:forfeit": "弃权",
        "decided:bye": "轮空",
        "decided:场分": "场分",
        "decided:级差分": "级差分",
        "decided:级差": "级差",
        "to_play": "待定",
        "entry": "参赛者",
        "winner_of": "第 {r} 轮第 {m} 场胜者",
        "loser_of": "第 {r} 轮第 {m} 场负者",
    },
    "en": {
        "html_lang": "en",
        "site_title": "Results",
        "home": "Home",
        "rounds": "Rounds",
        "round": "Round",
        "round_n": "Round {n}",
        "after_round": "Standings after round {n}",
        "venue": "Venue",
        "not_scored": "not scored yet",
        "standings": "Standings",
        "seating": "Seating",
        "seating_n": "Seating of round {n}",
        "group": "Group",
        "rank": "Rank",
        "player": "Player",
        "cumulative": "Cumulative",
        "round_rate": "Round",
        "sets": "Sets",
        "move": "Move",
        "search": "Search name or id",
        "set": "Set",
        "set_n": "Set {n}",
        "table": "Table",
        "seat": "Seat",
        "partner": "Partner",
        "opponents": "Opponents",
        "result": "Result (levels)",
        "score_rate": "Score rate",
        "bye": "Bye",
        "position_chart": "Position by round",
        "position": "Position",
        "history": "Set by set",
        "traveller": "Traveller",
        "travellers": "Travellers",
        "ns": "NS",
        "ew": "EW",
        "ns_rate": "NS rate",
        "ew_rate": "EW rate",
        "levels": "Levels",
        "adjusted": "Adjusted",
        "hand_records": "Hand records",
        "board_n": "Board {n}",
        "leader": "Leads",
        "pending": "pending",
        "set_pending": (
            "Some tables have not played this set yet; its traveller and hand records appear "
            "once every table has played it."
        ),
        "provisional": "provisional",
        "standings_withheld": (
            "Set(s) {sets} are still being played at other tables; these standings are "
            "published once every table has played them."
        ),
        "correcting_note": (
            "This round is still within its correction time (art. 48): results may be "
            "corrected."
        ),
        "decisions": "Penalties and adjustments",
        "my_decisions": "The director's penalties and adjustments",
        "kind": "Kind",
        "amount": "Penalty or result",
        "decision": "Decision",
        "match_points_off": "match points",
        "level_points_off": "level points",
        "late_start": "started {ns} : {ew} (late arrival, art. 32)",
        "article": "Article",
        "reason": "Reason",
        **{f"kind:{kind}": en for kind, (_, en) in KINDS.items()},
        "standing_now": "After round {n}: rank {rank} of {field}, cumulative {cumulative}",
        "commitment": "Deal commitment (published before play)",
        "key": "Event key",
        "key_hidden": "The key is revealed after the last round.",
        "abandoned": (
            "The event was abandoned early: the key was revealed before every set was played "
            "({at}). Reason: {reason}"
        ),
        "verify": "Anyone can regenerate and check every board with the key:",
        "verify_how": (
            "download this site's folder (at least event.key and the boards folder) and run, "
            "in that folder:"
        ),
        "boards_file": "Boards file",
        "all_standings": "Full standings ({field} players)",
        "find": "Find yourself: type a name or id",
        "not_found": "No one found",
        "verify_deals": "Verify the deals",
        "bracket_now": "Now playing: {round}",
        "jump_to": "Jump to",
        "N": "N",
        "E": "E",
        "S": "S",
        "W": "W",
        "joker_small": "Small joker",
        "joker_big": "Big joker",
        "chart_caption": "Position of {name} after each round (higher is better)",
        "bracket": "Bracket",
        "final_places": "Final places",
        "final": "Final",
        "semi_finals": "Semi-finals",
        "quarter_finals": "Quarter-finals",
        "classification": "Classification matches",
        "match_n": "Match {n}",
        "for_places": "places {p}",
        "third_place": "Third-place match",
        "places_in": "Places {p}: {round}",
        "decided:levels": "levels",
        "decided:extra boards": "extra boards",
        "decided:forfeit": "forfeit",
        "decided:bye": "bye",
        "decided:场分": "match points",
        "decided:级差分": "level points",
        "decided:级差": "level difference",
        "to_play": "to be played",
        "entry": "Entry",
        "winner_of": "Winner of round {r} match {m}",
        "loser_of": "Loser of round {r} match {m}",
    },
}
"""Label tables by language code; every table has the same keys."""

LANGS = tuple(LABELS)


def labels_for(lang: str) -> Mapping[str, str]:
    """The label table of ``lang``; ``GuandanError`` naming the choices for an unknown code.

    >>> labels_for("en")["standings"]
    'Standings'
    """
    try:
        return LABELS[lang]
    except KeyError:
        raise GuandanError(
            f"unknown site language {lang!r}: expected one of {', '.join(LANGS)}"
        ) from None
