"""Board sets: secret event keys, deals as a pure function of the key, files and hand records.

``keys`` makes and reads the key and its published commitment; ``generate`` deals boards;
``boardset`` builds the board-set table and its Parquet file; ``verify`` checks a file against
a revealed key; ``render`` writes JSON, text and printable HTML hand records.
"""

from .boardset import (
    BoardSetError,
    BoardSetInfo,
    dump,
    hands_of,
    load,
    make_board_set,
    parse_board_range,
)
from .generate import ALGORITHM, deal_boards
from .keys import KeyPermissionWarning, commitment, create_key, new_key, read_key, write_key
from .render import OutputFormat, deal_file, to_html, to_json, to_text, write
from .verify import Verification, verify, verify_file

__all__ = [
    "ALGORITHM",
    "BoardSetError",
    "BoardSetInfo",
    "KeyPermissionWarning",
    "OutputFormat",
    "Verification",
    "commitment",
    "create_key",
    "deal_boards",
    "deal_file",
    "dump",
    "hands_of",
    "load",
    "make_board_set",
    "new_key",
    "parse_board_range",
    "read_key",
    "to_html",
    "to_json",
    "to_text",
    "verify",
    "verify_file",
    "write",
    "write_key",
]
