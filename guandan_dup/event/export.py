"""``event export``: the ranking and traveller tables of scored rounds, for posting.

The tables are rendered by ``reports.tables`` (bilingual headers, rates in percent, "1=",
hostile names neutralised); this module reads them from the event folder, keeps back what
may not be published yet and names the outputs ``exports/standings-round-R.FMT`` and
``exports/travellers-round-R.FMT`` (a team event: ``exports/team-standings-round-R.FMT``
and ``exports/match-results-round-R.FMT``). A set that some table has still to play is left
out of the travellers, as on the site (``publish.public_sets``): its traveller would tell
the late table how each direction did. The md and html files say which sets are left out.
Standings count every set of their round and the rounds before, so beside the public
travellers they would give a pending set's rates away: while they count one, a round's
standings (team standings and match results) are not exported at all. A knockout has no standings:
``exports/bracket.FMT`` and, after its last round, ``exports/places.FMT``, beside each
round's travellers.

The director's penalties and adjustments of a round (``event.decisions``: kind, article,
reason) go to ``exports/decisions-round-R.FMT``, and the standings list those of their
round and before; travellers show the levels a late arrival's set started at (art. 32).
A decision on a set left out of the travellers is left out too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import pandas as pd

from ..errors import GuandanError
from ..reports.tables import decisions_document, travellers_document
from ..wording import counted, event_command, numbered, plural, quoted, words
from .decisions import decisions
from .finality import final as final_rounds
from .folder import EventFolder
from .formats.team_matches import teams_of
from .ledger import effects, read_ledger
from .publish import counted_pending, public_sets
from .transaction import step

FORMATS = ("csv", "xlsx", "md", "html")
DEFAULT_FORMATS = ("csv", "xlsx", "html")


class Exported(NamedTuple):
    """The files written, per round the sets left out of its travellers (pending), the
    earlier files removed because they may show a set now pending, and per round whose
    standings are withheld the pending sets they would count (``standings_withheld``)."""

    paths: list[Path]
    withheld: dict[int, list[int]]
    removed: list[Path] = []
    standings_withheld: dict[int, list[int]] = {}

    def lines(self, exports_dir: Path) -> list[str]:
        """What ``event export`` (and the live console's export) tells the director: how
        many files, which were removed and which sets wait for tables still playing."""
        return [
            f"Wrote {counted(len(self.paths), 'file')} to {exports_dir}",
            *(f"Removed {path}: it may show a set still pending (kept in history/)"
              for path in self.removed),
            *(f"Round {r}: standings withheld: they count {numbered('set', sets)}, which not "
              "every table has played yet" for r, sets in self.standings_withheld.items()),
            *(f"Round {r}: {numbered('set', sets)} left out of the travellers: not every "
              f"table has played {plural('it', len(sets), 'them')} yet (ingest, score and "
              "export again)" for r, sets in self.withheld.items()),
        ]


def standings_files(folder: EventFolder, round_no: int) -> list[Path]:
    """The round's exports other than its travellers and decisions (standings, team
    standings, match results): every one counts the round's results, so all wait
    together."""
    others = (f"travellers-round-{round_no}.", f"decisions-round-{round_no}.")
    return sorted(p for fmt in FORMATS
                  for p in folder.exports_dir.glob(f"*-round-{round_no}.{fmt}")
                  if not p.name.startswith(others))


def withheld_note(round_no: int, sets: Sequence[int]) -> str:
    r"""The line an export carries for the pending sets it leaves out.

    >>> print(withheld_note(2, [4, 5]).replace(" · ", "\n"))
    第2轮 第4局、第5局 尚有桌次未完成，成绩单暂不公布
    Round 2, sets 4, 5: pending (not every table has played it), traveller not published yet
    """
    zh = "、".join(f"第{s}局" for s in sets)
    en = ", ".join(map(str, sets))
    return (
        f"第{round_no}轮 {zh} 尚有桌次未完成，成绩单暂不公布 · Round {round_no}, "
        f"{plural('set', len(sets))} {en}: pending (not every table has played it), "
        "traveller not published yet"
    )


@dataclass(frozen=True)
class ExportContext:
    """What every round's exports share: the players' (and teams') names, the director's
    decisions (``event.decisions``) and the line under the standings' title."""

    names: pd.Series
    decisions: pd.DataFrame
    team_names: pd.Series | None = None
    standings_note: str = ""

    def decisions_until(self, round_no: int) -> pd.DataFrame:
        return self.decisions[self.decisions["round"] <= round_no]


def team_names(folder: EventFolder) -> pd.Series | None:
    """Team number -> name in a team event, else ``None``."""
    if not folder.plan.event_format.by_team:
        return None
    teams = teams_of(folder)
    return pd.Series(teams["name"].to_numpy(), index=teams["team"].astype(int))


@step("event export")
def export_event(
    folder: EventFolder,
    round_no: int | None = None,
    formats: Sequence[str] = DEFAULT_FORMATS,
) -> Exported:
    """Write the exports of ``round_no`` (default: every scored round).

    Travellers hold public sets only (``publish.public_sets``: every table has played it
    or the ledger says it will not); a round none of whose sets is public gets no
    travellers file. A round with a pending set keeps only the travellers files written
    now: an earlier one (another format, or a round now entirely pending, as when a "will
    not play" is withdrawn) may show the set, so it is removed in the same step (kept in
    history/). Refused while a round's standings are older than its results
    (``check_up_to_date``). A round's standings (a team event's standings and match
    results) are withheld while they count a pending set, its own or an earlier round's
    (``counted_pending``): they are not written, and earlier ones are removed in the same
    step, as travellers are. Standings are provisional while their round is before its
    correction deadline (art. 48), and list the director's decisions with their reasons and
    articles; a round with decisions gets ``decisions-round-R`` files, travellers show late
    starts' levels.
    """
    folder.check_up_to_date("exporting")
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise GuandanError(f"unknown export {plural('format', len(unknown))} {quoted(unknown)}: "
                           f"expected {words(FORMATS, 'or')}, or all (a comma list: csv,md)")
    event_format = folder.plan.event_format
    scored = folder.rounds_scored()
    if round_no is not None and round_no not in scored:
        raise GuandanError(
            f"round {round_no!r} is not scored (scored: {numbered('round', scored) or 'none'}); "
            f"run `{event_command(folder.path, 'score', round_no)}` first"
        )
    if not scored and not event_format.exportable_unscored(folder):
        raise GuandanError("no round is scored yet, so there is nothing to export")
    players = folder.players().astype({"player": "str", "name": "str"})
    complete = public_sets(folder, scored)
    ledger = read_ledger(folder)
    decided, final = effects(folder, ledger), final_rounds(folder, ledger)
    posted = decisions(ledger, decided, complete)
    names, teams = players.set_index("player")["name"], team_names(folder)
    files = event_format.event_reports(folder, formats)
    withheld: dict[int, list[int]] = {}
    waiting = counted_pending(scored, folder.plan.sets_of_round, complete)
    remove: list[Path] = []
    for r in [round_no] if round_no is not None else scored:
        pending = [s for s in folder.plan.sets_of_round(r) if (r, s) not in complete]
        note = withheld_note(r, pending) if pending else ""
        context = ExportContext(names, posted, teams,
                                "暂定 · provisional" if r not in final else "")
        mine = posted[posted["round"] == r]
        travellers = folder.read(r, "travellers")  # a team event has none
        if travellers is not None:
            travellers = travellers[~travellers["set"].isin(pending)]
        if pending:
            withheld[r] = pending
        for fmt in formats:
            reports = ({} if r in waiting
                       else event_format.round_reports(folder, r, fmt, context))
            if travellers is not None and not travellers.empty:
                reports["travellers"] = travellers_document(travellers, r, fmt, note=note,
                                                            starts=decided.start_levels,
                                                            names=names)
            if len(mine):
                reports["decisions"] = decisions_document(mine, r, fmt, names, teams, note)
            for what, report in reports.items():
                data = report.encode("utf-8") if isinstance(report, str) else report
                files[folder.exports_dir / f"{what}-round-{r}.{fmt}"] = data
        if pending or not len(mine):  # an earlier file may show a decision now withdrawn
            remove += [folder.exports_dir / f"decisions-round-{r}.{fmt}" for fmt in FORMATS]
        if pending:
            remove += [folder.exports_dir / f"travellers-round-{r}.{fmt}" for fmt in FORMATS]
        if r in waiting:
            remove += standings_files(folder, r)
    removed = [p for p in remove if p not in files and p.exists()]
    folder.replace_files(files, remove=removed)
    shown = [round_no] if round_no is not None else scored
    return Exported(list(files), withheld, removed,
                    {r: sets for r, sets in waiting.items() if r in shown})
