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
        None, "--dir", help="Event folder to create (default: a new temporary folder)."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the rehearsal (same seed, same event)."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
    kind: str = typer.Option(
        "individual", "--kind", help="individual, or teams: 8 teams of 4 in a Swiss (团体赛)."
    ),
    teams: bool = typer.Option(False, "--teams", hidden=True, help="Older spelling of --kind "
                               "teams."),
) -> None:
    """Run a whole small event (individual, or a team Swiss): deal, seat, play, ingest,
    score and reseat, round after round.

    Every board is played card by card by heuristic bots (the simulator), so the results,
    play logs and standings are those of real play.
    """
    shown = demo_event(directory, kind="teams" if teams else kind, players=players,
                       rounds=rounds, seed=seed, show_progress=not quiet)
    console = Console()
    console.print(shown.table)
    for line in shown.lines:
        console.print(line)
