"""``event site`` for every kind of event: a team event's pages are gathered here.

The individual and pairs site is gathered by ``publish``; a team event's tables are
gathered here and handed to ``reports.site.teams``, which renders them. Hand records of a
round go public only once every table played its set.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path

import pandas as pd

from ..reports.site.teams import TeamSiteData, build_team_site
from ..seats import SEAT_COLUMNS
from ..teams.matches import MATCH_COLUMNS, MATCH_RESULT_COLUMNS
from .folder import EventFolder
from .ledger import effects
from .publish import Row, event_complete_sets, publish_site
from .teams import teams_of
from .transaction import step


def _stacked(folder: EventFolder, name: str, rounds, columns) -> pd.DataFrame:
    """The rounds' tables stacked; with no round yet, an empty table of ``columns`` (a site
    built before the first round is scored)."""
    frame = folder.read_rounds(name, rounds)
    return frame if frame is not None else pd.DataFrame(columns=list(columns))


def gather_team_site(
    folder: EventFolder, will_not_play: Collection[Row] = frozenset()
) -> TeamSiteData:
    """Every table a team event's site shows, read once from the folder."""
    plan = folder.plan
    scored = folder.rounds_scored()
    planned = range(1, plan.rounds + 1)
    done = event_complete_sets(folder, scored, will_not_play)
    complete = {r: [s for s in plan.sets_of_round(r) if (r, s) in done] for r in scored}
    boards = [
        frame[frame["set"].isin(complete[r])]
        for r in scored
        if complete[r] and (frame := folder.read(r, "boards")) is not None
    ]
    matches = _stacked(folder, "matches", planned, MATCH_COLUMNS)
    return TeamSiteData(
        name=plan.name,
        planned_rounds=plan.rounds,
        commitment=folder.commitment,
        key_hex=folder.key().hex() if folder.key_revealed else None,
        reveal_override=folder.reveal_override,
        conversion=plan.conversion,
        teams=teams_of(folder),
        players=folder.players(),
        rounds_scored=scored,
        standings={r: folder.read(r, "team_standings") for r in scored},
        matches=matches,
        match_results=_stacked(folder, "match_results", scored, MATCH_RESULT_COLUMNS),
        rooms=_stacked(folder, "results", scored, ("round", "table", *SEAT_COLUMNS,
                                                    "ns_level", "ew_level", "adjusted")),
        set_of_round={r: plan.sets_of_round(r)[0] for r in planned},
        complete_sets=frozenset(s for sets in complete.values() for s in sets),
        boards=pd.concat(boards, ignore_index=True) if boards else pd.DataFrame(
            columns=["set"]),
        boards_files={
            r: folder.file(r, "boards") for r in scored
            if set(complete[r]) == set(plan.sets_of_round(r)) and folder.file(
                r, "boards").exists()
        },
        penalties=effects(folder).team_penalties,
    )


@step("event site")
def build_event_site(
    folder: EventFolder,
    out_dir: str | os.PathLike | None = None,
    lang: str = "zh",
    show_progress: bool = False,
    will_not_play: Collection[Row] = frozenset(),
) -> Path:
    """The results site of any event folder; returns the path of its index.html.

    Refused while a round's standings are older than its results (``check_up_to_date``)."""
    folder.check_up_to_date("publishing the site")
    if folder.plan.kind != "teams" or folder.plan.format == "knockout":
        return publish_site(folder, out_dir, lang, show_progress, will_not_play)
    return build_team_site(
        gather_team_site(folder, will_not_play), folder.path, out_dir, lang, show_progress
    )
