"""CLI commands ``event ledger add/list/withdraw`` and ``event diff``: thin calls into
``event.ledger`` and ``event.diff``."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from ..event.diff import announce, diff_round, result_lines
from ..event.ledger import add_entry, ledger_lines, read_ledger, withdraw_entry
from ..event.people import people_of
from ..event.transaction import reading
from ..ledger import KINDS
from ..ledger.command import command_line as ledger_command
from ..ledger.describe import LIST_COLUMNS, describe, listing
from .event import DIR, WAIT, event_app, locked_folder, tell

ledger_app = typer.Typer(
    no_args_is_help=True,
    help="The director's ledger (SPEC 10): add, list or withdraw decisions (late arrivals, "
    "absences, substitutes, adjusted results, penalties).",
)
event_app.add_typer(ledger_app, name="ledger")

REASON = typer.Option(..., "--reason", help="Why (shown with the decision everywhere).")
OVERRIDE = typer.Option(
    False, "--override", help="Change a round already final (past art. 48's deadline)."
)


def command_line(ctx: typer.Context) -> str:
    """The command as typed, rebuilt from its parameters (recorded in the ledger)."""
    return ledger_command(ctx.command_path.split()[1:], [
        (None if param.param_type_name == "argument" else param.opts[0],
         ctx.params.get(param.name), param.default)
        for param in ctx.command.params if not getattr(param, "hidden", False)
    ])


@ledger_app.command("add")
def add(
    ctx: typer.Context,
    directory: Path = DIR,
    kind: str = typer.Argument(..., help=f"What happened: {', '.join(KINDS[:-1])}."),
    round_no: int = typer.Option(..., "--round", help="The round it concerns."),
    set_no: int | None = typer.Option(None, "--set", help="The set (event-wide number)."),
    table: int | None = typer.Option(None, "--table", help="The table."),
    player: str | None = typer.Option(None, "--player", help="The player it concerns."),
    side: str | None = typer.Option(None, "--side", help="NS or EW: the side at fault."),
    minutes: float | None = typer.Option(None, "--minutes", help="Minutes late or over time."),
    result: str | None = typer.Option(
        None, "--result", help="NS/EW: levels (assigned, e.g. K/5) or A+/A-/A (artificial)."),
    variable: bool = typer.Option(
        False, "--variable", help="Artificial: the better of the rate and own average."),
    tables: str | None = typer.Option(None, "--tables", help="Fouled: the tables, e.g. 3,4,7."),
    for_player: str | None = typer.Option(None, "--for", help="Substitute: the player replaced."),
    team: str | None = typer.Option(
        None, "--team", help="The team (team events): its number, #number or its label in the "
        "players file."),
    name: str | None = typer.Option(None, "--name", help="Enter: the new player's name."),
    points: str | None = typer.Option(
        None, "--points", help="Penalty: percentage points off the cumulative average."),
    match_points: str | None = typer.Option(
        None, "--match-points", help="Penalty: 场分 (team events)."),
    level_points: str | None = typer.Option(
        None, "--level-points", help="Penalty: 级差分 (team events)."),
    scale: int | None = typer.Option(
        None, "--scale", help="Penalty: art. 52 scale 1..4 (repeats take the next step)."),
    at: str | None = typer.Option(
        None, "--at", help="Ends: the round's scheduled end, e.g. 2026-05-01T15:30+08:00 "
        "(UTC unless a zone is given)."),
    reason: str = REASON,
    article: str | None = typer.Option(None, "--article", help="The rule applied, e.g. 32.1."),
    override: bool = OVERRIDE,
    wait: float = WAIT,
) -> None:
    """Record one decision in the ledger (with the time and this command); prints its effect."""
    with locked_folder(directory, "event ledger add", wait) as folder:
        row, effect = add_entry(
            folder, kind, round_no, reason, command=command_line(ctx),
            set=set_no, table=table, player=player, side=side, minutes=minutes, result=result,
            variable=variable, tables=tables, for_player=for_player, team=team, name=name,
            points=points, match_points=match_points, level_points=level_points, scale=scale,
            at=at, article=article, override=override,
        )
        lines = ledger_lines(folder, row, effect)
    typer.echo("\n".join(lines))


@ledger_app.command("list")
def list_rows(
    directory: Path = DIR,
    round_no: int | None = typer.Option(None, "--round", help="Only this round's rows."),
    wait: float = WAIT,
) -> None:
    """Show the ledger's rows: what, why, under which article, and whether still in force."""
    with reading(directory, wait, notify=tell) as folder:
        rows = listing(read_ledger(folder), round_no, people_of(folder))
    table = Table(title=f"Ledger of {directory}")
    for column in LIST_COLUMNS:
        table.add_column(column)
    for row in rows:
        table.add_row(*row)
    Console(width=160, markup=False).print(table)


@ledger_app.command("withdraw")
def withdraw(
    ctx: typer.Context,
    directory: Path = DIR,
    row_id: int = typer.Argument(..., metavar="ID", help="The ledger row to take back."),
    reason: str = REASON,
    override: bool = OVERRIDE,
    wait: float = WAIT,
) -> None:
    """Take back a decision by adding a row that withdraws it (nothing is deleted)."""
    with locked_folder(directory, "event ledger withdraw", wait) as folder:
        row = withdraw_entry(folder, row_id, reason, command_line(ctx), override=override)
        lines = ledger_lines(folder, row)
    typer.echo("\n".join(lines))


@event_app.command("diff")
def diff(
    directory: Path = DIR,
    round_no: int = typer.Option(..., "--round", help="The round whose standings to compare."),
    since: str | None = typer.Option(
        None, "--since", help="The earlier version's stamp in history/ (default: the latest)."),
    wait: float = WAIT,
) -> None:
    """Whose percentages (场分, 级差分) or ranks changed since the previous published
    standings, by how much, and which result or ledger row moved them."""
    with reading(directory, wait, notify=tell) as folder:
        report = diff_round(folder, round_no, since)
        people = people_of(folder)
        lines = announce(report, people)
    console = Console(width=160, markup=False, soft_wrap=True)
    console.print(f"Round {round_no}, changed since version {report.since}:" if lines
                  else "No percentage, position or rank changed.")
    for line in lines:
        console.print(f"  {line}")
    for line in result_lines(report, people):
        console.print(line)
    if not report.results_known:
        console.print("Some results files of the earlier version are no longer in history/.")
    for _, row in report.ledger.iterrows():
        console.print(f"Ledger row {row['id']}: {describe(row, people)} ({row['reason']})")
