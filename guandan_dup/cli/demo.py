"""CLI command ``demo``: rehearse a whole small event end to end and show its final ranking."""

from __future__ import annotations

import tempfile
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from ..sim import simulate
from .app import app


@app.command("demo")
def demo(
    players: int = typer.Option(32, "--players", help="Number of players."),
    rounds: int = typer.Option(3, "--rounds", help="Number of rounds."),
    directory: Path | None = typer.Option(
        None, "--dir", help="Event folder to create (default: a new temporary folder)."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the rehearsal (same seed, same event)."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
) -> None:
    """Run a whole event: deal, seat, play, ingest, score and reseat, round after round.

    Every board is played card by card by heuristic bots (the simulator), so the results,
    play logs and standings are those of real play.
    """
    path = directory or Path(tempfile.mkdtemp(prefix="guandan-dup-demo-"))
    result = simulate(path, players=players, rounds=rounds, seed=seed, show_progress=not quiet)
    console = Console()
    table = Table(title=f"{result.folder.plan.name}: standings after round {rounds} 最终排名")
    for column in ("名次 Rank", "选手 Player", "姓名 Name", "局数 Sets", "累计 Total %"):
        table.add_column(column, justify="right" if column[0] in "局累" else "left")
    for row in result.standings.itertuples():
        table.add_row(
            row.rank_label, row.player, row.name, str(row.sets), f"{row.cumulative * 100:.2f}"
        )
    console.print(table)
    console.print(
        "Every board was played card by card by heuristic bots; results and play logs are "
        "in results-round-R.parquet and playlog-round-R.parquet (check a log, in the event "
        "folder, with `guandan-dup playlog validate playlog-round-1.parquet --boards "
        "rounds/1/boards.parquet`)."
    )
    console.print(f"Event folder: {path}")
    console.print(f"Exports: {result.exports[0].parent}")
