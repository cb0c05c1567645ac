"""A platform pushing a round's results by the batch, with a kill -9 of the server midway.

    python benchmarks/live.py --platform [--tables 10000] [--sets 2] [--clients 4]
                              [--batch 1000] [--seed 1] [--event DIR]

Issue 24's scale test: an individual event of ``--tables`` tables is made, dealt and seated
without table cards (``live.make_event``) and round 1 opened (``event open``), or a folder
kept by ``--standings --keep DIR --make-only`` is copied (``--event DIR``: 250,000 tables
take minutes to make); a platform's token is made (``event tokens --platform``);
``guandan-dup serve`` runs on 127.0.0.1 and ``--clients`` asyncio clients push every set's
final levels in batches of ``--batch`` (``POST /api/v1/results``), each resending a batch
until it is answered. When half the results are acknowledged the server is killed
(SIGKILL) and started again on the same port; the clients resend what was not answered
(the same ids: idempotent). Printed: results/s sustained (acknowledged results over the
time the server was up), p99 batch latency, the results lost (acknowledged but not in the
round's results after the restart: results.parquet and its parts) and doubled (a set
twice in them, or an id twice in the feed), and the feed read from the start with
``limit=5000`` (events/s).
"""

from __future__ import annotations

import asyncio
import random
import shutil
import subprocess
import time
from pathlib import Path

import httpx
from live import (
    CLI,
    ROUND,
    at,
    command_env,
    free_port,
    machine_load,
    make_event,
    percentiles,
    play,
    start_server,
    stop_server,
)

from guandan_dup.event import EventFolder
from guandan_dup.levels import LEVEL_NAMES

RESULTS_GOAL = 5000
FEED_GOAL = 20000


def cli(*args: str) -> str:
    done = subprocess.run([*CLI, *args], capture_output=True, text=True, env=command_env())
    if done.returncode != 0:
        raise SystemExit(f"guandan-dup {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


def items_of(plan, seed: int) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for table, set_no in plan.planned_results(ROUND):
        _, final = play(rng, plan.boards_of_set(set_no), False)
        out.append({"id": f"r{table}.{set_no}", "round": ROUND, "table": table, "set": set_no,
                    "ns_level": LEVEL_NAMES[final.ns_level],
                    "ew_level": LEVEL_NAMES[final.ew_level]})
    return out


class Push:
    """The clients' shared state: batches to send, acknowledged ids, latencies."""

    def __init__(self, batches: list[list[dict]]) -> None:
        self.batches = asyncio.Queue()
        for batch in batches:
            self.batches.put_nowait(batch)
        self.acked: dict[str, dict] = {}
        self.problems: list[dict] = []
        self.latencies: list[float] = []
        self.resent = 0


async def client(port: int, header: dict, push: Push) -> None:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
        while not push.batches.empty():
            batch = push.batches.get_nowait()
            while True:
                start = time.perf_counter()
                try:
                    answer = await http.post("/api/v1/results", json={"results": batch},
                                             headers=header)
                except httpx.TransportError:
                    push.resent += 1
                    await asyncio.sleep(0.2)
                    continue
                if answer.status_code != 200:
                    push.resent += 1
                    await asyncio.sleep(0.2)
                    continue
                push.latencies.append(time.perf_counter() - start)
                for sent, got in zip(batch, answer.json()["results"], strict=True):
                    if got.get("state") == "verified":
                        push.acked[sent["id"]] = sent
                    else:
                        push.problems.append(got)
                break


async def pushing(port: int, header: dict, batches, clients: int, total: int, restart):
    push = Push(batches)
    tasks = [asyncio.create_task(client(port, header, push)) for _ in range(clients)]
    start = time.perf_counter()
    down = 0.0
    while len(push.acked) < total // 2 and not all(t.done() for t in tasks):
        await asyncio.sleep(0.01)
    if not all(t.done() for t in tasks):
        killed = time.perf_counter()
        await asyncio.to_thread(restart)
        down = time.perf_counter() - killed
    await asyncio.gather(*tasks)
    return push, time.perf_counter() - start, down


def read_feed(port: int, header: dict) -> tuple[list[dict], float]:
    events, after = [], ""
    start = time.perf_counter()
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
        while True:
            page = http.get("/api/v1/feed", params={"after": after, "limit": 5000},
                            headers=header).json()
            if not page["events"]:
                return events, time.perf_counter() - start
            events += page["events"]
            after = page["next"]


def wait_stored(path: Path, expected: int, timeout: float = 120.0):
    deadline = time.monotonic() + timeout
    results = None
    while time.monotonic() < deadline:
        try:
            results = EventFolder.open(path).read(ROUND, "results")
        except (OSError, ValueError):
            results = None
        if results is not None and len(results) >= expected:
            break
        time.sleep(0.5)
    return results


def run_platform(args, path: Path, scratch: Path) -> None:
    start = time.perf_counter()
    if args.event is not None:  # a kept event (live_standings.py --keep DIR --make-only)
        shutil.copytree(args.event, path)
        plan = EventFolder.open(path).plan
    else:
        plan = make_event(path, args.tables, args.sets, 6, cards=False)
        cli("event", "open", str(path), "--round", str(ROUND))
    token = cli("event", "tokens", str(path), "--platform", "bench").split()[-1]
    header = {"Authorization": f"Bearer {token}"}
    items = items_of(plan, args.seed)
    batches = [items[i:i + args.batch] for i in range(0, len(items), args.batch)]
    print(f"platform: {len(items):,} results ({args.tables:,} tables, {args.sets} sets) in "
          f"batches of {args.batch:,} from {args.clients} clients, {len(batches)} batches"
          f"{machine_load()}; event made in {time.perf_counter() - start:.1f} s")
    port = free_port()
    servers = [start_server(path, port, scratch / "serve.log")]

    def restart() -> None:
        servers[0].kill()  # SIGKILL: no shutdown, no flush
        servers[0].wait()
        servers.append(start_server(path, port, scratch / "serve2.log"))

    try:
        push, wall, down = asyncio.run(pushing(port, header, batches, args.clients,
                                               len(items), restart))
        results = wait_stored(path, len(push.acked))
        events, feed_wall = read_feed(port, header)
    finally:
        stop_server(servers[-1])
    stored: dict[tuple[int, int], int] = {}
    if results is not None:
        for t, s in zip(results["table"], results["set"], strict=True):
            stored[(int(t), int(s))] = stored.get((int(t), int(s)), 0) + 1
    lost = sum((a["table"], a["set"]) not in stored for a in push.acked.values())
    ids = [e["id"] for e in events]
    doubled = sum(n > 1 for n in stored.values()) + (len(ids) - len(set(ids)))
    up = wall - down
    rate = len(push.acked) / up if up > 0 else 0.0
    print(f"acknowledged    {len(push.acked):,} of {len(items):,} (problems "
          f"{len(push.problems)}; batches resent {push.resent}; "
          + (f"killed -9 and restarted midway, down {down:.1f} s)" if len(servers) > 1
             else "finished before the kill)"))
    print(f"results/s       {rate:,.0f} sustained (over {up:.1f} s up; {wall:.1f} s in all)"
          f"   goal >= {RESULTS_GOAL:,}: {'met' if rate >= RESULTS_GOAL else 'MISSED'}")
    print(f"batch latency   {percentiles(push.latencies)}   p99 {at(push.latencies, 0.99):.0f} ms")
    print(f"lost / doubled  {lost} / {doubled}   goal 0 / 0: "
          f"{'met' if not lost and not doubled else 'MISSED'}")
    feed_rate = len(events) / feed_wall if feed_wall > 0 else 0.0
    print(f"feed            {len(events):,} events read from the start in {feed_wall:.2f} s: "
          f"{feed_rate:,.0f} events/s   goal >= {FEED_GOAL:,}: "
          f"{'met' if feed_rate >= FEED_GOAL else 'MISSED'}")
