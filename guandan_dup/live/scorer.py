"""The server's standings: a round scored once all of it is stored, and each new standings
journalled for the change feed.

``Watcher`` is one task of the server's event loop that looks at the event folder every
``POLL`` seconds (``os.stat`` of a few files: no request needs to arrive):

- **Standings events.** When a round's standings file (rounds/R/standings.parquet, or the
  format's ``standings_name``) was written anew, by the server's own scoring or by ``event
  score`` from another terminal, it reads what the file says about itself in a thread
  (``standings_facts``: the digest of the sources it was scored from, its rows, whether
  every set of the round was counted, art. 48's deadline) and, when that differs from the
  round's last ``standings`` record (``Desk.standings``), journals a new one
  (``Desk.record_standings``), which the feed shows (``live.feed.standings_event``). The
  comparison with the journal, not with what this process saw, is what makes each new
  standings one event across restarts: a server started after an ``event score`` records
  it once, and one restarted after recording it records nothing. A round's standings
  becoming final (art. 48's correction deadline passing) is one more event, with
  ``"provisional": false``.
- **Scoring** (``auto_score``, ``guandan-dup serve --auto-score``). When a round's
  results or the ledger change, the round is due; once nothing changed for ``DEBOUNCE``
  seconds and the store has nothing waiting, the round is scored in a thread by
  ``event.score.score_round``, the function ``event score`` calls, under the folder's lock
  (``score_if_due``): only when every set of the round is stored and its standings are
  missing or out of date, so a correction or a late set scores it again and an unchanged
  round is never scored twice. One scoring at a time (a task of its own, awaited before the
  next); the folder's lock keeps an ``event score`` from another terminal out meanwhile, and
  the library's writes are whole or not at all (``event.transaction``), so nobody reads a
  half-written round. A refusal (a later round already scored, a final round, a ledger
  start conflict) or a bug is logged once per state of the folder, never raised: the server
  goes on taking results, and the director scores by hand.

The watcher runs in the event loop because the desk's state changes only there; its file
reads and the scoring run in threads.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import time
from contextlib import ExitStack, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pyarrow.parquet as pq

from ..errors import GuandanError
from ..event.parts import file_stamp, stamps
from ..wording import counted

log = logging.getLogger("guandan_dup.live")
COMMAND = "guandan-dup serve --auto-score"
POLL = 0.5
"""Seconds between two looks at the folder's files: the bound on how late a standings file
written from another terminal is noticed (plus reading its footer)."""
DEBOUNCE = 1.0
"""Seconds a round's results (and the ledger) must stay unchanged before it is scored: a
burst of corrections is one scoring, not one each."""
LOCK_WAIT = 5.0
"""Seconds the scoring waits for the folder's lock (a command running) before it tries
again at the next look."""


@dataclass(frozen=True)
class Scoring:
    """What ``score_if_due`` did: ``scored`` (the round's files written, with the scoring's
    ``warnings``) or why not (``why``: not every set stored, already up to date, the folder
    busy)."""

    scored: bool
    why: str = ""
    warnings: tuple[str, ...] = ()
    seconds: float = 0.0
    stamps: tuple = ()
    """The round's results' stamps (``event.parts.stamps``) as the scoring left them,
    under the folder's lock: it writes the round's parts whole, which is no new result."""


def score_if_due(path: str | os.PathLike, round_no: int, command: str = COMMAND) -> Scoring:
    """Score ``round_no`` of the event folder at ``path`` with ``event score``'s own function
    when every set of it is stored and its standings are missing or out of date; else say
    why not. A refusal of the scoring is a ``GuandanError``, as from ``event score``."""
    from ..event.score import score_round
    from ..event.transaction import writing

    start = time.perf_counter()
    with ExitStack() as stack:
        try:
            folder = stack.enter_context(writing(path, command, wait=LOCK_WAIT))
        except GuandanError as busy:
            return Scoring(False, f"busy: {busy}")
        if not folder.has_results(round_no):
            return Scoring(False, "no results")
        missing = folder.missing_results(round_no)
        if missing:
            return Scoring(False, f"{counted(len(missing), 'set')} not stored yet")
        if (folder.file(round_no, folder.standings_name).exists()
                and folder.out_of_date_because(round_no) is None):
            return Scoring(False, "up to date")
        scored = score_round(folder, round_no, command=command)
        after = stamps(folder.round_dir(round_no), "results")
    return Scoring(True, warnings=tuple(getattr(scored, "warnings", ()) or ()),
                   seconds=time.perf_counter() - start, stamps=after)


def footer_digest(path: str | os.PathLike) -> str:
    """What identifies a standings file: a hash of its footer's key-value metadata (the
    digests of the results and the ledger it was scored from, its schema). The same
    scoring of the same sources gives the same digest; new standings a new one."""
    metadata = pq.read_schema(path).metadata or {}
    digest = hashlib.sha256()
    for key in sorted(metadata):
        digest.update(key + b"\0" + metadata[key] + b"\0")
    return digest.hexdigest()[:16]


def standings_facts(path: str | os.PathLike, round_no: int,
                    now: datetime | None = None) -> dict | None:
    """What round ``round_no``'s standings file says, as a ``standings`` record's data
    (``live.feed.STANDINGS_FIELDS`` but ``by``), read under the folder's shared lock;
    ``None`` when the round has no standings file."""
    from ..event.finality import round_deadlines
    from ..event.ledger import read_ledger
    from ..event.transaction import reading

    with reading(path, wait=LOCK_WAIT) as folder:
        file = folder.file(round_no, folder.standings_name)
        if not file.exists():
            return None
        parquet = pq.ParquetFile(file)
        columns = set(parquet.schema_arrow.names)
        rows = parquet.metadata.num_rows
        expected = len(folder.seated_pairs(round_no))
        missing = len(folder.missing_results(round_no))
        up_to_date = folder.out_of_date_because(round_no) is None
        deadline = round_deadlines(folder, read_ledger(folder)).get(round_no)
        written = datetime.fromtimestamp(os.stat(file).st_mtime, UTC)
        digest = footer_digest(file)
    now = now or datetime.now(UTC)
    complete = missing == 0 and up_to_date
    final = complete and deadline is not None and now >= deadline.to_pydatetime()
    return {"round": round_no, "at": written.isoformat(), "digest": digest,
            "players": rows if "player" in columns else None,
            "teams": rows if "team" in columns and "player" not in columns else None,
            "expected": expected, "counted": expected - missing if up_to_date else None,
            "complete": complete, "up_to_date": up_to_date, "provisional": not final,
            "final_at": deadline.isoformat() if deadline is not None else None}


@dataclass
class _Round:
    """What the watcher last saw of one round."""

    standings: tuple | None | bool = False
    """The standings file's stamp when last read (``False``: never looked)."""
    results: tuple | None | bool = False
    due: float | None = None
    """``time.monotonic()`` of the last change of the round's results or the ledger while
    it waits to be scored; ``None``: nothing to score."""
    reported: set = field(default_factory=set)
    """(stamps, message) already logged: a refusal is told once per state of the folder."""


class Watcher:
    """The standings events and the scoring of the server of ``desk`` (module docstring)."""

    def __init__(self, desk, auto_score: bool = False, poll: float = POLL,
                 debounce: float = DEBOUNCE) -> None:
        self.desk = desk
        self.path = Path(desk.path)
        self.auto_score = auto_score
        self.poll = poll
        self.debounce = debounce
        self.rounds: dict[int, _Round] = {}
        self.ours: set[str] = set()
        """Digests of standings this server wrote (``by: "server"``)."""
        self.scorings = 0
        """Rounds scored by this watcher since it started."""
        self._ledger: tuple | None | bool = False
        self._task: asyncio.Task | None = None
        self._scoring: tuple[int, asyncio.Task] | None = None

    def start(self) -> None:
        """Start looking (in the running event loop)."""
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop looking; a scoring under way is let finish (it holds the folder's lock)."""
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError):
                await self._task
        if self._scoring is not None:
            with suppress(Exception):
                await self._scoring[1]

    async def _run(self) -> None:
        while True:
            try:
                await self.check()
            except asyncio.CancelledError:
                raise
            except Exception:  # a bug here must not stop the feed's standings for good
                log.exception("the server's standings watcher failed; it looks again")
            await asyncio.sleep(self.poll)

    def _files(self, round_no: int) -> tuple[str, Path]:
        folder = self.path / "rounds" / str(round_no)
        name = self.desk.plan().event_format.standings_name
        return str(folder / f"{name}.parquet"), folder

    async def check(self) -> None:
        """One look: journal new standings, start a scoring that is due."""
        now = time.monotonic()
        ledger = file_stamp(str(self.path / "ledger.parquet"))
        ledger_changed, self._ledger = ledger != self._ledger, ledger
        scoring = self._scoring[0] if self._scoring is not None else None
        for round_no in range(1, self.desk.plan().rounds + 1):
            seen = self.rounds.setdefault(round_no, _Round())
            standings_file, round_dir = self._files(round_no)
            results = stamps(round_dir, "results")  # the file and its parts (event.parts)
            if results != seen.results or (ledger_changed and any(results)):
                seen.results = results
                seen.due = now if any(results) else None
            if round_no == scoring:
                continue  # its file is read once the scoring says whose it is
            stamp = file_stamp(standings_file)
            if stamp != seen.standings or self._final_due(round_no):
                seen.standings = stamp
                if stamp is not None:
                    await self._journal(round_no)
        if self.auto_score and self._scoring is None:
            self._start_scoring(now)

    def _final_due(self, round_no: int) -> bool:
        """Whether the round's last standings event is provisional with its correction
        deadline passed: it may now be final (one more event)."""
        last = self.desk.standings.get(round_no)
        if last is None or not last.get("provisional") or not last.get("complete"):
            return False
        deadline = last.get("final_at")
        return deadline is not None and datetime.now(UTC) >= datetime.fromisoformat(deadline)

    async def _journal(self, round_no: int) -> None:
        """Journal round ``round_no``'s standings if no record of the round says the same."""
        try:
            facts = await asyncio.to_thread(standings_facts, self.path, round_no)
        except (GuandanError, OSError, ValueError) as failure:  # replaced meanwhile, busy
            self.rounds[round_no].standings = False  # read again at the next look
            log.debug("round %s's standings not read yet: %s", round_no, failure)
            return
        if facts is None:
            return
        last = self.desk.standings.get(round_no)
        if last is not None and (last["digest"], last["provisional"]) == (
                facts["digest"], facts["provisional"]):
            return
        same = last is not None and last["digest"] == facts["digest"]
        by = last["by"] if same else "server" if facts["digest"] in self.ours else "event score"
        failed = await self.desk.record_standings(facts | {"by": by})
        if failed is not None:
            self.rounds[round_no].standings = False
            log.warning("round %s's standings event was not saved: %s", round_no,
                        failed.body.get("error"))

    def _start_scoring(self, now: float) -> None:
        due = [(r, seen) for r, seen in sorted(self.rounds.items())
               if seen.due is not None and now - seen.due >= self.debounce]
        if not due or self.desk.store.waiting():
            return  # sets still on their way to the folder: they are part of the scoring
        round_no, seen = due[0]
        seen.due = None
        task = asyncio.get_running_loop().create_task(self._score(round_no, seen.results))
        self._scoring = (round_no, task)

    async def _score(self, round_no: int, results: tuple | None) -> None:
        seen = self.rounds[round_no]
        try:
            done = await asyncio.to_thread(score_if_due, self.path, round_no)
        except Exception as failure:
            state = (results, self._ledger, str(failure))
            if state not in seen.reported:
                seen.reported.add(state)
                if isinstance(failure, GuandanError):
                    log.warning("round %s was not scored automatically: %s", round_no,
                                failure)
                else:
                    log.error("round %s's automatic scoring failed (%s: %s); the server "
                              "goes on, score it with `guandan-dup event score`", round_no,
                              type(failure).__name__, failure, exc_info=failure)
            done = None
        finally:
            self._scoring = None
        if done is None:
            return
        if done.why.startswith("busy"):
            seen.due = seen.due or time.monotonic()  # a command holds the folder: later
            return
        if not done.scored:
            return
        # its parts written whole are no change: a write after the scoring's lock makes
        # other stamps, so the round is due again then
        seen.results, seen.due = done.stamps, None
        self.scorings += 1
        standings_file, _ = self._files(round_no)
        with suppress(OSError, ValueError):
            self.ours.add(await asyncio.to_thread(footer_digest, standings_file))
        log.info("round %s scored automatically in %.1f s (every set stored)", round_no,
                 done.seconds)
        for warning in done.warnings:
            log.warning("round %s: %s", round_no, warning)
        seen.standings = file_stamp(standings_file)
        await self._journal(round_no)
