"""The players file a director brings (CSV or xlsx) and the players table the event folder keeps.

The file needs ``id`` and ``name`` columns (or 编号 and 姓名; a CSV in UTF-8, with or without a
byte-order mark, or GBK as Excel on Chinese Windows saves it, so Chinese names survive, or a
workbook's visible sheet naming them; a title line above the header is skipped:
:func:`~guandan_dup.reading.read_table`); an optional
``seed`` column gives the seeding order (1 = best, each seed once) and, for pairs events, a
``pair`` column names each player's partnership; an optional ``venue`` column (场地) the
venue each player plays at (every player one, a pair's two players the same; the
movement keeps a venue's players at its own tables). Every player needs a name (the standings
and the site show it). Every problem is reported at once, with the CSV line (the sheet
row) it is on.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from ..errors import Problem, ProblemsError
from ..reading import read_table, read_table_with, text_problem

ID_COLUMNS = ("id", "pair")
"""Read after NFKC, as the results' seat cells are: a full-width ``Ｐ０３`` typed with a
Chinese input method is the id P03 (names are kept as typed)."""


class InvalidPlayersError(ProblemsError):
    """A players or seeding file that cannot be used; carries every problem found."""

    subject = "the players file"


def _id_problems(frame: pd.DataFrame, file: str) -> list[Problem]:
    line = frame.index  # the CSV line (the sheet row) of each row
    problems = [Problem(file, int(n), "id", "", "empty id") for n in line[frame["id"] == ""]]
    problems += [Problem(file, int(n), "id", v, f"the id {why}")
                 for n, v in zip(line, frame["id"], strict=True)
                 if v != "" and (why := text_problem(v))]
    dup = frame["id"].duplicated(keep=False) & (frame["id"] != "")
    problems += [
        Problem(file, int(n), "id", v, "this id is on more than one line")
        for n, v in zip(line[dup], frame["id"][dup], strict=True)
    ]
    return problems


def _seeds(text: pd.Series, file: str) -> tuple[pd.Series, list[Problem]]:
    """The seed column as Int64 (<NA> where empty); each seed a whole number >= 1, once."""
    number = pd.to_numeric(text.replace("", None), errors="coerce")
    whole = number.notna() & (number == number.round()) & (number.abs() < 2**53)
    seed = number.where(whole).astype("Int64")
    problems = [
        Problem(file, int(i), "seed", text[i], "expected a whole number >= 1 (1 = best)")
        for i in text.index[(text != "") & (~whole | (seed < 1).fillna(False))]
    ]
    repeated = seed.duplicated(keep=False) & (seed >= 1).fillna(False)
    problems += [
        Problem(file, int(i), "seed", text[i], "this seed is on more than one line")
        for i in text.index[repeated.to_numpy(bool)]
    ]
    return seed.where((seed >= 1).fillna(False)), sorted(problems, key=lambda p: p.row)


def load_players(path: str | os.PathLike, kind: str = "individual") -> pd.DataFrame:
    """Players as (player, name, seed[, pair][, venue]); ``seed`` is <NA> where the file gives
    none; ``venue`` is there when the file has the column."""
    file = Path(path).name
    required = ["id", "name"] + (["pair"] if kind == "pairs" else [])
    frame = read_table_with(path, required, InvalidPlayersError, numbers=ID_COLUMNS + ("seed",))
    problems = _id_problems(frame, file)
    problems += [
        Problem(file, int(i), "name", "", "empty name: every player needs one")
        for i in frame.index[frame["name"] == ""]
    ]
    problems += [Problem(file, int(i), "name", v, f"the name {why}")
                 for i, v in frame["name"].items() if v != "" and (why := text_problem(v))]
    seed = pd.Series(pd.NA, index=frame.index, dtype="Int64")
    if "seed" in frame.columns:
        seed, found = _seeds(frame["seed"], file)
        problems += found
    if kind == "pairs":
        problems += [
            Problem(file, int(i), "pair", "", "empty pair")
            for i in frame.index[frame["pair"] == ""]
        ]
    if "venue" in frame.columns:
        problems += venue_problems(frame, file, kind)
    if problems:
        raise InvalidPlayersError(problems)
    players = pd.DataFrame(
        {"player": frame["id"].astype("str"), "name": frame["name"].astype("str"), "seed": seed}
    )
    if kind == "pairs":
        players["pair"] = frame["pair"].astype("str")
    if "venue" in frame.columns:
        players["venue"] = frame["venue"].astype("str")
    return players


def venue_problems(frame: pd.DataFrame, file: str, kind: str) -> list[Problem]:
    """An empty or unreadable venue; a pair split over two venues."""
    problems = [Problem(file, int(i), "venue", "", "empty venue: with a venue column every "
                        "player needs one") for i in frame.index[frame["venue"] == ""]]
    problems += [Problem(file, int(i), "venue", v, f"the venue {why}")
                 for i, v in frame["venue"].items() if v != "" and (why := text_problem(v))]
    if kind == "pairs" and "pair" in frame.columns:
        venues = frame[frame["pair"] != ""].groupby("pair")["venue"].nunique()
        split = set(venues.index[venues > 1])
        problems += [Problem(file, int(i), "venue", frame["venue"][i],
                             f"pair {frame['pair'][i]!r} has players at two venues: a pair "
                             "plays at one")
                     for i in frame.index[frame["pair"].isin(split)]]
    return problems


def load_seeding(path: str | os.PathLike, known: pd.Series) -> list[str]:
    """Player ids in seeding order from a CSV or xlsx file with an ``id`` column (file order
    is the order)."""
    file = Path(path).name
    frame = read_table(path, ["id"])
    if "id" not in frame.columns:
        raise InvalidPlayersError([Problem(file, None, "id", None, "missing column")])
    problems = _id_problems(frame, file)
    unknown = ~frame["id"].isin(known) & (frame["id"] != "")
    problems += [
        Problem(file, int(i), "id", frame["id"][i], "not in the players file")
        for i in frame.index[unknown]
    ]
    if problems:
        raise InvalidPlayersError(problems)
    return frame["id"].tolist()
