"""``event diff``: which positions moved between two published versions of a round's
standings, and which results or ledger rows moved them (SPEC 10, "Status").

history/ keeps every replaced standings file (``rounds-R-standings.STAMP.parquet``); the
version compared against is one of those, by its STAMP (default: the latest). Each
standings file records what it was scored from (``event.ledger.scoring_metadata``): the
SHA-256 of every round's results file and the last ledger row. The results files are found
again among the current and history versions by their hash and compared row by row.

What the director tells the tables (``announce``): one line a player (a pair; a team in a
team event, by its 场分 and 级差分) whose figures or rank changed, with the results and
ledger rows that moved them: the rows on a set the player played (their own table's first),
and the ledger rows about the player or their team.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import GuandanError
from ..levels import LEVEL_NAMES
from ..reading import read_parquet
from ..results.schema import RESULT_KEY, RESULT_VALUES
from ..wording import seats_line, words
from .folder import EventFolder
from .ledger import LEDGER_LAST, RESULTS_FILES, read_ledger
from .people import People

TEAM_VALUES = {"match_points": "场分", "level_points": "级差分"}
"""A team standings' figures a diff reads out, by column (a team event)."""
MOVED_COLUMNS = ("player", "position_before", "position_after", "rank_before", "rank_after",
                 "cumulative_before", "cumulative_after")
RESULT_CHANGE_COLUMNS = ("round", "table", "set", "change", "before", "after", "seats")
"""A result row added, removed or changed: ``before``/``after`` its levels (``K/5``, or
``artificial A+/A-``; empty when there was none) and ``seats`` who sat north..west (a dict),
as it is now (as it was, for a removed row)."""


@dataclass(frozen=True)
class Diff:
    """Two versions of round ``round``'s standings compared: ``moved`` (players whose
    position or rank changed), ``results`` (result rows added, removed or changed between
    the results they were scored from) and ``ledger`` (rows added in between)."""

    round: int
    since: str
    moved: pd.DataFrame
    results: pd.DataFrame
    ledger: pd.DataFrame
    results_known: bool
    changed: pd.DataFrame = field(default_factory=pd.DataFrame)
    """One row a side (``side``: player, pair or team) whose figures or rank changed (not
    a new order within a tie): ``rank_before/after``, ``position_before/after``, each figure's
    ``X_before/after`` (``cumulative``; a team's ``match_points``, ``level_points``) and
    ``moved_by``, the results and ledger rows that moved its figures, as words."""


def versions(folder: EventFolder, round_no: int, name: str = "standings") -> dict[str, Path]:
    """The history versions of a round file, STAMP -> path, oldest first."""
    stem = f"rounds-{round_no}-{name}."
    found = sorted(folder.history_dir.glob(f"{stem}*.parquet")) if folder.history_dir.exists() \
        else []
    return {p.name[len(stem):-len(".parquet")]: p for p in found}


def _by_hash(folder: EventFolder, round_no: int) -> dict[str, Path | bytes]:
    """The round's results versions by hash: history's files, and the current results (the
    file, or its bytes once compacted when the server has written parts since)."""
    found: dict[str, Path | bytes] = {
        hashlib.sha256(p.read_bytes()).hexdigest(): p
        for p in versions(folder, round_no, "results").values()}
    current = folder.results_bytes(round_no)
    if current is not None:
        found[hashlib.sha256(current).hexdigest()] = current
    return found


def _sources(path: Path) -> tuple[dict[int, str], int]:
    meta = pq.read_schema(path).metadata or {}
    files = {int(r): h for r, h in json.loads(meta.get(RESULTS_FILES, b"{}")).items()}
    return files, int(meta.get(LEDGER_LAST, b"0"))


def _text(row) -> str:
    if pd.notna(row.get("adjusted")):
        return f"artificial {row['adjusted']}"
    return f"{LEVEL_NAMES[int(row['ns_level'])]}/{LEVEL_NAMES[int(row['ew_level'])]}"


def _seats(row) -> dict[str, str]:
    return {c: str(row[c]) for c in ("north", "east", "south", "west")}


def _result_changes(before: pd.DataFrame | None, after: pd.DataFrame | None) -> list[tuple]:
    empty = pd.DataFrame(columns=[*RESULT_KEY, *RESULT_VALUES])
    old = (empty if before is None else before).set_index(RESULT_KEY)
    new = (empty if after is None else after).set_index(RESULT_KEY)
    out = []
    for key in sorted(set(old.index) | set(new.index)):
        a = old.loc[key] if key in old.index else None
        b = new.loc[key] if key in new.index else None
        if a is None or b is None:
            out.append((*key, "added" if a is None else "removed", "" if a is None else _text(a),
                        "" if b is None else _text(b), _seats(a if b is None else b)))
        elif [str(a[c]) for c in RESULT_VALUES] != [str(b[c]) for c in RESULT_VALUES]:
            out.append((*key, "changed", _text(a), _text(b), _seats(b)))
    return out


@dataclass(frozen=True)
class Cause:
    """A result or ledger row that changed between the versions, as the director says it
    ("the result of table 5 set 3 (K/5 -> 5/K)", "ledger row 4 (late, table 5 set 3)"),
    with where it applies and whom it names (players, teams)."""

    words: str
    round: int
    set: int | None
    table: int | None
    players: frozenset[str]
    teams: frozenset[int]


def _number(value) -> int | None:
    return None if value is None or pd.isna(value) else int(value)


def _where(round_no: int, table, set_, diff_round_no: int) -> str:
    parts = [f"round {round_no}"] if round_no != diff_round_no else []
    parts += [f"{name} {int(v)}" for name, v in (("table", table), ("set", set_))
              if _number(v) is not None]
    return " ".join(parts)


def _causes(changes: list[tuple], seats: dict[tuple, set[str]], ledger: pd.DataFrame,
            round_no: int) -> list[Cause]:
    causes = []
    for r, table, set_, change, before, after, _ in changes:
        what = f"{before} -> {after}" if change == "changed" else f"{change} {after or before}"
        causes.append(Cause(f"the result of {_where(r, table, set_, round_no)} ({what})",
                            int(r), int(set_), int(table), frozenset(seats[(r, table, set_)]),
                            frozenset()))
    for _, row in ledger.iterrows():
        where = _where(int(row["round"]), row["table"], row["set"], round_no)
        named = {str(row[c]) for c in ("player", "for_player") if isinstance(row[c], str)}
        causes.append(Cause(f"ledger row {int(row['id'])} ({row['kind']}"
                            + (f", {where})" if where else ")"), int(row["round"]),
                            _number(row["set"]), _number(row["table"]), frozenset(named),
                            frozenset({int(row["team"])} if _number(row["team"]) else ())))
    return causes


def _played(folder: EventFolder, round_no: int) -> pd.DataFrame:
    """Who played where up to ``round_no``: round, set, table, player (the scores)."""
    frames = [folder.read(r, "scores") for r in range(1, round_no + 1)]
    frames = [f[["round", "set", "table", "player"]] for f in frames if f is not None]
    return pd.concat(frames) if frames else pd.DataFrame(columns=["round", "set", "table",
                                                                  "player"])


def _moved_by(side, causes: list[Cause], played: pd.DataFrame,
              team_of: dict[str, int] | None) -> list[str]:
    """The causes that moved ``side``'s figures: named by them, or at their table, first;
    then (individual and pairs) those on a set they played elsewhere in the field."""
    if team_of is not None:  # a team's figures move with its own matches only
        return [c.words for c in causes if int(side) in c.teams
                or int(side) in {team_of.get(p) for p in c.players}]
    mine = played[played["player"].astype(str) == str(side)]
    sets = set(zip(mine["round"], mine["set"], strict=True))
    tables = set(zip(mine["round"], mine["set"], mine["table"], strict=True))
    own = [c for c in causes if str(side) in c.players or (c.round, c.set, c.table) in tables]
    field_ = [c for c in causes if c not in own and (c.round, c.set) in sets]
    return [c.words for c in own + field_]


def diff_round(folder: EventFolder, round_no: int, since: str | None = None) -> Diff:
    """Compare round R's standings (a team event's team standings) with their history
    version ``since`` (a STAMP; default the latest)."""
    folder.plan.check_round(round_no)
    name = folder.standings_name
    if name == "travellers":
        raise GuandanError(f"a knockout has no standings to compare: `guandan-dup standings "
                           f"{folder.path}` prints its bracket and places")
    teams = name == "team_standings"
    current = folder.file(round_no, name)
    if not current.exists():
        raise GuandanError(f"round {round_no} is not scored, so there is nothing to compare")
    known = versions(folder, round_no, name)
    if not known:
        raise GuandanError(f"round {round_no}'s standings were published once only: history/ "
                           "has no earlier version to compare with")
    since = since or list(known)[-1]
    if since not in known:
        raise GuandanError(f"no version {since!r} of round {round_no}'s standings in history/; "
                           f"versions: {', '.join(known)}")
    old_path = known[since]
    before, after = (read_parquet(p, "standings file").to_pandas() for p in (old_path, current))
    side = "team" if teams else "player"
    values = list(TEAM_VALUES) if teams else ["cumulative"]
    keep = [side, "position", "rank_label", *values]
    both = before[keep].merge(after[keep], on=side, how="outer",
                              suffixes=("_before", "_after"))
    both = both.rename(columns={"rank_label_before": "rank_before",
                                "rank_label_after": "rank_after"})
    placed = ((both["position_before"] != both["position_after"])
              | (both["rank_before"] != both["rank_after"]))
    figures = pd.Series(False, index=both.index)
    for v in values:
        figures |= ~np.isclose(both[f"{v}_before"].astype(float),
                               both[f"{v}_after"].astype(float), equal_nan=True)
    moved = both[placed][list(MOVED_COLUMNS) if not teams else list(both.columns)]
    moved = moved.sort_values("position_after", ignore_index=True)
    both["figures"] = figures
    (old_files, old_last), (new_files, new_last) = _sources(old_path), _sources(current)
    changes, seats, results_known = [], {}, True
    for r in range(1, round_no + 1):
        if r not in old_files or r not in new_files or old_files[r] == new_files[r]:
            results_known &= r in old_files and r in new_files
            continue
        found = _by_hash(folder, r)
        if old_files[r] not in found or new_files[r] not in found:
            results_known = False
            continue
        frames = [read_parquet(found[h], "results file").to_pandas()
                  if isinstance(found[h], Path) else pq.read_table(pa.BufferReader(found[h]))
                  .to_pandas() for h in (old_files[r], new_files[r])]
        changes += _result_changes(*frames)
        for frame in frames:
            for row in frame.itertuples(index=False):
                seats.setdefault((row.round, row.table, row.set), set()).update(
                    str(getattr(row, c)) for c in ("north", "east", "south", "west"))
    ledger = read_ledger(folder)
    rows = ledger[(ledger["id"] > old_last) & (ledger["id"] <= new_last)
                  & (ledger["round"] <= round_no)].reset_index(drop=True)
    causes = _causes(changes, seats, rows, round_no)
    ranked = both["rank_before"] != both["rank_after"]  # not a new order within a tie
    changed = both[ranked | figures].sort_values("position_after", ignore_index=True)
    players, team_of = folder.players(), None
    if teams:
        team_of = {str(p): int(t) for p, t in zip(players["player"], players["team"],
                                                   strict=True)}
    elif "pair" in players.columns:  # a row about a player is about their pair
        causes = [replace(c, players=frozenset(players[players["pair"].isin(
            players[players["player"].isin(c.players)]["pair"])]["player"].astype(str))
            | c.players) for c in causes]
    played = _played(folder, round_no) if not teams else None
    changed["moved_by"] = [_moved_by(s, causes, played, team_of) if f else []
                           for s, f in zip(changed[side], changed["figures"], strict=True)]
    changed = changed.drop(columns="figures").rename(columns={side: "side"})
    return Diff(round_no, since, moved, pd.DataFrame(changes, columns=RESULT_CHANGE_COLUMNS),
                rows, results_known, changed)


def _figure(value, column: str) -> str:
    if column == "cumulative":
        return f"{value:.2%}"
    return f"{value:g}" if column == "match_points" else f"{value:.2f}"


def _delta(before, after, column: str) -> str:
    step = (after - before) * (100 if column == "cumulative" else 1)
    return f"{step:+g}" if column == "match_points" else f"{step:+.2f}"


def _label(column: str) -> str:
    return f"{TEAM_VALUES[column]} " if column in TEAM_VALUES else ""


def _figures(row, columns: list[str]) -> str:
    """"52.31% -> 54.10% (+1.79)"; a team's changed figures only: "场分 4 -> 2 (-2)"."""
    moved = [c for c in columns if not np.isclose(row[f"{c}_before"], row[f"{c}_after"])]
    return ", ".join(f"{_label(c)}{_figure(row[f'{c}_before'], c)} -> "
                     f"{_figure(row[f'{c}_after'], c)} "
                     f"({_delta(row[f'{c}_before'], row[f'{c}_after'], c)})" for c in moved)


def _still(row, columns: list[str]) -> bool:
    return all(np.isclose(row[f"{c}_before"], row[f"{c}_after"]) for c in columns)


def announce(diff: Diff, people: People) -> list[str]:
    """What the director tells the tables: one line a side in ``diff.changed``, by its new
    position, e.g. "P027 王伟: 52.31% -> 54.10% (+1.79), rank 5 -> 3; moved by ledger row 4
    (late, table 5 set 3)"; a team "team 3 南京队: 场分 4 -> 2 (-2), rank 1 -> 3; ...". A
    side whose figures did not change but whose rank did says whose figures moved it."""
    columns = [c for c in ("cumulative", *TEAM_VALUES) if f"{c}_after" in diff.changed]
    name = people.team if "match_points" in columns else people.side
    placed = diff.changed.dropna(subset=["position_before", "position_after"])
    movers = [name(r["side"]) for _, r in placed.iterrows() if not _still(r, columns)]
    others = words(movers) if len(movers) <= 3 else f"{len(movers)} others"
    out = []
    for _, row in diff.changed.iterrows():
        who = name(row["side"])
        if pd.isna(row["position_before"]):
            out.append(f"{who}: new in the standings, "
                       f"{_figures_after(row, columns)}, rank {row['rank_after']}")
        elif pd.isna(row["position_after"]):
            out.append(f"{who}: no longer in the standings (was rank {row['rank_before']})")
        elif _still(row, columns):
            out.append(f"{who}: rank {row['rank_before']} -> {row['rank_after']}, "
                       f"{_figures_after(row, columns)} as before ({others} moved)")
        else:
            rank = (f"rank {row['rank_before']} -> {row['rank_after']}"
                    if row["rank_before"] != row["rank_after"]
                    else f"rank {row['rank_after']} as before")
            line = f"{who}: {_figures(row, columns)}, {rank}"
            out.append(line + (f"; moved by {words(row['moved_by'])}" if row["moved_by"]
                               else ""))
    return out


def result_lines(diff: Diff, people: People) -> list[str]:
    """The results added, removed or changed between the versions, with who sat where:
    "Result of table 5 set 3 changed: K/5 -> 5/K (N P027 王伟 · E P002 李艳 · S ... · W ...)"."""
    out = []
    for row in diff.results.to_dict("records"):
        where = _where(row["round"], row["table"], row["set"], diff.round)
        what = (f"{row['before']} -> {row['after']}" if row["change"] == "changed"
                else row["after"] or row["before"])
        out.append(f"Result of {where} {row['change']}: {what} "
                   f"({seats_line(row['seats'], people.player)})")
    return out


def _figures_after(row, columns: list[str]) -> str:
    return words([_label(c) + _figure(row[f"{c}_after"], c) for c in columns])
