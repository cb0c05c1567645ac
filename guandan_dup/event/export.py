"""``event export``: the ranking and traveller tables of scored rounds, for posting.

The tables themselves are ``reports.tables``'s (bilingual headers, rates in percent, "1=");
this module only points them at the event folder's files and names the outputs
``exports/standings-round-R.FMT`` and ``exports/travellers-round-R.FMT``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..errors import GuandanError
from ..reports.tables import standings_report, travellers_report
from .folder import EventFolder
from .transaction import step

FORMATS = ("csv", "xlsx", "md", "html")
DEFAULT_FORMATS = ("csv", "xlsx", "html")


@step("event export")
def export_event(
    folder: EventFolder, round_no: int | None = None, formats: Sequence[str] = DEFAULT_FORMATS
) -> list[Path]:
    """Write the exports of ``round_no`` (default: every scored round); returns their paths.

    Refused while a round's standings are older than its results (``check_up_to_date``)."""
    folder.check_up_to_date("exporting")
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
    for r in [round_no] if round_no is not None else scored:
        for fmt in formats:
            reports = {
                "standings": standings_report(folder.round_dir(r), r, fmt, names=names),
                "travellers": travellers_report(folder.round_dir(r), r, fmt),
            }
            for what, report in reports.items():
                data = report.encode("utf-8") if isinstance(report, str) else report
                files[folder.exports_dir / f"{what}-round-{r}.{fmt}"] = data
    folder.replace_files(files)
    return list(files)
