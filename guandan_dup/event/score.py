"""``event score``: score round R from the results of rounds 1..R.

Scores are cumulative, so every round's results are read; but only round R's files are
written (its scores, travellers, and the standings after it). Standings already published
for a later round are never silently invalidated: re-scoring an earlier round is refused
unless forced, and any file replaced goes to ``history/`` first.

Ties left after the averages are broken by the previous round's position (the round-1 order
for round 1) and then by a lot whose seed is derived from the event key.
"""

from __future__ import annotations

from dataclasses import replace

import pyarrow as pa

from ..errors import GuandanError
from ..movement import derive_seed
from ..scoring import Scored, score
from . import knockout
from .folder import RESULTS_DIGEST, EventFolder, parquet_bytes
from .teams import TeamScored, score_team_round
from .transaction import step

LOT_LABEL = "standings tie-break lot"


def expected_tables(folder: EventFolder, last_round: int) -> dict:
    """Results expected over rounds 1..last_round (Neuberg's N): per set, or per (set, group)
    when the plan compares groups apart."""
    plan = folder.plan
    per_round = (
        plan.expected_tables if plan.compare_within == "event" else plan.expected_tables_by_group
    )
    expected: dict = {}
    for r in range(1, last_round + 1):
        expected |= per_round(r)
    return expected


def check_scorable(folder: EventFolder, round_no: int, force: bool) -> None:
    """Refuse scoring a round without results, or under later rounds scored from it."""
    folder.plan.check_round(round_no)
    later = [r for r in folder.rounds_scored() if r > round_no]
    if later and not force:
        raise GuandanError(
            f"round(s) {later} are already scored from round {round_no}'s standings; "
            f"re-scoring round {round_no} alone would leave theirs out of date. Nothing was "
            "changed. Use --force to re-score anyway (the replaced files are kept in "
            "history/), then score the later rounds again"
        )
    if folder.read(round_no, "results") is None:
        raise GuandanError(
            f"round {round_no} has no results yet: run `guandan-dup event ingest DIR FILE "
            f"--round {round_no}` first"
        )


@step("event score")
def score_round(
    folder: EventFolder, round_no: int, force: bool = False
) -> Scored | TeamScored | knockout.KnockoutRound:
    """Write rounds/R/{scores,travellers,standings}.parquet; returns all rounds' scoring.

    A team event writes its match results and team standings instead (``event.teams``); a
    knockout's round is handed to ``event.knockout`` (its bracket is completed).
    """
    check_scorable(folder, round_no, force)
    plan = folder.plan
    if plan.format == "knockout":
        return knockout.score_round(folder, round_no)
    if plan.kind == "teams":
        return score_team_round(folder, round_no)
    results = folder.read_rounds("results", range(1, round_no + 1))
    players = folder.players()
    scored = score(
        results,
        expected_tables(folder, round_no),
        compare_within=plan.compare_within,
        seed=derive_seed(folder.key(), LOT_LABEL),
        previous_positions=dict(zip(players["player"], players["seed"], strict=True)),
    )
    frames = {
        "scores": scored.scores[scored.scores["round"] == round_no],
        "travellers": scored.travellers[scored.travellers["round"] == round_no],
        "standings": scored.standings[scored.standings["round"] == round_no],
    }
    tables = {n: pa.Table.from_pandas(f, preserve_index=False) for n, f in frames.items()}
    standings = tables["standings"]
    tables["standings"] = standings.replace_schema_metadata(
        (standings.schema.metadata or {}) | {RESULTS_DIGEST: folder.results_digest(round_no)}
    )
    folder.replace_files({folder.file(round_no, n): parquet_bytes(t) for n, t in tables.items()})
    missing = folder.missing_results(round_no)
    if not missing:
        return scored
    where = ", ".join(f"table {t} set {s}" for t, s in missing)
    note = f"round {round_no} has no results for {where}; the others were Neuberg-adjusted"
    return replace(scored, warnings=[note, *scored.warnings])
