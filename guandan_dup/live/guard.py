"""Two guards of the server's doors: PIN guesses are rate-limited, cookie forms carry a
CSRF token.

A PIN has a million values and a ballroom of 60 tables holds 60 of them, so a phone that
could try PINs freely would find a table in minutes. ``PinGuard`` lets one client address
fail ``limit`` times in ``window`` seconds; after that the PIN route answers 429 with
``Retry-After`` until the oldest failure leaves the window. Success does not clear the
count: knowing one table's PIN must not buy more guesses at the others.

The director's console authenticates by cookie, which a browser also sends with a form
another page submits; a form of the console therefore carries ``csrf_token(key, session)``
(an HMAC of the session's cookie value under the folder's secret) and the route checks it
with ``csrf_ok``, in constant time. A page of another origin can neither read the cookie nor
compute the token.

Both are pure: the clock is an argument, so the tests need no sleeping.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import math
import time
from collections import OrderedDict, deque
from collections.abc import Callable


class PinGuard:
    """Per-client failure counts in a sliding window.

    >>> now = [0.0]
    >>> guard = PinGuard(limit=2, window=60, clock=lambda: now[0])
    >>> guard.failed("10.0.0.7"); guard.failed("10.0.0.7")
    >>> guard.retry_after("10.0.0.7"), guard.retry_after("10.0.0.8")
    (60, 0)
    >>> now[0] = 60.0
    >>> guard.retry_after("10.0.0.7")
    0
    """

    def __init__(self, limit: int = 5, window: float = 60.0,
                 clock: Callable[[], float] = time.monotonic, clients: int = 10_000) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.clients = clients
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()

    def retry_after(self, client: str) -> int:
        """Whole seconds ``client`` must wait before its next guess (0: it may guess now)."""
        failures = self._recent(client)
        if failures is None or len(failures) < self.limit:
            return 0
        return max(1, math.ceil(failures[0] + self.window - self.clock()))

    def failed(self, client: str) -> None:
        """Count a wrong PIN from ``client``."""
        failures = self._recent(client)
        if failures is None:
            failures = self._failures[client] = deque()
        failures.append(self.clock())
        self._failures.move_to_end(client)
        while len(self._failures) > self.clients:  # a bounded memory, the quietest forgotten
            self._failures.popitem(last=False)

    def _recent(self, client: str) -> deque[float] | None:
        failures = self._failures.get(client)
        if failures is None:
            return None
        cutoff = self.clock() - self.window
        while failures and failures[0] <= cutoff:
            failures.popleft()
        if not failures:
            del self._failures[client]
            return None
        return failures


def csrf_token(key: bytes, session: str) -> str:
    """The CSRF token of the session whose cookie value is ``session``.

    >>> csrf_token(b"k" * 32, "s") == csrf_token(b"k" * 32, "s") != csrf_token(b"k" * 32, "t")
    True
    """
    digest = hmac.new(key, b"csrf|" + session.encode("utf-8"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def csrf_ok(key: bytes, session: str, presented: str | None) -> bool:
    """Whether a form's ``presented`` token is the session's (constant-time compare)."""
    if not presented or not session:
        return False
    return hmac.compare_digest(presented.encode("utf-8", "replace"),
                               csrf_token(key, session).encode("ascii"))
