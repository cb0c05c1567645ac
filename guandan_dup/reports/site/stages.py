"""The links between the sites of one competition's stages (a Swiss, then the knockout of
its top teams): what the event side hands over (``StageLink``) and the lines a page shows,
in the site's language, drawn by the small ``stages.html.j2`` block of every page.

The event side decides which stages link and where their sites are
(``event.formats.stages``); this module only words them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

STAGE_LABELS = {
    "zh": {"seeded_from": "种子来自", "seeds": "后续阶段", "swiss": "瑞士赛",
           "round-robin": "循环赛", "knockout": "淘汰赛",
           "team": "{team} 号 {name}（{stage} {earlier} 号）", "teams": "参赛队"},
    "en": {"seeded_from": "Seeded from", "seeds": "Next stage", "swiss": "Swiss",
           "round-robin": "round robin", "knockout": "knockout",
           "team": "team {team} {name} ({stage} team {earlier})", "teams": "Teams"},
}
"""The block's words by language (the same keys in each)."""


@dataclass(frozen=True)
class StageLink:
    """Another stage's site: ``relation`` ``seeded_from`` (this knockout was seeded from
    it) or ``seeds`` (a knockout seeded from this event), its ``name``, ``href`` from this
    site's top folder to its index page, its ``format``, and for ``seeded_from`` each team
    as (number here, name, number there)."""

    relation: str
    name: str
    href: str
    format: str
    teams: tuple[tuple[int, str, int | None], ...] = ()


def stage_views(links: Sequence[StageLink], lang: str) -> list[dict]:
    """The block's lines for ``links``: the relation, the name to link, the href, and the
    teams as "1 号 南京队（瑞士赛 4 号）"."""
    words = STAGE_LABELS.get(lang, STAGE_LABELS["en"])
    views = []
    for link in links:
        stage = words.get(link.format, link.format)
        teams = [words["team"].format(team=t, name=n, stage=stage, earlier=e)
                 for t, n, e in link.teams if e is not None]
        views.append({"label": words[link.relation], "name": link.name, "href": link.href,
                      "stage": stage, "teams_label": words["teams"], "teams": teams})
    return views
