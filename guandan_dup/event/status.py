"""``event status``: what is done and what is missing in each round of an event.

The same structure serves the CLI (printed as a table) and anyone scripting around an event
folder; ``next_step`` turns it into the one command a director most likely needs next.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..errors import GuandanError
from ..wording import counted, event_command, numbered, spans, words
from .commands import ingest_command, sheet_command
from .conflicts import start_conflicts
from .finality import final as final_rounds
from .folder import EventFolder
from .ledger import effects, read_ledger
from .opening import release_lines
from .platforms import platform_hashes
from .venue_tokens import venue_hashes


@dataclass(frozen=True)
class RoundStatus:
    """One round: dealt? seated? which (table, set) results are missing (of a seated round:
    an unseated one waits for its seating, not for results)? scored, and from the
    results and ledger stored now (``out_of_date`` after a correction ingested or a ledger
    decision changing it since; ``out_of_date_because`` says which)? A round seated but not
    yet played is to be seated again when it was paired from standings corrected since, or
    the ledger withdrew a player it seats (``reseat_because``, the format's)."""

    round: int
    sets: list[int]
    sets_not_dealt: list[int]
    seated: bool
    expected_results: int
    missing: list[tuple[int, int]]
    scored: bool
    out_of_date: bool = False
    reseat_because: str | None = None
    replay: tuple[str, ...] = ()
    """Tables whose stored results the ledger's late starts cannot produce ("round R table T
    set S"), to be ingested again (``conflicts.start_conflicts``)."""
    final: bool = False
    """Past art. 48's correction deadline (the ledger's ``ends``, else when first scored)."""
    out_of_date_because: str | None = None
    """``"results"`` or ``"ledger"`` when out of date (``EventFolder.out_of_date_because``)."""

    @property
    def dealt(self) -> bool:
        return not self.sets_not_dealt

    def missing_words(self, most: int = 6) -> str:
        """The missing results set by set, tables in runs: ``set 3: tables 1-4 and 6; set
        4: table 5`` (past ``most`` runs of a set, how many more tables)."""
        sets = sorted({s for _, s in self.missing})
        return "; ".join(
            f"set {s}: {spans('table', sorted(t for t, m in self.missing if m == s), most)}"
            for s in sets)

    def dealt_words(self) -> str:
        """``yes``, ``no``, or which sets are not dealt yet when some are."""
        if self.dealt:
            return "yes"
        if len(self.sets_not_dealt) == len(self.sets):
            return "no"
        return f"no ({spans('set', self.sets_not_dealt)} not yet)"


@dataclass(frozen=True)
class EventStatus:
    name: str
    kind: str
    commitment: str
    key_revealed: bool
    rounds: list[RoundStatus]
    folder: str
    """The event folder as the director gave it: the commands to paste name it."""
    exported: bool = False
    """Whether the exports of the last scored round are newer than its standings."""
    abandoned: str | None = None
    """The reason recorded when the key was revealed with sets unplayed."""
    notes: tuple[str, ...] = ()
    """Lines about the event's format (a knockout: its bracket and places)."""
    releases: tuple[str, ...] = ()
    """A line per open round: since when, released to which platforms (``event.opening``)."""
    tokens: tuple[str, ...] = ()
    """Who has a token besides the director and the tables: the platforms and the venues'
    directors, by name only (``token_lines``)."""

    def next_step(self) -> str:
        """The next command to run, paste-ready for ``folder``: out-of-date standings first,
        then the round loop. Results come in through the round's sheet (``event sheet``,
        ``commands.sheet_name``), which the director fills in and ingests."""
        if self.abandoned is not None:
            return f"nothing: the event was closed early ({self.abandoned})"
        where = self.folder
        scored = [r.round for r in self.rounds if r.scored]
        stale = [r for r in self.rounds if r.out_of_date]
        if stale:
            first = stale[0].round
            later = [r for r in scored if r > first]
            then = f", then score {numbered('round', later)} again" if later else ""
            why = ("a ledger decision changed it" if stale[0].out_of_date_because == "ledger"
                   else "results changed since it was scored")
            return (event_command(where, "score", first, *(["--force"] if later else []))
                    + f" ({why}{then})")
        for r in self.rounds:
            if not r.dealt:
                return event_command(where, "deal", r.round)
            if not r.seated:
                return event_command(where, "seat", r.round)
            if r.reseat_because:
                return f"{event_command(where, 'seat', r.round)} ({r.reseat_because})"
            ingest = ingest_command(where, r.round)
            if r.replay:
                return (f"{ingest} ({words(r.replay)}: stored levels the ledger's late start "
                        "cannot produce; ingest them again)")
            if len(r.missing) == r.expected_results:
                return (f"{sheet_command(where, r.round)}, fill in its levels, then {ingest}")
            if r.missing:
                return f"{ingest} ({counted(len(r.missing), 'set result')} still missing)"
            if not r.scored:
                return event_command(where, "score", r.round)
        if not self.key_revealed:
            reveal = event_command(where, "reveal")
            return reveal if self.exported else f"{event_command(where, 'export')}, then {reveal}"
        return "nothing: the event is complete and its key is revealed"


def round_status(folder: EventFolder, round_no: int, final: bool = False,
                 starts: pd.DataFrame | None = None) -> RoundStatus:
    """Round R's status; ``starts`` are the ledger's late starts (default: the folder's)."""
    starts = effects(folder).start_levels if starts is None else starts
    plan = folder.plan
    sets = plan.sets_of_round(round_no)
    boards = folder.read(round_no, "boards")
    dealt = set() if boards is None else set(boards["set"].tolist())
    because = folder.out_of_date_because(round_no)
    seated = folder.file(round_no, "seating").exists()
    return RoundStatus(
        round=round_no,
        sets=sets,
        sets_not_dealt=[s for s in sets if s not in dealt],
        seated=seated,
        expected_results=sum(plan.expected_tables(round_no).values()),
        missing=folder.missing_results(round_no) if seated else [],
        scored=folder.file(round_no, folder.standings_name).exists(),
        out_of_date=because is not None,
        out_of_date_because=because,
        reseat_because=plan.event_format.reseat_because(folder, round_no),
        replay=tuple(c.where() for c in start_conflicts(folder, round_no, starts)),
        final=final,
    )


def exported(folder: EventFolder) -> bool:
    """Whether every export of the last scored round is at least as new as its standings."""
    scored = folder.rounds_scored()
    if not scored:
        return False
    last = scored[-1]
    name = folder.standings_name  # team events export team-standings-round-R.*
    exports = list(folder.exports_dir.glob(f"{name.replace('_', '-')}-round-{last}.*"))
    made = folder.file(last, name).stat().st_mtime_ns
    return bool(exports) and all(p.stat().st_mtime_ns >= made for p in exports)


def event_status(folder: EventFolder) -> EventStatus:
    """The status of every round of the plan."""
    ledger = read_ledger(folder)
    done = final_rounds(folder, ledger)
    starts = effects(folder).start_levels
    rounds = [round_status(folder, r, r in done, starts)
              for r in range(1, folder.plan.rounds + 1)]
    plan = folder.plan
    override = folder.reveal_override
    return EventStatus(
        plan.name,
        plan.kind,
        folder.commitment,
        folder.key_revealed,
        rounds,
        str(folder.path),
        exported=exported(folder),
        abandoned=None if override is None else f"{override['reason']}, {override['at']}",
        notes=plan.event_format.status_notes(folder),
        releases=tuple(release_lines(folder, ledger)),
        tokens=token_lines(folder),
    )


def token_lines(folder: EventFolder) -> tuple[str, ...]:
    """``Platforms with tokens: ...`` and ``Venue directors with tokens: ...`` (names only:
    the tokens are kept as hashes), each when there is one; a damaged token file is named
    instead, since nobody it names can get in until it is made again."""
    lines = []
    for what, hashes in (("Platforms", platform_hashes), ("Venue directors", venue_hashes)):
        try:
            names = sorted(hashes(folder.path))
        except GuandanError as error:
            lines.append(f"{what} with tokens: none can get in: {error}")
            continue
        if names:
            lines.append(f"{what} with tokens: {words(names)}")
    return tuple(lines)
