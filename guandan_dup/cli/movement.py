"""CLI command ``move``: seat the next round from a standings file (SPEC 7)."""

from __future__ import annotations

from pathlib import Path

import typer

from ..movement.files import byes_path, move
from .app import app


@app.command("move")
def move_command(
    standings: Path | None = typer.Argument(
        None, help="standings.parquet of the round just played (omit for round 1)."
    ),
    round_no: int = typer.Option(
        ..., "--round", help="Round of the standings; the seating is for the next round."
    ),
    tables_per_group: int = typer.Option(..., "--tables-per-group", help="Tables in a group."),
    out: Path = typer.Option(..., "--out", help="Seating file to write (byes.parquet beside it)."),
    byes_so_far: Path | None = typer.Option(
        None, "--byes-so-far", help="Earlier byes (Parquet or CSV with a player column)."
    ),
    seeding: Path | None = typer.Option(
        None, "--seeding", help="Round 1: CSV with an id column, best seed first."
    ),
    players: Path | None = typer.Option(
        None, "--players", "--pairs", help="Players CSV (id, name[, pair]): pairs events, lot."
    ),
    key: Path | None = typer.Option(None, "--key", help="Round 1 lot: the event key file."),
    rotate_partners: bool = typer.Option(
        False, "--rotate-partners", help="Rotate partners within the round (ad-bc, ac-bd, ab-cd)."
    ),
    sets: str | None = typer.Option(
        None, "--sets", help="The round's sets for --rotate-partners, e.g. 4,5,6."
    ),
    kind: str = typer.Option("individual", "--kind", help="individual or pairs."),
    earlier: list[Path] = typer.Option(
        [], "--earlier-seating", help="Pairs: an earlier round's seating (repeat the option)."
    ),
) -> None:
    """Seat a round by standing: groups of 4T places, a-d North-South v b-c; byes last."""
    seating = move(
        out,
        round_no,
        tables_per_group,
        standings=standings,
        byes_so_far=byes_so_far,
        seeding=seeding,
        players=players,
        key=key,
        rotate_partners=rotate_partners,
        sets=sets,
        kind=kind,
        earlier_seatings=earlier,
    )
    typer.echo("\n".join(seating.summary()))
    typer.echo(f"Seating: {out}; byes: {byes_path(out)}")
