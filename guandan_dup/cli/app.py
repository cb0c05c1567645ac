"""The root typer app and the one place where domain errors become ``Error: ...``, exit 1.

Commands hold no logic: each reads its options, calls one library function and prints the
outcome. Any ``GuandanError`` (bad input) or ``OSError`` (a file that cannot be read or
written) raised below is shown as a one-line ``Error:`` message without a traceback.

Command modules are imported only when their command runs (``LazyGroup``): importing all of
them pulls in pandas, openpyxl, jinja2 and the simulator, a second of start-up that
``guandan-dup score`` or ``--help`` should not pay.
"""

from __future__ import annotations

import importlib

import typer
from typer.core import TyperCommand, TyperGroup
from typer.main import get_command_from_info, get_group_from_info

from ..errors import GuandanError
from .options import hide_old_spellings


def describe_os_error(error: OSError) -> str:
    """``cannot use 'x.parquet': No such file or directory`` rather than a traceback."""
    if error.filename is not None:
        return f"cannot use {str(error.filename)!r}: {error.strerror or error}"
    return str(error)


class ReportingGroup(TyperGroup):
    """A command group that reports domain and file errors as ``Error: ...`` with exit 1."""

    def invoke(self, ctx: typer.Context):
        try:
            return super().invoke(ctx)
        except GuandanError as error:
            typer.echo(f"Error: {error}", err=True)
            raise typer.Exit(1) from error
        except OSError as error:
            typer.echo(f"Error: {describe_os_error(error)}", err=True)
            raise typer.Exit(1) from error


# Every command and group of the root app, in the order ``--help`` lists them: the module(s)
# of ``guandan_dup.cli`` that register it, and its help for the listing (tests/test_cli_lazy.py
# holds each equal to the help the command itself declares). A new command module goes here.
COMMANDS: dict[str, tuple[tuple[str, ...], str]] = {
    "demo": (("demo",), "Run a whole small event (individual, or a team Swiss): deal, seat, "
             "play, ingest, score and reseat, round after round."),
    "move": (("movement",), "Seat a round by standing: groups of 4T places, a-d North-South v "
             "b-c; byes last."),
    "score": (("scoring",), "Score results files: score rates per set, standings after every "
              "round, travellers."),
    "standings": (("scoring",), "The ranking table after a round: rank (\"1=\" for ties), "
                  "player and name, sets, averages in %; a team event's team standings (场分, "
                  "级差分); a knockout's bracket and places."),
    "travellers": (("scoring",), "Per-set travellers: every table's result on a set with both "
                   "directions' rates and the players' names; a team event's match results."),
    "simulate": (("simulate",), "Play a whole event with bots (individual, teams or a "
                 "knockout): deals, seating, play, results, scores."),
    "key": (("deals",), "Make the secret event key that fixes the deals."),
    "deal": (("deals",), "Deal a board set from an event key (guandan-dup deal --key FILE "
             "--boards 1-36 --out boards.parquet), or check one with 'deal verify'."),
    "event": (("event", "site", "ledger", "live", "printing"), "Run an event in a folder: "
              "init, deal, seat, sheet, print, ingest, score, export, status, reveal, site, "
              "ledger, diff."),
    "serve": (("live",), "Run the event's web server: table phones enter results, the "
              "director's console, the board."),
    "rules": (("rules",), "The combinations of Guandan (seed 000 art. 3-5): classify a play, "
              "compare two plays."),
    "playlog": (("simulate",), "Check recorded play (play logs)."),
}


class LazyGroup(ReportingGroup):
    """The root group: a command's module is imported when the command is looked up to run
    (or to show its own help); the root ``--help`` lists every command from ``COMMANDS``
    without importing any. A command looked up gets its options' older spellings hidden
    (``options.hide_old_spellings``)."""

    listing = False

    def list_commands(self, ctx: typer.Context) -> list[str]:
        return [*COMMANDS, *(name for name in super().list_commands(ctx) if name not in COMMANDS)]

    def get_command(self, ctx: typer.Context, cmd_name: str) -> TyperCommand | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            modules, help_text = COMMANDS[cmd_name]
            if self.listing:
                return TyperCommand(cmd_name, help=help_text)
            for module in modules:
                importlib.import_module(f"{__package__}.{module}")
            self.add_command(_converted(cmd_name), cmd_name)
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            hide_old_spellings(command)
        return command

    def format_help(self, ctx: typer.Context, formatter) -> None:
        self.listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self.listing = False


def _converted(name: str) -> TyperCommand | TyperGroup:
    """The click command (or group) typer makes of what a module registered on ``app``."""
    for info in app.registered_commands:
        if info.name == name:
            return get_command_from_info(
                info, pretty_exceptions_short=app.pretty_exceptions_short,
                rich_markup_mode=app.rich_markup_mode)
    for info in app.registered_groups:
        if info.name == name:
            return get_group_from_info(
                info, pretty_exceptions_short=app.pretty_exceptions_short,
                suggest_commands=app.suggest_commands, rich_markup_mode=app.rich_markup_mode)
    raise LookupError(f"no command {name!r} registered by {COMMANDS[name][0]}")


def _print_version(asked: bool) -> None:
    """``--version``: the installed package's version (its metadata is read only when asked)."""
    if asked:
        from .. import __version__

        typer.echo(f"guandan-dup {__version__}")
        raise typer.Exit()


def _root(
    version: bool = typer.Option(
        False, "--version", is_eager=True, expose_value=False, callback=_print_version,
        help="Print the version of guandan-dup and exit.",
    ),
) -> None:
    """The root's only option is --version; the callback also makes typer build a group
    before any module registers its commands."""


app = typer.Typer(
    cls=LazyGroup,
    callback=_root,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    help="Run duplicate (复式) Guandan tournaments: deals, events, results, scoring, movement, "
    "exports, rehearsals with bots.",
)
