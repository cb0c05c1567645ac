"""House rule 9 and issue 20: the map of rooms in docs/architecture.md checks itself.

The allow-list is the table of the doc, parsed here, so the doc and the test cannot disagree.
Every module of ``guandan_dup/`` is read with ``ast`` (``import x`` and ``from x import y``,
relative imports resolved, imports inside functions included) and each import of another
room must be listed in the importing room's row.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "guandan_dup"
DOC = ROOT / "docs" / "architecture.md"
TOP = "guandan_dup"


@dataclass(frozen=True)
class Row:
    """One room of the map: its layer and the rooms it may import."""

    layer: int
    allowed: frozenset[str]


def read_map(text: str) -> dict[str, Row]:
    """The rows of the table under ``## The map``: room -> layer and allowed rooms."""
    section = text.split("\n## The map\n", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    room_at, layer_at, allowed_at = (header.index(name)
                                     for name in ("Room", "Layer", "May import"))
    rows = {}
    for line in lines[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        room = re.fullmatch(r"`(\w+)`", cells[room_at])
        assert room, f"docs/architecture.md: {cells[room_at]!r} is not a `room`"
        assert room[1] not in rows, f"docs/architecture.md lists {room[1]!r} twice"
        allowed = frozenset(re.findall(r"`(\w+)`", cells[allowed_at]))
        assert allowed or cells[allowed_at] == "nothing", (
            f"docs/architecture.md: {room[1]!r} may import {cells[allowed_at]!r}: expected "
            "`rooms` or nothing")
        rows[room[1]] = Row(int(cells[layer_at]), allowed)
    return rows


MAP = read_map(DOC.read_text(encoding="utf-8"))


def rooms_on_disk(package: Path = PACKAGE) -> set[str]:
    """The package root, each top-level module and each folder holding Python code."""
    rooms = {TOP}
    for entry in package.iterdir():
        if entry.suffix == ".py" and entry.stem != "__init__":
            rooms.add(entry.stem)
        elif entry.is_dir() and entry.name != "__pycache__" and any(entry.rglob("*.py")):
            rooms.add(entry.name)
    return rooms


@dataclass(frozen=True)
class Import:
    """One import of our package by a module: where it is written and what it names."""

    path: str  # relative to the repository, e.g. guandan_dup/results/clean.py
    line: int
    module: str  # absolute, e.g. guandan_dup.scoring.players


def package_of(path: str) -> list[str]:
    """The dotted parts of the package a module at ``path`` resolves relative imports in:
    a module's package, or for an ``__init__.py`` the package itself."""
    return list(Path(path).parts[:-1])


def imports(path: str, source: str) -> Iterator[Import]:
    """Every import of ``guandan_dup`` in ``source``, read from a module at ``path``."""
    package = package_of(path)
    for node in ast.walk(ast.parse(source, path)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                base_name = ".".join(base + ([node.module] if node.module else []))
            else:
                base_name = node.module or ""
            # ``from guandan_dup import cards`` names a room; ``from .. import __version__``
            # names the package root itself.
            names = ([f"{base_name}.{alias.name}" for alias in node.names]
                     if base_name == TOP else [base_name])
        else:
            continue
        for name in names:
            if name == TOP or name.startswith(TOP + "."):
                yield Import(path, node.lineno, name)


def room_of(module: str, rooms: set[str]) -> str:
    """The room of a dotted module name: its second part, or the package root."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in rooms else TOP


def room_at(path: str, rooms: set[str]) -> str:
    """The room of the module at ``path`` (``guandan_dup/x/...`` or ``guandan_dup/x.py``)."""
    return room_of(".".join(Path(path).with_suffix("").parts), rooms)


def violations(path: str, source: str, rows: Mapping[str, Row] = MAP) -> list[str]:
    """Each import in ``source`` (a module at ``path``) that the map does not allow, as
    ``file:line: room imports other (module)``."""
    rooms = set(rows) | rooms_on_disk()
    here = room_at(path, rooms)
    found = []
    for imported in imports(path, source):
        there = room_of(imported.module, rooms)
        if there != here and there not in rows.get(here, Row(0, frozenset())).allowed:
            found.append(f"{imported.path}:{imported.line}: {here} imports {there} "
                         f"({imported.module}), which docs/architecture.md does not allow")
    return found


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def relative(module: Path) -> str:
    return module.relative_to(ROOT).as_posix()


def room_graph() -> dict[str, set[str]]:
    """Room -> the other rooms its modules import, as the code stands."""
    rooms = rooms_on_disk()
    graph: dict[str, set[str]] = {room: set() for room in rooms}
    for module in modules():
        path = relative(module)
        here = room_at(path, rooms)
        for imported in imports(path, module.read_text(encoding="utf-8")):
            there = room_of(imported.module, rooms)
            if there != here:
                graph[here].add(there)
    return graph


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The cycles a depth-first search of ``graph`` closes (at least one wherever there is
    any), each as the rooms along it, the first repeated last."""
    found, done, path = [], set(), []

    def visit(room: str) -> None:
        if room in path:
            found.append(path[path.index(room):] + [room])
            return
        if room in done:
            return
        path.append(room)
        for other in sorted(graph.get(room, ())):
            visit(other)
        path.pop()
        done.add(room)

    for room in sorted(graph):
        visit(room)
    return found


def test_every_import_between_rooms_is_on_the_map():
    found = [problem for module in modules()
             for problem in violations(relative(module), module.read_text(encoding="utf-8"))]
    assert not found, "imports the map forbids:\n" + "\n".join(found)


def test_every_room_is_on_the_map_and_every_row_is_a_room():
    on_disk, mapped = rooms_on_disk(), set(MAP)
    assert on_disk - mapped == set(), (
        f"rooms missing from docs/architecture.md: {sorted(on_disk - mapped)}")
    assert mapped - on_disk == set(), (
        f"rows of docs/architecture.md with no room: {sorted(mapped - on_disk)}")
    unknown = {room: sorted(row.allowed - on_disk) for room, row in MAP.items()
               if row.allowed - on_disk}
    assert not unknown, f"rows allowing rooms that do not exist: {unknown}"


def test_arrows_on_the_map_never_point_up():
    up = [f"{room} (layer {row.layer}) -> {other} (layer {MAP[other].layer})"
          for room, row in MAP.items() for other in sorted(row.allowed)
          if other in MAP and MAP[other].layer > row.layer]
    assert not up, "arrows to a higher layer:\n" + "\n".join(up)


def test_no_cycle_between_rooms_in_the_map_or_the_code():
    allowed = {room: set(row.allowed) for room, row in MAP.items()}
    assert cycles(allowed) == [], f"the map has cycles: {cycles(allowed)}"
    assert cycles(room_graph()) == [], f"the rooms import in cycles: {cycles(room_graph())}"


@pytest.mark.parametrize(("path", "source", "forbidden"), [
    ("guandan_dup/rules/fake.py", "from ..reading import read_csv", "rules imports reading"),
    ("guandan_dup/results/fake.py", "def f():\n    from ..scoring.players import text\n",
     "results imports scoring"),
    ("guandan_dup/reports/site/fake.py", "import guandan_dup.event.folder",
     "reports imports event"),
    ("guandan_dup/cards.py", "from . import seats", "cards imports seats"),
    ("guandan_dup/knockout/__init__.py", "from guandan_dup import teams",
     "knockout imports teams"),
    ("guandan_dup/scoring/fake.py", "from .. import cli", "scoring imports cli"),
])
def test_a_forbidden_import_is_named_with_file_line_and_room(path, source, forbidden):
    found = violations(path, source)
    assert len(found) == 1, found
    line = source.count("\n", 0, source.index("import")) + 1
    assert found[0].startswith(f"{path}:{line}: {forbidden} ("), found


@pytest.mark.parametrize(("path", "source"), [
    ("guandan_dup/deals/fake.py", "from .. import __version__"),
    ("guandan_dup/event/formats/fake.py", "from .. import folder\nfrom ...teams import swiss"),
    ("guandan_dup/results/__init__.py", "from . import clean\nfrom ..arrays import encode_ids"),
    ("guandan_dup/cli/fake.py", "import os\nimport guandan_dup.sim"),
])
def test_an_allowed_import_passes(path, source):
    assert violations(path, source) == []


def test_a_cycle_is_found():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]


def test_tests_import_helpers_only_from_support_modules():
    """A test file imports its helpers from a support module (``tests/*_support.py``),
    never from another ``test_*.py``: that ties one feature's tests to another's file and
    hides which helpers are shared."""
    found = []
    for module in sorted((ROOT / "tests").glob("*.py")):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]  # from test_x import y, from .test_x import y
            elif isinstance(node, ast.Import | ast.ImportFrom):
                names = [alias.name for alias in node.names]  # import test_x, from . import
            else:
                continue
            found += [f"{relative(module)}:{node.lineno}: imports {name}" for name in names
                      if name.split(".")[-1].startswith("test_")]
    assert not found, "imports of test modules:\n" + "\n".join(found)
