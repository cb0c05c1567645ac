"""Seat cells that hold a player's name where the id goes, read as that player.

A director's sheet may name its players: 王伟 typed where the id P001 goes, or a sheet filled
in from the names it shows. ``event ingest`` knows the event's players, so a seat cell
(north, east, south, west) that is no registered id but the name of exactly one registered
player is read as that player's id, and one note per file says so. A name two players share
is refused with their ids (write the id); a cell that is neither an id nor a name is refused
with the player the seating has in that seat, the closest hint there is. Names are compared
as the cells were read (NFKC, trimmed, as ``headers.normal`` reads ids), and a cell that is an
id stays that id even when someone is named so.

This runs on the file as read (``results.load.RawFile``), before the checks of ``results``
(which know no players, and take no names: ``guandan-dup score`` on plain files reads ids)
and before the seating's. A refused cell goes on to those checks as the player the seating
has there, so it is reported once, by its own problem, which waits for theirs: every
problem of the file is listed together (``Names.said``). The cells read by name are kept,
so a later problem on such a cell (the player sits elsewhere) echoes what the sheet says. A
file of ids costs one hash lookup per seat column; the live server's entries carry ids and
never come here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import Problem
from ..results.load import RawFile, located
from ..seats import SEAT_COLUMNS
from ..wording import caption, counted, plural, words

NAMED = dict[tuple[int, str], tuple[str, str]]
"""Cells read by name: (the file's row, seat column) -> (the name as written, the id)."""
SHOWN_NAMES = 3
"""How many names the note spells out before "and N more names"."""
TAKES = "the seat columns take ids or unique names"


@dataclass(frozen=True)
class Names:
    """What reading names found in a file: the cells read by name (``NAMED``) and the
    problems of the cells refused."""

    named: NAMED = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    def said(self, problems: list[Problem]) -> list[Problem]:
        """``problems`` (the later checks') with the refused cells' among them, by row, and
        each one about a cell read by name showing the name the sheet has and whose it is:
        ``value '王伟': the name of P001; table 3 set 1: the seating has ...``. The refused
        cells' problems name the file as the others do (its path in the file's own checks,
        its name in the event's)."""
        file = problems[0].file if problems else None
        mine = [replace(p, file=file or p.file) for p in self.problems]
        out = []
        for problem in sorted(problems + mine, key=lambda p: p.row or 0):
            cell = self.named.get((problem.row, problem.column))
            if cell is not None and str(problem.value) == cell[1]:
                problem = replace(problem, value=cell[0],
                                  rule=f"the name of {cell[1]}; {problem.rule}")
            out.append(problem)
        return out


def read_names(raw: RawFile, players: pd.DataFrame, seats: pd.DataFrame,
               others: Iterable[str] = ()) -> tuple[RawFile, Names]:
    """``raw`` with every seat cell that names one registered player by name holding that
    player's id (a note says so), and what was found: the cells read by name, and a problem
    for every other cell that is no id (a name two players share, or neither an id nor a
    name), which holds the player the seating has there for the later checks.

    ``players`` is the players file (``player``, ``name``), ``others`` further ids a seat
    may hold (the ledger's substitutes), ``seats`` who sits where (``seats_by_set``).
    """
    columns = [c for c in SEAT_COLUMNS if c in raw.present]
    if raw.kind is None or not columns:
        return raw, Names()
    ids = pa.concat_arrays([pa.array(players["player"].astype(str), pa.string()),
                            pa.array(list(map(str, others)), pa.string())])
    frame = raw.frame
    strange = {c: not_ids(frame[c], ids) for c in columns}
    if not any(mask.any() for mask in strange.values()):
        return raw, Names()
    written = pd.unique(np.concatenate([frame[c].to_numpy()[m] for c, m in strange.items()]))
    owners = owners_of(players, written)
    only = {name: owner[0] for name, owner in owners.items() if len(owner) == 1}
    frame = frame.copy()
    seated = frame[["table", "set"]].astype("Int64").merge(
        seats.astype({"table": "Int64", "set": "Int64"}), on=["table", "set"], how="left")
    named: NAMED = {}
    refused: list[tuple[int, str, str]] = []
    for column, mask in strange.items():
        at = np.flatnonzero(mask)
        texts = frame[column].to_numpy()[at]
        found = pd.Series(texts, dtype=object).map(only).to_numpy()
        ok = pd.notna(found)
        rows = frame["_row"].to_numpy()[at]
        named.update(zip(((int(r), column) for r in rows[ok]),
                         zip(texts[ok].tolist(), found[ok].tolist(), strict=True), strict=True))
        there = seated[column].to_numpy()[at]
        frame.iloc[at, frame.columns.get_loc(column)] = np.where(ok, found, there)
        refused += [(int(i), column, text) for i, text in zip(at[~ok], texts[~ok], strict=True)]
    problems = refusals(raw.name, frame, refused, owners, seated, players)
    if raw.spreadsheet:
        problems = located(problems, [frame])
    notes = [note(raw.name, named)] if named else []
    return replace(raw, frame=frame, notes=raw.notes + notes), Names(named, problems)


def not_ids(cells: pd.Series, ids: pa.Array) -> np.ndarray:
    """Where ``cells`` hold a value that is none of ``ids``, by Arrow's hash: pandas'
    ``isin`` of text cells against a million players' ids takes seconds."""
    found = pc.is_in(pa.array(cells, pa.string(), from_pandas=True), value_set=ids)
    return cells.notna().to_numpy() & ~found.to_numpy(zero_copy_only=False)


def owners_of(players: pd.DataFrame, written: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Each of ``written`` that is a registered player's name (after NFKC and trimming),
    with the ids of the players of that name, in the players file's order."""
    names = players["name"].astype("str").str.normalize("NFKC").str.strip()
    mine = names.isin(list(written)) & players["name"].notna()
    ids = players.loc[mine, "player"].astype(str)
    return {name: tuple(group) for name, group in ids.groupby(names[mine], sort=False)}


def refusals(file: str, frame: pd.DataFrame, refused: list[tuple[int, str, str]],
             owners: dict[str, tuple[str, ...]], seated: pd.DataFrame,
             players: pd.DataFrame) -> list[Problem]:
    """A problem for each refused cell (``frame``'s position, column, text): a name that
    several players share, or no id and no name; with the player ``seated`` there (a row
    per row of ``frame``), the closest hint there is."""
    there = [seated[column].iat[i] for i, column, _ in refused]
    names = players[players["player"].isin(there)].set_index("player")["name"].to_dict()
    out = []
    for (i, column, text), player in zip(refused, there, strict=True):
        hint = ("" if pd.isna(player) else
                f"; the seating has {caption(player, names.get(player))} here")
        if text in owners:
            rule = f"is the name of {words(owners[text])}: write the id ({TAKES}){hint}"
        else:
            numbers = ", not seat or table numbers" if text.isdigit() else ""
            rule = f"is neither the id nor the name of a registered player ({TAKES}{numbers}){hint}"
        out.append(Problem(file, int(frame["_row"].iat[i]), column, text, rule))
    return out


def note(file: str, named: NAMED) -> str:
    """What the director is told of the cells read by name: how many, and which names.

    >>> note("r.csv", {(2, "north"): ("王伟", "P1")})
    "r.csv: 1 seat cell held a player's name, not an id, and was read as that player (王伟 as P1)"
    """
    cells = len(named)
    names = dict(named.values())
    shown = [f"{text} as {player}" for text, player in list(names.items())[:SHOWN_NAMES]]
    if len(names) > SHOWN_NAMES:
        more = len(names) - SHOWN_NAMES
        shown.append(counted(more, "more name"))
    return (f"{file}: {counted(cells, 'seat cell')} held a player's name, not an id, and "
            f"{plural('was', cells, 'were')} read as that player ({words(shown)})")
