"""The change feed (issue 24 item 4): ``GET /api/v1/feed?after=CURSOR&limit=N``.

Every set the journal verifies is one ``result`` event: a platform's result (``platform``
record), a table's or the director's verification (``verify``) and a director's correction
of a verified set (``entry`` with ``correction``, ``"correction": true``). The desk adds
them as it applies records (``Desk._apply``, live and on replay), so a restarted server
has the same feed. An event's cursor is its journal record's sequence number as text: the
feed shows only records already committed (``Journal.committed``), so a cursor a platform
was given never names a record a crash could take back, and polling from the last
``next`` never misses or doubles an event.

Standings events are not in the feed: the server does not score (``event score`` is a
command of its own), and watching standings.parquet is left for later.
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

    def page(self, after: int, limit: int, committed: int) -> dict:
        """``{"events", "next"}``: up to ``limit`` events after ``after``, none beyond the
        record ``committed``."""
        start = bisect.bisect_right(self.seqs, after)
        end = min(start + limit, bisect.bisect_right(self.seqs, committed))
        events = self.events[start:end] if end > start else []
        return {"events": events, "next": events[-1]["cursor"] if events else str(after)}
