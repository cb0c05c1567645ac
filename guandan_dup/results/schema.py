"""The column contract of results files (SPEC 5) and of the normalised set table.

Two kinds of input file, told apart by their columns: *set-level* (one row per table per set,
final levels ``ns_level``/``ew_level``) and *board-level* (one row per table per board, the
finishing order ``finish``). Both become the normalised set table, one row per
(round, table, set), which scoring, the event folder and the site read.

>>> file_kind(["round", "table", "set", "board", "finish"])
'board'
>>> sorted(SET_LEVEL.required - BOARD_LEVEL.required)
['ew_level', 'ns_level']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from numbers import Real

from ..seats import SEAT_COLUMNS

#: Whole-number columns: may arrive as any integer type or as floats without a fraction.
INT_COLUMNS = ("round", "group", "table", "set", "board")
#: Player ids: strings, or integers (coerced to their decimal text).
PLAYER_COLUMNS = SEAT_COLUMNS
#: Text columns: string, large_string or categorical (dictionary) of strings.
TEXT_COLUMNS = ("ns_level", "ew_level", "finish", "adjusted", "tiebreak")
#: Artificial result codes for one direction, best first (SPEC 5 and 6).
ADJUSTED_CODES = ("A+", "A", "A-")
LARGEST = 1_000_000_000
"""Round, group, table, set and board numbers above this are refused as typing slips (an
event has far fewer); it also keeps every later sum far from overflowing 64-bit integers."""


def allowed_codes(adjusted_rates: Mapping[str, Real] | None) -> tuple[str, ...]:
    """The artificial result codes a file may use: the defaults, or those given rates."""
    return ADJUSTED_CODES if adjusted_rates is None else tuple(adjusted_rates)


@dataclass(frozen=True)
class FileKind:
    """Which columns a kind of results file must and may have."""

    name: str
    required: frozenset[str]
    optional: frozenset[str]
    #: Columns whose presence alone marks a file as this kind.
    markers: frozenset[str]
    #: Required columns that hold the result of play, so stay empty on an ``adjusted`` row.
    played: frozenset[str]
    #: Required columns an ``adjusted`` row may leave empty (the played ones and more).
    unneeded_when_adjusted: frozenset[str]

    @property
    def columns(self) -> frozenset[str]:
        return self.required | self.optional


_KEYS = frozenset({"round", "table", "set", *SEAT_COLUMNS})
#: ``tiebreak``: who won the extra boards of a knockout match left level (SPEC 9); other
#: events ignore it, and the normalised table carries it only when a file gives one.
_OPTIONAL = frozenset({"group", "adjusted", "tiebreak"})
_LEVELS = frozenset({"ns_level", "ew_level"})
SET_LEVEL = FileKind("set", _KEYS | _LEVELS, _OPTIONAL, _LEVELS, _LEVELS, _LEVELS)
_BOARD = frozenset({"board", "finish"})
# An adjusted row of a board-level file stands for the whole set: its board may be left empty.
BOARD_LEVEL = FileKind("board", _KEYS | _BOARD, _OPTIONAL, _BOARD, frozenset({"finish"}), _BOARD)
KINDS = (SET_LEVEL, BOARD_LEVEL)


def file_kind(columns: Iterable[str]) -> str | None:
    """``"set"`` or ``"board"`` from a file's column names; ``"mixed"`` if it has the marker
    columns of both kinds, ``None`` if of neither."""
    present = set(columns)
    kinds = [kind.name for kind in KINDS if kind.markers & present]
    if len(kinds) > 1:
        return "mixed"
    return kinds[0] if kinds else None


#: The normalised set table (CONTRACTS "Results"), column -> pandas dtype, in order.
NORMALISED_DTYPES = {
    "round": "int64",
    "group": "int64",
    "table": "int64",
    "set": "int64",
    **dict.fromkeys(SEAT_COLUMNS, "str"),
    "ns_level": "Int8",
    "ew_level": "Int8",
    "adjusted": "str",
    "ns_adjusted": "str",
    "ew_adjusted": "str",
    "boards": "Int16",
}
#: Columns that identify one result: a table's result on a set in a round.
RESULT_KEY = ["round", "table", "set"]
#: Normalised columns that make up a result (everything but the key and the derived codes).
RESULT_VALUES = ["group", *SEAT_COLUMNS, "ns_level", "ew_level", "adjusted"]
