"""CLI command ``demo``: rehearse a whole small event end to end and show its final ranking
(``sim.run.demo_event``)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from ..sim.run import demo_event
from .app import app


@app.command("demo")
def demo(
    players: int | None = typer.Option(
        None, "--players", help="Number of players (default 32; not with --kind teams)."
    ),
    rounds: int = typer.Option(3, "--rounds", help="Number of rounds."),
    directory: Path | None = typer.Option(
        None, "--dir", help="Event folder to create, new or empty (default: guandan-dup-demo "
        "in the current folder, or guandan-dup-demo-2, -3... when that is taken)."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the rehearsal (same seed, same event)."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
    verbose: bool = typer.Option(
        False, "--verbose", help="Also say where the bots' play logs are and how to check one."
    ),
    kind: str = typer.Option(
        "individual", "--kind", help="individual, or teams: 8 teams of 4 in a Swiss (团体赛)."
    ),
    teams: bool = typer.Option(False, "--teams", hidden=True, help="Older spelling of --kind "
                               "teams."),
) -> None:
    """Run a whole small event (individual, or a team Swiss): deal, seat, play, ingest,
    score and reseat, round after round.

    Every board is played card by card by heuristic bots (the simulator), so the results,
    play logs and standings are those of real play. The folder stays where the last lines
    say (guandan-dup-demo here unless --dir), with the commands to try next on it.
    """
    shown = demo_event(directory, kind="teams" if teams else kind, players=players,
                       rounds=rounds, seed=seed, show_progress=not quiet)
    console = Console()
    console.print(shown.table)
    for line in (*shown.details, *shown.lines) if verbose else shown.lines:
        console.print(line, soft_wrap=True, markup=False, highlight=False)
