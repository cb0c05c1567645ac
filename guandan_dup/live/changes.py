"""What the event stream waits for: the desk's version numbers, bumped on every change.

``Changes`` is the part of ``live.desk.Desk`` that pages and the console's event stream
(``live.stream``) watch: ``version`` bumps on every change a table or the director can see,
``board_version`` when verified sets reach the folder (the public board may change), and
``changed`` waits for either. Bumps come from the event loop (a record applied) and from
the store's thread (a write done), so the waiters are kept under a lock and woken through
their own loop.
"""

from __future__ import annotations

import asyncio
import threading


class Changes:
    """The version numbers a desk bumps and the stream waits on (see the module docstring)."""

    def __init__(self) -> None:
        self.version = 0
        """Bumps on every change a table or the director can see (for the event stream)."""
        self.board_version = 0
        """Bumps when verified sets reach the folder (the public board may change)."""
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future]] = []
        self._guard = threading.Lock()

    def _bump(self, board: bool = False) -> None:
        with self._guard:
            self.version += 1
            if board:
                self.board_version += 1
            waiters, self._waiters = self._waiters, []
        for loop, future in waiters:
            loop.call_soon_threadsafe(_wake, future)

    async def changed(self, since: int, timeout: float | None = None,
                      board: bool = False) -> int:
        """Wait until ``version`` (``board_version`` with ``board``) is above ``since`` or
        ``timeout`` seconds pass; returns it."""
        deadline = None if timeout is None else asyncio.get_running_loop().time() + timeout
        while True:
            current = self.board_version if board else self.version
            if current > since:
                return current
            future = asyncio.get_running_loop().create_future()
            with self._guard:
                self._waiters.append((asyncio.get_running_loop(), future))
            left = None if deadline is None else deadline - asyncio.get_running_loop().time()
            if left is not None and left <= 0:
                return current
            try:
                await asyncio.wait_for(future, left)
            except TimeoutError:
                return self.board_version if board else self.version


def _wake(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(None)
