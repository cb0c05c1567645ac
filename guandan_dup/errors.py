"""Exceptions by kind, all ``ValueError`` subclasses, so callers catch what they can handle.

The CLI turns every ``GuandanError`` into ``Error: <message>`` and exit code 1; anything else
is a bug and keeps its traceback.
"""

from __future__ import annotations

from dataclasses import dataclass


class GuandanError(ValueError):
    """Base of every error that bad input (not a bug) can cause."""


class Unreadable(Exception):  # noqa: N818 - carries the reason, caught at once by callers
    """An input file that cannot be read at all; ``str()`` is the reason, phrased after the
    file's name. Not a ``GuandanError``: the reader that meets it turns it into its own
    (a ``GuandanError`` or one problem of a ``ProblemsError``) with the file's name."""


class NotationError(GuandanError):
    """A card, seat, level or finishing-order token that cannot be parsed."""


class IllegalPlayError(GuandanError):
    """A play that the rules do not allow in the position it was made."""


class InvalidPlanError(GuandanError):
    """An event plan (event.toml, options) that is inconsistent or incomplete."""


class KeyFileError(GuandanError):
    """An event key file that is missing, unreadable, malformed or would be overwritten."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with one cell of an input file: where, what was there, which rule.

    ``row`` is the row's number as the director sees it (a sheet's row, a CSV file's line);
    ``at`` says where that row is in the event's terms (``table 3, set 2``), when known.
    """

    file: str
    row: int | None
    column: str | None
    value: object
    rule: str
    at: str | None = None

    def __str__(self) -> str:
        where = [self.file]
        if self.row is not None:
            where.append(f"row {self.row}" + (f" ({self.at})" if self.at else ""))
        if self.column is not None:
            where.append(f"column {self.column!r}")
        value = "" if self.value is None else f" value {self.value!r}:"
        return f"{', '.join(where)}:{value} {self.rule}"


SHOWN_PROBLEMS = 50
"""How many problems a message lists; a director fixes the first ones and re-runs."""


class ProblemsError(GuandanError):
    """Input that breaks one or more rules; carries every problem found, not just the first.

    Each kind of input file subclasses it and names itself in ``subject``, so results,
    players files and the like all report their problems in the same form.
    """

    subject = "the input"

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        count = len(self.problems)
        problems = f"{count} problem{'s' if count != 1 else ''}"
        lines = [f"{problems} in {self.subject}; nothing was written:"]
        lines += [f"  {p}" for p in self.problems[:SHOWN_PROBLEMS]]
        if count > SHOWN_PROBLEMS:
            lines.append(f"  ... and {count - SHOWN_PROBLEMS} more (all are in .problems)")
        super().__init__("\n".join(lines))


class InvalidResultsError(ProblemsError):
    """Results that break one or more rules (results files, or results against the plan)."""

    subject = "the results"
