"""A knockout's tables for people: every seated round's matches with names and results, and
the places (pairs or teams), gathered from the event folder for ``export`` and the results
site (which render them and never open the folder themselves)."""

from __future__ import annotations

import pandas as pd

from ..knockout import sources
from ..levels import LEVEL_NAMES
from ..reading import read_parquet
from . import knockout, team_knockout
from .folder import PLACES, EventFolder
from .teams import teams_of

#: Columns of ``bracket_view``: bracket.parquet's plus names, the set and the result.
VIEW_COLUMNS = ["round", "match", "places", "table", "set", "side_a", "side_a_name", "side_b",
                "side_b_name", "from_a", "from_b", "result", "winner", "winner_name",
                "decided_by"]


def side_names(folder: EventFolder) -> dict[str, str]:
    """Pair id -> its players' names, "王伟 / 李芳"; team number -> the team's name."""
    if folder.plan.kind == "teams":
        teams = teams_of(folder)
        return dict(zip(teams["team"].astype(str), teams["name"].astype(str), strict=True))
    players = folder.players()
    return players.groupby("pair", sort=False)["name"].agg(" / ".join).astype(str).to_dict()


def match_text(home: dict, away: dict) -> str:
    """A team match as home against away: 场分, then the home team's 级差 when played."""
    text = f"{home['match_points']:g} : {away['match_points']:g}"
    return text if pd.isna(home["levels"]) else f"{text} ({int(home['levels']):+d})"


def result_texts(folder: EventFolder, rounds: range) -> dict[tuple[int, int], str]:
    """(round, bracket table) -> the result shown for it: a pairs table's levels, a team
    match's 场分 and 级差 (keyed by its open room)."""
    if folder.plan.kind != "teams":
        results = folder.read_rounds("results", rounds)
        if results is None:
            return {}
        return {(r["round"], r["table"]): result_text(r) for r in results.to_dict("records")}
    scored = folder.read_rounds("match_results", rounds)
    matches = folder.read_rounds("matches", rounds)
    if scored is None or matches is None:
        return {}
    table = {(m.round, m.match): m.open_table for m in matches.itertuples()}
    texts = {}
    for (r, m), rows in scored.groupby(["round", "match"]):
        home = rows[rows["home"].eq(True).fillna(False)].to_dict("records")
        away = rows[rows["home"].eq(False).fillna(False)].to_dict("records")  # a bye: none
        if home and away:
            texts[(r, table[(r, m)])] = match_text(home[0], away[0])
    return texts


def result_text(row: dict) -> str:
    """One table's result as side A (North-South) against side B: ``"A+ : K"``, a forfeit's
    ``"A+/A-"``, a level match with the side that won the extra boards, ``"7 : 7 (EW)"``."""
    if isinstance(row.get("adjusted"), str):
        return row["adjusted"]
    text = f"{LEVEL_NAMES[int(row['ns_level'])]} : {LEVEL_NAMES[int(row['ew_level'])]}"
    tiebreak = row.get("tiebreak")
    return f"{text} ({tiebreak.upper()})" if isinstance(tiebreak, str) else text


def bracket_view(folder: EventFolder) -> pd.DataFrame:
    """The whole bracket (``VIEW_COLUMNS``), in round and match order: the seated rounds'
    matches, and those still to come with where their sides will come from (``from_a``,
    ``from_b``: ``"winner R.M"``, ``"loser R.M"``), so the tree can be printed before play."""
    plan = folder.plan
    rounds = range(1, plan.rounds + 1)
    brackets = folder.read_rounds("bracket", rounds)
    if brackets is None:
        brackets = pd.DataFrame(columns=["round", "match", "table", "side_a", "side_b",
                                         "places"])
    for column in ("winner", "decided_by"):
        if column not in brackets:
            brackets[column] = pd.NA
    coming = sources(plan.entries(), plan.layout())
    coming = coming[~coming["round"].isin(brackets["round"])]
    order = team_knockout.entries(folder) if plan.kind == "teams" else knockout.entries(folder)
    entry = {f"entry {i}": side for i, side in enumerate(order, 1)}
    coming = coming.assign(
        side_a=coming["from_a"].map(entry), side_b=coming["from_b"].map(entry),
        from_a=coming["from_a"].where(~coming["from_a"].isin(entry)),
        from_b=coming["from_b"].where(~coming["from_b"].isin(entry)),
        winner=pd.NA, decided_by=pd.NA,
    )
    texts = result_texts(folder, rounds)
    names = side_names(folder)
    whole = pd.concat([brackets.assign(from_a=pd.NA, from_b=pd.NA), coming], ignore_index=True)
    view = whole.assign(
        set=whole["round"],
        side_a_name=whole["side_a"].map(names),
        side_b_name=whole["side_b"].map(names),
        winner_name=whole["winner"].map(names),
        result=[texts.get((r, t), "") if pd.notna(t) else ""
                for r, t in zip(whole["round"], whole["table"], strict=True)],
    )
    return view[VIEW_COLUMNS].sort_values(["round", "match"], ignore_index=True)


def places_view(folder: EventFolder) -> pd.DataFrame | None:
    """places.parquet with names, or ``None`` before the last round is scored."""
    path = folder.path / PLACES
    if not path.exists():
        return None
    places = read_parquet(path, "places file").to_pandas()
    return places.assign(name=places["side"].map(side_names(folder)))
