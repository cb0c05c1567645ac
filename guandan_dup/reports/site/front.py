"""The index page's front door: the top of the latest standings, and the search index.

Players open the index first, on their phones, to see who leads and to find themselves; so
the index leads with the latest published round's top rows (or, in a knockout, where the
bracket stands) and a search box. The search runs in the page over a small index written
into it (``search_entries``, drawn as JSON by the template): the site is often opened from
disk (``SITE/index.html``, file://), where a script may not fetch the site's own files.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from .bracket import current_round, round_title
from .data import SiteData, standings_rows

LEADERS = 10
"""Rows of the latest standings the index shows (the full table is one link away)."""


def leaders(data: SiteData) -> dict[str, Any] | None:
    """The latest published round's standings, top ``LEADERS`` rows (rank, name, id, slug,
    cumulative), with the round and the field's size; ``None`` before any are published."""
    if not data.standings:
        return None
    latest = max(data.standings)
    rows = standings_rows(data.standings[latest], None, data.players)
    shown = rows.head(LEADERS)[["rank_label", "player", "name", "slug", "cumulative"]]
    return {"round": latest, "field": len(rows), "provisional": data.is_provisional(latest),
            "rows": shown.astype(object).where(shown.notna(), None).to_dict("records")}


def bracket_now(data: SiteData) -> dict[str, Any] | None:
    """Where a knockout stands: the round being played (its title and number) and, once
    decided, the top four final places; ``None`` for an event without a bracket."""
    if data.bracket is None:
        return None
    current = current_round(data.bracket, data.planned_rounds)
    key, args = round_title(current, data.planned_rounds)
    places = []
    if data.places is not None:
        top = data.places.sort_values("place").head(4)
        places = top.astype(object).where(top.notna(), None).to_dict("records")
    return {"round": current, "title_key": key, "args": args, "places": places}


def search_entries(data: SiteData, player_href, bracket_href) -> list[dict[str, str]]:
    """Everyone the search box finds: each player (name, id and, in a pairs event, their
    pair's id; their page) and, in a knockout, each side (a pair or a team: name, id, its
    latest match on the bracket). ``t`` is the lower-case text a query is matched in."""
    players = data.players
    pairs = players["pair"] if "pair" in players else pd.Series(pd.NA, index=players.index)
    entries = []
    for p, pair in zip(players[["player", "name", "slug"]].to_dict("records"), pairs,
                       strict=True):
        shown = p["player"] if pd.isna(pair) else f"{p['player']} · {pair}"
        entries.append({"t": f"{p['name']} {shown}".lower(), "n": p["name"], "i": shown,
                        "h": player_href(p["slug"])})
    if data.bracket is None:
        return entries
    return entries + side_entries(data.bracket, bracket_href())


def side_entries(bracket: pd.DataFrame, href: str) -> list[dict[str, str]]:
    """Each side of a knockout once, linked to the card of the latest match it is in."""
    found: dict[str, dict[str, str]] = {}
    for m in bracket.sort_values(["round", "match"]).to_dict("records"):
        for side, name in (("side_a", "side_a_name"), ("side_b", "side_b_name")):
            if pd.isna(m[side]):
                continue
            shown = m[name] if not pd.isna(m[name]) else m[side]
            found[str(m[side])] = {
                "t": f"{shown} {m[side]}".lower(), "n": str(shown), "i": str(m[side]),
                "h": f"{href}#round-{int(m['round'])}-match-{int(m['match'])}",
            }
    return list(found.values())
