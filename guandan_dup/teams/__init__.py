"""Team events (团体赛, SPEC 8): a room of its own, taking and returning tables.

``score_matches`` turns two rooms' set results into match results (场分, 级差分);
``team_standings`` orders teams by art. 49; ``swiss_round`` and ``berger_round`` pair a
round; ``matches_frame``, ``seating_frame`` and the lineup helpers seat it. Nothing here
opens an event folder: ``event.formats.teams`` composes these for the folder and the CLI.
"""

from .awards import ArtificialAwards, Award
from .conversion import PRESETS, ConversionTable, InvalidConversionError, preset, resolve
from .matches import (
    ADJUSTMENT_COLUMNS,
    MATCH_COLUMNS,
    MATCH_RESULT_COLUMNS,
    exact_points,
    score_matches,
)
from .registration import InvalidTeamsError
from .roundrobin import berger_round, cycle_length
from .seating import (
    LINEUP_COLUMNS,
    ROOM_SIDES,
    default_lineups,
    load_lineups,
    matches_frame,
    seating_frame,
)
from .standings import TEAM_STANDINGS_COLUMNS, split_ties, standings_after, team_standings
from .swiss import SwissRound, home_first, swiss_round

__all__ = [
    "ADJUSTMENT_COLUMNS",
    "LINEUP_COLUMNS",
    "MATCH_COLUMNS",
    "MATCH_RESULT_COLUMNS",
    "PRESETS",
    "ROOM_SIDES",
    "TEAM_STANDINGS_COLUMNS",
    "ArtificialAwards",
    "Award",
    "ConversionTable",
    "InvalidConversionError",
    "InvalidTeamsError",
    "SwissRound",
    "berger_round",
    "cycle_length",
    "default_lineups",
    "exact_points",
    "home_first",
    "load_lineups",
    "matches_frame",
    "preset",
    "resolve",
    "score_matches",
    "seating_frame",
    "split_ties",
    "standings_after",
    "swiss_round",
    "team_standings",
]
