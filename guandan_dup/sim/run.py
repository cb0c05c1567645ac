"""Rehearsals chosen from a command's options, and what to tell the director about them.

``simulate_event`` picks an individual event, a team event or a knockout from the counts it
is given (the ``simulate`` command's options) and refuses a combination that names none or
two; ``demo_event`` runs the small event of ``demo``. Both play with bots
(``sim.event.simulate``, ``simulate_teams``, ``sim.knockout.simulate_knockout``) and return the
rehearsal with the lines (and for the demo, the final standings table) a command prints.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rich.table import Table

from ..errors import GuandanError
from ..event.rehearse import Rehearsal
from ..reports.terminal import standings_table, team_standings_table
from .event import simulate, simulate_teams
from .knockout import simulate_knockout

DEMO_PLAYERS = 32
"""Players of the individual demo unless ``players`` says otherwise."""
DEMO_TEAMS = 8
"""Teams (of 4) of the team demo, a Swiss."""
DEMO_KINDS = ("individual", "teams")


@dataclass(frozen=True)
class Simulation:
    """A rehearsal and the summary lines that say what it played and who leads."""

    rehearsal: Rehearsal
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Demo:
    """The demo's rehearsal, its final standings as a terminal table, and the lines after it."""

    rehearsal: Rehearsal
    table: Table
    lines: tuple[str, ...]


def simulate_event(
    out: str | os.PathLike,
    *,
    players: int | None = None,
    teams: int | None = None,
    pairs: int | None = None,
    knockout: str | None = None,
    fmt: str = "swiss",
    rounds: int | None = None,
    sets_per_round: int = 2,
    boards_per_set: int = 4,
    seed: int = 0,
    tables_per_group: int = 4,
    show_progress: bool = False,
) -> Simulation:
    """Rehearse in ``out`` (new or empty), bots playing: a knockout of ``pairs`` pairs or
    ``teams`` teams when ``knockout`` is ``"pairs"`` or ``"teams"``; else ``rounds`` rounds of
    an individual event of ``players`` players, or of a team event (``fmt``: swiss or
    round-robin) of ``teams`` teams. ``GuandanError`` unless exactly one of ``players`` and
    ``teams`` is given with ``rounds`` (or a knockout with its count)."""
    if knockout is not None:
        entries = teams if knockout == "teams" else pairs
        rehearsal = simulate_knockout(out, entries, boards_per_set, seed, show_progress,
                                      kind=knockout)
        winner = rehearsal.standings.iloc[0]
        return Simulation(rehearsal, (
            f"Simulated a knockout of {entries} {knockout} in {out}: "
            f"{rehearsal.folder.plan.rounds} rounds; winner {winner['side']} "
            f"({winner['name']}); places in {out}/places.parquet",
        ))
    if (players is None) == (teams is None) or rounds is None:
        raise GuandanError("give either --players (an individual event) or --teams, and "
                           "--rounds (or --knockout pairs --pairs N)")
    if teams is not None:
        rehearsal = simulate_teams(out, teams, rounds, boards_per_set, fmt, seed, show_progress)
        leader = rehearsal.standings.sort_values("position").iloc[0]
        return Simulation(rehearsal, (
            f"Simulated {rounds} round(s) of {teams} teams ({fmt}) in {out}",
            f"Leader after round {rounds}: team {leader['team']} ({leader['name']}), "
            f"{leader['match_points']:g} 场分, {leader['level_points']:.2f} 级差分",
        ))
    rehearsal = simulate(out, players, rounds, sets_per_round, boards_per_set, seed,
                         tables_per_group=tables_per_group, show_progress=show_progress)
    leader = rehearsal.standings.sort_values("position").iloc[0]
    return Simulation(rehearsal, (
        f"Simulated {rounds} round(s) of {players} players in {out}",
        f"Results and play logs: {out}/results-round-R.parquet, "
        f"playlog-round-R.parquet (R = 1..{rounds})",
        f"Leader after round {rounds}: {leader['player']} ({leader['name']}), "
        f"{leader['cumulative'] * 100:.2f}%",
    ))


def demo_event(
    out: str | os.PathLike | None = None,
    *,
    kind: str = "individual",
    players: int | None = None,
    rounds: int = 3,
    seed: int = 0,
    show_progress: bool = False,
) -> Demo:
    """Rehearse the demo in ``out`` (default: a new temporary folder): ``players`` players
    (default ``DEMO_PLAYERS``) of an individual event, or (``kind="teams"``) a Swiss of
    ``DEMO_TEAMS`` teams of 4, which takes no ``players``."""
    if kind not in DEMO_KINDS:
        raise GuandanError(f"demo kind {kind!r}: expected {' or '.join(DEMO_KINDS)}")
    if kind == "teams" and players is not None:
        raise GuandanError("demo --teams plays 8 teams of 4 players: --players is for the "
                           "individual demo (see `guandan-dup simulate --teams N`)")
    path = Path(out) if out is not None else Path(tempfile.mkdtemp(prefix="guandan-dup-demo-"))
    folder_lines = (f"Event folder: {path}",)
    if kind == "teams":
        rehearsal = simulate_teams(path, DEMO_TEAMS, rounds, seed=seed,
                                   show_progress=show_progress)
        plan = rehearsal.folder.plan
        table = team_standings_table(rehearsal.standings, plan.name, plan.options.conversion,
                                     rounds)
        return Demo(rehearsal, table,
                    (*folder_lines, f"Exports: {rehearsal.exports[0].parent}"))
    rehearsal = simulate(path, players=DEMO_PLAYERS if players is None else players,
                         rounds=rounds, seed=seed, show_progress=show_progress)
    table = standings_table(rehearsal.standings, rehearsal.folder.plan.name, rounds)
    return Demo(rehearsal, table, (
        "Every board was played card by card by heuristic bots; results and play logs are "
        "in results-round-R.parquet and playlog-round-R.parquet (check a log, in the event "
        "folder, with `guandan-dup playlog validate playlog-round-1.parquet --boards "
        "rounds/1/boards.parquet`).",
        *folder_lines,
        f"Exports: {rehearsal.exports[0].parent}",
    ))
