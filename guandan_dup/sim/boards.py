"""The deals of each set of a board-set table, as the set loop wants them (counts per seat)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from ..cards import KINDS
from ..deals.boardset import hands_of
from ..errors import GuandanError
from ..seats import Seat


@dataclass(frozen=True)
class SetDeals:
    """One set's boards in playing order, hands as k x 4 x 54 counts, board 1's leader."""

    boards: tuple[int, ...]
    deals: np.ndarray
    leader: Seat


def hand_counts(hands: np.ndarray) -> np.ndarray:
    """(n, 4, 27) kind ids -> (n, 4, 54) counts, in one vectorised pass."""
    n = hands.shape[0]
    flat = (np.arange(n * 4).reshape(n, 4, 1) * KINDS + hands).reshape(-1)
    return np.bincount(flat, minlength=n * 4 * KINDS).reshape(n, 4, KINDS).astype(np.uint8)


def set_deals(table: pa.Table) -> dict[int, SetDeals]:
    """Every set of a board-set table (``deals.boardset`` schema), keyed by set number."""
    counts = hand_counts(hands_of(table))
    boards = table.column("board").to_numpy()
    sets = table.column("set").to_numpy()
    position = table.column("set_board").to_numpy()
    leaders = table.column("leader").to_pylist()
    found: dict[int, SetDeals] = {}
    for set_no in np.unique(sets).tolist():
        rows = np.flatnonzero(sets == set_no)
        rows = rows[np.argsort(position[rows], kind="stable")]
        first = leaders[rows[0]]
        if position[rows[0]] != 1 or first is None:
            raise GuandanError(
                f"board set: set {set_no} has no first board with a leader (board "
                f"{int(boards[rows[0]])} is board {int(position[rows[0]])} of the set)"
            )
        found[set_no] = SetDeals(tuple(boards[rows].tolist()), counts[rows], Seat.from_text(first))
    return found
