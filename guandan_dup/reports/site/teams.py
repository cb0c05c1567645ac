"""The results site of a team event (SPEC 8): team standings, a page per team and per match.

The event side gathers the tables (``event.formats.teams``) into ``TeamSiteData``; this module
only lays them out with the site's templates and style, and writes the site the way
``build.write_site`` does (a fresh folder swapped in whole, refusing unsafe targets).
Hand records of a round appear on its match pages once every table has played its set.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import pandas as pd

from ...teams import ROOM_SIDES
from ..tables import level_text
from ..team_tables import conversion_name, matches_with_results
from .build import check_target, environment, write_pages
from .hands import board_views
from .pages import Page, decision_rows, records, standings_href
from .stages import stage_views
from .team_front import team_leaders, team_search_entries

TEAM_LABELS: Mapping[str, Mapping[str, str]] = {
    "zh": {
        "team": "队", "teams": "参赛队", "name": "队名", "played": "场次", "won": "胜",
        "drawn": "平", "lost": "负", "match_points": "场分", "level_points": "级差分",
        "levels": "级差", "opponent_points": "对手分", "conversion": "级差分换算表",
        "matches": "比赛", "match_n": "第 {n} 场", "home": "主队", "away": "客队",
        "home_away": "主客", "home_short": "主", "away_short": "客",
        "open_room": "开室", "closed_room": "闭室", "opponent": "对手", "players": "队员",
        "bye": "轮空", "artificial": "判定", "vs": "对",
        "result_pending": "本局尚有桌次未完成：本场成绩在所有桌次打完后公布。",
        "all_standings": "全部排名（共 {field} 队）",
        "find": "找队伍或队员：输入队名、队员姓名或编号",
    },
    "en": {
        "team": "Team", "teams": "Teams", "name": "Name", "played": "Played", "won": "Won",
        "drawn": "Drawn", "lost": "Lost", "match_points": "Match points",
        "level_points": "Level points", "levels": "Levels",
        "opponent_points": "Opponents' points", "conversion": "Conversion table",
        "matches": "Matches", "match_n": "Match {n}", "home": "Home", "away": "Away",
        "home_away": "Home/away", "home_short": "Home", "away_short": "Away",
        "open_room": "Open room", "closed_room": "Closed room", "opponent": "Opponent",
        "players": "Players", "bye": "Bye", "artificial": "Artificial", "vs": "v",
        "result_pending": (
            "Some tables have not played this round's set yet; the match's result is "
            "published once every table has played it."
        ),
        "all_standings": "Full standings ({field} teams)",
        "find": "Find a team or a player: type a name or id",
    },
}
"""Team-event labels by language, beside the site's own ``labels.LABELS``."""

def team_href(team: int) -> str:
    return f"teams/team-{int(team)}.html"


def match_href(round_no: int, match: int) -> str:
    return f"matches/round-{int(round_no)}-match-{int(match)}.html"


@dataclass(frozen=True)
class TeamSiteData:
    """What a team event's pages show, gathered by the event side.

    ``rooms`` and ``match_results`` are those of scored rounds whose sets are public (one
    row per table, per team); ``boards`` holds only boards of ``complete_sets`` (every table
    played them); ``standings`` only rounds that count no pending set, ``withheld`` the
    others (round -> the pending sets they would count); ``reveal_override`` as in
    ``SiteData``.
    """

    name: str
    planned_rounds: int
    commitment: str
    key_hex: str | None
    conversion: str
    teams: pd.DataFrame
    players: pd.DataFrame
    rounds_scored: list[int]
    standings: dict[int, pd.DataFrame]
    matches: pd.DataFrame
    match_results: pd.DataFrame
    rooms: pd.DataFrame
    set_of_round: dict[int, int]
    complete_sets: frozenset[int]
    boards: pd.DataFrame
    boards_files: dict[int, Path]
    reveal_override: dict | None = None
    decisions: pd.DataFrame | None = None
    """The director's penalties and adjustments (``event.decisions``' table), listed under
    the standings of their round and after."""
    withheld: dict[int, list[int]] = field(default_factory=dict)
    correcting: frozenset[int] = frozenset()
    """The rounds still before their correction deadline (art. 48): their standings are
    provisional, as the individual ones (``SiteData.correcting``)."""
    stages: tuple = ()
    """The knockouts seeded from this event, to link to (``stages.StageLink``)."""

    @cached_property
    def team_names(self) -> dict[int, str]:
        """Team number -> name, as every page shows a team."""
        return dict(zip(self.teams["team"].astype(int), self.teams["name"], strict=True))

    @cached_property
    def player_names(self) -> dict[str, str]:
        """Player id -> name, for the rooms' lines."""
        return dict(zip(self.players["player"], self.players["name"], strict=True))


def index_page(data: TeamSiteData) -> Page:
    """The front door (``team_front``), then every planned round with its matches."""
    names = data.team_names
    matches = data.matches
    rounds = []
    for r in range(1, data.planned_rounds + 1):
        mine = matches[matches["round"] == r].sort_values("match")
        rounds.append({
            "n": r, "scored": r in data.rounds_scored, "boards_file": r in data.boards_files,
            "matches": [{"match": int(m.match), "home": names.get(int(m.home), ""),
                         "away": names.get(int(m.away), "") if pd.notna(m.away) else None}
                        for m in mine.itertuples()],
        })
    return Page("index.html", "team-index.html.j2", {
        "rounds": rounds, "commitment": data.commitment, "key_hex": data.key_hex,
        "leaders": team_leaders(data), "search_entries": team_search_entries(data, team_href)})


def standings_pages(data: TeamSiteData) -> Iterator[Page]:
    names = data.team_names
    decisions = decision_rows(data.decisions, data.players, pd.Series(names))
    for r in data.rounds_scored:
        rows = []
        if r in data.standings:  # else withheld: the page names the sets it waits for
            shown = data.standings[r].sort_values("position")
            rows = records(shown.assign(name=shown["team"].map(names)))
        yield Page(standings_href(r), "team-standings.html.j2",
                   {"round": r, "rows": rows,
                    "withheld": data.withheld.get(r, []),
                    "provisional": r in data.correcting and r in data.standings,
                    "decisions": [d for d in decisions if d["round"] <= r]})


def team_pages(data: TeamSiteData) -> Iterator[Page]:
    names = data.team_names
    results = data.match_results.assign(
        opponent_name=data.match_results["opponent"].map(names))
    for team in data.teams.itertuples():
        players = data.players[data.players["team"] == team.team]
        rows = results[results["team"] == team.team].sort_values("round")
        yield Page(team_href(team.team), "team.html.j2", {
            "team": {"team": int(team.team), "name": team.name},
            "players": records(players), "rows": records(rows)})


def _played(data: TeamSiteData, round_no: int, table: int) -> dict | None:
    """A room's result once public: each line's players and levels (or artificial codes)."""
    row = data.rooms[(data.rooms["round"] == round_no) & (data.rooms["table"] == table)]
    if row.empty:
        return None
    names = data.player_names
    room = row.iloc[0]
    codes = str(room["adjusted"]).split("/") if pd.notna(room["adjusted"]) else None
    levels = level_text(row[["ns_level", "ew_level"]].stack(future_stack=True)).tolist()
    seat = {s: names.get(room[s], room[s]) for s in ("north", "east", "south", "west")}
    return {"ns": {"players": f"{seat['north']}, {seat['south']}",
                   "levels": codes[0] if codes else levels[0]},
            "ew": {"players": f"{seat['east']}, {seat['west']}",
                   "levels": codes[1] if codes else levels[1]},
            "adjusted": codes is not None}


def match_rooms(data: TeamSiteData, match, teams: dict[str, dict]) -> list[dict]:
    """Both rooms of a match: its table, which team sits N-S and which E-W (SPEC 8: the
    home team E-W in the open room, N-S in the closed), and once public who played and
    the levels each line reached. ``teams`` maps home/away to the team as pages show it."""
    rooms = []
    for room, table in (("open", match.open_table), ("closed", match.closed_table)):
        played = _played(data, int(match.round), int(table))
        lines = [{"line": line, "side": side, "team": teams[side],
                  **(played[line] if played else {})}
                 for line, side in zip(("ns", "ew"), ROOM_SIDES[room], strict=True)]
        rooms.append({"room": room, "table": int(table), "lines": lines,
                      "played": played is not None,
                      "adjusted": played is not None and played["adjusted"]})
    return rooms


def match_pages(data: TeamSiteData) -> Iterator[Page]:
    """A page per played match of every scored round (the index links them all): its
    result and rooms once its set is public, else which team sits where and that the
    result is pending."""
    names = data.team_names
    played = data.matches[data.matches["round"].isin(data.rounds_scored)]
    matches = matches_with_results(data.match_results, played, how="left")
    for m in matches[matches["away"].notna()].itertuples():
        set_no = data.set_of_round[int(m.round)]
        complete = set_no in data.complete_sets
        pending = pd.isna(m.match_points)
        boards = data.boards[data.boards["set"] == set_no] if complete else data.boards[:0]
        teams = {side: {"team": int(t), "name": names.get(int(t), "")}
                 for side, t in (("home", m.home), ("away", m.away))}
        yield Page(match_href(m.round, m.match), "match.html.j2", {
            "round": int(m.round), "match": int(m.match), **teams,
            "result": None if pending else {
                "levels": None if pd.isna(m.levels) else int(m.levels),
                "home_mp": m.match_points, "away_mp": m.match_points_away,
                "home_lp": m.level_points, "away_lp": m.level_points_away},
            "rooms": match_rooms(data, m, teams),
            "complete": complete, "boards": board_views(boards) if complete else [],
        })


def team_site_pages(data: TeamSiteData) -> list[Page]:
    return [index_page(data), *standings_pages(data), *team_pages(data), *match_pages(data)]


def build_team_site(
    data: TeamSiteData,
    out: str | os.PathLike,
    lang: str = "zh",
    show_progress: bool = False,
) -> Path:
    """Write the team event's site to ``out`` (``event.publish.site_folder``); returns its
    index.html."""
    out = Path(out)
    env = environment(lang)
    env.globals.update(T=TEAM_LABELS[lang], team_href=team_href, match_href=match_href)
    check_target(out)
    pages = team_site_pages(data)
    common = {"event_name": data.name, "rounds_scored": data.rounds_scored,
              "abandoned": data.reveal_override, "stages": stage_views(data.stages, lang),
              "conversion": conversion_name(data.conversion, lang)}
    return write_pages(out, env, pages, len(pages), common, data.key_hex, data.boards_files,
                       show_progress)
