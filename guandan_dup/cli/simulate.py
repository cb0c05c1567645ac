"""CLI commands ``simulate`` (a whole event played by bots: ``sim.run.simulate_event``; rounds
of an existing event with ``--event``: ``sim.run.simulate_rounds``) and ``playlog validate``."""

from __future__ import annotations

from pathlib import Path

import typer

from ..deals.boardset import load as load_boards
from ..sim.playlog import validate_log
from ..sim.run import check_event_options, simulate_event, simulate_rounds, whole_rounds
from .app import app

NEW_EVENT_OPTIONS = ("players", "teams", "fmt", "sets_per_round", "boards_per_set", "out",
                     "tables_per_group", "knockout", "pairs")
"""The options that shape a new event, refused beside ``--event``."""

playlog_app = typer.Typer(no_args_is_help=True, help="Check recorded play (play logs).")
app.add_typer(playlog_app, name="playlog")


@app.command("simulate")
def simulate_command(
    ctx: typer.Context,
    players: int | None = typer.Option(
        None, "--players", help="Number of players (4 per table) of an individual event."
    ),
    teams: int | None = typer.Option(
        None, "--teams", help="Number of teams (4 players each) of a team event instead."
    ),
    fmt: str = typer.Option("swiss", "--format", help="Team events: swiss or round-robin."),
    rounds: str | None = typer.Option(
        None, "--rounds", help="Number of rounds; with --event, the rounds to play: 2 or 2-3 "
        "(default: every round left)."
    ),
    sets_per_round: int = typer.Option(2, "--sets-per-round", help="Sets played each round."),
    boards_per_set: int = typer.Option(4, "--boards-per-set", help="Boards in a set (1 = board "
                                       "mode)."),
    out: Path | None = typer.Option(None, "--out", help="Event folder to create: new or empty."),
    seed: int = typer.Option(0, "--seed", help="Seed: the same seed gives the same event."),
    tables_per_group: int = typer.Option(4, "--tables-per-group", help="Tables in a group."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
    knockout: str | None = typer.Option(
        None, "--knockout", help="Rehearse a knockout instead: pairs (drawn by lot, --pairs "
        "N) or teams (seeded by team number, --teams N)."
    ),
    pairs: int | None = typer.Option(None, "--pairs", help="Pairs in the knockout."),
    event: Path | None = typer.Option(
        None, "--event", help="Play rounds of this existing event folder instead (its "
        "players, plan and format): rehearse the day on a copy of it."
    ),
    force: bool = typer.Option(
        False, "--force", help="With --event: play after rounds whose results the bots did "
        "not play (the folder is a copy of an event under way)."
    ),
) -> None:
    """Play a whole event with bots (individual, teams or a knockout): deals, seating, play,
    results, scores.

    With --teams N, a team event (Swiss or round robin, one set a round in two rooms); with
    --knockout pairs --pairs N (or teams --teams N), a knockout (extra boards and all).
    With --event DIR --rounds 2-3, the bots play those rounds of an existing event.
    """
    if event is not None:
        check_event_options([
            p.opts[0] for p in ctx.command.params
            if p.name in NEW_EVENT_OPTIONS
            and ctx.get_parameter_source(p.name).name == "COMMANDLINE"
        ])
        simulation = simulate_rounds(event, rounds, seed=seed, force=force,
                                     show_progress=not quiet)
    else:
        simulation = simulate_event(
            out, players=players, teams=teams, pairs=pairs, knockout=knockout, fmt=fmt,
            rounds=whole_rounds(rounds), sets_per_round=sets_per_round,
            boards_per_set=boards_per_set, seed=seed, tables_per_group=tables_per_group,
            show_progress=not quiet,
        )
    for line in simulation.lines:
        typer.echo(line)


@playlog_app.command("validate")
def playlog_validate(
    log: Path = typer.Argument(..., help="Play log (Parquet) to replay."),
    boards: Path = typer.Option(..., "--boards", help="The board set the log was played on."),
    three_failures_reset: bool = typer.Option(
        False, "--three-failures-reset", help="House rule: three failures at A send a side to 2."
    ),
) -> None:
    """Replay a play log against its deals: 'log is legal' or the first illegal step."""
    summary = validate_log(log, load_boards(boards), three_failures_reset)
    typer.echo(f"log is legal: {summary.plays} plays ({summary.steps} steps, {summary.boards} "
               f"boards, {summary.sets} sets)")
