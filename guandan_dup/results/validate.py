"""What results mean: levels, finishing orders, artificial results, seats, duplicates, players.

Every check is a column operation over a whole frame (text values are parsed once per
distinct value, not once per row) and returns :class:`~guandan_dup.errors.Problem` objects;
the caller raises once with all of them. Frames carry ``_file`` and ``_row`` (see
:mod:`.load`) so each problem names its cell.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import combinations

import numpy as np
import pandas as pd

from ..errors import NotationError, Problem
from ..levels import LEVEL_NAMES, level_from_text
from ..rules.progression import finish_problem, move_up, parse_finish
from ..seats import SEAT_COLUMNS
from .load import RawFile
from .masks import possible_levels, repeated

_SIDE_CODE = {"NS": 0, "EW": 1}


def _problems(frame: pd.DataFrame, mask, column: str, rule) -> list[Problem]:
    """One problem per masked row about its ``column`` cell; ``rule`` is text or a function
    of the cell's value."""
    mask = np.asarray(mask, dtype=bool)
    if not mask.any():  # frame.loc costs even when it takes no row
        return []
    rows = frame.loc[mask]
    return [
        Problem(file, int(row), column, None if pd.isna(value) else value,
                rule(value) if callable(rule) else rule)
        for file, row, value in zip(rows["_file"], rows["_row"], rows[column], strict=True)
    ]


def _parse_distinct(
    values: pd.Series, parse: Callable[[str], tuple], dtypes: tuple[str, ...]
) -> tuple[list[pd.Series], np.ndarray]:
    """``parse`` (giving a tuple of fields) applied once per distinct value, spread to rows.

    Returns one Series per field, of the matching dtype in ``dtypes``, with each row's parsed
    field (<NA> where the cell is empty or did not parse), and the mask of rows that did not
    parse. Fields are spread with a typed ``take`` over the few distinct values, so a column
    of millions of rows is never built from Python objects.
    """
    codes, distinct = pd.factorize(values)
    missing = (None,) * len(dtypes)
    parsed, bad = [], np.zeros(len(distinct) + 1, dtype=bool)
    for i, text in enumerate(distinct):
        try:
            parsed.append(parse(text))
        except NotationError:
            parsed.append(missing)
            bad[i] = True
    parsed.append(missing)  # code -1 (an empty cell) picks this last entry
    fields = [
        pd.Series(pd.array([p[i] for p in parsed], dtype).take(codes), values.index)
        for i, dtype in enumerate(dtypes)
    ]
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
    # A shallow copy: with copy-on-write, new columns never reach ``raw.frame``, and the
    # millions of cells of a large file are not copied.
    frame, kind, present = raw.frame.copy(deep=False), raw.kind, raw.present
    problems = []
    for first, second in combinations(SEAT_COLUMNS, 2):
        same = (frame[first] == frame[second]).fillna(False)
        problems += _problems(
            frame, same, second, f"is also in seat {first} at this table; a player takes one seat"
        )
    given = frame["adjusted"].notna()
    pair, bad = _parse_distinct(frame["adjusted"], lambda t: parse_adjusted(t, codes), ("str",) * 2)
    problems += _problems(
        frame,
        bad,
        "adjusted",
        f"unknown adjusted code; expected NS/EW codes from {', '.join(codes)},"
        f" such as '{codes[0]}/{codes[-1]}'",
    )
    frame["ns_adjusted"], frame["ew_adjusted"] = pair
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
        (index,), bad = _parse_distinct(frame[column], lambda t: (level_from_text(t),), ("Int8",))
        problems += _problems(frame, bad, column, expected)
        frame[f"{side}_index"] = index
    return problems


def _finishes(frame: pd.DataFrame) -> list[Problem]:
    def side_and_amount(text: str) -> tuple[int, int]:
        side, amount = move_up(parse_finish(text))
        return _SIDE_CODE[side], amount

    (frame["side"], frame["amount"]), bad = _parse_distinct(
        frame["finish"], side_and_amount, ("Int8", "Int8")
    )
    return _problems(frame, bad, "finish", finish_problem)


def drop_duplicates(
    frame: pd.DataFrame, key: list[str], values: Mapping[str, str], what: str
) -> tuple[pd.DataFrame, list[Problem], list[str]]:
    """Keep the first row of each ``key``: identical repeats are warnings, others problems.

    ``values`` maps each compared column to the input column a director sees (parsed
    ``ns_index`` is shown as ``ns_level``); a conflicting row's problem names the first column
    that differs, with both values. ``what`` names a key in warnings (``"result"``,
    ``"board"``).
    """
    repeated = frame.duplicated(key, keep=False) & frame[key].notna().all(axis=1)
    if not repeated.any():
        return frame, [], []
    sub = frame.loc[repeated]
    compared = list(values)
    same = sub.duplicated(key + compared)
    warnings = _repeat_warnings(sub, same, key, compared, what)
    distinct = sub.loc[~same]
    clash = distinct.loc[distinct.duplicated(key)].reset_index(drop=True)
    earlier = clash[key].merge(sub.drop_duplicates(key), on=key, how="left")
    mine, theirs = clash[compared], earlier[compared]
    differs = mine.ne(theirs).fillna(True) & ~(mine.isna() & theirs.isna())
    shown = [values[compared[i]] for i in differs.to_numpy().argmax(axis=1)]
    problems = [
        Problem(file, int(row), column, None if pd.isna(value) else value,
                f"{_describe(r)} was already given in {ffile} row {frow} with {column}"
                f" {None if pd.isna(was) else was!r}; a result is given once")
        for file, row, column, value, was, ffile, frow, r in zip(
            clash["_file"], clash["_row"], shown,
            [clash.at[i, c] for i, c in enumerate(shown)],
            [earlier.at[i, c] for i, c in enumerate(shown)],
            earlier["_file"], earlier["_row"], clash[key].to_dict("records"), strict=True,
        )
    ]
    keep = ~frame.index.isin(sub.index[same | sub.duplicated(key)])
    return frame.loc[keep], problems, warnings


SHOWN_WARNINGS = 5
"""How many rows a warning names one by one; more become one summary line (a file of a
million repeated rows gets one line, not a million)."""


def summarised(lines: list[str], count: int, what: str) -> list[str]:
    """``lines`` (the first of ``count`` warnings of one kind) as they are when there are at
    most ``SHOWN_WARNINGS``, else one line: the count, the first few and how many more."""
    if count <= SHOWN_WARNINGS:
        return lines
    shown = "; ".join(lines[:SHOWN_WARNINGS])
    return [f"{count:,} {what}; the first {SHOWN_WARNINGS}: {shown}; and "
            f"{count - SHOWN_WARNINGS:,} more"]


def _repeat_warnings(sub: pd.DataFrame, same: pd.Series, key: list[str], compared: list[str],
                     what: str) -> list[str]:
    """A warning per exact repeat (the rows of ``sub`` marked ``same``), naming the row it
    repeats; only the first few are written out (``summarised``), since building a line
    per row of a huge file took longer than every check of it."""
    count = int(same.sum())
    if not count:
        return []
    first_few = sub.loc[same].head(SHOWN_WARNINGS)
    original = sub.groupby(key + compared, dropna=False)[["_file", "_row"]].transform("first")
    original = original.loc[first_few.index]
    one = count <= SHOWN_WARNINGS  # lines of their own, worded as before
    lines = [
        f"{file} row {row} repeats {ffile} row {frow}{' exactly' if one else ''} ({what} of "
        f"{_describe(r)}){'; one copy kept' if one else ''}"
        for file, row, ffile, frow, r in zip(
            first_few["_file"], first_few["_row"], original["_file"], original["_row"],
            first_few[key].to_dict("records"), strict=True,
        )
    ]
    return summarised(lines, count, "rows repeat an earlier row exactly (one copy of each kept)")


def _describe(key: dict) -> str:
    return ", ".join(f"{name} {value}" for name, value in key.items())


def players_at_one_table(frame: pd.DataFrame) -> list[Problem]:
    """A player sits at one table per (round, set): report every seat at a second table.

    Seats are numbered ``seat_column * len(frame) + row``; players are factorised so the check
    is a count of int64 keys (round-set, player) over seats with a full key; only the (rare)
    repeated ones become a frame, and only their rows are taken out of ``frame``.
    """
    key = frame[["round", "set", "table"]]
    n = len(frame)
    codes, players = pd.factorize(pd.concat([frame[c] for c in SEAT_COLUMNS], ignore_index=True))
    keyed = np.tile(key.notna().all(axis=1).to_numpy(), 4)
    seats = np.flatnonzero((codes >= 0) & keyed)
    round_set = key.fillna(0).groupby(["round", "set"]).ngroup().to_numpy(np.int64)
    seat_keys = np.tile(round_set, 4)[seats] * (len(players) + 1) + codes[seats]
    again = repeated(seat_keys)
    tables = key["table"].to_numpy(np.int64, na_value=0)
    seen = pd.DataFrame(
        {"key": seat_keys[again], "table": tables[seats[again] % n]}, index=seats[again]
    ).drop_duplicates(["key", "table"])
    first = seen.groupby("key")["table"].transform("first")
    elsewhere = seen.loc[seen["table"] != first]
    positions = elsewhere.index.to_numpy()
    rows = frame.iloc[positions % n]
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


def start_of_rows(frame: pd.DataFrame, start_levels: pd.DataFrame | None) -> np.ndarray:
    """Each row's (NS, EW) start level indices: 2/2, or the ledger's (round, table, set,
    ns_start, ew_start) after a late arrival (art. 32)."""
    starts = np.zeros((len(frame), 2), np.int64)
    if start_levels is None or start_levels.empty or frame.empty:
        return starts
    keys = ["round", "table", "set"]
    found = frame[keys].astype("Int64").merge(
        start_levels[[*keys, "ns_start", "ew_start"]].astype("Int64"), on=keys, how="left")
    starts[:, 0] = found["ns_start"].fillna(0).to_numpy(np.int64)
    starts[:, 1] = found["ew_start"].fillna(0).to_numpy(np.int64)
    return starts


def unreachable_levels(
    frame: pd.DataFrame, boards: int | None, three_failures_reset: bool,
    start_levels: pd.DataFrame | None = None,
) -> list[Problem]:
    """Set-level results no sequence of at most ``boards`` boards (``None``: any) can produce.

    "At most" because a table that ran out of time stops short of K boards; board-level input
    accepts such a set with a warning, and set-level input must not be stricter. Sets start at
    2/2 unless ``start_levels`` (the ledger's, art. 32) says otherwise for their table.
    """
    starts = start_of_rows(frame, start_levels)
    given = (frame["ns_index"].notna() & frame["ew_index"].notna()).to_numpy()
    ns_index = frame["ns_index"].to_numpy(np.int64, na_value=0)
    ew_index = frame["ew_index"].to_numpy(np.int64, na_value=0)
    bad = np.zeros(len(frame), dtype=bool)
    for start in np.unique(starts, axis=0).tolist():  # the few distinct starts
        mine = (starts == start).all(axis=1)
        possible = possible_levels(boards, three_failures_reset, tuple(start))
        bad |= mine & given & ~possible[ns_index, ew_index]
    rows = frame.loc[bad]  # only the (rare) bad rows are taken out of the frame
    return [
        Problem(file, int(row), "ns_level/ew_level", f"{LEVEL_NAMES[ns]}/{LEVEL_NAMES[ew]}",
                unreachable_rule(boards, tuple(s), (ns, ew)))
        for file, row, ns, ew, s in zip(
            rows["_file"], rows["_row"], ns_index[bad], ew_index[bad], starts[bad], strict=True
        )
    ]


def unreachable_rule(boards: int | None, start: tuple[int, int], levels: tuple[int, int]) -> str:
    """Why a set of at most ``boards`` boards from ``start`` cannot end at ``levels`` (level
    indices): the words of ``unreachable_levels``, which the server's entry check at the
    table (``live.entries``) says too.

    >>> unreachable_rule(1, (0, 1), (1, 1)).split(" (")[0]
    'no set of at most 1 board starting at 2/3 ends with NS at 3 and EW at 3'
    """
    played = f"at most {boards} board{'s' if boards != 1 else ''}" if boards else "boards"
    (s_ns, s_ew), (ns, ew) = start, levels
    return (f"no set of {played} starting at {LEVEL_NAMES[s_ns]}/{LEVEL_NAMES[s_ew]} ends with"
            f" NS at {LEVEL_NAMES[ns]} and EW at {LEVEL_NAMES[ew]} (only the winner of a board"
            " moves up, by 1 to 3 levels)")
