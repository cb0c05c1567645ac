"""``event export``: the ranking and traveller tables of scored rounds, for posting.

The tables themselves are ``reports.tables``'s (bilingual headers, rates in percent, "1=");
this module only points them at the event folder's files and names the outputs
``exports/standings-round-R.FMT`` and ``exports/travellers-round-R.FMT`` (a team event:
``exports/team-standings-round-R.FMT`` and ``exports/match-results-round-R.FMT``). A
knockout has no standings: ``exports/bracket.FMT`` and, after its last round,
``exports/places.FMT``, beside each round's travellers.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..errors import GuandanError
from ..reports.knockout import bracket_report, places_report
from ..reports.tables import standings_report, travellers_report
from .folder import EventFolder
from .knockout_tables import bracket_view, places_view
from .teams import team_round_reports

FORMATS = ("csv", "xlsx", "md", "html")
DEFAULT_FORMATS = ("csv", "xlsx", "html")


def export_event(
    folder: EventFolder, round_no: int | None = None, formats: Sequence[str] = DEFAULT_FORMATS
) -> list[Path]:
    """Write the exports of ``round_no`` (default: every scored round); returns their paths."""
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise GuandanError(f"unknown export format(s) {unknown!r}: expected {', '.join(FORMATS)}")
    scored = folder.rounds_scored()
    if round_no is not None and round_no not in scored:
        raise GuandanError(
            f"round {round_no!r} is not scored (scored rounds: {scored or 'none'}); "
            f"run `guandan-dup event score DIR --round {round_no}` first"
        )
    if not scored:
        raise GuandanError("no round is scored yet, so there is nothing to export")
    names = folder.path / "players.parquet"
    files: dict[Path, bytes] = {}
    if folder.plan.format == "knockout":
        files = knockout_exports(folder, formats)
    for r in [round_no] if round_no is not None else scored:
        for fmt in formats:
            if folder.plan.format == "knockout":
                reports = knockout_round_reports(folder, r, fmt)
            elif folder.plan.kind == "teams":
                reports = team_round_reports(folder, r, fmt)
            else:
                reports = {
                    "standings": standings_report(folder.round_dir(r), r, fmt, names=names),
                    "travellers": travellers_report(folder.round_dir(r), r, fmt),
                }
            for what, report in reports.items():
                data = report.encode("utf-8") if isinstance(report, str) else report
                files[folder.exports_dir / f"{what}-round-{r}.{fmt}"] = data
    folder.replace_files(files)
    return list(files)


def knockout_exports(folder: EventFolder, formats: Sequence[str]) -> dict[Path, bytes]:
    """A knockout's bracket (every seated round) and, once decided, its final places."""
    view = bracket_view(folder)
    places = places_view(folder)
    title = folder.plan.name
    files: dict[Path, bytes] = {}
    for fmt in formats:
        kind = folder.plan.kind
        reports = {"bracket": bracket_report(view, fmt, title, kind)}
        if places is not None:
            reports["places"] = places_report(places, fmt, title, kind)
        for what, report in reports.items():
            data = report.encode("utf-8") if isinstance(report, str) else report
            files[folder.exports_dir / f"{what}.{fmt}"] = data
    return files


def knockout_round_reports(folder: EventFolder, round_no: int, fmt: str) -> dict:
    """A knockout round's travellers: every table compared on the round's deals."""
    return {"travellers": travellers_report(folder.round_dir(round_no), round_no, fmt)}
