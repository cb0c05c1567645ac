"""Rehearsals chosen from a command's options, and what to tell the director about them.

``simulate_event`` picks an individual event, a team event or a knockout from the counts it
is given (the ``simulate`` command's options) and refuses a combination that names none or
two; ``simulate_rounds`` has the bots play chosen rounds of an existing event folder (its
players, plan and format: ``simulate --event``); ``demo_event`` runs the small event of
``demo``. Both play with bots
(``sim.event.simulate``, ``simulate_teams``, ``sim.knockout.simulate_knockout``) and return the
rehearsal with the lines (and for the demo, the final standings table) a command prints.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.table import Table

from ..errors import GuandanError
from ..event.formats.knockout import Knockout
from ..event.people import people_of
from ..event.rehearse import Rehearsal, play_rounds
from ..event.transaction import writing
from ..reports.terminal import standings_table, team_standings_table
from ..wording import counted, pasteable, plural, spans, words
from .event import (
    BotPlay,
    asked_rounds,
    check_playable,
    rounds_text,
    simulate,
    simulate_teams,
)
from .knockout import KnockoutBotPlay, simulate_knockout

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


DEMO_FOLDER = "guandan-dup-demo"
"""The demo's folder in the current folder unless ``--dir`` says otherwise."""


@dataclass(frozen=True)
class Demo:
    """The demo's rehearsal, its final standings as a terminal table, the lines after it
    (where the folder is, what to try next) and ``details``: what ``--verbose`` adds (where
    the bots' play logs are and how to check one)."""

    rehearsal: Rehearsal
    table: Table
    lines: tuple[str, ...]
    details: tuple[str, ...] = ()


def simulate_event(
    out: str | os.PathLike | None,
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
    ``teams`` is given with ``rounds`` (or a knockout with its count), and ``out``."""
    if out is None:
        raise GuandanError("give --out DIR, a new folder for the simulated event (or --event "
                           "DIR to play rounds of an existing event)")
    if knockout is not None:
        entries = teams if knockout == "teams" else pairs
        rehearsal = simulate_knockout(out, entries, boards_per_set, seed, show_progress,
                                      kind=knockout)
        winner = side_caption(rehearsal.folder, rehearsal.standings.iloc[0]["side"])
        return Simulation(rehearsal, (
            f"Simulated a knockout of {entries} {knockout} in {out}: "
            f"{counted(rehearsal.folder.plan.rounds, 'round')}; winner {winner}; places in "
            f"{out}/places.parquet",
        ))
    if (players is None) == (teams is None) or rounds is None:
        raise GuandanError("give either --players (an individual event) or --teams, and "
                           "--rounds (or --knockout pairs --pairs N)")
    if teams is not None:
        rehearsal = simulate_teams(out, teams, rounds, boards_per_set, fmt, seed, show_progress)
        return Simulation(rehearsal, (
            f"Simulated {counted(rounds, 'round')} of {teams} teams ({fmt}) in {out}",
            leader_line(rehearsal, rounds),
        ))
    rehearsal = simulate(out, players, rounds, sets_per_round, boards_per_set, seed,
                         tables_per_group=tables_per_group, show_progress=show_progress)
    return Simulation(rehearsal, (
        f"Simulated {counted(rounds, 'round')} of {players} players in {out}",
        logs_line(out, range(1, rounds + 1)),
        leader_line(rehearsal, rounds),
    ))


def whole_rounds(text: str | None) -> int | None:
    """``--rounds`` of a new event: a number of rounds (a range is for ``--event``)."""
    if text is None or text.strip().isdigit():
        return None if text is None else int(text)
    raise GuandanError(f"--rounds {text!r}: a new event plays rounds 1 to N, give --rounds N "
                       "(a round or a range of rounds, such as 2-3, is for --event DIR)")


def check_event_options(given: Sequence[str]) -> None:
    """Refuse the options that shape a new event beside ``--event`` (``given``: those the
    command line gave): an existing event has its own players, plan and folder."""
    if given:
        raise GuandanError(f"--event plays rounds of an existing event, with its own players "
                           f"and plan, in its own folder: leave out {words(given)}")


def simulate_rounds(
    event: str | os.PathLike,
    rounds: str | None = None,
    *,
    seed: int = 0,
    force: bool = False,
    show_progress: bool = False,
) -> Simulation:
    """Bots play ``rounds`` ("2" or "2-3"; default: every round left) of the existing event
    folder ``event`` through its own deal, seat, ingest and score steps (a knockout's level
    matches on extra boards), then export; refused as ``sim.event.check_playable`` says.
    The director's rehearsal of the day, on a copy of the event's folder."""
    with writing(event, "simulate") as folder:
        asked = asked_rounds(rounds, folder)
        check_playable(folder, asked, force)
        knockout = isinstance(folder.plan.event_format, Knockout)
        play = KnockoutBotPlay(seed) if knockout else BotPlay(seed)
        exports = play_rounds(folder, asked, play, show_progress)
        standings = (folder.plan.event_format.final_standings(folder)
                     if knockout or asked[-1] == folder.plan.rounds
                     else folder.read(asked[-1], folder.standings_name))
    rehearsal = Rehearsal(folder, standings, exports)
    plan, where = folder.plan, pasteable(str(event))
    left = range(asked[-1] + 1, plan.rounds + 1)
    play_on = (f"guandan-dup simulate --event {where} --rounds {rounds_text(left)} (the "
               f"{plural('round', len(left))} left); " if left else "")
    return Simulation(rehearsal, (
        f"Simulated {spans('round', asked)} of {plan.name!r} "
        f"({plan.event_format.title}, {len(folder.players())} players) in {event}",
        logs_line(event, asked),
        leader_line(rehearsal, asked[-1]),
        f"Exports: {exports[0].parent}",
        "The results are the bots': the folder also holds the event's key and real deals, "
        "so keep it to yourself and run the day itself in the event's own folder",
        f"Next: {play_on}guandan-dup event status {where}; guandan-dup event site {where} (the "
        "site as players will see it)",
    ))


def logs_line(out: str | os.PathLike, rounds: range) -> str:
    """Where the bots' results and play logs of ``rounds`` are, file by file."""
    first, last = rounds[0], rounds[-1]
    if first == last:
        return (f"Results and play log: {out}/results-round-{first}.parquet, "
                f"{out}/playlog-round-{first}.parquet")
    return (f"Results and play logs of rounds {first} to {last}: "
            f"{out}/results-round-{first}.parquet to results-round-{last}.parquet, "
            f"playlog-round-{first}.parquet to playlog-round-{last}.parquet")


def side_caption(folder, side) -> str:
    """A knockout's side read out: "D009 何军 / 高平", "team 3 南京队"."""
    return folder.plan.event_format.side_captions(folder).get(str(side), str(side))


def leader_line(rehearsal: Rehearsal, last: int) -> str:
    """Who leads after round ``last`` (a knockout: who won, or where its bracket stands),
    named as ``event score`` names them ("P018 高平", "team 7 无锡队")."""
    folder, standings = rehearsal.folder, rehearsal.standings
    event_format = folder.plan.event_format
    if isinstance(event_format, Knockout):
        if standings is None:
            return f"Bracket after round {last}: {folder.exports_dir}/bracket.html (.csv, .xlsx)"
        return (f"Winner: {side_caption(folder, standings.iloc[0]['side'])}; places in "
                f"{folder.path}/places.parquet")
    leader = standings.sort_values("position").iloc[0]
    people = people_of(folder)
    if event_format.by_team:
        return (f"Leader after round {last}: {people.team(leader['team'])}, "
                f"{leader['match_points']:g} 场分, {leader['level_points']:.2f} 级差分")
    return (f"Leader after round {last}: {people.player(leader['player'])}, "
            f"{leader['cumulative'] * 100:.2f}%")


def demo_folder(here: Path) -> tuple[Path, str]:
    """Where a demo without ``--dir`` goes: ``guandan-dup-demo`` in ``here``, or, when an
    earlier demo (or anything else) is there, the first free ``guandan-dup-demo-N``, so
    running the demo again never touches an earlier one; and the line saying so."""
    if not (here / DEMO_FOLDER).exists():
        return here / DEMO_FOLDER, ""
    n = 2
    while (here / f"{DEMO_FOLDER}-{n}").exists():
        n += 1
    joined = " and " if n == 3 else " to "
    taken = f"{DEMO_FOLDER} is" if n == 2 else f"{DEMO_FOLDER}{joined}{DEMO_FOLDER}-{n - 1} are"
    return here / f"{DEMO_FOLDER}-{n}", f" ({taken} there already: not touched)"


def next_lines(shown: str, path: Path) -> tuple[str, ...]:
    """What to try after the demo, paste-ready: ``shown`` is the folder as the director
    gave it (or the default's name), ``path`` where it is."""
    where = pasteable(shown)
    return (
        "Try next:",
        f"  guandan-dup event status {where}",
        f"  guandan-dup event site {where}",
        f"  then open {(path.resolve() / 'site' / 'index.html').as_uri()} in a web browser "
        "(the results site as the players see it)",
    )


def demo_event(
    out: str | os.PathLike | None = None,
    *,
    kind: str = "individual",
    players: int | None = None,
    rounds: int = 3,
    seed: int = 0,
    show_progress: bool = False,
) -> Demo:
    """Rehearse the demo in ``out`` (new or empty; default ``demo_folder`` of the current
    folder): ``players`` players (default ``DEMO_PLAYERS``) of an individual event, or
    (``kind="teams"``) a Swiss of ``DEMO_TEAMS`` teams of 4, which takes no ``players``."""
    if kind not in DEMO_KINDS:
        raise GuandanError(f"demo kind {kind!r}: expected {' or '.join(DEMO_KINDS)}")
    if kind == "teams" and players is not None:
        raise GuandanError("demo --teams plays 8 teams of 4 players: --players is for the "
                           "individual demo (see `guandan-dup simulate --teams N`)")
    if out is None:
        path, note = demo_folder(Path.cwd())
        shown, place = path.name, f", in {path.parent}{note}"
    else:
        path, shown = Path(out), str(out)
        place = "" if path.is_absolute() else f" ({path.resolve()})"
        if path.exists() and (not path.is_dir() or any(path.iterdir())):
            raise GuandanError(f"--dir {shown!r} is not empty (an earlier demo?); not touched: "
                               "the demo needs a new or empty folder: give another --dir, or "
                               f"leave it out for a new {DEMO_FOLDER} folder here")
    closing = (f"Event folder: {shown}{place}", f"Exports: {os.path.join(shown, 'exports')}")
    if kind == "teams":
        rehearsal = simulate_teams(path, DEMO_TEAMS, rounds, seed=seed,
                                   show_progress=show_progress)
        plan = rehearsal.folder.plan
        table = team_standings_table(rehearsal.standings, plan.name, plan.options.conversion,
                                     rounds)
        return Demo(rehearsal, table, (*closing, *next_lines(shown, path)))
    rehearsal = simulate(path, players=DEMO_PLAYERS if players is None else players,
                         rounds=rounds, seed=seed, show_progress=show_progress)
    table = standings_table(rehearsal.standings, rehearsal.folder.plan.name, rounds)
    return Demo(rehearsal, table, (*closing, *next_lines(shown, path)), (
        "Every board was played card by card by heuristic bots; results and play logs are "
        "in results-round-R.parquet and playlog-round-R.parquet (check a log, in the event "
        "folder, with `guandan-dup playlog validate playlog-round-1.parquet --boards "
        "rounds/1/boards.parquet`).",
    ))
