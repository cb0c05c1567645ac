"""The ledger's effects as transformations of scoring's inputs: results rows and players.

Scoring itself knows no ledger: artificial and assigned results become (or replace) rows of
the normalised set table, not-played sets are left out (the plan's expected count stays, so
the others are Neuberg-adjusted), fouled tables get a ``split`` number, a substitute's rows
are scored for the player they replaced (Decision: the registered player keeps the seat's
result in individual and pairs events), and penalties, variable artificial results and the
registered players go to ``scoring.score`` as its named parameters.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import replace

import pandas as pd

from ..results.schema import NORMALISED_DTYPES, RESULT_KEY
from ..scoring import Scored, score
from ..scoring.penalised import with_unplaced
from ..seats import SEAT_COLUMNS
from .context import Context
from .replay import Effects, replay


def _keyed(frame: pd.DataFrame) -> pd.MultiIndex:
    return pd.MultiIndex.from_frame(frame[RESULT_KEY].astype("int64"))


def _seated_rows(keys: pd.DataFrame, seating: pd.DataFrame | None) -> pd.DataFrame:
    """Result rows for (round, table, set) ``keys`` that have none, players from the seating."""
    on = ["round", "table", "set"] if seating is not None and "set" in seating else [
        "round", "table"]
    if seating is None:
        seated = keys.assign(group=1, **dict.fromkeys(SEAT_COLUMNS, None))
    else:
        seated = keys.merge(seating[[*on, "group", *SEAT_COLUMNS]], on=on, how="left")
    rows = seated.assign(**{c: pd.NA for c in NORMALISED_DTYPES if c not in seated})
    return rows[list(NORMALISED_DTYPES)].astype(NORMALISED_DTYPES)


def substituted(sets: pd.DataFrame, substitutes: pd.DataFrame) -> pd.DataFrame:
    """``sets`` with each substitute named as the player they replaced, in their round."""
    if substitutes.empty:
        return sets
    out = sets.copy()
    for round_no, player, replaced in substitutes[["round", "player", "for_player"]].itertuples(
            index=False):
        mine = out["round"] == round_no
        for seat in SEAT_COLUMNS:
            out.loc[mine & (out[seat] == player), seat] = replaced
    return out


def _last_round(results: pd.DataFrame, seating: pd.DataFrame | None) -> int:
    """The last round being scored: decisions about later rounds wait for them (re-scoring
    round 1 after a round-2 forfeit was recorded must not seat round 2's table)."""
    rounds = [frame["round"] for frame in (results, seating) if frame is not None and len(frame)]
    return int(pd.concat(rounds).max()) if rounds else 0


def scoring_inputs(
    results: pd.DataFrame, seating: pd.DataFrame | None, effects: Effects
) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """The normalised set table with the ledger applied, and the variable artificial results
    (round, table, set) or ``None``. ``seating`` (every round's, with a ``round`` column)
    names the players of tables with no result row."""
    last = _last_round(results, seating)
    artificial, assigned, not_played = (
        frame[frame["round"] <= last]
        for frame in (effects.artificial, effects.assigned, effects.not_played))
    sets = substituted(results, effects.substitutes)
    decided = pd.concat([artificial[RESULT_KEY], assigned[RESULT_KEY],
                         not_played[RESULT_KEY]], ignore_index=True).astype("int64")
    sets = sets[~_keyed(sets).isin(_keyed(decided))] if len(decided) else sets
    kept = results[_keyed(results).isin(_keyed(decided))] if len(decided) else results.iloc[:0]
    made = []
    for frame, fill in ((artificial, _artificial), (assigned, _assigned)):
        if len(frame):
            keys = frame[RESULT_KEY].astype("int64")
            base = keys.merge(substituted(kept, effects.substitutes), on=RESULT_KEY, how="left")
            missing = base[SEAT_COLUMNS[0]].isna().to_numpy()
            rows = base.loc[~missing, list(NORMALISED_DTYPES)].astype(NORMALISED_DTYPES)
            if missing.any():
                seated = _seated_rows(keys[missing].reset_index(drop=True), seating)
                rows = pd.concat([rows, seated], ignore_index=True)
            made.append(fill(rows.merge(frame, on=RESULT_KEY, suffixes=("_old", ""))))
    sets = pd.concat([sets, *made], ignore_index=True) if made else sets
    sets = sets[list(NORMALISED_DTYPES)].astype(NORMALISED_DTYPES)
    if len(effects.fouled):
        split = effects.fouled.set_index(["round", "set", "table"])["split"]
        where = pd.MultiIndex.from_frame(sets[["round", "set", "table"]])
        sets = sets.assign(split=split.reindex(where).fillna(0).astype("int64").to_numpy())
    chosen = artificial[artificial["variable"].astype(bool)]
    return sets, (chosen[RESULT_KEY] if len(chosen) else None)


def _artificial(rows: pd.DataFrame) -> pd.DataFrame:
    return rows.assign(ns_level=pd.NA, ew_level=pd.NA,
                       adjusted=rows["ns_adjusted"] + "/" + rows["ew_adjusted"])


def _assigned(rows: pd.DataFrame) -> pd.DataFrame:
    return rows.assign(adjusted=pd.NA, ns_adjusted=pd.NA, ew_adjusted=pd.NA)


def registered(context: Context, effects: Effects, last_round: int | None = None) -> list[str]:
    """Every player the standings list: the players file and the late entries, less those
    entering after ``last_round``."""
    return sorted(_registered_ids(context, effects, last_round))


def _registered_ids(context: Context, effects: Effects, last_round: int | None) -> set[str]:
    """``registered`` as a set, unsorted (sorting a million ids costs a second)."""
    entries = effects.entries
    later = set() if last_round is None else set(entries.loc[entries["round"] > last_round,
                                                              "player"])
    return (set(context.players) | set(entries["player"])) - later


def _among(frame: pd.DataFrame, counted: Collection[tuple[int, int]]) -> pd.Series:
    """Whether each row's (round, set) is one of ``counted``."""
    pairs = pd.MultiIndex.from_frame(frame[["round", "set"]].astype("int64"))
    return pd.Series(pairs.isin(list(counted)), index=frame.index)


def score_with_ledger(
    results: pd.DataFrame,
    seating: pd.DataFrame | None,
    ledger: pd.DataFrame,
    context: Context,
    expected=None,
    counted: Collection[tuple[int, int]] | None = None,
    table_venues: Mapping[int, int] | None = None,
    **options,
) -> Scored:
    """``scoring.score`` of ``results`` with the ledger's decisions applied; ``options`` are
    score's other parameters (compare_within, seed, previous_positions, ...). The standings
    list every registered player and have a ``penalty`` column.

    ``counted`` (round, set pairs; default all) keeps only those sets, once the ledger has
    made its rows: the live scoreboard counts a set only when it is public (SPEC 10), and
    an assigned or artificial result of a set still being played must wait with the
    tables' own results (alone it would be compared with nothing). ``table_venues`` (table
    -> venue number) gives the sets a ``venue`` column, for ``compare_within="venue"``."""
    effects = replay(ledger, context)
    sets, variable = scoring_inputs(results, seating, effects)
    if table_venues is not None:
        sets = sets.assign(venue=sets["table"].map(table_venues).fillna(0).astype("int64"))
    if counted is not None:
        sets = sets[_among(sets, counted)]
        variable = None if variable is None or not _among(variable, counted).any() else (
            variable[_among(variable, counted)])
    penalties = effects.penalties[["round", "player", "points"]]
    last = int(results["round"].max()) if len(results) else None
    scored = score(sets, expected, penalties=penalties, variable=variable, **options)
    players = _registered_ids(context, effects, last)
    standings = scored.standings
    if any(not players <= set(table["player"].tolist())
           for _, table in standings.groupby("round", sort=True)):
        standings = with_unplaced(standings, sorted(players), options.get("seed", 0),
                                  options.get("previous_positions"), penalties)
    else:  # everyone has played: with_unplaced would add no row (1M players: 4 s saved)
        standings = standings.reset_index(drop=True)
    return replace(scored, standings=standings)

