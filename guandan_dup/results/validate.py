"""What results mean: levels, finishing orders, artificial results, seats, duplicates, players.

Every check is a column operation over a whole frame (text values are parsed once per
distinct value, not once per row) and returns :class:`~guandan_dup.errors.Problem` objects;
the caller raises once with all of them. Frames carry ``_file`` and ``_row`` (see
:mod:`.load`) so each problem names its cell.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

import numpy as np
import pandas as pd

from ..errors import NotationError, Problem
from ..levels import LEVEL_NAMES, level_from_text
from ..rules.progression import finish_problem, move_up, parse_finish, reachable_levels
from ..seats import SEAT_COLUMNS
from .load import RawFile

_SIDE_CODE = {"NS": 0, "EW": 1}


def _problems(frame: pd.DataFrame, mask, column: str, rule) -> list[Problem]:
    """One problem per masked row about its ``column`` cell; ``rule`` is text or a function
    of the cell's value."""
    rows = frame.loc[np.asarray(mask, dtype=bool)]
    return [
        Problem(file, int(row), column, None if pd.isna(value) else value,
                rule(value) if callable(rule) else rule)
        for file, row, value in zip(rows["_file"], rows["_row"], rows[column], strict=True)
    ]


def _parse_distinct(
    values: pd.Series, parse: Callable[[str], tuple], missing: tuple
) -> tuple[list[np.ndarray], np.ndarray]:
    """``parse`` (giving a tuple of fields) applied once per distinct value, spread to rows.

    Returns one array per field with each row's parsed field (``missing`` where the cell is
    empty or did not parse) and the mask of rows that did not parse.
    """
    codes, distinct = pd.factorize(values)
    parsed, bad = [], np.zeros(len(distinct) + 1, dtype=bool)
    for i, text in enumerate(distinct):
        try:
            parsed.append(parse(text))
        except NotationError:
            parsed.append(missing)
            bad[i] = True
    parsed.append(missing)  # code -1 (an empty cell) picks this last entry
    fields = [np.array([p[i] for p in parsed], dtype=object)[codes] for i in range(len(missing))]
    return fields, bad[codes]


def parse_adjusted(text: str, codes: tuple[str, ...]) -> tuple[str, str]:
    """``"A+/A-"`` -> ``("A+", "A-")`` (NS, EW), case and spaces ignored."""
    parts = [part.strip().upper() for part in str(text).split("/")]
    if len(parts) != 2 or not set(parts) <= set(codes):
        raise NotationError(f"unknown adjusted code {text!r}")
    return parts[0], parts[1]


def check_rows(raw: RawFile, codes: tuple[str, ...]) -> tuple[pd.DataFrame, list[Problem]]:
    """Row-by-row meaning of one file's typed frame; adds parsed columns.

    Adds ``ns_adjusted``/``ew_adjusted`` and a canonical ``adjusted``; for set-level files
    ``ns_index``/``ew_index`` (level indices), for board-level ``side`` (0 NS, 1 EW) and
    ``amount`` (move-up) of each board.
    """
    frame, kind, present = raw.frame.copy(), raw.kind, raw.present
    problems = []
    for first, second in combinations(SEAT_COLUMNS, 2):
        same = (frame[first] == frame[second]).fillna(False)
        problems += _problems(
            frame, same, second, f"is also in seat {first} at this table; a player takes one seat"
        )
    given = frame["adjusted"].notna()
    pair, bad = _parse_distinct(frame["adjusted"], lambda t: parse_adjusted(t, codes), (None,) * 2)
    problems += _problems(
        frame,
        bad,
        "adjusted",
        f"unknown adjusted code; expected NS/EW codes from {', '.join(codes)},"
        f" such as '{codes[0]}/{codes[-1]}'",
    )
    frame["ns_adjusted"] = pd.Series(pair[0], frame.index, "str")
    frame["ew_adjusted"] = pd.Series(pair[1], frame.index, "str")
    frame["adjusted"] = (frame["ns_adjusted"] + "/" + frame["ew_adjusted"]).astype("str")
    for column in sorted(kind.played & present):
        problems += _problems(
            frame,
            given & frame[column].notna(),
            column,
            "must be empty on an artificial (adjusted) result: a table that could not play"
            " has no levels or finishing order",
        )
    for column in sorted(kind.unneeded_when_adjusted & present):
        problems += _problems(
            frame,
            ~given & frame[column].isna(),
            column,
            "is empty; a value is required (or an adjusted code for a table that did not play)",
        )
    if kind.name == "set":
        problems += _levels(frame)
    else:
        problems += _finishes(frame)
    return frame, problems


def _levels(frame: pd.DataFrame) -> list[Problem]:
    problems = []
    expected = f"unknown level; expected one of {', '.join(LEVEL_NAMES)}"
    for side in ("ns", "ew"):
        column = f"{side}_level"
        (index,), bad = _parse_distinct(frame[column], lambda t: (level_from_text(t),), (None,))
        problems += _problems(frame, bad, column, expected)
        frame[f"{side}_index"] = pd.Series(index, frame.index, "Int8")
    return problems


def _finishes(frame: pd.DataFrame) -> list[Problem]:
    def side_and_amount(text: str) -> tuple[int, int]:
        side, amount = move_up(parse_finish(text))
        return _SIDE_CODE[side], amount

    (side, amount), bad = _parse_distinct(frame["finish"], side_and_amount, (None, None))
    frame["side"] = pd.Series(side, frame.index, "Int8")
    frame["amount"] = pd.Series(amount, frame.index, "Int8")
    return _problems(frame, bad, "finish", finish_problem)


def drop_duplicates(
    frame: pd.DataFrame, key: list[str], values: list[str], what: str
) -> tuple[pd.DataFrame, list[Problem], list[str]]:
    """Keep the first row of each ``key``: identical repeats are warnings, others problems.

    ``what`` names a key in messages (``"result"``, ``"board"``).
    """
    repeated = frame.duplicated(key, keep=False) & frame[key].notna().all(axis=1)
    if not repeated.any():
        return frame, [], []
    sub = frame.loc[repeated]
    same = sub.duplicated(key + values)
    original = sub.groupby(key + values, dropna=False)[["_file", "_row"]].transform("first")
    warnings = [
        f"{file} row {row} repeats {ffile} row {frow} exactly ({what} of {_describe(r)});"
        " one copy kept"
        for file, row, ffile, frow, r in zip(
            sub["_file"][same], sub["_row"][same], original["_file"][same],
            original["_row"][same], sub.loc[same, key].to_dict("records"), strict=True,
        )
    ]
    first = sub.groupby(key)[["_file", "_row"]].transform("first")
    distinct = sub.loc[~same]
    clash = distinct.loc[distinct.duplicated(key)]
    firsts = first.loc[clash.index]
    problems = [
        Problem(file, int(row), None, None,
                f"{_describe(r)} was already given in {ffile} row {frow} with a different {what}")
        for file, row, ffile, frow, r in zip(
            clash["_file"], clash["_row"], firsts["_file"], firsts["_row"],
            clash[key].to_dict("records"), strict=True,
        )
    ]
    keep = ~frame.index.isin(sub.index[same | sub.duplicated(key)])
    return frame.loc[keep], problems, warnings


def _describe(key: dict) -> str:
    return ", ".join(f"{name} {value}" for name, value in key.items())


def players_at_one_table(frame: pd.DataFrame) -> list[Problem]:
    """A player sits at one table per (round, set): report every seat at a second table.

    Players are factorised to integers so the check is a ``duplicated`` over int64 keys; only
    the (rare) repeated players are looked at further.
    """
    keyed = frame.loc[frame[["round", "set", "table"]].notna().all(axis=1)]
    n = len(keyed)
    codes, players = pd.factorize(pd.concat([keyed[c] for c in SEAT_COLUMNS], ignore_index=True))
    round_set = keyed.groupby(["round", "set"]).ngroup().to_numpy(np.int64)
    seats = pd.DataFrame(
        {
            "key": np.tile(round_set, 4) * (len(players) + 1) + codes,
            "table": np.tile(keyed["table"].to_numpy(np.int64), 4),
        }
    ).loc[codes >= 0]
    seats = seats.loc[seats["key"].duplicated(keep=False)].drop_duplicates(["key", "table"])
    first = seats.groupby("key")["table"].transform("first")
    elsewhere = seats.loc[seats["table"] != first]
    positions = elsewhere.index.to_numpy()
    rows = keyed.iloc[positions % n]
    columns = [SEAT_COLUMNS[p] for p in positions // n]
    return [
        Problem(
            file, int(row), column, player,
            f"also plays at table {other} in round {rnd}, set {st}; a player sits at one table"
            " per set",
        )
        for file, row, column, player, other, rnd, st in zip(
            rows["_file"], rows["_row"], columns, players[codes[positions]],
            first.loc[elsewhere.index], rows["round"], rows["set"], strict=True,
        )
    ]


def unreachable_levels(
    frame: pd.DataFrame, boards: int | None, three_failures_reset: bool
) -> list[Problem]:
    """Set-level results no sequence of at most ``boards`` boards (``None``: any) can produce.

    "At most" because a table that ran out of time stops short of K boards; board-level input
    accepts such a set with a warning, and set-level input must not be stricter.
    """
    rows = frame.loc[frame["ns_index"].notna() & frame["ew_index"].notna()]
    possible = np.zeros((len(LEVEL_NAMES), len(LEVEL_NAMES)), dtype=bool)
    for played in [None] if boards is None else range(1, boards + 1):
        for ns, ew in reachable_levels(played, three_failures_reset):
            possible[ns, ew] = True
    ns_index = rows["ns_index"].to_numpy(np.int64)
    ew_index = rows["ew_index"].to_numpy(np.int64)
    bad = ~possible[ns_index, ew_index]
    played = f"at most {boards} board{'s' if boards != 1 else ''}" if boards else "boards"
    return [
        Problem(
            file, int(row), None, f"{LEVEL_NAMES[ns]}/{LEVEL_NAMES[ew]}",
            f"no set of {played} starting at 2/2 ends with NS at {LEVEL_NAMES[ns]} and EW at"
            f" {LEVEL_NAMES[ew]} (only the winner of a board moves up, by 1 to 3 levels)",
        )
        for file, row, ns, ew in zip(
            rows["_file"][bad], rows["_row"][bad], ns_index[bad], ew_index[bad], strict=True
        )
    ]
