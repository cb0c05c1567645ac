"""CLI command ``demo``: rehearse a whole small event end to end and show its final ranking."""

from __future__ import annotations

import tempfile
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from ..errors import GuandanError
from ..sim import simulate, simulate_teams
from .app import app


@app.command("demo")
def demo(
    players: int | None = typer.Option(
        None, "--players", help="Number of players (default 32; not with --teams)."
    ),
    rounds: int = typer.Option(3, "--rounds", help="Number of rounds."),
    directory: Path | None = typer.Option(
        None, "--dir", help="Event folder to create (default: a new temporary folder)."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the rehearsal (same seed, same event)."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
    teams: bool = typer.Option(
        False, "--teams", help="A team event instead: 8 teams of 4, a Swiss (团体赛)."
    ),
) -> None:
    """Run a whole small event (individual, or a team Swiss): deal, seat, play, ingest,
    score and reseat, round after round.

    Every board is played card by card by heuristic bots (the simulator), so the results,
    play logs and standings are those of real play.
    """
    if teams and players is not None:
        raise GuandanError("demo --teams plays 8 teams of 4 players: --players is for the "
                           "individual demo (see `guandan-dup simulate --teams N`)")
    path = directory or Path(tempfile.mkdtemp(prefix="guandan-dup-demo-"))
    console = Console()
    if teams:
        result = simulate_teams(path, 8, rounds, seed=seed, show_progress=not quiet)
        console.print(team_table(result.standings, result.folder.plan, rounds))
        console.print(f"Event folder: {path}")
        console.print(f"Exports: {result.exports[0].parent}")
        return
    result = simulate(path, players=32 if players is None else players, rounds=rounds,
                      seed=seed, show_progress=not quiet)
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


def team_table(standings, plan, rounds: int) -> Table:
    """The final team standings as a terminal table (names the conversion table)."""
    table = Table(title=f"{plan.name}: team standings after round {rounds} 最终排名 "
                  f"(级差分 {plan.conversion})")
    for column in ("名次 Rank", "队 Team", "队名 Name", "场分 MP", "级差分 LP", "级差 Levels"):
        table.add_column(column, justify="left" if column[0] in "名队" else "right")
    for row in standings.sort_values("position").itertuples():
        table.add_row(row.rank_label, str(row.team), row.name, f"{row.match_points:g}",
                      f"{row.level_points:.2f}", str(row.level_diff))
    return table
