"""Board-level results: board numbering checks and the conversion to set results (SPEC 4).

The conversion is vectorised across tables: it walks the board *position* within a set
(1st board, 2nd board, ...; a set has few boards) and applies the level rules to every table
at that position at once with numpy arrays. :func:`guandan_dup.rules.progression.play_set` is
the slow obvious reference; a property test holds the two equal.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import Problem
from ..levels import LEVEL_A, LEVEL_PASSED_A
from ..rules.progression import FAILURES_BEFORE_RESET
from ..seats import SEAT_COLUMNS
from .schema import RESULT_KEY
from .validate import start_of_rows

ADJUSTED = ("adjusted", "ns_adjusted", "ew_adjusted")


def check_board_numbers(boards: pd.DataFrame, boards_per_set: int | None) -> list[Problem]:
    """A board number belongs to one set; a set's boards at a table are consecutive from the
    set's first board; with ``boards_per_set`` K, set s has exactly boards (s-1)K+1 .. sK.

    Without K, a set's first board is the lowest board number given for it anywhere in the
    input. Only the first board out of sequence at a table is reported (the rest follow).
    """
    frame = boards.loc[boards[[*RESULT_KEY, "board"]].notna().all(axis=1)]
    problems = []
    by_board = frame.groupby("board")[["set", "_file", "_row"]].transform("first")
    other = frame["set"] != by_board["set"]
    problems += [
        Problem(file, int(row), "board", int(board),
                f"belongs to set {first_set} ({first_file} row {first_row}); a board number"
                " belongs to one set only")
        for file, row, board, first_set, first_file, first_row in zip(
            frame["_file"][other], frame["_row"][other], frame["board"][other],
            by_board["set"][other], by_board["_file"][other], by_board["_row"][other],
            strict=True,
        )
    ]
    if boards_per_set is not None:
        first = (frame["set"] - 1) * boards_per_set + 1
        outside = (frame["board"] < first) | (frame["board"] >= first + boards_per_set)
        problems += [
            Problem(file, int(row), "board", int(board),
                    f"is outside set {st}, which has boards {lo}-{lo + boards_per_set - 1}"
                    f" ({boards_per_set} board{'s' if boards_per_set != 1 else ''} per set)")
            for file, row, board, st, lo in zip(
                frame["_file"][outside], frame["_row"][outside], frame["board"][outside],
                frame["set"][outside], first[outside], strict=True,
            )
        ]
        frame, first = frame.loc[~outside], first.loc[~outside]
    else:
        first = frame.groupby("set")["board"].transform("min")
    frame = frame.assign(_first=first).sort_values([*RESULT_KEY, "board"])
    expected = frame["_first"] + frame.groupby(RESULT_KEY).cumcount()
    wrong = frame["board"] != expected
    wrong &= wrong.astype(int).groupby([frame[c] for c in RESULT_KEY]).cumsum() == 1
    problems += [
        Problem(file, int(row), "board", int(board),
                f"is out of sequence: the boards of set {st} at table {table} must be"
                f" consecutive from board {lo}, so board {exp} was expected here")
        for file, row, board, st, table, lo, exp in zip(
            frame["_file"][wrong], frame["_row"][wrong], frame["board"][wrong],
            frame["set"][wrong], frame["table"][wrong], frame["_first"][wrong],
            expected[wrong], strict=True,
        )
    ]
    return problems


def same_players_through_set(boards: pd.DataFrame) -> list[Problem]:
    """The same four players, in the same seats and group, play every board of a set."""
    frame = boards.loc[boards[RESULT_KEY].notna().all(axis=1)].sort_values([*RESULT_KEY, "board"])
    columns = ["group", *SEAT_COLUMNS]
    first = frame.groupby(RESULT_KEY)[[*columns, "board"]].transform("first")
    problems = []
    for column in columns:
        # An empty cell (already reported, or a missing column) differs from nothing.
        differs = (frame[column] != first[column]).fillna(False) & frame[column].notna()
        problems += [
            Problem(file, int(row), column, value,
                    f"differs from {was!r} on board {board} of this set at this table; the"
                    " same players play a whole set")
            for file, row, value, was, board in zip(
                frame["_file"][differs], frame["_row"][differs], frame[column][differs],
                first[column][differs], first["board"][differs], strict=True,
            )
        ]
    return problems


def boards_to_sets(
    boards: pd.DataFrame, three_failures_reset: bool = False,
    start_levels: pd.DataFrame | None = None,
) -> tuple[pd.DataFrame, list[Problem]]:
    """One set result per (round, table, set) from its boards, and boards after the set ended.

    ``boards`` holds valid rows only (keys, board, ``side`` 0/1 and ``amount`` 1..3 set).
    The result has the key, group, players, ``ns_index``/``ew_index``, ``boards`` (boards
    played) and the ``_file``/``_row`` of the set's first board. Sets start at 2/2 unless
    ``start_levels`` (the ledger's, art. 32) says otherwise.
    """
    frame = boards.sort_values([*RESULT_KEY, "board"]).reset_index(drop=True)
    table_id = frame.groupby(RESULT_KEY, sort=False).ngroup().to_numpy()
    position = frame.groupby(RESULT_KEY, sort=False).cumcount().to_numpy()
    side = frame["side"].to_numpy(np.int64)
    amount = frame["amount"].to_numpy(np.int64)
    count = int(table_id.max()) + 1 if len(frame) else 0
    levels = np.zeros((2, count), np.int64)  # row 0 NS, row 1 EW
    if start_levels is not None and count:
        levels[:] = start_of_rows(frame.loc[position == 0], start_levels).T
    fails = np.zeros((2, count), np.int64)
    board_level = levels.min(axis=0)
    ended = np.zeros(count, bool)
    played = np.zeros(count, np.int64)
    after_end = np.zeros(len(frame), bool)
    for k in range(int(position.max()) + 1 if len(frame) else 0):
        rows = np.flatnonzero(position == k)
        after_end[rows] = ended[table_id[rows]]
        rows = rows[~after_end[rows]]
        t, winner, up = table_id[rows], side[rows], amount[rows]
        at_a = board_level[t] == LEVEL_A
        own = levels[winner, t]
        passes = at_a & (own == LEVEL_A) & (up >= 2)
        for s in (0, 1):
            fails[s, t] += at_a & (levels[s, t] == LEVEL_A) & ~(passes & (winner == s))
        levels[winner, t] = np.where(passes, LEVEL_PASSED_A, np.minimum(own + up, LEVEL_A))
        if three_failures_reset:
            for s in (0, 1):
                reset = t[fails[s, t] == FAILURES_BEFORE_RESET]
                levels[s, reset] = 0
                fails[s, reset] = 0
        board_level[t] = levels[winner, t]
        ended[t] |= passes
        played[t] += 1
    problems = [
        Problem(file, int(row), "board", int(board),
                "is after the end of the set: a side passed A (过A) on an earlier board of"
                " this set at this table")
        for file, row, board in zip(
            frame["_file"][after_end], frame["_row"][after_end], frame["board"][after_end],
            strict=True,
        )
    ]
    carried = [*RESULT_KEY, "group", *SEAT_COLUMNS, *ADJUSTED, "_file", "_row"]
    if "tiebreak" in frame:  # a knockout's extra boards may be named on any board's row
        frame["tiebreak"] = frame.groupby(RESULT_KEY, sort=False)["tiebreak"].transform("first")
        carried.append("tiebreak")
    sets = frame.loc[position == 0, carried]
    sets = sets.assign(
        ns_index=pd.array(levels[0], "Int8"),
        ew_index=pd.array(levels[1], "Int8"),
        boards=pd.array(played, "Int16"),
        ended=ended,
    )
    return sets.reset_index(drop=True), problems
