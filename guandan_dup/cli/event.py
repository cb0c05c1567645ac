"""CLI group ``event``: one command per step of a director's round loop on an event folder.

``event_app`` is exported so other modules (the results site) can add commands to the group.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from ..event import (
    commands,
    create_event,
    deal_round,
    event_status,
    export_event,
    ingest,
    reveal_key,
    score_round,
    seat_event_round,
)
from ..event.export import DEFAULT_FORMATS
from ..event.folder import EventFolder
from ..event.sheet import write_sheet
from ..event.transaction import DEFAULT_WAIT, reading, writing
from ..wording import event_command, pasteable, words
from .app import app
from .options import report_formats

event_app = typer.Typer(
    no_args_is_help=True,
    help="Run an event in a folder: init, deal, seat, sheet, print, ingest, score, export, "
    "status, reveal, site, ledger, diff.",
)
app.add_typer(event_app, name="event")

DIR = typer.Argument(..., help="The event folder.")
ROUND = typer.Option(..., "--round", help="Round number (1 = first).")
WAIT = typer.Option(
    DEFAULT_WAIT, "--wait", min=0, metavar="SECONDS",
    help="How long to wait while another command holds the folder's lock.",
)


DRY_RUN = typer.Option(
    False, "--dry-run", help="Check and report everything, write nothing (says which files "
    "would change).",
)


def tell_dry_run(folder: EventFolder) -> None:
    """After a dry run: that nothing was written, and what would have been."""
    if folder.planned is None:
        return
    changed = [p for p, data in folder.planned.files.items()
               if not (p.is_file() and p.read_bytes() == data)]
    typer.echo("Dry run: nothing was written." + (" It would write:" if changed else
                                                   " Nothing would change."))
    for path in sorted(changed):
        typer.echo(f"  {path.relative_to(folder.path)}")
    for path in sorted(folder.planned.removed):
        typer.echo(f"  {path.relative_to(folder.path)} (removed)")


def tell(message: str) -> None:
    """Tell the director on stderr (e.g. that the command waits for the folder's lock)."""
    typer.echo(message, err=True)


def locked_folder(directory: Path, command: str, wait: float):
    """``writing`` with the waiting message shown: how every writing command opens DIR."""
    return writing(directory, command, wait, notify=tell)


@event_app.command("init")
def init(
    directory: Path = DIR,
    players: Path | None = typer.Option(
        None, "--players",
        help="CSV or .xlsx with id, name[, seed][, pair] (teams: id, name, team); a team "
        "knockout with --seed-from takes that stage's players when it is left out.",
    ),
    tables_per_group: int | None = typer.Option(
        None, "--tables-per-group", help="Tables in a group (not for teams or a knockout)."
    ),
    sets_per_round: int | None = typer.Option(
        None, "--sets-per-round", help="Sets each round (not for teams or a knockout)."
    ),
    boards_per_set: int = typer.Option(..., "--boards-per-set", help="Boards in a set."),
    rounds: int | None = typer.Option(
        None, "--rounds", help="Rounds in the event (a knockout's follow from its entries)."
    ),
    kind: str = typer.Option("individual", "--kind", help="individual, pairs or teams."),
    fmt: str | None = typer.Option(
        None, "--format", help="Teams: swiss, round-robin or knockout; pairs: knockout."
    ),
    conversion: str | None = typer.Option(
        None, "--conversion",
        help="Team events: 级差分 table, linear (default), half, or a CSV or .xlsx file.",
    ),
    team_names: Path | None = typer.Option(
        None, "--team-names", "--teams",
        help="Team events: CSV or .xlsx with team, name naming the teams.",
    ),
    awards: str | None = typer.Option(
        None, "--awards",
        help="Team events: other awards of artificial matches, e.g. 'swiss_bye=1+15'.",
    ),
    seed_from: Path | None = typer.Option(
        None, "--seed-from", help="Team knockout: seed by a finished stage's final positions."
    ),
    top: int | None = typer.Option(
        None, "--top", help="Team knockout: how many of that stage's teams go through."
    ),
    force: bool = typer.Option(
        False, "--force", help="Team knockout: seed from a stage still in its correction "
        "time (art. 48)."
    ),
    name: str | None = typer.Option(None, "--name", help="Event name (default: folder name)."),
    seeding: Path | None = typer.Option(
        None, "--seeding",
        help="CSV or .xlsx with an id column (teams: a team column), best seed first (else a "
        "lot).",
    ),
    rotate_partners: bool = typer.Option(
        False, "--rotate-partners", help="Rotate partners within a round (ad-bc, ac-bd, ab-cd)."
    ),
    correction_minutes: int = typer.Option(
        30, "--correction-minutes",
        help="Art. 48: minutes after a round's end until its results are final.",
    ),
    compare_within: str = typer.Option(
        "event", "--compare-within",
        help="Compare a set's results over the event, each group or each venue.",
    ),
    wait: float = WAIT,
) -> None:
    """Create an event folder: plan, players, secret key; prints the commitment to publish."""
    folder = create_event(
        directory,
        players,
        tables_per_group,
        sets_per_round,
        boards_per_set,
        rounds,
        kind=kind,
        name=name,
        seeding=seeding,
        rotate_partners=rotate_partners,
        fmt=fmt,
        conversion=conversion,
        team_names=team_names,
        awards=awards,
        wait=wait,
        seed_from=seed_from,
        top=top,
        correction_minutes=correction_minutes,
        compare_within=compare_within,
        force=force,
    )
    typer.echo(folder.plan.event_format.created(folder.plan, str(directory)))
    typer.echo(f"Secret key: {folder.key_path} (owner-only; never share it before the end).")
    typer.echo(f"Commitment (publish this before round 1): {folder.commitment}")
    typer.echo(f"Next: {event_status(folder).next_step()}")


@event_app.command("deal")
def deal(
    directory: Path = DIR,
    round_no: int = ROUND,
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
    wait: float = WAIT,
) -> None:
    """Deal the boards of a round's sets; writes boards.parquet and hand-records.html."""
    with locked_folder(directory, "event deal", wait) as folder:
        paths = deal_round(folder, round_no, show_progress=not quiet)
    typer.echo("Wrote " + ", ".join(map(str, paths)))


@event_app.command("seat")
def seat(
    directory: Path = DIR,
    round_no: int = ROUND,
    lineups: Path | None = typer.Option(
        None, "--lineups",
        help="Team events: CSV or .xlsx with round, team, room, player_1, player_2 (default: "
        "each team's first four players).",
    ),
    no_cards: bool = typer.Option(
        False, "--no-cards",
        help="Write no table cards (an online platform seats its players itself; a million "
        "players' QR codes take a quarter of an hour). `event print DIR --round R --what "
        "table-cards` draws them later.",
    ),
    wait: float = WAIT,
) -> None:
    """Seat a round (round 1: seeding or lot; later: previous standings); prints table cards.

    A team event pairs its matches (Swiss or round robin) and seats both rooms.
    """
    with locked_folder(directory, "event seat", wait) as folder:
        seating = seat_event_round(folder, round_no, lineups, with_cards=not no_cards)
    typer.echo("\n".join(seating.summary()))
    print_cards = event_command(directory, "print", round_no, "--what", "table-cards")
    typer.echo(f"Table cards: none (--no-cards); `{print_cards}` draws them" if no_cards
               else f"Table cards: {folder.file(round_no, 'table-cards.html')}")


@event_app.command("sheet")
def sheet(
    directory: Path = DIR,
    round_no: int = ROUND,
    out: Path = typer.Option(..., "--out", help="The sheet to write: FILE.xlsx or FILE.csv."),
    boards: bool = typer.Option(
        False, "--boards", help="One row per table and board with an empty finish column "
        "(default: one per table and set with empty ns_level, ew_level)."
    ),
    wait: float = WAIT,
) -> None:
    """Write a round's results sheet to fill in: who sits where filled in, results empty."""
    with reading(directory, wait, notify=tell) as folder:
        written = write_sheet(folder, round_no, out, boards=boards)
    per = "table and board" if boards else "table and set"
    typer.echo(f"Wrote {written.path}: {written.rows} rows, one per {per} of round {round_no}.")
    columns = "finish" if boards else "ns_level and ew_level"
    typer.echo(f"Next: fill in {columns}, then "
               f"`{commands.ingest_command(directory, round_no, written.path)}`")


@event_app.command("ingest")
def ingest_command(
    directory: Path = DIR,
    file: Path = typer.Argument(
        ..., help="Results file (set- or board-level; Parquet, .csv or .xlsx)."
    ),
    round_no: int = ROUND,
    override: bool = typer.Option(
        False, "--override", help="Ingest into a final round (recorded in the ledger)."
    ),
    dry_run: bool = DRY_RUN,
    wait: float = WAIT,
) -> None:
    """Check a results file against the plan and seating and store it (corrections replace)."""
    with locked_folder(directory, "event ingest", wait) as folder:
        target = folder.dry_run() if dry_run else folder
        report = ingest(target, file, round_no, override=override,
                        command=f"{commands.ingest_command(directory, round_no, file)} --override")
    would = "would take" if dry_run else "took"
    if not report.changed:
        typer.echo(f"Round {round_no}: these {report.taken} set results are already stored.")
    else:
        replaced = f", replacing {report.replaced} (kept in history/)" if report.replaced else ""
        typer.echo(f"Round {round_no}: {would} {report.taken} set results{replaced}.")
    for warning in report.warnings:
        typer.echo(f"Warning: {warning}", err=True)
    missing = ", ".join(f"table {t} set {s}" for t, s in report.missing)
    typer.echo(f"Still missing: {missing}" if missing else "Every table of the round has results.")
    if missing and not dry_run:
        typer.echo(f"Next: {report.next_step(directory, file)}")
    tell_dry_run(target)


@event_app.command("score")
def score(
    directory: Path = DIR,
    round_no: int = ROUND,
    force: bool = typer.Option(
        False, "--force", help="Re-score although a later round is scored (history kept)."
    ),
    override: bool = typer.Option(
        False, "--override", help="Change a final round's standings (recorded in the ledger)."
    ),
    dry_run: bool = DRY_RUN,
    wait: float = WAIT,
) -> None:
    """Score a round from the results of rounds 1..R; writes its scores and standings.

    A team event writes match results (场分, 级差分) and team standings (art. 49); a knockout
    decides its matches in bracket.parquet, and writes places.parquet after the last round.
    With --dry-run (e.g. before --override on a final round) it says what would change.
    """
    with locked_folder(directory, "event score", wait) as folder:
        target = folder.dry_run() if dry_run else folder
        scored = score_round(target, round_no, force=force, override=override,
                             command=f"guandan-dup event score {directory} --round {round_no}"
                                     f"{' --force' if force else ''} --override")
    for warning in scored.warnings:
        typer.echo(f"Warning: {warning}", err=True)
    typer.echo("\n".join(folder.plan.event_format.score_lines(folder, scored, round_no)))
    tell_dry_run(target)


@event_app.command("export")
def export(
    directory: Path = DIR,
    round_no: int | None = typer.Option(
        None, "--round", help="Only this round (default: every scored round)."
    ),
    formats: list[str] = typer.Option(
        list(DEFAULT_FORMATS), "--to", "--format", callback=report_formats,
        help="File formats: csv, xlsx, md, html or all (a comma list, or repeat the option).",
    ),
    wait: float = WAIT,
) -> None:
    """Write ranking tables and travellers to DIR/exports/ (refused while standings are stale)."""
    with locked_folder(directory, "event export", wait) as folder:
        exported = export_event(folder, round_no, formats)
    typer.echo("\n".join(exported.lines(folder.exports_dir)))


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


@event_app.command("status")
def status(directory: Path = DIR, wait: float = WAIT) -> None:
    """Show what is done and what is missing in every round, and the next step."""
    with reading(directory, wait, notify=tell) as folder:
        state = event_status(folder)
    table = Table(title=f"{state.name} ({state.kind})")
    for column in ("round", "sets", "dealt", "seated", "results", "missing", "scored"):
        table.add_column(column)
    for r in state.rounds:
        table.add_row(
            str(r.round),
            words(r.sets),
            r.dealt_words(),
            _yes(r.seated),
            f"{r.expected_results - len(r.missing)}/{r.expected_results}" if r.seated else "-",
            r.missing_words(),
            ("out of date" if r.out_of_date else _yes(r.scored))
            + (" (final)" if r.final else " (provisional)" if r.scored else ""),
        )
    console = Console(width=120)
    console.print(table)
    lines = (*state.notes, *state.releases, *state.tokens,
             f"Commitment: {state.commitment}; key revealed: {_yes(state.key_revealed)}",
             f"Next: {state.next_step()}")
    for line in lines:  # whole lines: a command to paste is never broken
        console.print(line, soft_wrap=True, markup=False, highlight=False)


@event_app.command("reveal")
def reveal(
    directory: Path = DIR,
    abandoned: str | None = typer.Option(
        None, "--abandoned", metavar="REASON",
        help="Reveal although sets are unplayed: the event was abandoned (reason is recorded).",
    ),
    force: bool = typer.Option(
        False, "--force", help="Older spelling of --abandoned, recorded without a reason."
    ),
    wait: float = WAIT,
) -> None:
    """After the event: mark the key as published (the site may then show it)."""
    with locked_folder(directory, "event reveal", wait):
        folder = reveal_key(directory, force=force, abandoned=abandoned)
    typer.echo(f"Marked the key as revealed in {folder.path / 'event.toml'}.")
    typer.echo(f"Publish the key file {folder.key_path} (e.g. beside the results site) so that")
    typer.echo("anyone can check the boards: guandan-dup deal verify --key "
               f"{pasteable(folder.key_path)} {pasteable(folder.file(1, 'boards'))}")
