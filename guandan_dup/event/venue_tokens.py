"""Venue directors' tokens (issue 24): in an event of several venues (the players file's
``venue`` column), each venue's director may run its own tables from the server with a
token of its own, made by ``event tokens DIR --venue V``.

The token acts like the director's on that venue's tables only (``live.tokens.VenueDirector``);
it is kept as a hash only, in ``live/venue-directors.json`` (owner-only), by the same code
as the platforms' tokens (``event.hashed_tokens``). ``V`` must be one of the event's venues
(``EventPlan.venues``); an event without venues has no venue directors, since its director's
own token already reaches every table.
"""

from __future__ import annotations

import os
from datetime import datetime

from ..errors import GuandanError
from .folder import VENUE_TOKENS, EventFolder
from .hashed_tokens import IssuedToken, TokenFile


def check_venue_name(name: str) -> str:
    """``name`` if it can be a venue's name (text, not empty); whether the event has that
    venue is ``check_venue``'s."""
    if not isinstance(name, str) or not name.strip():
        raise GuandanError(f"venue {name!r}: expected a venue's name, as in the players "
                           "file's venue column")
    return name


def check_venue(folder: EventFolder, venue: str) -> None:
    """Refused unless ``venue`` is a venue of the folder's event (naming its venues)."""
    venues = [name for name, _ in folder.plan.venues]
    if not venues:
        raise GuandanError(
            f"this event has no venues (its players file had no venue column), so there is "
            f"no venue {venue!r} to give a director: the director's own token "
            "(director.token) reaches every table")
    if venue not in venues:
        raise GuandanError(f"venue {venue!r} is not a venue of this event; its venues are "
                           f"{', '.join(venues)}")


TOKENS = TokenFile(VENUE_TOKENS, "venue", "--venue V", check_venue_name)
"""The venue directors' token file."""


def venue_hashes(path: str | os.PathLike) -> dict[str, str]:
    """Venue -> token hash of every venue whose director has a token."""
    return TOKENS.hashes(path)


def make_venue_token(path: str | os.PathLike, venue: str,
                     now: datetime | None = None) -> IssuedToken:
    """A new token for ``venue``'s director, its hash saved (replacing the old one);
    refused for a venue the event does not have."""
    return TOKENS.make(path, venue, "event tokens --venue", check_venue, now)


def revoke_venue(path: str | os.PathLike, venue: str) -> None:
    """Remove ``venue``'s director's token: it stops working (a running server sees it
    within half a second). Refused for a venue without a token."""
    TOKENS.revoke(path, venue, "event tokens --revoke-venue")
