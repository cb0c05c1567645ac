"""CLI commands ``score``, ``standings`` and ``travellers``: thin calls into scoring/reports.

The library is imported inside each command, not here, so ``--help`` answers at once.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

import typer

from ..errors import GuandanError
from ..scoring.options import ENGINES, FILE_COMPARE_WITHIN
from ..wording import numbered
from .app import app
from .options import REPORT_FORMATS

# Choices for typer, made from the library's own lists so the two cannot drift apart.
CompareWithin = StrEnum("CompareWithin", {name: name for name in FILE_COMPARE_WITHIN})
Engine = StrEnum("Engine", {name: name for name in ENGINES})
ReportFormat = StrEnum("ReportFormat", {name: name for name in REPORT_FORMATS})


@app.command("score")
def score(
    results: list[Path] = typer.Argument(
        ..., help="Results files (set- or board-level; Parquet, .csv or .xlsx); every round."
    ),
    out: Path = typer.Option(
        ..., "--out", help="Folder for scores.parquet, standings.parquet, travellers.parquet."
    ),
    expected: int | None = typer.Option(
        None, "--expected", min=1,
        help="Tables meant to play each set; sets with fewer real results are Neuberg-adjusted.",
    ),
    compare_within: CompareWithin = typer.Option(
        CompareWithin.event, "--compare-within",
        help="Compare a set's results across the whole event or within each group.",
    ),
    boards_per_set: int | None = typer.Option(
        None, "--boards-per-set", min=1,
        help="Boards in a set (K): set s must use boards (s-1)K+1..sK, and set-level levels"
        " must be reachable in at most K boards.",
    ),
    seed: int = typer.Option(
        0, "--seed",
        help="Seed of the lot that orders players still tied after the previous position.",
    ),
    three_failures_reset: bool = typer.Option(
        False, "--three-failures-reset",
        help="House rule: three failures at A send a side back to 2 (board-level files).",
    ),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
    engine: Engine = typer.Option(
        Engine.local, "--engine",
        help="local: this machine, a round at a time; dask: a Dask cluster (pip install"
        " 'guandan-dup[dask]'; RESULTS may be a folder of Parquet files, e.g. by round).",
    ),
    scheduler: str | None = typer.Option(
        None, "--scheduler",
        help="Address of a Dask scheduler (tcp://HOST:8786) for --engine dask; without it a"
        " local cluster on 127.0.0.1.",
    ),
) -> None:
    """Score results files: score rates per set, standings after every round, travellers."""
    from ..scoring import score_files
    from ..scoring.pool import one_malloc_arena

    one_malloc_arena()
    scored = score_files(
        results, out, expected=expected, compare_within=compare_within.value,
        boards_per_set=boards_per_set, three_failures_reset=three_failures_reset, seed=seed,
        show_progress=not quiet, engine=engine.value, scheduler=scheduler, keep=False,
    )
    for warning in scored.warnings:
        typer.echo(f"Warning: {warning}", err=True)
    rounds = sorted(set(scored.rounds))
    typer.echo(
        f"Scored {scored.written['travellers']} table results, {scored.written['scores']}"
        " player scores, "
        f"{numbered('round', rounds) or 'no round'}; wrote {out}/scores.parquet, "
        f"standings.parquet, travellers.parquet"
    )


def _check_destination(fmt: ReportFormat, out: Path | None) -> None:
    if out is None and fmt is ReportFormat.xlsx:
        raise GuandanError("--format xlsx writes a binary file: give --out FILE.xlsx")


def _emit(report: str | bytes, out: Path | None) -> None:
    """Write the report to ``out`` atomically, or print a text report."""
    from ..atomic import write_bytes, write_text

    if out is None:
        typer.echo(report, nl=False)
        return
    if isinstance(report, bytes):
        write_bytes(out, report)
    else:
        write_text(out, report)
    typer.echo(f"Wrote {out}", err=True)


def _is_event(directory: Path) -> bool:
    """Whether ``directory`` is an event folder (it has an event.toml), not a folder written
    by ``score --out``."""
    from ..event.folder import EVENT_TOML

    return (directory / EVENT_TOML).is_file()


def _latest(directory: Path, name: str, round_: int | None) -> int:
    """``round_``, or the last round of ``score --out``'s ``name`` file."""
    if round_ is not None:
        return round_
    from ..scoring import read_output

    rounds = read_output(directory, name)["round"]
    if rounds.empty:
        raise GuandanError(f"{directory}/{name}.parquet holds no round")
    return int(rounds.max())


SCORED_FOLDER = ("An event folder (with event.toml), or a folder written by 'guandan-dup score"
                 " --out'.")
ROUND_DEFAULT = " (default: the latest scored round)."


@app.command("standings")
def standings(
    directory: Path = typer.Argument(..., help=SCORED_FOLDER),
    round_: int | None = typer.Option(
        None, "--round", help="Show the standings after this round" + ROUND_DEFAULT),
    fmt: ReportFormat = typer.Option(
        ReportFormat.md, "--to", "--format", help="File format: csv, xlsx, md or html."
    ),
    out: Path | None = typer.Option(
        None, "--out", help="File to write (default: print; xlsx needs --out)."
    ),
    names: Path | None = typer.Option(
        None, "--names", help="csv or Parquet with columns player, name: adds a name column"
        " (an event folder names its players from its players file)."
    ),
    venue: str = typer.Option(
        "", "--venue", help="Only this venue's players, ranked within the venue."
    ),
) -> None:
    """The ranking table after a round: rank ("1=" for ties), player and name, sets, averages
    in %; a team event's team standings (场分, 级差分); a knockout's bracket and places."""
    _check_destination(fmt, out)
    if not _is_event(directory):
        from ..reports import standings_report

        round_ = _latest(directory, "standings", round_)
        _emit(standings_report(directory, round_, fmt.value, names, venue), out)
        return
    if names is not None:
        raise GuandanError(f"{directory} is an event folder: it names its players from its "
                           "players file, so leave out --names")
    from ..event.announce import event_standings
    from ..event.transaction import reading

    with reading(directory) as folder:
        _emit(event_standings(folder, round_, fmt.value, venue), out)


@app.command("travellers")
def travellers(
    directory: Path = typer.Argument(..., help=SCORED_FOLDER),
    round_: int | None = typer.Option(
        None, "--round", help="Round whose sets to show" + ROUND_DEFAULT),
    set_: int | None = typer.Option(None, "--set", help="Only this set (default: every set)."),
    fmt: ReportFormat = typer.Option(
        ReportFormat.md, "--to", "--format", help="File format: csv, xlsx, md or html."
    ),
    out: Path | None = typer.Option(
        None, "--out", help="File to write (default: print; xlsx needs --out)."
    ),
) -> None:
    """Per-set travellers: every table's result on a set with both directions' rates and the
    players' names; a team event's match results."""
    _check_destination(fmt, out)
    if not _is_event(directory):
        from ..reports import travellers_report

        round_ = _latest(directory, "travellers", round_)
        _emit(travellers_report(directory, round_, fmt.value, set_), out)
        return
    from ..event.announce import event_travellers
    from ..event.transaction import reading

    with reading(directory) as folder:
        _emit(event_travellers(folder, round_, fmt.value, set_), out)
