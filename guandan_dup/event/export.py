"""``event export``: the ranking and traveller tables of scored rounds, for posting.

The tables are rendered by ``reports.tables`` (bilingual headers, rates in percent, "1=",
hostile names neutralised); this module reads them from the event folder, keeps back what
may not be published yet and names the outputs ``exports/standings-round-R.FMT`` and
``exports/travellers-round-R.FMT`` (a team event: ``exports/team-standings-round-R.FMT``
and ``exports/match-results-round-R.FMT``). A set that some table has still to play is left
out of the travellers, as on the site (``publish.complete_sets``): its traveller would tell
the late table how each direction did. The md and html files say which sets are left out
and mark standings that count them as provisional. A knockout has no standings:
``exports/bracket.FMT`` and, after its last round, ``exports/places.FMT``, beside each
round's travellers.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path
from typing import NamedTuple

from ..errors import GuandanError
from ..reports.knockout import bracket_report, places_report
from ..reports.tables import standings_document, travellers_document
from .folder import EventFolder
from .knockout_tables import bracket_view, places_view
from .ledger import effects, read_ledger, will_not_play_rows
from .ledger import final as final_rounds
from .publish import Row, event_complete_sets
from .teams import team_round_reports
from .transaction import step

FORMATS = ("csv", "xlsx", "md", "html")
DEFAULT_FORMATS = ("csv", "xlsx", "html")


class Exported(NamedTuple):
    """The files written, per round the sets left out of its travellers (pending), and the
    earlier travellers files removed because they may show a set now pending."""

    paths: list[Path]
    withheld: dict[int, list[int]]
    removed: list[Path] = []


def withheld_note(round_no: int, sets: Sequence[int]) -> str:
    r"""The line an export carries for the pending sets it leaves out.

    >>> print(withheld_note(2, [4, 5]).replace(" · ", "\n"))
    第2轮 第4局、第5局 尚有桌次未完成，记分表暂不公布
    Round 2, sets 4, 5: pending (not every table has played it), traveller not published yet
    """
    zh = "、".join(f"第{s}局" for s in sets)
    en = ", ".join(map(str, sets))
    return (
        f"第{round_no}轮 {zh} 尚有桌次未完成，记分表暂不公布 · Round {round_no}, "
        f"set{'s' if len(sets) > 1 else ''} {en}: pending (not every table has played it), "
        "traveller not published yet"
    )


@step("event export")
def export_event(
    folder: EventFolder,
    round_no: int | None = None,
    formats: Sequence[str] = DEFAULT_FORMATS,
    will_not_play: Collection[Row] | None = None,
) -> Exported:
    """Write the exports of ``round_no`` (default: every scored round).

    Travellers hold complete sets only (``will_not_play``: rows declared never to come, as
    in ``publish.complete_sets``; default: the ledger's); a round none of whose sets is
    complete gets no travellers file. A round with a pending set keeps only the travellers
    files written now: an earlier one (another format, or a round now entirely pending, as
    when a "will not play" is withdrawn) may show the set, so it is removed in the same step
    (kept in history/). Refused while a round's standings are older than its results
    (``check_up_to_date``). Standings are provisional while they count a pending set or
    their round is before its correction deadline (art. 48), and list the ledger's
    penalties with their reasons and articles.
    """
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
    drawn = folder.plan.format == "knockout" and folder.read(1, "bracket") is not None
    if not scored and not drawn:  # a knockout's draw is worth posting before play
        raise GuandanError("no round is scored yet, so there is nothing to export")
    players = folder.players().astype({"player": "str", "name": "str"})
    names = players.set_index("player")["name"]
    if will_not_play is None:
        will_not_play = will_not_play_rows(folder)
    complete = event_complete_sets(folder, scored, will_not_play)
    ledger = read_ledger(folder)
    decided, final = effects(folder, ledger), final_rounds(folder, ledger)
    penalties = decided.penalties
    files: dict[Path, bytes] = {}
    withheld: dict[int, list[int]] = {}
    if folder.plan.format == "knockout":
        files = knockout_exports(folder, formats)
    remove: list[Path] = []
    for r in [round_no] if round_no is not None else scored:
        pending = [s for s in folder.plan.sets_of_round(r) if (r, s) not in complete]
        earlier = [(q, s) for q in scored if q < r for s in folder.plan.sets_of_round(q)]
        provisional = (pending or any(pair not in complete for pair in earlier)
                       or r not in final)
        note = withheld_note(r, pending) if pending else ""
        standings_note = "暂定 · provisional" if provisional else ""
        travellers = folder.read(r, "travellers")  # a team event has none
        if travellers is not None:
            travellers = travellers[~travellers["set"].isin(pending)]
        if pending:
            withheld[r] = pending
        for fmt in formats:
            if folder.plan.format == "knockout":
                reports = {}  # no standings: the bracket and the places say who stands where
            elif folder.plan.kind == "teams":
                reports = team_round_reports(folder, r, fmt, decided.team_penalties)
            else:
                reports = {"standings": standings_document(
                    folder.read(r, "standings"), r, fmt, names, standings_note,
                    penalties[penalties["round"] <= r],
                )}
            if travellers is not None and not travellers.empty:
                reports["travellers"] = travellers_document(travellers, r, fmt, note=note)
            for what, report in reports.items():
                data = report.encode("utf-8") if isinstance(report, str) else report
                files[folder.exports_dir / f"{what}-round-{r}.{fmt}"] = data
        if pending:
            remove += [folder.exports_dir / f"travellers-round-{r}.{fmt}" for fmt in FORMATS]
    removed = [p for p in remove if p not in files and p.exists()]
    folder.replace_files(files, remove=removed)
    return Exported(list(files), withheld, removed)


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
