"""How the program says things to a director: lists as words, counts with their nouns, ids
with their names, and folders in commands to paste. Every room speaks to directors (an
error raised by ``movement`` is printed by the CLI as it stands), so these sit at the bottom
of the house, where any room may use them, and nowhere else (``event.people`` names the
people of an event folder with them).

>>> numbered("round", [2, 3]), counted(1, "bye"), counted(2, "bye")
('rounds 2 and 3', '1 bye', '2 byes')
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable


def words(items: Iterable, conjunction: str = "and") -> str:
    """A list as a director reads it: ``1``, ``1 and 2``, ``1, 2 and 3`` (never ``[1, 2]``).

    >>> words([2]), words([2, 3]), words(["csv", "md", "html"]), words([], "or")
    ('2', '2 and 3', 'csv, md and html', '')
    """
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def plural(noun: str, count: int, many: str | None = None) -> str:
    """``noun`` as ``count`` of them are said: ``round``, ``rounds``; ``many`` when the
    plural is not the noun with an ``s`` (``match``, ``matches``).

    >>> plural("table", 1), plural("table", 2), plural("match", 3, "matches")
    ('table', 'tables', 'matches')
    """
    return noun if count == 1 else (many or f"{noun}s")


def counted(count: int, noun: str, many: str | None = None) -> str:
    """``2 byes``, ``1 table``: a count with its noun.

    >>> counted(0, "bye"), counted(1, "player"), counted(2, "match", "matches")
    ('0 byes', '1 player', '2 matches')
    """
    return f"{count} {plural(noun, count, many)}"


def numbered(noun: str, items: Iterable, conjunction: str = "and",
             many: str | None = None) -> str:
    """Things known by their numbers or ids, with the noun they share: ``round 2``,
    ``rounds 2 and 3``, ``tables 1, 4 and 7``; ``quoted`` ids too (``column 'name'``).

    >>> numbered("round", [2]), numbered("set", [1, 2, 3]), numbered("pair", ["D1"], "or")
    ('round 2', 'sets 1, 2 and 3', 'pair D1')
    """
    items = list(items)
    return f"{plural(noun, len(items), many)} {words(items, conjunction)}"


def runs(numbers: Iterable[int]) -> list[str]:
    """Sorted numbers in runs, as a director writes them: ``["2-4", "9"]``.

    >>> runs([2, 3, 4, 9]), runs([5])
    (['2-4', '9'], ['5'])
    """
    out: list[list[int]] = []
    for n in numbers:
        if out and n == out[-1][-1] + 1:
            out[-1].append(n)
        else:
            out.append([n])
    return [f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in out]


def spans(noun: str, numbers: Iterable[int], most: int | None = None) -> str:
    """Sorted numbers with their noun, runs joined: ``tables 1-4 and 6``, ``table 5``; past
    ``most`` runs, how many more numbers there are.

    >>> spans("table", [1, 2, 3, 4, 6]), spans("set", [3])
    ('tables 1-4 and 6', 'set 3')
    >>> spans("table", [1, 3, 5, 7, 9], most=3)
    'tables 1, 3, 5 and 2 more'
    """
    numbers = list(numbers)
    parts = runs(numbers)
    if most is not None and len(parts) > most:
        shown = parts[:most]
        rest = len(numbers) - sum(int(p.split("-")[-1]) - int(p.split("-")[0]) + 1
                                  for p in shown)
        parts = [*shown, f"{rest} more"]
    return f"{plural(noun, len(numbers))} {words(parts)}"


def quoted(items: Iterable, conjunction: str = "and") -> str:
    """Values a director typed, each quoted as typed: ``'csv,md'``, ``'nope' and 'x'``.

    >>> quoted(["nope"]), quoted(["a", "b"], "or")
    ("'nope'", "'a' or 'b'")
    """
    return words([repr(str(item)) for item in items], conjunction)


def caption(key, name) -> str:
    """The id, then the name when there is one that says more than the id.

    >>> caption("P027", "王伟"), caption("P027", ""), caption("P027", "P027")
    ('P027 王伟', 'P027', 'P027')
    """
    key = str(key)
    name = "" if not isinstance(name, str) else name.strip()
    return key if not name or name == key else f"{key} {name}"


def team_caption(number: int, name: str) -> str:
    """How a director reads a team out: its number, then its name when it has one.

    >>> team_caption(3, "南京队"), team_caption(3, "3"), team_caption(3, "")
    ('team 3 南京队', 'team 3', 'team 3')
    """
    return f"team {number}" + (f" {name}" if name and name != str(number) else "")


def seats_line(seats, named=str) -> str:
    """Who sits where at a table, as read out: ``N P027 王伟 · E ... · S ... · W ...``;
    ``seats`` maps north..west to ids, ``named`` reads an id out.

    >>> seats_line({"north": "P1", "east": "P2", "south": "P3", "west": "P4"})
    'N P1 · E P2 · S P3 · W P4'
    """
    return " · ".join(f"{seat[0].upper()} {named(seats[seat])}"
                      for seat in ("north", "east", "south", "west"))


_PLAIN = re.compile(r"[\w@%+=:,./-]+")
"""Words a shell takes as they are (Chinese letters too, unlike ``shlex.quote``'s)."""


def pasteable(text) -> str:
    """A folder or file as it goes into a command to paste: as the director typed it,
    quoted only when a shell would split or expand it.

    >>> pasteable("cup"), pasteable("南京赛/第1轮.xlsx"), pasteable("my cup")
    ('cup', '南京赛/第1轮.xlsx', "'my cup'")
    """
    text = str(text)
    return text if _PLAIN.fullmatch(text) else shlex.quote(text)


def event_command(folder, step: str, round_no: int | None = None,
                  *more: str) -> str:
    """``guandan-dup event STEP FOLDER [--round R] [MORE ...]``, paste-ready.

    >>> event_command("my cup", "score", 2, "--force")
    "guandan-dup event score 'my cup' --round 2 --force"
    """
    parts = ["guandan-dup event", step, pasteable(folder)]
    if round_no is not None:
        parts.append(f"--round {round_no}")
    return " ".join([*parts, *more])
