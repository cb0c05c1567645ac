"""``event score``: score round R from the results of rounds 1..R.

Scores are cumulative, so every round's results are read; but only round R's files are
written (its scores, travellers, and the standings after it). Standings already published
for a later round are never silently invalidated: re-scoring an earlier round is refused
unless forced, and any file replaced goes to ``history/`` first.

Ties left after the averages are broken by the previous round's position (the round-1 order
for round 1) and then by a lot whose seed is derived from the event key.
"""

from __future__ import annotations

import io
from collections.abc import Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import GuandanError
from ..ledger import score_with_ledger
from ..lots import derive_seed
from ..reading import read_parquet
from ..results.schema import NORMALISED_DTYPES
from ..scoring import Scored
from ..wording import numbered, plural
from .commands import ingest_command, sheet_command
from .conflicts import refuse_start_conflicts
from .finality import first_scored, guard_final
from .folder import RESULTS_DIGEST, EventFolder, parquet_bytes
from .ledger import effects, event_context, read_ledger, scoring_metadata
from .stored_rows import compacted
from .transaction import step

LOT_LABEL = "standings tie-break lot"


def expected_tables(folder: EventFolder, last_round: int) -> dict:
    """Results expected over rounds 1..last_round (Neuberg's N): per set, or per (set, group)
    or (set, venue number) when the plan compares groups or venues apart."""
    plan = folder.plan
    per_round = {"event": plan.expected_tables, "group": plan.expected_tables_by_group,
                 "venue": plan.expected_tables_by_venue}[plan.compare_within]
    venues = plan.venue_numbers()
    expected: dict = {}
    for r in range(1, last_round + 1):
        seated = folder.seated_pairs(r)
        if len(seated) == len(plan.planned_array(r)):
            expected |= per_round(r)
            continue
        for t, s in seated.tolist():  # withdrawals (the ledger) left fewer tables than the plan has
            key = (s if plan.compare_within == "event" else (s, venues[t])
                   if plan.compare_within == "venue" else (s, plan.group_of_table(t)))
            expected[key] = expected.get(key, 0) + 1
    return expected


def check_scorable(folder: EventFolder, round_no: int, force: bool) -> None:
    """Refuse scoring a round without results, under later rounds scored from it, or
    while a stored result contradicts a late start of the ledger (``conflicts``)."""
    folder.plan.check_round(round_no)
    later = [r for r in folder.rounds_scored() if r > round_no]
    if later and not force:
        raise GuandanError(
            f"{numbered('round', later)} {plural('is', len(later), 'are')} already scored "
            f"from round {round_no}'s standings; "
            f"re-scoring round {round_no} alone would leave theirs out of date. Nothing was "
            "changed. Use --force to re-score anyway (the replaced files are kept in "
            "history/), then score the later rounds again"
        )
    if not folder.has_results(round_no):
        raise GuandanError(
            f"round {round_no} has no results yet: ingest them first (`"
            f"{ingest_command(folder.path, round_no)}`; `{sheet_command(folder.path, round_no)}`"
            " writes the sheet to fill in)"
        )
    refuse_start_conflicts(folder, round_no, effects(folder).start_levels)


@step("event score")
def score_round(
    folder: EventFolder, round_no: int, force: bool = False, override: bool = False,
    command: str = "",
):
    """Score ``round_no`` from the results of rounds 1..R and write its files; returns all
    rounds' scoring (``Scored``, a team event's ``TeamScored``, a knockout's
    ``KnockoutRound``), whose ``warnings`` the director is shown.

    The ledger's decisions are applied; the plan's format says what a round's scoring is
    (``event.formats``): score rates and standings, match results and team standings, or a
    knockout's decided bracket. Re-scoring a final round (art. 48) so that its outputs
    change needs ``override``, recorded in the ledger. Round R's results that the server
    appended as parts are written whole in the same step (``write_scored``).
    """
    check_scorable(folder, round_no, force)
    return folder.plan.event_format.score(folder, round_no, override, command)


def score_players(
    folder: EventFolder, round_no: int, override: bool = False, command: str = ""
) -> Scored:
    """Write rounds/R/{scores,travellers,standings}.parquet of an event reseated by
    standing (``players_scoring``)."""
    ledger = read_ledger(folder)
    with ThreadPoolExecutor(max_workers=3) as pool:  # Arrow writes without the GIL
        # what the standings record of their sources (the results' bytes, which the
        # server's parts make anew) beside the scoring
        sources = pool.submit(lambda: {RESULTS_DIGEST: folder.results_digest(round_no)}
                              | scoring_metadata(folder, round_no, ledger))
        scored = players_scoring(folder, round_no, ledger)
        frames = {
            "scores": scored.scores[scored.scores["round"] == round_no],
            "travellers": scored.travellers[scored.travellers["round"] == round_no],
            "standings": scored.standings[scored.standings["round"] == round_no],
        }
        tables = {n: pa.Table.from_pandas(f, preserve_index=False) for n, f in frames.items()}
        data = {n: pool.submit(parquet_bytes, t) for n, t in tables.items() if n != "standings"}
        standings = tables["standings"]
        data["standings"] = pool.submit(parquet_bytes, standings.replace_schema_metadata(
            (standings.schema.metadata or {}) | sources.result()))
        files = {folder.file(round_no, n): data[n].result() for n in tables}
    write_scored(folder, round_no, files, override, command)
    missing = folder.missing_results(round_no)
    if not missing:
        return scored
    where = ", ".join(f"table {t} set {s}" for t, s in missing)
    note = f"round {round_no} has no results for {where}; the others were Neuberg-adjusted"
    return replace(scored, warnings=[note, *scored.warnings])


def players_scoring(folder: EventFolder, round_no: int, ledger: pd.DataFrame,
                    counted: Collection[tuple[int, int]] | None = None) -> Scored:
    """Rounds 1..R of an event reseated by standing scored from the folder's results with
    the ``ledger`` applied (``ledger.score_with_ledger``), in memory; ``counted`` (round,
    set pairs) keeps only those sets (the live scoreboard's public ones), default all."""
    plan = folder.plan
    results = folder.read_rounds("results", range(1, round_no + 1))
    players = folder.players()
    scored = score_with_ledger(
        empty_results() if results is None else results,
        folder.read_rounds("seating", range(1, round_no + 1)),
        ledger,
        event_context(folder, ledger),
        expected_tables(folder, round_no),
        counted=counted,
        table_venues=plan.venue_numbers() if plan.compare_within == "venue" else None,
        compare_within=plan.compare_within,
        seed=derive_seed(folder.key(), LOT_LABEL),
        previous_positions=dict(zip(players["player"].tolist(), players["seed"].tolist(),
                                    strict=True)),
    )
    if "venue" not in players:
        return scored
    venue_of = players.set_index("player")["venue"]
    return replace(scored, standings=scored.standings.assign(
        venue=lambda t: t["player"].map(venue_of).astype("str")))


def empty_results() -> pd.DataFrame:
    """The normalised results table of a round with no result stored yet."""
    return pd.DataFrame({c: pd.Series(dtype=t) for c, t in NORMALISED_DTYPES.items()})


def write_scored(folder: EventFolder, round_no: int, files: dict[Path, bytes],
                 override: bool = False, command: str = "") -> None:
    """Write the files of a scoring of ``round_no``, in every format (standings, match
    results, a knockout's bracket and places): when they change an output already
    published of a round that is final, art. 48's guard (``guard_final``: refused without
    ``override``, else an override ledger row in the same step); files whose bytes are
    unchanged are not rewritten (nor set aside in history/ again); the first scoring's
    time (``first_scored``) goes in the same ``replace_files``, and so do the round's
    results written whole when the server appended parts (``stored_rows.compacted``: the
    standings record the hash of that file, by which ``event diff`` finds it again)."""
    if changes_outputs(files):
        files = files | guard_final(folder, round_no, override, command, "re-score it")
    written, parts = compacted(folder, round_no)
    files = {p: data for p, data in (files | written).items()
             if not (p.exists() and p.read_bytes() == data)}
    files |= first_scored(folder, round_no)  # art. 48's time, in the step of the first scoring
    if files or parts:
        folder.replace_files(files, remove=parts)


def changes_outputs(files: dict[Path, bytes]) -> bool:
    """Whether writing ``files`` (Parquet tables by path) changes a table already there:
    its columns or its rows, not the metadata that records what it was scored from (the
    ledger's last row id changes with any row). Scoring a round the first time changes
    nothing published."""
    for path, data in files.items():
        if path.suffix != ".parquet" or not path.exists():
            continue
        old = read_parquet(path, "event file").to_pandas()
        new = pq.read_table(io.BytesIO(data)).to_pandas()
        if list(old.columns) != list(new.columns) or not old.equals(
                new.reset_index(drop=True).astype(old.dtypes)):
            return True
    return False
