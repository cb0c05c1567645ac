"""The change feed (issue 24 item 4): ``GET /api/v1/feed?after=CURSOR&limit=N``.

Every set the journal verifies is one ``result`` event: a platform's result (``platform``
record), a table's or the director's verification (``verify``) and a director's correction
of a verified set (``entry`` with ``correction``, ``"correction": true``). The desk adds
them as it applies records (``Desk._apply``, live and on replay), so a restarted server
has the same feed. An event's cursor is its journal record's sequence number as text: the
feed shows only records already committed (``Journal.committed``), so a cursor a platform
was given never names a record a crash could take back, and polling from the last
``next`` never misses or doubles an event.

A round's standings written anew (rounds/R/standings.parquet, by the server's own scoring,
``live.scorer``, or by ``event score`` from another terminal) are one ``standings`` event: the
server notices the file (``live.scorer.Watcher``, within a second) and journals a
``standings`` record saying what it holds (``standings_event``); the desk adds the event when
it applies the record, so it too has its place in cursor order among the results, and a
restarted server has the same events. A record is made only when the file holds standings
no earlier record of the round described (its ``digest``), so each new standings are one
event, however often the server restarts.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

DEFAULT_LIMIT = 500
MAX_LIMIT = 5000


class CursorError(ValueError):
    """A cursor or a limit the feed does not know."""


def parse_cursor(text: str | None) -> int:
    """The sequence number a cursor names (``""``/``None``: the start)."""
    if text is None or text == "":
        return 0
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise CursorError(f"after={text!r} is not a cursor of this feed; give the \"next\" "
                          "of an earlier answer, or leave it out to read from the start")
    return int(text)


def parse_limit(text: str | None) -> int:
    if text is None or text == "":
        return DEFAULT_LIMIT
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_LIMIT:
        raise CursorError(f"limit={text!r}: expected a whole number 1-{MAX_LIMIT} "
                          f"(default {DEFAULT_LIMIT})")
    return int(text)


@dataclass
class Feed:
    """The feed's events in cursor order (``seqs[i]`` is ``events[i]``'s record)."""

    seqs: list[int] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)

    def add(self, seq: int, key: tuple[int, int, int], levels: dict | None, source: str,
            entry_id: str | None = None, correction: bool = False) -> None:
        event = {"cursor": str(seq), "type": "result", "id": entry_id, "round": key[0],
                 "table": key[1], "set": key[2],
                 "ns_level": levels["ns"] if levels else None,
                 "ew_level": levels["ew"] if levels else None, "source": source}
        if correction:
            event["correction"] = True
        self.seqs.append(seq)
        self.events.append(event)

    def add_standings(self, seq: int, data: dict) -> None:
        """A ``standings`` record's event (``standings_event``)."""
        self.seqs.append(seq)
        self.events.append(standings_event(seq, data))

    def page(self, after: int, limit: int, committed: int) -> dict:
        """``{"events", "next"}``: up to ``limit`` events after ``after``, none beyond the
        record ``committed``."""
        start = bisect.bisect_right(self.seqs, after)
        end = min(start + limit, bisect.bisect_right(self.seqs, committed))
        events = self.events[start:end] if end > start else []
        return {"events": events, "next": events[-1]["cursor"] if events else str(after)}


STANDINGS_FIELDS = ("round", "at", "digest", "players", "teams", "expected", "counted",
                    "complete", "up_to_date", "provisional", "final_at", "by")
"""A ``standings`` record's fields, in the order the event shows them (docs/api.md)."""


def standings_event(seq: int, data: dict) -> dict:
    """The feed's event of a ``standings`` record: its fields (``STANDINGS_FIELDS``) and
    where the standings are read.

    >>> standings_event(7, {"round": 2, "at": "2026-12-03T16:00:00+00:00", "digest": "ab",
    ...     "players": 8, "expected": 4, "counted": 4, "complete": True,
    ...     "provisional": True, "final_at": None, "by": "server"})["url"]
    '/api/v1/rounds/2/standings'
    """
    event = {"cursor": str(seq), "type": "standings"}
    event |= {name: data.get(name) for name in STANDINGS_FIELDS}
    event["url"] = f"/api/v1/rounds/{int(data['round'])}/standings"
    return event
