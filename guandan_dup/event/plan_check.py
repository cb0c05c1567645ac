"""Refusing an event.toml edited so that it no longer describes the rounds already made.

The boards files, seating files, brackets and players file were made from the plan as it
was; an edit of ``boards_per_set``, ``sets_per_round``, ``tables_per_group``, ``players``,
``rounds``, ``kind`` or ``format`` afterwards would score what was played against a plan
nobody played. ``check_plan_unchanged`` compares the plan with those files and names each
key and round that no longer match; ``event.ledger.read_ledger`` calls it, so status,
score and export refuse the edited plan alike. It is kept apart from the ledger because it
reads the plan and the rounds' files, not ledger.parquet.
"""

from __future__ import annotations

import os

import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import InvalidPlanError
from ..wording import numbered, plural
from .folder import EventFolder


def check_plan_unchanged(folder: EventFolder) -> None:
    """Refuse an event.toml edited so that it no longer describes the rounds already dealt
    or seated: the boards dealt (``boards_per_set``, ``sets_per_round``), the tables seated
    (``tables_per_group``, ``players``), the rounds with files (``rounds``) and the kind of
    event the players file and the rounds were made for (``kind``, ``format``). The files
    are what the players played, so any figure scored from the edited plan could not be
    defended; an ``InvalidPlanError`` names each key and round that no longer match."""
    state = _state(folder)
    if _CHECKED.get(str(folder.path.resolve())) == state:
        return  # these very files were checked and matched the plan
    plan, problems = folder.plan, _kind_problems(folder)
    for path in sorted(folder.path.glob("rounds/*/")):
        if not path.name.isdigit():
            continue
        r = int(path.name)
        if r > plan.rounds:
            problems.append(f"rounds is {plan.rounds} but round {r} has files")
            continue
        problems += _dealt_problems(folder, r) + _seated_problems(folder, r)
    if problems:
        raise InvalidPlanError(
            "event.toml no longer matches the rounds already dealt or seated (was it "
            "edited?): " + "; ".join(problems) + ". Put the keys back as they were (the "
            "comment at the top of event.toml shows the plan they made); nothing was changed")
    if len(_CHECKED) > 8:
        _CHECKED.clear()
    _CHECKED[str(folder.path.resolve())] = state


_CHECKED: dict[str, tuple] = {}
"""Folder -> the state of the files ``check_plan_unchanged`` last found matching the plan."""
_READ = ("boards.parquet", "seating.parquet", "bracket.parquet")


def _state(folder: EventFolder) -> tuple:
    """The stamps (time, size, inode) of every file ``check_plan_unchanged`` reads: every
    step checks the plan, several times, and at a million players a check read 0.8 s of
    files; unchanged files need no second look (a step renames new files in, so a changed
    file has another stamp)."""
    paths = [folder.path / "event.toml", folder.path / "players.parquet"]
    for round_dir in sorted(folder.path.glob("rounds/*/")):
        paths += [round_dir / name for name in _READ]
    out = []
    for path in paths:
        try:
            st = os.stat(path)
        except FileNotFoundError:
            out.append((str(path), None))
        else:
            out.append((str(path), st.st_mtime_ns, st.st_size, st.st_ino))
    return tuple(out)


def _kind_problems(folder: EventFolder) -> list[str]:
    """How the players file and the rounds' files contradict the plan's ``kind`` and
    ``format``: a pairs event's players have a ``pair``, a team event's a ``team``, and
    only a knockout's rounds have a bracket."""
    path = folder.path / "players.parquet"
    if not path.exists():
        return []
    plan, columns = folder.plan, set(pq.read_schema(path).names)
    out = []
    for column, wanted, what in (("pair", plan.kind == "pairs", "pairs"),
                                 ("team", plan.event_format.by_team, "team")):
        if wanted and column not in columns:
            out.append(f"kind is {plan.kind!r} but players.parquet has no {column} column "
                       "(it was made for another kind of event)")
        elif column in columns and not wanted:
            out.append(f"kind is {plan.kind!r} but players.parquet has a {column} column "
                       f"(it was made for a {what} event)")
    brackets = sorted(int(p.parent.name) for p in folder.path.glob("rounds/*/bracket.parquet")
                      if p.parent.name.isdigit())
    seated = sorted(int(p.parent.name) for p in folder.path.glob("rounds/*/seating.parquet")
                    if p.parent.name.isdigit())
    knockout = plan.format == "knockout"
    if knockout and set(seated) - set(brackets):
        unbracketed = sorted(set(seated) - set(brackets))
        out.append(f"format is 'knockout' but {numbered('round', unbracketed)} "
                   f"{plural('was', len(unbracketed), 'were')} seated without a bracket")
    if not knockout and brackets:
        out.append(f"format is {plan.format or 'by standing'!r} but "
                   f"{numbered('round', brackets)} {plural('has', len(brackets), 'have')} "
                   "a knockout's bracket")
    return out


def _dealt_problems(folder: EventFolder, round_no: int) -> list[str]:
    """How round ``round_no``'s boards file differs from the sets and boards the plan gives."""
    path = folder.file(round_no, "boards")
    if not path.exists():
        return []
    table = pq.read_table(path, columns=["set", "board"])
    dealt: dict[int, list[int]] = {}
    for set_no, board in zip(table["set"].to_pylist(), table["board"].to_pylist(),
                             strict=True):
        dealt.setdefault(int(set_no), []).append(int(board))
    plan = folder.plan
    planned = {s: list(plan.boards_of_set(s)) for s in plan.sets_of_round(round_no)}
    if sorted(dealt) != sorted(planned):
        return [f"sets_per_round gives round {round_no} {numbered('set', sorted(planned))}, "
                f"but {numbered('set', sorted(dealt))} {plural('was', len(dealt), 'were')} "
                "dealt"]
    return [f"boards_per_set gives set {s} boards {_span(planned[s])}, but boards "
            f"{_span(sorted(dealt[s]))} were dealt" for s in sorted(planned)
            if sorted(dealt[s]) != planned[s]][:1]


def _span(boards: list[int]) -> str:
    """``[4, 5, 6]`` -> ``"4-6"``: how event.toml's comment writes a set's boards."""
    return f"{boards[0]}-{boards[-1]}" if len(boards) > 1 else str(boards[0])


def _tables_and_groups(folder: EventFolder, round_no: int):
    """The seating's table and group columns only: every step checks the plan, and the
    players' columns of a million-player seating took 2.5 s to read each time; a file those
    columns cannot be read from is read whole, whose error names it."""
    path = folder.file(round_no, "seating")
    if not path.exists():
        return None
    try:
        return pq.read_table(path, columns=["table", "group"]).to_pandas()
    except (OSError, KeyError, pa.ArrowException):
        return folder.read(round_no, "seating")


def _seated_problems(folder: EventFolder, round_no: int) -> list[str]:
    """Tables round ``round_no`` seated that the plan no longer has."""
    seating = _tables_and_groups(folder, round_no)
    if seating is None:
        return []
    planned = {t for t, _ in folder.plan.planned_results(round_no)}
    extra = sorted(set(seating["table"].astype(int)) - planned)
    if extra:
        return [f"players gives round {round_no} tables "
                f"{_span(sorted(planned)) if planned else 'none'}, but "
                f"{numbered('table', extra)} {plural('was', len(extra), 'were')} seated"]
    tables, groups = seating["table"].astype(int).tolist(), seating["group"].astype(int).tolist()
    moved = [(t, g) for t, g in zip(tables, groups, strict=True)
             if folder.plan.group_of_table(t) != g]
    return [f"tables_per_group puts table {t} in group {folder.plan.group_of_table(t)}, but "
            f"round {round_no} seated it in group {g}" for t, g in moved[:1]]
