"""``score``: the normalised set table in; scores, standings and travellers out, in memory."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from numbers import Real

import pandas as pd

from .penalised import with_penalties, with_unplaced
from .players import encode_seats, text
from .rates import Expected, in_table_order, rate_tables
from .scores import player_scores
from .standings import standings
from .variable import variable_rates

TRAVELLERS_COLUMNS = (
    "round", "group", "set", "table", "north", "east", "south", "west", "ns_level",
    "ew_level", "adjusted", "ns_adjusted", "ew_adjusted", "ns_score", "ns_rate", "ew_rate",
    "ns_matchpoints", "ew_matchpoints", "top", "ns_rate_num", "ew_rate_num", "rate_den",
)


@dataclass(frozen=True)
class Scored:
    """The three outputs of scoring, plus warnings a director should read."""

    scores: pd.DataFrame
    standings: pd.DataFrame
    travellers: pd.DataFrame
    warnings: list[str] = field(default_factory=list)


def score(
    sets: pd.DataFrame,
    expected: Expected = None,
    compare_within: str = "event",
    adjusted_rates: Mapping[str, Real] | None = None,
    seed: int | str | bytes = 0,
    previous_positions: Mapping[str, int] | pd.Series | None = None,
    on_ready: Callable[[str, pd.DataFrame], None] | None = None,
    players: Sequence[str] | None = None,
    penalties: pd.DataFrame | None = None,
    variable: pd.DataFrame | None = None,
) -> Scored:
    """Score the normalised set table ``sets`` (the results contract) of one or more rounds.

    ``expected`` is the number of tables meant to play each set in one comparison: one
    number, set -> number, or (set, group) -> number with ``compare_within="group"``; sets
    with fewer real
    results are Neuberg-adjusted, and without it nothing is. ``adjusted_rates`` overrides the
    fixed rates of artificial results (A+ 0.60, A 0.50, A- 0.40). ``seed`` draws the lots that
    settle ties left after the previous position; ``previous_positions`` (player -> position)
    is the order before the first round in ``sets``. ``on_ready(name, frame)`` is called as
    each output (travellers, scores, standings) is done, so a caller can write one while the
    next is computed.

    The director's ledger (``guandan_dup.ledger``) adds, each left out by default: an
    optional ``split`` column in ``sets`` (fouled groups compared apart, see
    ``rates.rate_tables``); ``variable`` (round, table, set of artificial results scored as
    the better of the rate and the player's own average, ``variable.variable_rates``);
    ``penalties`` (round, player, points: percentage points off the cumulative average from
    that round on; the standings gain a ``penalty`` column, ``penalised.with_penalties``);
    ``players`` (every registered id: players without a set yet are listed with 0 sets,
    ``penalised.with_unplaced``).
    """
    ready = on_ready or (lambda name, frame: None)
    ordered = in_table_order(sets)
    with ThreadPoolExecutor(max_workers=1) as pool:
        # Arrow hashes the player ids (once, for scores and standings) on another core,
        # without the GIL, while the rates and the rest of the scores are computed.
        encoding = pool.submit(encode_seats, ordered)
        rated, warnings = rate_tables(ordered, expected, compare_within, adjusted_rates)
        travellers = rated[list(TRAVELLERS_COLUMNS)]
        ready("travellers", travellers)

        def player_ids() -> pd.Series:
            names, codes = encoding.result()
            return text(codes, names)

        scores = player_scores(rated, player_ids)
        names, codes = encoding.result()
    if variable is not None:
        scores = variable_rates(scores, variable)
    ready("scores", scores)
    table = standings(scores, names, codes, seed, previous_positions)
    if penalties is not None:
        table = with_penalties(table, scores, penalties, seed, previous_positions)
    if players is not None:
        table = with_unplaced(table, players, seed, previous_positions, penalties)
    ready("standings", table)
    return Scored(scores=scores, standings=table, travellers=travellers, warnings=warnings)

