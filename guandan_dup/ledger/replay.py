"""Replaying the ledger: its rows in force -> ``Effects``, plain tables the rooms read.

Scoring, ingestion, movement, the teams room and publication each take the tables they need;
none of them reads ledger rows. Rows are replayed in id order: where two rows decide the same
table's set (say an assigned result, later an artificial one), the later row wins.

Artificial results (Decision, following bridge practice and art. 34/36): a side absent or
over 10 minutes late (a forfeit) scores A-, its opponents A+; an excused side (art. 36)
scores A (a draw), its opponents A+.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import pandas as pd

from .context import Context
from .kinds import active, fouled_tables, split_result
from .penalties import decimal_text, exact, in_percentage_points, overtime_step, scale_step

_KEY = ["round", "table", "set"]
COLUMNS = {
    "start_levels": [*_KEY, "ns_start", "ew_start", "ledger_id"],
    "artificial": [*_KEY, "ns_adjusted", "ew_adjusted", "variable", "ledger_id"],
    "assigned": [*_KEY, "ns_level", "ew_level", "ledger_id"],
    "not_played": [*_KEY, "ledger_id"],
    "fouled": ["round", "set", "table", "split", "ledger_id"],
    "withdrawals": ["round", "player", "team", "ledger_id"],
    "entries": ["round", "player", "name", "team", "ledger_id"],
    "substitutes": ["round", "player", "for_player", "ledger_id"],
    "penalties": ["round", "player", "points", "note", "article", "reason", "ledger_id"],
    "team_penalties": ["round", "team", "match_points", "level_points", "match_halves",
                       "level_hundredths", "note", "article", "reason", "ledger_id"],
    "match_adjustments": ["round", "team", "kind", "ledger_id"],
    "will_not_play": _KEY,
    "ends": ["round", "at"],
}
_ORDINAL = ("first", "second", "third", "fourth", "fifth")


@dataclass(frozen=True)
class Effects:
    """What the ledger changes, one table per kind of effect (columns: ``COLUMNS``).

    - ``start_levels``: a late side's opponents start the set higher (art. 32); indices
      (0 = level 2).
    - ``artificial``, ``assigned``, ``not_played``: a table's set result is artificial (codes
      per direction; ``variable``: the better of the rate and the player's own average), is
      the given levels, or is left out (the others Neuberg-adjusted to the tables expected).
    - ``fouled``: tables compared only among themselves (``split``: the group, the ledger id),
      factored to the field by Neuberg.
    - ``withdrawals``, ``entries``, ``substitutes``: the movement's and roster's changes.
    - ``penalties`` (individual, pairs: percentage points as exact decimal text, per player)
      and ``team_penalties`` (场分 and 级差分, also as exact halves and hundredths).
    - ``match_adjustments``: team events' match-level forfeits and excused absences.
    - ``will_not_play``: every (round, table, set) that no results file will bring, so
      publication can call a set complete.
    - ``ends``: each round's scheduled end, where the director gave one.
    """

    start_levels: pd.DataFrame
    artificial: pd.DataFrame
    assigned: pd.DataFrame
    not_played: pd.DataFrame
    fouled: pd.DataFrame
    withdrawals: pd.DataFrame
    entries: pd.DataFrame
    substitutes: pd.DataFrame
    penalties: pd.DataFrame
    team_penalties: pd.DataFrame
    match_adjustments: pd.DataFrame
    will_not_play: pd.DataFrame
    ends: pd.DataFrame


def _other(side: str) -> str:
    return "EW" if side == "NS" else "NS"


def _codes(side: str, own: str, theirs: str) -> tuple[str, str]:
    """(NS code, EW code) when ``side`` scores ``own`` and its opponents ``theirs``."""
    return (own, theirs) if side == "NS" else (theirs, own)


def _int(value) -> int | None:
    return None if pd.isna(value) else int(value)


def _text(value) -> str | None:
    return None if pd.isna(value) else str(value)


class _Replay:
    """Accumulates effects row by row (a class only to share the growing tables)."""

    def __init__(self, context: Context):
        self.context = context
        self.results: dict[tuple[int, int, int], tuple[str, tuple]] = {}
        self.rows: dict[str, list[tuple]] = {name: [] for name in COLUMNS}
        self.offences: dict[tuple, int] = {}
        self.fouled: dict[tuple[int, int, int], int] = {}

    def result(self, row, sets, what: str, values: tuple) -> None:
        for set_no in sets:
            self.results[(int(row["round"]), int(row["table"]), set_no)] = (what, values)

    def sets_of(self, row) -> list[int]:
        if not pd.isna(row["set"]):
            return [int(row["set"])]
        return self.context.sets_of_table(int(row["round"]), int(row["table"]))

    def participation(self, row) -> None:
        kind, rid = row["kind"], int(row["id"])
        if self.context.by_team and kind in ("absent", "excused"):
            adjusted = "forfeit" if kind == "absent" else "excused"
            self.rows["match_adjustments"].append((int(row["round"]), int(row["team"]),
                                                   adjusted, rid))
            return
        side = row["side"]
        if kind == "late" and row["minutes"] <= 10:
            start = 1 if row["minutes"] <= 5 else 2
            levels = (0, start) if side == "NS" else (start, 0)
            self.rows["start_levels"].append((int(row["round"]), int(row["table"]),
                                              int(row["set"]), *levels, rid))
            return
        own = "A" if kind == "excused" else "A-"
        self.result(row, self.sets_of(row), "artificial", (*_codes(side, own, "A+"), False, rid))

    def adjustment(self, row) -> None:
        kind, rid = row["kind"], int(row["id"])
        if kind == "assigned":
            self.result(row, self.sets_of(row), "assigned", (*split_result(row["result"],
                                                                            kind), rid))
        elif kind == "artificial":
            codes = split_result(row["result"], kind)
            self.result(row, self.sets_of(row), "artificial", (*codes, bool(row["variable"]),
                                                               rid))
        elif kind == "not-played":
            self.result(row, self.sets_of(row), "not_played", (rid,))
        else:  # a table in a later group leaves its earlier one
            for t in fouled_tables(row["tables"]):
                self.fouled[(int(row["round"]), int(row["set"]), t)] = rid

    def roster(self, row) -> None:
        kind, rid, round_no = row["kind"], int(row["id"]), int(row["round"])
        if kind == "withdraw":
            self.rows["withdrawals"].append((round_no, _text(row["player"]), _int(row["team"]),
                                             rid))
        elif kind == "enter":
            name = _text(row["name"]) or str(row["player"])
            self.rows["entries"].append((round_no, row["player"], name, _int(row["team"]), rid))
        else:
            self.rows["substitutes"].append((round_no, row["player"], row["for_player"], rid))

    def penalty(self, row) -> None:
        teams = self.context.by_team
        offender = (int(row["team"]),) if teams else tuple(self.context.partners(row["player"]))
        unit, amount, note = self._amount(row, offender)
        base = (int(row["round"]),)
        tail = (note, _text(row["article"]) or "", str(row["reason"]), int(row["id"]))
        if teams:
            match = amount if unit == "match" else 0
            level = amount if unit == "level" else 0
            self.rows["team_penalties"].append((*base, offender[0], float(match), float(level),
                                                int(match * 2), int(level * 100), *tail))
            return
        text = decimal_text(in_percentage_points(unit, amount))
        self.rows["penalties"] += [(*base, p, text, *tail) for p in offender]

    def _amount(self, row, offender: tuple):
        if row["kind"] == "overtime":
            unit, amount = overtime_step(float(row["minutes"]))
            return unit, amount, f"art. 33: {row['minutes']:g} minutes over time"
        for unit, column in (("match", "match_points"), ("level", "level_points"),
                             ("percent", "points")):
            if not pd.isna(row[column]):
                return (unit if unit != "percent" else "level"), exact(row[column]), ""
        scale = int(row["scale"])
        earlier = self.offences.get((offender, scale), 0)
        self.offences[(offender, scale)] = earlier + 1
        unit, amount = scale_step(scale, earlier)
        which = _ORDINAL[earlier] if earlier < len(_ORDINAL) else f"{earlier + 1}th"
        note = f"art. 52 scale {scale}, {which} offence" + (": warning" if unit == "warning"
                                                             else "")
        return unit, amount, note

    def effects(self) -> Effects:
        self.rows["fouled"] = [(*key, rid, rid) for key, rid in sorted(self.fouled.items())]
        for (round_no, table, set_no), (what, values) in sorted(self.results.items()):
            self.rows[what].append((round_no, table, set_no, *values))
            self.rows["will_not_play"].append((round_no, table, set_no))
        frames = {name: pd.DataFrame(rows, columns=COLUMNS[name])
                  for name, rows in self.rows.items()}
        return Effects(**{f.name: frames[f.name] for f in fields(Effects)})


HANDLERS = {
    "late": _Replay.participation, "absent": _Replay.participation,
    "excused": _Replay.participation, "assigned": _Replay.adjustment,
    "artificial": _Replay.adjustment, "not-played": _Replay.adjustment,
    "fouled": _Replay.adjustment, "withdraw": _Replay.roster, "enter": _Replay.roster,
    "substitute": _Replay.roster, "penalty": _Replay.penalty, "overtime": _Replay.penalty,
}


def replay(ledger: pd.DataFrame, context: Context) -> Effects:
    """The effects of the rows in force, replayed in id order."""
    state = _Replay(context)
    rows = active(ledger).sort_values("id")
    for _, row in rows.iterrows():
        if row["kind"] == "ends":
            state.rows["ends"].append((int(row["round"]), row["at"]))
        elif row["kind"] in HANDLERS:
            HANDLERS[row["kind"]](state, row)
    return state.effects()
