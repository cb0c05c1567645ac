"""A round's full standings after its last result: platform pushes, ``serve --auto-score``,
the feed's standings event.

    python benchmarks/live.py --platform --standings [--tables 250000] [--clients 4]
                              [--batch 1000] [--event DIR] [--keep DIR]
    python benchmarks/live_standings.py [--tables 250000] ...      (the same)

Issue 24's second scale goal: an online event of ``--tables`` tables (4 players each, 2 sets
of 6 boards, groups of at most 1,000 so the plan allows it) is made with the library
functions ``event init``, ``event deal`` and ``event seat`` call, each step timed (a
director making a million-player event waits that long); round 1 is opened and a platform's
token made. ``guandan-dup serve DIR --auto-score`` runs on 127.0.0.1 and ``--clients``
clients push every set's final levels in batches of ``--batch`` (``POST /api/v1/results``).
Printed: the push's results/s, then the seconds from the last acknowledged result to (a)
the round's results (results.parquet and the parts the store appends) holding every set
(the store) and (b) the feed's ``standings`` event of the round with ``"complete": true``
(the server's scoring), read from the last results on as a platform following the feed
would, against the goal of 30 s; the server's own log lines on scoring and storing.

``--event DIR`` starts from a folder an earlier run kept (``--keep DIR``, before pushing:
``--make-only``), copied so it can be used again; making a million-player event takes
minutes, the measured steps say how many.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from live import (  # noqa: E402
    ROUND,
    free_port,
    machine_load,
    players_csv,
    start_server,
)
from live_platform import cli, items_of  # noqa: E402

from guandan_dup.event import (  # noqa: E402
    EventFolder,
    create_event,
    deal_round,
    seat_event_round,
)
from guandan_dup.event.parts import stored_keys  # noqa: E402
from guandan_dup.event.transaction import writing  # noqa: E402

GOAL_S = 30.0
MAX_GROUPS = 1000


def make_event(path: Path, tables: int) -> dict[str, float]:
    """An individual event of ``tables`` tables, round 1 dealt, seated and open; the
    seconds each step took."""
    took = {}
    per_group = max(10, math.ceil(tables / MAX_GROUPS))
    with tempfile.TemporaryDirectory() as scratch:
        players = players_csv(Path(scratch), tables)
        start = time.perf_counter()
        create_event(path, players, min(per_group, tables), 2, 6, 1, name="standings bench")
        took["event init"] = time.perf_counter() - start
    with writing(path, "benchmarks/live_standings.py", wait=30) as folder:
        start = time.perf_counter()
        deal_round(folder, ROUND, show_progress=False)
        took["event deal"] = time.perf_counter() - start
        start = time.perf_counter()
        seat_event_round(folder, ROUND, with_cards=False)  # a platform prints no cards
        took["event seat"] = time.perf_counter() - start
    start = time.perf_counter()
    cli("event", "open", str(path), "--round", str(ROUND))
    took["event open"] = time.perf_counter() - start
    return took



async def push_all(port: int, header: dict, batches: list[list[dict]], clients: int
                   ) -> tuple[int, float, float]:
    """Every batch pushed (resent until answered): (results acknowledged, seconds, the
    ``time.monotonic()`` of the last acknowledgement)."""
    queue: asyncio.Queue = asyncio.Queue()
    for batch in batches:
        queue.put_nowait(batch)
    acked, last = [0], [0.0]

    async def client() -> None:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=120) as http:
            while not queue.empty():
                batch = queue.get_nowait()
                while True:
                    try:
                        answer = await http.post("/api/v1/results", json={"results": batch},
                                                 headers=header)
                    except httpx.TransportError:
                        await asyncio.sleep(0.2)
                        continue
                    if answer.status_code == 200:
                        break
                    await asyncio.sleep(0.2)
                acked[0] += sum(r.get("state") == "verified" for r in answer.json()["results"])
                last[0] = time.monotonic()

    start = time.monotonic()
    await asyncio.gather(*(client() for _ in range(clients)))
    return acked[0], time.monotonic() - start, last[0]


def wait_standings(http: httpx.Client, header: dict, after: str, round_dir: Path,
                   expected: int, timeout: float) -> tuple[float | None, float | None, dict]:
    """Poll the feed from ``after`` for round 1's complete standings event and the round's
    results (results.parquet and the parts the store appended) for every set: (monotonic
    time of each, the event)."""
    stored_at = standings_at = None
    event: dict = {}
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and standings_at is None:
        page = http.get("/api/v1/feed", params={"after": after, "limit": 5000},
                        headers=header).json()
        for found in page["events"]:
            if (found["type"] == "standings" and found["round"] == ROUND
                    and found["complete"]):
                standings_at, event = time.monotonic(), found
        after = page["next"]
        if stored_at is None:
            try:
                keys = stored_keys(round_dir)
                if keys is not None and len(keys) >= expected:
                    stored_at = time.monotonic()
            except OSError:
                pass
        if standings_at is None:
            time.sleep(0.2)
    return stored_at, standings_at, event


def run_standings(args, path: Path, scratch: Path) -> None:
    """The benchmark (module docstring); ``path``: where the event folder is made."""
    if args.event is not None:
        shutil.copytree(args.event, path)
        print(f"event copied from {args.event}")
    else:
        took = make_event(path, args.tables)
        print(f"made {args.tables:,} tables ({4 * args.tables:,} players){machine_load()}: "
              + ", ".join(f"{step} {seconds:.1f} s" for step, seconds in took.items()))
        if args.make_only:
            return
    token = cli("event", "tokens", str(path), "--platform", "bench").split()[-1]
    header = {"Authorization": f"Bearer {token}"}
    items = items_of(EventFolder.open(path).plan, args.seed)
    batches = [items[i:i + args.batch] for i in range(0, len(items), args.batch)]
    port = free_port()
    log = scratch / "serve.log"
    started = time.monotonic()
    server = start_server(path, port, log, "--auto-score", wait=300)
    print(f"server ready in {time.monotonic() - started:.1f} s; pushing {len(items):,} "
          f"results in {len(batches):,} batches of {args.batch:,} from {args.clients} "
          f"clients{machine_load()}")
    try:
        acked, wall, last = asyncio.run(push_all(port, header, batches, args.clients))
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as http:
            # read from the last results on, as a platform following the feed is: every
            # result has a cursor (its journal sequence number) below the standings event's,
            # and paging through the 500,000 result events first took 10 s more
            stored_at, standings_at, event = wait_standings(
                http, header, str(max(0, acked - args.batch)), path / "rounds" / str(ROUND),
                len(items), args.timeout)
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
    print(f"pushed          {acked:,} of {len(items):,} acknowledged in {wall:.1f} s: "
          f"{acked / wall:,.0f} results/s")
    stored = f"{stored_at - last:.1f} s" if stored_at else f"not within {args.timeout:.0f} s"
    print(f"results         every set stored {stored} after the last acknowledged result")
    if standings_at is None:
        print(f"standings       no complete standings event within {args.timeout:.0f} s   "
              f"goal < {GOAL_S:.0f} s: MISSED")
    else:
        seconds = standings_at - last
        print(f"standings       event (cursor {event['cursor']}, {event['players']:,} players) "
              f"{seconds:.1f} s after the last acknowledged result   goal < {GOAL_S:.0f} s: "
              f"{'met' if seconds < GOAL_S else 'MISSED'}")
    lines = [line for line in log.read_text(errors="replace").splitlines()
             if "scored" in line or "stored" in line or "ERROR" in line or "WARNING" in line]
    for line in lines[-8:]:
        print(f"  server: {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    parser.add_argument("--clients", type=int, default=4, help="clients pushing (default 4)")
    parser.add_argument("--batch", type=int, default=1000, help="results a batch (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="draws the finishing orders")
    parser.add_argument("--tables", type=int, default=250_000, help="tables (default 250,000)")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="make the event folder here (must not exist) and keep it")
    main_with(parser.parse_args())


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """This benchmark's own options (``benchmarks/live.py`` adds them too)."""
    parser.add_argument("--event", type=Path, metavar="DIR",
                        help="with --platform: start from a copy of this kept event folder "
                        "(made by --standings --keep DIR --make-only)")
    parser.add_argument("--make-only", action="store_true",
                        help="with --standings --keep DIR: make the event and stop")
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="with --standings: seconds to wait for the standings event")


def main_with(args) -> None:
    scratch = Path(tempfile.mkdtemp(prefix="live-standings-"))
    path = args.keep or scratch / "event"
    try:
        run_standings(args, path, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
