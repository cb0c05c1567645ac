"""Knockout stages (淘汰赛, SPEC 9): brackets, deciding matches, final places.

Tables in, tables out; nothing here reads or writes the event folder. ``skeleton`` is the
bracket's shape (a function of the number of entries and the layout), every side's
``Source`` ("entry 3", "winner 1.2") with its text form; ``round_bracket``
fills a round with sides, ``complete`` records who won, ``pair_outcomes`` decides pairs
matches from their results and ``final_places`` ranks everyone once the last round is in.
"""

from .bracket import (
    BRACKET_COLUMNS,
    DECIDED_BY,
    DECIDED_COLUMNS,
    KnockoutError,
    check_entries,
    complete,
    round_bracket,
)
from .decide import pair_outcome, pair_outcomes
from .places import PLACES_COLUMNS, final_places, place_labels
from .skeleton import (
    LAYOUTS,
    PLACES,
    bracket_size,
    rounds_needed,
    seed_positions,
    skeleton,
    sources,
    tables_per_round,
)
from .source import SOURCE_KINDS, Source

__all__ = [
    "BRACKET_COLUMNS",
    "DECIDED_BY",
    "DECIDED_COLUMNS",
    "LAYOUTS",
    "PLACES",
    "PLACES_COLUMNS",
    "SOURCE_KINDS",
    "KnockoutError",
    "Source",
    "bracket_size",
    "check_entries",
    "complete",
    "final_places",
    "pair_outcome",
    "pair_outcomes",
    "place_labels",
    "round_bracket",
    "rounds_needed",
    "seed_positions",
    "skeleton",
    "sources",
    "tables_per_round",
]
