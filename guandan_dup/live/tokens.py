"""Who is calling: the director, one table of one round, or (issue 24) a platform or a
venue's director.

The tokens, PINs and links themselves are derived on the event side
(:mod:`guandan_dup.event.access`), because ``event seat`` prints them on the table cards;
this module re-exports that interface for the server and adds ``Keys``, the server's O(1)
lookup from a presented token or PIN to the ``Caller`` it names. A table's token names
exactly one ``Table(round, table)``: the routes compare it with the round and table of the
path, so it reaches nothing else.

``Keys`` rebuilds its dictionaries when a file they come from changes (the director's
token, the folder's secret, the revocations, the platforms' and venue directors' token
hashes, the plan, a round's seating), checked by ``os.stat`` at most every ``RECHECK``
seconds: a revocation, a new venue director's token or a new round seated from a second
terminal takes effect within ``RECHECK`` seconds without restarting the server (at once after
``recheck``, which the console calls after its own actions). Not on every lookup: each stat
lets the server's other threads take the interpreter (the GIL) and costs the request up to
a switch interval; a burst of thousands of entries per minute paid that a dozen times each.
"""

from __future__ import annotations

import hmac
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import GuandanError
from ..event.access import (
    DIRECTOR_TOKEN,
    REVOKED,
    SECRET,
    TableLink,
    base_url,
    director_token,
    folder_secret,
    links_by_round,
    revoke,
    save_base_url,
    table_links,
)
from ..event.folder import PLATFORMS, VENUE_TOKENS, EventFolder
from ..event.hashed_tokens import holder_of
from ..event.platforms import platform_hashes
from ..event.venue_tokens import venue_hashes

__all__ = [
    "Caller", "Director", "Keys", "Platform", "Table", "TableLink", "VenueDirector",
    "base_url", "director_token", "directs", "revoke", "role", "save_base_url",
    "table_links",
]


@dataclass(frozen=True)
class Director:
    """The director's token (``DIR/director.token``): every round and table, the console."""


@dataclass(frozen=True)
class Table:
    """A table's token: its own round and table only."""

    round: int
    table: int


@dataclass(frozen=True)
class Platform:
    """A platform's token (``event tokens --platform NAME``, issue 24): the boards of a
    round once it is open."""

    name: str


@dataclass(frozen=True)
class VenueDirector:
    """A venue director's token (``event tokens --venue V``, issue 24): the director's
    powers on the venue's ``tables`` (the plan's ``venue_tables``, the same every round)
    and nothing event-wide. Two are equal when they name the same venue."""

    venue: str
    tables: range = field(default=range(0), compare=False)

    def reaches(self, table: int | None) -> bool:
        """Whether ``table`` is one of the venue's (``None``, a whole round: no)."""
        return table is not None and table in self.tables

    def scope(self) -> dict:
        """What the token reaches, for a refusal's body: its venue and tables."""
        tables = {"first": self.tables.start, "last": self.tables.stop - 1} if self.tables \
            else None
        return {"caller": role(self), "venue": self.venue, "tables": tables}

    def words(self) -> str:
        """``the director of venue V's token (tables 3-5)``, for a refusal's message."""
        tables = (f"tables {self.tables.start}-{self.tables.stop - 1}" if self.tables
                  else "no tables: the event has no such venue now")
        return f"the token of the director of venue {self.venue} ({tables})"


Caller = Director | Table | Platform | VenueDirector


def directs(by: object) -> bool:
    """Whether ``by`` has the director's powers on the tables it may reach: the director,
    or a venue's director (``reach.refused`` keeps the latter to its venue's tables)."""
    return isinstance(by, Director | VenueDirector)


def role(by: object) -> str:
    """Who ``by`` is in the journal, the feed and a correction's ledger row: ``director``,
    ``director of venue V`` or ``table``.

    >>> role(Director()), role(VenueDirector("南京")), role(Table(1, 2))
    ('director', 'director of venue 南京', 'table')
    """
    if isinstance(by, VenueDirector):
        return f"director of venue {by.venue}"
    return "director" if isinstance(by, Director) else "table"

_Stamp = tuple[tuple[int, int, int] | None, ...]

RECHECK = 0.5
"""Seconds a lookup trusts the files' stamps it took last: the bound on how long a
revocation or a newly seated round made from a second terminal waits to take effect."""


class Keys:
    """The tokens and PINs of every seated round of the folder at ``path``, for the server.

    ``who`` and ``table_of_pin`` are dictionary lookups; at most every ``recheck`` seconds
    one of them first takes an ``os.stat`` of each watched file (a few per round), and the
    dictionaries are rebuilt only when a file changed.
    """

    def __init__(self, path: str | os.PathLike, recheck: float = RECHECK) -> None:
        self.path = Path(path)
        self.recheck_every = recheck
        self._rounds = EventFolder.open(self.path).plan.rounds
        self._watched = self._files()
        self._stamp: _Stamp | None = None
        self._checked = float("-inf")  # time.monotonic() of the last stamps taken
        # (director's token, token -> table, [(round, pin -> table)] latest round first,
        # platform -> token hash, venue -> token hash, venue -> its director), swapped
        # whole so a request in another thread never sees half of a rebuild
        self._state: tuple[str, dict[str, Table], list[tuple[int, dict[str, int]]],
                           dict[str, str], dict[str, str], dict[str, VenueDirector]] = (
            "", {}, [], {}, {}, {})
        director_token(self.path)  # made before the first stamp, so it is not a change
        folder_secret(self.path)
        self._refresh()

    @classmethod
    def load(cls, path: str | os.PathLike, recheck: float = RECHECK) -> Keys:
        """The folder's keys; makes the director's token and the secret when missing.
        ``recheck``: seconds between looks at the files (see the module docstring)."""
        return cls(path, recheck)

    def recheck(self) -> None:
        """Look at the files on the next lookup, however recent the last look (after a
        change this process made itself: a revocation from the console)."""
        self._checked = float("-inf")

    def who(self, token: str) -> Caller | None:
        """The caller ``token`` names, or ``None`` for no token or an unknown one."""
        if not token:
            return None
        self._refresh()
        director, tables, _, platforms, venues, venue_directors = self._state
        if hmac.compare_digest(token.encode("utf-8", "replace"), director.encode("ascii")):
            return Director()
        table = tables.get(token)
        if table is not None:
            return table
        name = holder_of(platforms, token)
        if name is not None:
            return Platform(name)
        venue = holder_of(venues, token)
        return None if venue is None else venue_directors[venue]

    def table_of_pin(self, pin: str) -> Table | None:
        """The table whose PIN is ``pin`` in the latest seated round that has it."""
        self._refresh()
        for round_no, tables in self._state[2]:
            if pin in tables:
                return Table(round_no, tables[pin])
        return None

    def _files(self) -> list[str]:
        rounds = self.path / "rounds"
        return [str(p) for p in (
            self.path / DIRECTOR_TOKEN, self.path / SECRET, self.path / REVOKED,
            self.path / PLATFORMS, self.path / VENUE_TOKENS, self.path / "event.toml",
            *(rounds / str(r) / "seating.parquet" for r in range(1, self._rounds + 1)))]

    def _stamps(self) -> _Stamp:
        stamps = []
        for file in self._watched:
            try:
                st = os.stat(file)
            except FileNotFoundError:
                stamps.append(None)
            else:
                stamps.append((st.st_mtime_ns, st.st_size, st.st_ino))
        return tuple(stamps)

    def _refresh(self) -> None:
        now = time.monotonic()
        if now - self._checked < self.recheck_every:
            return
        self._checked = now
        stamp = self._stamps()  # taken first: a change during the rebuild rebuilds again
        if stamp == self._stamp:
            return
        director = director_token(self.path)
        folder = EventFolder.open(self.path)
        seated = {}
        for r in range(1, self._rounds + 1):
            seating = folder.read(r, "seating")
            if seating is not None:
                seated[r] = sorted({int(t) for t in seating["table"]})
        by_round = links_by_round(self.path, seated)
        tables = {link.token: Table(r, link.table)
                  for r, found in by_round.items() for link in found}
        pins = [(r, {link.pin: link.table for link in by_round[r]})
                for r in sorted(by_round, reverse=True)]
        try:
            platforms = platform_hashes(self.path)
        except GuandanError:  # a damaged file: no platform gets in, the tables still do
            platforms = {}
        try:
            venues = venue_hashes(self.path)
        except GuandanError:  # likewise: no venue director gets in
            venues = {}
        venue_tables = folder.plan.venue_tables()  # a venue no longer the plan's: no tables
        venue_directors = {v: VenueDirector(v, venue_tables.get(v, range(0))) for v in venues}
        self._state = (director, tables, pins, platforms, venues, venue_directors)
        self._stamp = stamp
