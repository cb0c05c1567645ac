"""The command that made a ledger row, as its ``command`` column records it.

>>> command_line(["event", "ledger", "add"], [(None, "cup", None), (None, "late", None),
...     ("--round", 2, None), ("--minutes", 4.0, None), ("--variable", False, False),
...     ("--reason", "traffic jam", None), ("--wait", 30.0, 30.0)])
"guandan-dup event ledger add cup late --round 2 --minutes 4.0 --reason 'traffic jam'"
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Sequence


def command_line(path: Sequence[str], params: Iterable[tuple[str | None, object, object]]) -> str:
    """``guandan-dup PATH ...`` rebuilt from a command's parameters in their declared order,
    each ``(option, value, default)`` with ``option`` None for an argument: an argument
    gives its value; an option its name and value, its name alone when True, and nothing
    when its value is None, False or its default."""
    words = ["guandan-dup", *path]
    for option, value, default in params:
        if value is None or value is False or (option is not None and value == default):
            continue
        if option is None:
            words.append(str(value))
        elif value is True:
            words.append(option)
        else:
            words += [option, str(value)]
    return shlex.join(words)
