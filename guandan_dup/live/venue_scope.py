"""What a venue's director sees and may not do (issue 24): its venue's tables only.

A venue director's token (``tokens.VenueDirector``) acts like the director's on the tables
of its venue: ``reach.refused`` lets it enter, correct, verify and dispute there and nowhere
else. The round-wide views it is given (the progress grid, the queue, the event stream, the
console) are the director's views cut down to its tables, by the functions here, so the
cutting lives in one place; everything event-wide (dealing, seating, scoring, the ledger's
forms, the platforms' routes) is refused with ``refusal``, a ``403`` whose JSON body says
whose token it is and what it reaches.

>>> from guandan_dup.live.tokens import VenueDirector
>>> by = VenueDirector("南京", range(3, 6))
>>> only_tables({"round": 1, "sets": [{"table": 2}, {"table": 3}]}, by)
{'round': 1, 'sets': [{'table': 3}], 'venue': '南京'}
>>> refusal(by, "scoring").body["tables"]
{'first': 3, 'last': 5}
"""

from __future__ import annotations

from .sets import Answer, fail
from .tokens import VenueDirector

SCAN = 20
"""A venue director's feed page looks at up to ``SCAN`` x ``limit`` events of the whole
feed for its venue's ones, so one request stays bounded; ``next`` is the last event looked
at, so polling on from it misses nothing."""


def refusal(by: VenueDirector, what: str) -> Answer:
    """The ``403`` for something event-wide (``what``: ``"scoring"``, ``"the boards"``...)."""
    return fail(403, f"this is {by.words()}: it reaches its venue's tables only (entering, "
                f"correcting, verifying, their progress and queue, the feed of their "
                f"results), not {what}; ask the event's director", **by.scope())


def only_tables(view: dict, by: VenueDirector) -> dict:
    """A ``{"round", "sets": [{"table", ...}]}`` view (progress) with the venue's tables
    only, and the venue named."""
    return view | {"sets": [s for s in view["sets"] if s["table"] in by.tables],
                   "venue": by.venue}


def only_items(items: list[dict], by: VenueDirector) -> list[dict]:
    """The queue's items of the venue's tables."""
    return [item for item in items if item["table"] in by.tables]


def feed_page(page, after: int, limit: int, by: VenueDirector) -> dict:
    """``GET /api/v1/feed`` for a venue's director: the result events of its tables (and
    every event that is not one table's, such as standings) from the pages ``page(after,
    limit)`` answers, up to ``limit`` of them, looking at ``SCAN`` x ``limit`` events at
    most. ``next`` is the cursor of the last event looked at: the next request starts
    after it, so a page with fewer events than ``limit`` (even none) with a new ``next``
    means read on."""
    events: list[dict] = []
    cursor = str(after)
    for _ in range(SCAN):
        answer = page(int(cursor), limit)
        for event in answer["events"]:
            if len(events) == limit:
                return {"events": events, "next": cursor}
            cursor = event["cursor"]
            if event.get("type") != "result" or event.get("table") in by.tables:
                events.append(event)
        if not answer["events"] or len(events) == limit:
            break
    return {"events": events, "next": cursor}
