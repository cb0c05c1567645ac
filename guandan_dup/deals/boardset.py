"""Board sets: the table of dealt boards, its Parquet file, and board-range notation.

One row per board: ``board``, ``set``, ``set_board`` (1..K), ``leader`` (the seat that leads
the first board of a set, else null) and ``north east south west`` (27 sorted kind ids each).
The schema metadata records who made the file and how, so ``verify`` can recompute it from the
key alone: generator and version, algorithm id, commitment, delayed value, boards per set and
first leader. Sets are numbered event-wide: board b is in set ``(b - 1) // K + 1``.

>>> parse_board_range("1-4, 9")
[1, 2, 3, 4, 9]
>>> table = make_board_set(bytes(32), [1, 2, 3], boards_per_set=2)
>>> table.column("set").to_pylist(), table.column("leader").to_pylist()
([1, 1, 2], ['E', None, 'E'])
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .. import __version__
from ..atomic import write_parquet
from ..cards import COPIES, HAND_SIZE, KINDS, PACK_SIZE
from ..errors import GuandanError, InvalidPlanError, NotationError
from ..progress import progress
from ..reading import read_parquet
from ..seats import SEAT_COLUMNS, Seat
from ..wording import plural, spans
from .generate import ALGORITHM, check_boards, deal_boards
from .keys import commitment

GENERATOR = "guandan-dup"
DEFAULT_BOARDS_PER_SET = 1
"""Board mode (SPEC 4: k = 1) unless told otherwise: every board is its own set."""
MAX_BOARD = 2**31 - 1
MAX_BOARDS = 10_000_000
"""More boards than any event needs in one file; a typo like ``1-100000000`` stops here."""

HAND_TYPE = pa.list_(pa.uint8())
SCHEMA = pa.schema(
    [("board", pa.int32()), ("set", pa.int32()), ("set_board", pa.int32()), ("leader", pa.string())]
    + [(column, HAND_TYPE) for column in SEAT_COLUMNS]
)
_RANGE_PART = re.compile(r"\s*([0-9]+)\s*(?:-\s*([0-9]+)\s*)?")
_RANGE_FORM = (
    "expected board numbers from 1, ranges and single boards separated by commas, "
    "like '1-36' or '1-12,25,30-36'"
)


class BoardSetError(GuandanError):
    """A board-set file that cannot be read, lacks its metadata or holds impossible hands."""


def parse_board_range(text: str) -> list[int]:
    """The boards of ``"1-36,40"`` in ascending order; ``NotationError`` explains a bad one."""

    def bad(reason: str) -> NotationError:
        return NotationError(f"bad board range {text!r}: {reason}; {_RANGE_FORM}")

    if not text.strip():
        raise bad("it is empty")
    boards: list[int] = []
    for part in text.split(","):
        match = _RANGE_PART.fullmatch(part)
        if match is None:
            raise bad(f"{part.strip()!r} is not a board number or a range like 1-36")
        first = int(match[1])
        last = int(match[2] or first)
        if first < 1:
            raise bad("board numbers start at 1")
        if last < first:
            raise bad(f"{part.strip()!r} runs backwards")
        if last > MAX_BOARD or len(boards) + last - first >= MAX_BOARDS:
            raise bad(f"at most {MAX_BOARDS:,} boards numbered up to {MAX_BOARD:,}")
        boards.extend(range(first, last + 1))
    boards.sort()
    repeated = [a for a, b in zip(boards, boards[1:], strict=False) if a == b]
    if repeated:
        raise bad(f"board {repeated[0]} is listed twice")
    return boards


@dataclass(frozen=True)
class BoardSetInfo:
    """What a board-set file says about how it was made (its schema metadata)."""

    generator: str
    generator_version: str
    algorithm: str
    commitment: str
    delayed: str
    boards_per_set: int
    first_leader: Seat

    def to_metadata(self) -> dict[bytes, bytes]:
        """The fields as Parquet schema metadata (UTF-8 text), seat as its letter."""
        values = vars(self) | {"first_leader": self.first_leader.to_text()}
        return {name.encode(): str(value).encode("utf-8") for name, value in values.items()}

    @classmethod
    def from_table(cls, table: pa.Table, file: str = "the board set") -> BoardSetInfo:
        """Read the metadata; ``BoardSetError`` if the table was not made by this generator."""
        raw = {k.decode(): v.decode("utf-8") for k, v in (table.schema.metadata or {}).items()}
        missing = [name for name in cls.__dataclass_fields__ if name not in raw]
        if missing:
            raise BoardSetError(
                f"{file} lacks the metadata {', '.join(missing)}: it was not written by "
                f"'guandan-dup deal', so it cannot be verified"
            )
        fields = {name: raw[name] for name in cls.__dataclass_fields__}
        per_set = fields["boards_per_set"]
        if not per_set.isdigit() or int(per_set) < 1:
            raise BoardSetError(f"{file} has boards_per_set {per_set!r} in its metadata")
        return cls(
            **fields
            | {
                "boards_per_set": int(per_set),
                "first_leader": Seat.from_text(fields["first_leader"]),
            }
        )


def set_positions(boards: np.ndarray, boards_per_set: int) -> tuple[np.ndarray, np.ndarray]:
    """Event-wide set number and 1-based position in the set of each board."""
    return (boards - 1) // boards_per_set + 1, (boards - 1) % boards_per_set + 1


def make_board_set(
    key: bytes,
    boards: Sequence[int] | np.ndarray,
    boards_per_set: int = DEFAULT_BOARDS_PER_SET,
    delayed: str = "",
    first_leader: str | Seat = "E",
    show_progress: bool = False,
) -> pa.Table:
    """Deal ``boards`` from ``key`` into a board-set table (schema ``SCHEMA``, with metadata)."""
    whole = isinstance(boards_per_set, int | np.integer) and not isinstance(boards_per_set, bool)
    if not whole or boards_per_set < 1:
        raise InvalidPlanError(
            f"boards per set must be a whole number >= 1; got {boards_per_set!r}"
        )
    leader = first_leader if isinstance(first_leader, Seat) else Seat.from_text(first_leader)
    numbers = check_boards(boards)
    if numbers.size and numbers.max() > MAX_BOARD:
        raise GuandanError(f"board numbers go up to {MAX_BOARD:,}; got {int(numbers.max()):,}")
    with progress(len(numbers), "Dealing boards", show_progress) as advance:
        hands = deal_boards(key, numbers, delayed, advance=advance)
    info = BoardSetInfo(
        GENERATOR, __version__, ALGORITHM, commitment(key), delayed, int(boards_per_set), leader
    )
    sets, set_board = set_positions(numbers, int(boards_per_set))
    offsets = pa.array(np.arange(0, HAND_SIZE * (len(numbers) + 1), HAND_SIZE, dtype=np.int32))
    columns = [
        pa.array(numbers, pa.int32()),
        pa.array(sets, pa.int32()),
        pa.array(set_board, pa.int32()),
        pc.if_else(pa.array(set_board == 1), leader.to_text(), pa.scalar(None, pa.string())),
    ] + [
        pa.ListArray.from_arrays(offsets, pa.array(hands[:, seat].reshape(-1)))
        for seat in range(len(SEAT_COLUMNS))
    ]
    return pa.Table.from_arrays(columns, schema=SCHEMA.with_metadata(info.to_metadata()))


def hands_of(table: pa.Table) -> np.ndarray:
    """The hands of a board-set table as an array (n, 4, 27) of kind ids, seats N E S W."""
    return np.stack(
        [
            table.column(column).combine_chunks().flatten().to_numpy().reshape(-1, HAND_SIZE)
            for column in SEAT_COLUMNS
        ],
        axis=1,
    )


def dump(table: pa.Table, path: str | os.PathLike) -> None:
    """Write a board-set table to Parquet atomically, metadata included."""
    write_parquet(path, table)


def load(path: str | os.PathLike) -> pa.Table:
    """Read and check a board-set Parquet file; ``BoardSetError`` names the file and problem."""
    name = str(path)
    table = read_parquet(path, "board set file", BoardSetError)
    missing = [field.name for field in SCHEMA if field.name not in table.column_names]
    if missing:
        raise BoardSetError(f"board set file {name!r} lacks the columns {', '.join(missing)}")
    try:
        table = table.select(SCHEMA.names).cast(SCHEMA.with_metadata(table.schema.metadata))
    except (pa.ArrowException, ValueError) as error:
        message = f"board set file {name!r} has columns of the wrong type: {error}"
        raise BoardSetError(message) from None
    _check_numbers(table, name)
    _check_hands(table, name)
    return table


def _check_numbers(table: pa.Table, name: str) -> None:
    """Board, set and position are present on every row, and no board is listed twice.

    A repeated board would verify twice and hide that another board is missing.
    """
    for column in ("board", "set", "set_board"):
        empty = pc.is_null(table.column(column)).to_numpy(zero_copy_only=False)
        if empty.any():
            rows = (np.flatnonzero(empty) + 1).tolist()
            raise BoardSetError(
                f"board set file {name!r}, column {column!r}: {spans('row', rows, 10)} "
                f"{plural('is', len(rows), 'are')} empty; "
                "every row needs a board number, a set number and its position in the set"
            )
    boards = np.sort(table.column("board").to_numpy())
    repeated = np.unique(boards[1:][boards[1:] == boards[:-1]])
    if repeated.size:
        raise BoardSetError(
            f"board set file {name!r}, column 'board': {spans('board', repeated.tolist(), 10)} "
            f"{plural('is', repeated.size, 'are')} listed more than once; expected each "
            "board once"
        )


def _check_hands(table: pa.Table, name: str) -> None:
    """Refuse impossible hands: they could not be rendered, played or compared.

    Every hand is 27 kind ids in 0..53, and the four hands of a board hold each kind twice.
    """
    boards = table.column("board").to_numpy()
    for column in SEAT_COLUMNS:
        hands = table.column(column).combine_chunks()
        lengths = pc.fill_null(pc.list_value_length(hands), -1).to_numpy()
        bad = lengths != HAND_SIZE
        kinds = hands.flatten().to_numpy()
        parents = pc.list_parent_indices(hands).to_numpy()
        bad[parents[kinds >= KINDS]] = True
        if bad.any():
            raise BoardSetError(
                f"board set file {name!r}, column {column!r}: a hand is {HAND_SIZE} kind ids "
                f"in 0..{KINDS - 1}; {spans('board', np.sort(boards[bad]).tolist(), 10)} "
                f"{plural('does', int(bad.sum()), 'do')} not hold one"
            )
    incomplete = ~_whole_packs(hands_of(table))
    if incomplete.any():
        raise BoardSetError(
            f"board set file {name!r}: the four hands of a board hold every card kind exactly "
            f"{COPIES} times; {spans('board', np.sort(boards[incomplete]).tolist(), 10)} "
            f"{plural('does', int(incomplete.sum()), 'do')} not"
        )


_PACK_CHUNK = 65_536


def _whole_packs(hands: np.ndarray) -> np.ndarray:
    """Which boards of (n, 4, 27) hold each of the 54 kinds exactly twice, in chunks of boards.

    One ``bincount`` per chunk over ``board * 54 + kind`` counts every board at once.
    """
    packs = hands.reshape(len(hands), PACK_SIZE)
    whole = np.empty(len(packs), dtype=bool)
    for start in range(0, len(packs), _PACK_CHUNK):
        chunk = packs[start : start + _PACK_CHUNK].astype(np.intp)
        cells = chunk + np.arange(len(chunk))[:, None] * KINDS
        counts = np.bincount(cells.ravel(), minlength=len(chunk) * KINDS)
        whole[start : start + len(chunk)] = (counts.reshape(-1, KINDS) == COPIES).all(axis=1)
    return whole
