"""The site's pages: which files exist, which template draws each, and what it is given.

One ``Page`` per output file. Paths are fixed so that links can be built anywhere from a
player's slug, a round or a set number (``*_href``); templates prefix them with ``root``,
the way back to the site's top folder, so the site works from any folder and from file://.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ...scoring.venues import venue_slug, venue_standings, venues_of
from ...seats import SEAT_COLUMNS
from .bracket import bracket_context, current_round
from .chart import position_chart
from .data import SiteData, name_columns, seat_history, standings_rows, with_level_texts
from .front import bracket_now, leaders, search_entries
from .hands import board_views


def standings_href(round_no: int, venue: str = "") -> str:
    """A round's standings page; with ``venue``, that venue's (ranked within it)."""
    if venue:
        return f"standings/round-{round_no}-venue-{venue_slug(venue)}.html"
    return f"standings/round-{round_no}.html"


def seating_href(round_no: int) -> str:
    return f"seating/round-{round_no}.html"


def player_href(slug: str) -> str:
    return f"players/{slug}.html"


def set_href(set_no: int) -> str:
    return f"sets/set-{set_no}.html"


def boards_href(round_no: int) -> str:
    return f"boards/round-{round_no}-boards.parquet"


def bracket_href() -> str:
    return "bracket.html"


HREFS = {
    "standings_href": standings_href,
    "seating_href": seating_href,
    "player_href": player_href,
    "set_href": set_href,
    "boards_href": boards_href,
    "bracket_href": bracket_href,
}


@dataclass(frozen=True)
class Page:
    path: str
    template: str
    context: Mapping[str, Any]

    @property
    def root(self) -> str:
        """Relative path from this page back to the site's top folder."""
        return "../" * self.path.count("/")


def template_values(frame: pd.DataFrame) -> pd.DataFrame:
    """Missing values as ``None`` (what templates test with ``is none``), in object columns."""
    return frame.astype(object).where(frame.notna(), None)


def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return template_values(frame).to_dict("records")


def _sets_by_round(sets: pd.DataFrame) -> dict[int, list[dict[str, Any]]]:
    """Each scored round's sets in order, with whether they are complete or pending."""
    ordered = sets.sort_values(["round", "set"])
    return {
        int(r): [
            {"n": int(s), "complete": bool(c)}
            for s, c in zip(rows["set"], rows["complete"], strict=True)
        ]
        for r, rows in ordered.groupby("round")
    }


def index_page(data: SiteData) -> Page:
    sets = _sets_by_round(data.sets)
    seated = set(data.seating["round"].tolist())
    rounds = [
        {
            "n": r,
            "scored": r in data.rounds_scored,
            "provisional": data.is_provisional(r),
            "seated": r in seated,
            "sets": sets.get(r, []),
            "boards_file": r in data.boards_files,
            "venues": venues_of(data.standings[r]) if r in data.standings else [],
        }
        for r in range(1, data.planned_rounds + 1)
    ]
    context = {"rounds": rounds, "commitment": data.commitment, "key_hex": data.key_hex,
               "knockout": data.bracket is not None, "leaders": leaders(data),
               "bracket_now": bracket_now(data),
               "search_entries": search_entries(data, player_href, bracket_href)}
    return Page("index.html", "index.html.j2", context)


def standings_pages(data: SiteData) -> Iterator[Page]:
    """A page per scored round: its standings, or for a round whose standings are withheld
    (``SiteData.withheld``) only the sets they wait for, so every index link works and no
    figure counting a pending set is shown."""
    previous = None
    decisions = decision_rows(data.decisions, data.players)
    for r in sorted({*data.standings, *data.withheld}):
        context = {"round": r, "rows": [], "provisional": False, "correcting": False, "venue": "",
                   "withheld": data.withheld.get(r, []),
                   "decisions": [d for d in decisions if d["round"] <= r]}
        if r not in data.standings:
            yield Page(standings_href(r), "standings.html.j2", context)
            continue
        current = data.standings[r]
        rows = standings_rows(current, previous, data.players)
        context |= {"rows": records(rows), "provisional": data.is_provisional(r),
                    "correcting": r in data.correcting}
        yield Page(standings_href(r), "standings.html.j2", context)
        for venue in venues_of(current):
            before = None if previous is None or venue not in venues_of(previous) else (
                venue_standings(previous, venue))
            rows = standings_rows(venue_standings(current, venue), before, data.players)
            yield Page(standings_href(r, venue), "standings.html.j2",
                       context | {"rows": records(rows), "venue": venue})
        previous = current


def decision_rows(decisions: pd.DataFrame | None, players: pd.DataFrame,
                  teams: pd.Series | None = None) -> list[dict[str, Any]]:
    """The director's decisions (``event.decisions``) as the ``decisions_table`` macro shows
    them: with each player's name and page (``player_name``, ``player_slug``) or each
    team's name (``team_name``, from ``teams``: number -> name)."""
    if decisions is None or decisions.empty:
        return []
    named = decisions.assign(player_name=decisions["player"].map(
        players.set_index("player")["name"]), player_slug=decisions["player"].map(
        players.set_index("player")["slug"]) if "slug" in players else None)
    if teams is not None:
        named = named.assign(team_name=named["team"].map(teams))
    return records(named)


def decisions_about(decisions: list[dict[str, Any]], player: str,
         history: pd.DataFrame) -> list[dict[str, Any]]:
    """The decisions about ``player``: a penalty on them, or a result set at a table's set
    they sat at (``history``: their rows of ``player_history``)."""
    sat = set(zip(history["round"], history["set"], history["table"], strict=True))
    return [d for d in decisions if d["player"] == player or (
        d["set"] is not None and (d["round"], d["set"], d["table"]) in sat)]


def seating_pages(data: SiteData) -> Iterator[Page]:
    """Table cards of every seated round: where each player sits, and who has a bye (no
    deals on them)."""
    seating = name_columns(data.seating, SEAT_COLUMNS, data.players)
    byes = name_columns(data.byes, ("player",), data.players)
    for round_no, rows in seating.groupby("round"):
        order = ["table", "set"] if "set" in rows else ["table"]
        context = {
            "round": int(round_no),
            "cards": records(rows.sort_values(order)),
            "byes": records(byes[byes["round"] == round_no]),
        }
        yield Page(seating_href(int(round_no)), "seating.html.j2", context)


def player_history(data: SiteData) -> pd.DataFrame:
    """Every player's sets (with partner and opponent names), pending sets (``pending``:
    where they sit, no result) and byes, in playing order."""
    seats = seat_history(data.travellers)
    seats = name_columns(seats, ("partner", "opponent_1", "opponent_2"), data.players)
    history = pd.concat(
        [
            seats.assign(bye=False, pending=False),
            data.pending.assign(bye=False, pending=True),
            data.byes.assign(bye=True, pending=False),
        ],
        ignore_index=True,
    )
    history = history.astype({"set": "Int64", "table": "Int64"})
    return history.sort_values(["round", "set"], kind="stable", na_position="last")


def standing_by_player(data: SiteData) -> dict[str, dict[str, Any]]:
    """Each player's latest standing: round, rank label, cumulative rate, field size and
    whether that round is provisional (the player page states it in words)."""
    latest: dict[str, dict[str, Any]] = {}
    for r, standings in sorted(data.standings.items()):  # a knockout has none
        for row in standings[["player", "rank_label", "cumulative"]].to_dict("records"):
            latest[row["player"]] = row | {
                "round": r,
                "field": len(standings),
                "provisional": data.is_provisional(r),
            }
    return latest


def positions_by_player(data: SiteData) -> dict[str, dict[int, int]]:
    """Each player's strict position after every scored round they appear in."""
    frames = [frame[["round", "player", "position"]] for frame in data.standings.values()]
    if not frames:
        return {}
    positions = pd.concat(frames, ignore_index=True)
    return {
        player: dict(zip(rows["round"].tolist(), rows["position"].tolist(), strict=True))
        for player, rows in positions.groupby("player", sort=False)
    }


def player_pages(data: SiteData) -> Iterator[Page]:
    history = template_values(player_history(data))  # converted once, not per page
    by_player = dict(iter(history.groupby("player", sort=False)))
    positions = positions_by_player(data)
    standing = standing_by_player(data)
    field_size = max((len(frame) for frame in data.standings.values()), default=1)
    decisions = decision_rows(data.decisions, data.players)
    for player in records(data.players):
        rows = by_player.get(player["player"], history.iloc[0:0])
        played = rows[~rows["bye"].astype(bool) & ~rows["pending"].astype(bool)]
        mine = positions.get(player["player"], {})
        chart = position_chart(mine, sorted(data.standings), field_size)
        context = {
            "player": player,
            "rows": rows.to_dict("records"),
            "chart": chart,
            "standing": standing.get(player["player"]),
            "decisions": decisions_about(decisions, player["player"], played),
        }
        yield Page(player_href(player["slug"]), "player.html.j2", context)


def traveller_pages(data: SiteData) -> Iterator[Page]:
    """A page per set of every scored round: a complete set's traveller and hand records,
    or, for a pending set, only that it is pending."""
    travellers = name_columns(with_level_texts(data.travellers), SEAT_COLUMNS, data.players)
    by_set = dict(iter(travellers.groupby("set")))
    for state in data.sets.sort_values("set").to_dict("records"):
        set_no, complete = int(state["set"]), bool(state["complete"])
        rows = by_set.get(set_no, travellers.iloc[0:0]) if complete else travellers.iloc[0:0]
        boards = board_views(data.boards[data.boards["set"] == set_no]) if complete else []
        context = {
            "set": set_no,
            "round": int(state["round"]),
            "rows": records(rows.sort_values("table", kind="stable")),
            "complete": complete,
            "boards": boards,
        }
        yield Page(set_href(set_no), "traveller.html.j2", context)


def site_pages(data: SiteData) -> Iterator[Page]:
    """Every page of the site, index first."""
    yield index_page(data)
    yield from standings_pages(data)
    yield from seating_pages(data)
    yield from player_pages(data)
    yield from traveller_pages(data)
    if data.bracket is not None:
        yield bracket_page(data)


def page_count(data: SiteData) -> int:
    """How many pages ``site_pages`` yields (for the progress bar)."""
    return (
        1
        + (data.bracket is not None)
        + len({*data.standings, *data.withheld})
        + sum(len(venues_of(frame)) for frame in data.standings.values())
        + data.seating["round"].nunique()
        + len(data.players)
        + len(data.sets)
    )


def bracket_page(data: SiteData) -> Page:
    """A knockout's bracket: the main tree, the classification matches, the final places."""
    context = bracket_context(data.bracket, data.places, data.planned_rounds, set_href)
    return Page(bracket_href(), "bracket.html.j2",
                context | {"current": current_round(data.bracket, data.planned_rounds)})
