"""A team event's index, front door first (as ``front`` does for the players' site): the
top of the latest published team standings and a search box that finds a team by name,
number or label, and a player by name or id, each opening their team's page.

The search index is written into the page (drawn as JSON by the template, read by
``site.js``): the site is often opened from disk, where a script may not fetch its files.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .front import LEADERS

if TYPE_CHECKING:
    from .teams import TeamSiteData


def team_leaders(data: TeamSiteData) -> dict[str, Any] | None:
    """The latest published round's team standings, top ``LEADERS`` rows (rank, team,
    name, 场分, 级差分), with the round and the number of teams; ``None`` before any."""
    if not data.standings:
        return None
    latest = max(data.standings)
    names = data.team_names
    shown = data.standings[latest].sort_values("position")
    rows = [{"rank_label": row.rank_label, "team": int(row.team),
             "name": names.get(int(row.team), ""), "match_points": row.match_points,
             "level_points": row.level_points}
            for row in shown.head(LEADERS).itertuples()]
    return {"round": latest, "field": len(shown), "rows": rows,
            "provisional": latest in data.correcting}


def team_search_entries(data: TeamSiteData, team_href) -> list[dict[str, str]]:
    """Everyone the index's search finds: each team (its name, number and label) and each
    player (name and id, with their team's name), all linked to the team's page. ``t`` is
    the lower-case text a query is matched in, ``n`` and ``i`` what the list shows."""
    names = data.team_names
    entries = []
    for team in data.teams.itertuples():
        entries.append({"t": f"{team.name} {team.team} {team.label}".lower(), "n": team.name,
                        "i": str(team.team), "h": team_href(team.team)})
    for p in data.players.itertuples():
        team = names.get(int(p.team), "")
        entries.append({"t": f"{p.name} {p.player} {team}".lower(), "n": p.name,
                        "i": f"{p.player} · {team}", "h": team_href(p.team)})
    return entries
