"""Option spellings shared by the commands: one meaning per name, older spellings hidden.

A name means one thing in every command: ``--kind`` and ``--format`` are an event's kind and
format (the rules' words), ``--teams N`` and ``--pairs N`` numbers of entrants,
``--team-names FILE`` the file naming the teams, ``--to`` the file format(s) to write. An
option renamed to that scheme keeps its older spelling, declared after the new one
(``typer.Option(..., "--to", "--format")``) and listed in ``OLD_SPELLINGS``: scripts using it
still work, help shows only the new name. (``--players`` is still a file in ``event init``
and ``move`` but a number in ``simulate`` and ``demo``.)

Imports typer only: the root group applies ``hide_old_spellings`` to every command it runs.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from typer.core import TyperCommand, TyperGroup

# (new, old) spelling pairs. Only an option declared with both is changed, so ``--teams N``
# of ``simulate`` is untouched while ``event init``'s ``--teams FILE`` becomes --team-names.
OLD_SPELLINGS: frozenset[tuple[str, str]] = frozenset({
    ("--team-names", "--teams"),  # event init: the CSV naming the teams
    ("--to", "--format"),  # event export, standings, travellers, deal: file format(s)
    ("--players", "--pairs"),  # move: the players file (--pairs N counts pairs in simulate)
})

# The report formats of ``reports.FORMATS`` (tests/test_cli_lazy.py holds the two equal):
# importing reports would load pandas, jinja2 and openpyxl for a ``--help``.
REPORT_FORMATS = ("csv", "xlsx", "md", "html")


def hide_old_spellings(command: TyperCommand | TyperGroup) -> None:
    """Give every option of ``command`` (and of its subcommands) declared with a new and an
    old spelling of ``OLD_SPELLINGS`` a hidden twin answering to the old one: the twin fills
    the same parameter, so the command sees one value whichever spelling was typed, and help
    lists the option under its new name only. Applying it twice changes nothing."""
    for sub in getattr(command, "commands", {}).values():
        hide_old_spellings(sub)
    params = []
    for param in command.params:
        params.append(param)
        if param.param_type_name != "option" or param.hidden:
            continue
        for new, old in sorted(OLD_SPELLINGS):
            if new in param.opts and old in param.opts:
                param.opts = [name for name in param.opts if name != old]
                twin = copy.copy(param)
                twin.opts, twin.secondary_opts = [old], []
                twin.hidden, twin.required = True, False
                twin.help = f"Older spelling of {new}."
                params.append(twin)
    command.params = params


def format_list(values: Sequence[str], every: Sequence[str] = REPORT_FORMATS) -> list[str]:
    """The formats of a repeatable, comma-separated option, each once, in the order given;
    ``all`` stands for ``every`` format. Unknown names are kept for the library to refuse.

    >>> format_list(["csv,md", "html", "csv"])
    ['csv', 'md', 'html']
    >>> format_list(["all"])
    ['csv', 'xlsx', 'md', 'html']
    """
    formats: list[str] = []
    for value in values:
        for name in str(value).split(","):
            name = name.strip()
            for fmt in every if name == "all" else [name] if name else []:
                if fmt not in formats:
                    formats.append(fmt)
    return formats


def report_formats(values: list[str]) -> list[str]:
    """Callback of an option taking report formats: ``--to csv,md --to html`` or ``all``."""
    return format_list(values)
