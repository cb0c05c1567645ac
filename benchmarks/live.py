"""Phones at every table of a large event: entry latency, lost entries, the board's delay.

    python benchmarks/live.py [--tables 500] [--concurrency 64] [--sets 2] [--boards-per-set 6]
                              [--seed 1] [--keep DIR]

Issue 22's end-of-round burst: an individual event of ``--tables`` tables (4 players each) is
created, dealt and seated with the library functions ``event init/deal/seat`` call; then
``guandan-dup serve DIR`` runs as a subprocess on 127.0.0.1, the table tokens come from
``guandan-dup event tokens DIR --round 1``, and an asyncio httpx loop of ``--concurrency``
phones (each its own connection, one request in flight, a table at a time, then the next
table waiting) enters every board of every table, board by board, as North-South's phones
would (``POST /api/v1/rounds/1/tables/T/entries``), each table then verifying its sets as
East-West would (``POST .../sets/S/verify``). Finishing orders are
legal and drawn from ``--seed``; one table in ten wins every board with a 双下 and passes A
early, so its sets stop before their last board, as at a real table.

Printed: the entries, the burst's wall time, entries per second, p50/p90/p99/max latency of
entries and of verifications, the requests the server refused (the 422s should be 0: every
entry is legal), the sets lost (verified at the table but missing from the director's
progress or from round 1's results, ``rounds/1/results.parquet`` and the parts the server
appended to it, or stored with other levels than the boards give), and the time from the
last verification until the public standings count every set and until the results hold
every set. The goals of the issue are printed beside them.
Client and server share the machine's cores, so the figures are those of one laptop doing
both; ``--keep DIR`` keeps the event folder (the server's journal included) for a look.

``--platform`` runs issue 24's platform benchmark instead (``benchmarks/live_platform.py``):
results pushed by the batch from ``--clients`` clients, a kill -9 of the server midway, the
feed read from the start. ``--platform --standings`` measures the round's standings after
its last result instead (``serve --auto-score``, ``benchmarks/live_standings.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import io
import os
import random
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx

import guandan_dup
from guandan_dup.event import create_event, deal_round, seat_event_round
from guandan_dup.event.parts import read_rows
from guandan_dup.event.plan import EventPlan
from guandan_dup.event.transaction import writing
from guandan_dup.rules.progression import SetState, apply_board, parse_finish

ROUND = 1
P99_GOAL_MS = 300
BOARD_GOAL_S = 5.0
RUNAWAY_SHARE = 0.1  # tables whose North-South win every board with a 双下 and pass A
CLI = [sys.executable, "-c", "from guandan_dup.cli import main; main()"]


@dataclass
class TableWork:
    """What one table's phones send: each set's finishing orders and the levels they give."""

    table: int
    token: str
    finishes: dict[int, list[tuple[int, str]]]  # set -> [(board, finish)]
    levels: dict[int, tuple[int, int]]  # set -> (ns_level, ew_level) as level indices


@dataclass
class Tally:
    """Latencies (seconds) and refusals, gathered by every request of the burst."""

    entries: list[float] = field(default_factory=list)
    verifications: list[float] = field(default_factory=list)
    refused: dict[tuple[str, int], int] = field(default_factory=dict)
    messages: list[str] = field(default_factory=list)
    resent: int = 0
    last_verified: float = 0.0
    client_cpu: float = 0.0  # CPU seconds the phones' loop took from the cores it shares

    def refuse(self, what: str, response: httpx.Response) -> None:
        key = (what, response.status_code)
        self.refused[key] = self.refused.get(key, 0) + 1
        if len(self.messages) < 5:
            self.messages.append(f"{what} {response.status_code}: {response.text[:300]}")


def players_csv(scratch: Path, tables: int) -> Path:
    """A players file of ``4 * tables`` players (ids ``P0000001``...) in ``scratch``."""
    players = scratch / "players.csv"
    with players.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["id", "name"])
        writer.writerows((f"P{i:07d}", f"选手{i}") for i in range(1, 4 * tables + 1))
    return players


def make_event(path: Path, tables: int, sets: int, boards_per_set: int,
               cards: bool = True) -> EventPlan:
    """Create, deal and seat round 1 of an individual event of ``tables`` full tables, exactly
    as ``event init``, ``event deal`` and ``event seat`` do (groups of 10 tables, more when
    the plan's 1,000 groups need it); ``cards=False``: seated without table cards, as
    ``event seat --no-cards`` (a platform prints none; a million players' cards take 14
    minutes)."""
    per_group = max(10, -(-tables // 1000))
    with tempfile.TemporaryDirectory() as scratch:
        create_event(path, players_csv(Path(scratch), tables), min(per_group, tables), sets,
                     boards_per_set, 1, name="live benchmark")
    with writing(path, "benchmarks/live.py", wait=30) as folder:
        deal_round(folder, ROUND, show_progress=False)
        seat_event_round(folder, ROUND, with_cards=cards)
        return folder.plan


def play(
    rng: random.Random, boards: range, runaway: bool
) -> tuple[list[tuple[int, str]], SetState]:
    """Legal finishing orders for a set's boards, stopping after the board that passes A."""
    state, played = SetState.start(), []
    for board in boards:
        finish = "NSEW" if runaway else "".join(rng.sample("NESW", 4))
        state = apply_board(state, parse_finish(finish))
        played.append((board, finish))
        if state.ended:
            break
    return played, state


def plan_work(plan: EventPlan, tokens: dict[int, str], seed: int) -> list[TableWork]:
    """Every table's boards and expected final levels, drawn from ``seed``."""
    rng = random.Random(seed)
    work = {t: TableWork(t, tokens[t], {}, {}) for t in sorted(tokens)}
    for table, set_no in plan.planned_results(ROUND):
        finishes, final = play(rng, plan.boards_of_set(set_no), rng.random() < RUNAWAY_SHARE)
        work[table].finishes[set_no] = finishes
        work[table].levels[set_no] = (final.ns_level, final.ew_level)
    return list(work.values())


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def command_env() -> dict[str, str]:
    """The environment for ``guandan-dup`` subprocesses: they import the very package this
    script imported (a checkout run with PYTHONPATH, or the installed one)."""
    env = dict(os.environ)
    package_root = str(Path(guandan_dup.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    return env


def start_server(path: Path, port: int, log: Path, *options: str,
                 wait: float = 60) -> subprocess.Popen:
    """``guandan-dup serve DIR --port P [OPTIONS]``, ready once ``GET /api/v1/health``
    answers 200 (within ``wait`` seconds: a million players' event takes half a minute)."""
    with log.open("wb") as out:
        server = subprocess.Popen([*CLI, "serve", str(path), "--port", str(port), *options],
                                  stdout=out, stderr=subprocess.STDOUT, env=command_env())
    deadline = time.monotonic() + wait
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=1) as client:
        while time.monotonic() < deadline:
            if server.poll() is not None:
                sys.exit(f"guandan-dup serve stopped (exit {server.returncode}):\n"
                         + log.read_text(errors="replace"))
            try:
                if client.get("/api/v1/health").status_code == 200:
                    return server
            except httpx.TransportError:
                pass
            time.sleep(0.1)
    stop_server(server)
    sys.exit(f"guandan-dup serve did not answer /api/v1/health within {wait:.0f} s:\n"
             + log.read_text(errors="replace"))


def stop_server(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def table_tokens(path: Path) -> dict[int, str]:
    """Table -> Bearer token, from ``event tokens``' CSV (the token is the url's last path
    segment or its ``token=`` value)."""
    done = subprocess.run([*CLI, "event", "tokens", str(path), "--round", str(ROUND)],
                          capture_output=True, text=True, env=command_env())
    if done.returncode != 0:
        sys.exit(f"guandan-dup event tokens failed:\n{done.stdout}{done.stderr}")
    tokens = {}
    for row in csv.DictReader(io.StringIO(done.stdout)):
        url = urlsplit(row["url"])
        query = parse_qs(url.query).get("token")
        tokens[int(row["table"])] = query[0] if query else url.path.rstrip("/").rsplit("/", 1)[-1]
    return tokens


async def send(client: httpx.AsyncClient, tally: Tally, url: str, token: str,
               body: dict | None) -> tuple[httpx.Response, float]:
    """POST as a phone's outbox does: resent with the same body (and id) until answered,
    after a short pause. The latency is that of the answered request."""
    headers = {"Authorization": f"Bearer {token}"}
    while True:
        start = time.perf_counter()
        try:
            response = await client.post(url, json=body, headers=headers)
        except httpx.TransportError:
            tally.resent += 1
            await asyncio.sleep(0.2)
            continue
        return response, time.perf_counter() - start


async def run_table(client: httpx.AsyncClient, tally: Tally, work: TableWork) -> None:
    """North-South enter every board of the table's sets, then East-West verify each set."""
    base = f"/api/v1/rounds/{ROUND}/tables/{work.table}"
    for set_no, boards in work.finishes.items():
        for board, finish in boards:
            body = {"id": f"bench-{work.table}-{set_no}-{board}", "set": set_no,
                    "board": board, "finish": finish}
            response, seconds = await send(client, tally, f"{base}/entries", work.token, body)
            if response.status_code == 201:
                tally.entries.append(seconds)
            else:
                tally.refuse("entry", response)
    for set_no in work.finishes:
        response, seconds = await send(client, tally, f"{base}/sets/{set_no}/verify",
                                       work.token, None)
        if response.status_code == 200:
            tally.verifications.append(seconds)
            tally.last_verified = time.perf_counter()
        else:
            tally.refuse("verify", response)


async def phone(port: int, tables: asyncio.Queue, tally: Tally, tls: ssl.SSLContext) -> None:
    """One phone at a time per connection: take the next table waiting, send all of it.

    Each phone has its own client of one connection, as a real phone has: one shared pool
    of many connections costs httpx's pool time in proportion to its connections for every
    request, which at 64 made the client, not the server, the bottleneck."""
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60, verify=tls,
                                 limits=httpx.Limits(max_connections=1)) as client:
        while not tables.empty():
            await run_table(client, tally, tables.get_nowait())


async def burst(port: int, tables: list[TableWork], concurrency: int) -> tuple[Tally, float]:
    """Every table entered by ``concurrency`` phones at once (each taking the next table
    when done), so at most ``concurrency`` requests are in flight; the wall time."""
    tally, waiting = Tally(), asyncio.Queue()
    for work in tables:
        waiting.put_nowait(work)
    tls = ssl.create_default_context()  # one, not one per client: loading it takes 0.1 s
    start, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(phone(port, waiting, tally, tls) for _ in range(concurrency)))
    tally.client_cpu = time.process_time() - cpu
    return tally, time.perf_counter() - start


def board_complete(standings: dict, sets: list[int]) -> bool:
    """The public standings count every set and wait for no table."""
    waiting = [w for w in standings["waiting"] if w["tables"]]
    counted = {c["set"] for c in standings["counted_sets"] if c["round"] == ROUND}
    return not waiting and set(sets) <= counted


def stored_results(path: Path) -> dict[tuple[int, int], tuple[int, int]] | None:
    """(table, set) -> (ns_level, ew_level) of round 1's results: rounds/1/results.parquet
    and the parts the server appended to it (None before there are any)."""
    try:
        rows = read_rows(path / "rounds" / str(ROUND), "results")
    except (OSError, ValueError):  # being replaced (Windows), or a part moved meanwhile
        return None
    if rows is None:
        return None
    levels = rows[["ns_level", "ew_level"]].astype(object).where(rows[
        ["ns_level", "ew_level"]].notna(), None)  # an artificial result has none
    return {(int(t), int(s)): (ns, ew) for t, s, ns, ew in zip(
        rows["table"], rows["set"], levels["ns_level"], levels["ew_level"], strict=True)}


def wait_for_board(port: int, path: Path, sets: list[int], expected: int,
                   since: float, timeout: float = 60) -> tuple[float | None, float | None]:
    """Seconds from ``since`` (the last verification) until the board counts every set and
    until the round's results hold every set (None: not within ``timeout``)."""
    board = stored = None
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
        while (board is None or stored is None) and time.perf_counter() - since < timeout:
            if board is None:
                response = client.get(f"/api/v1/rounds/{ROUND}/standings")
                if response.status_code == 200 and board_complete(response.json(), sets):
                    board = time.perf_counter() - since
            if stored is None and len(stored_results(path) or {}) >= expected:
                stored = time.perf_counter() - since
            time.sleep(0.05)
    return board, stored


def lost_sets(port: int, path: Path, tables: list[TableWork]) -> tuple[int, int, int]:
    """Sets verified at the tables but not verified in the director's progress, not in the
    round's results, or stored there with other levels than their boards give."""
    token = (path / "director.token").read_text(encoding="utf-8").strip()
    progress = httpx.get(f"http://127.0.0.1:{port}/api/v1/rounds/{ROUND}/progress",
                         headers={"Authorization": f"Bearer {token}"}, timeout=30).json()
    verified = {(s["table"], s["set"]) for s in progress["sets"] if s["state"] == "verified"}
    stored = stored_results(path) or {}
    expected = {(w.table, s): levels for w in tables for s, levels in w.levels.items()}
    return (len(expected.keys() - verified), len(expected.keys() - stored.keys()),
            sum(stored[k] != levels for k, levels in expected.items() if k in stored))


def at(seconds: list[float], q: float) -> float:
    """The ``q`` quantile of ``seconds`` in milliseconds (nearest rank; 0 when empty)."""
    if not seconds:
        return 0.0
    ordered = sorted(seconds)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))] * 1000


def percentiles(seconds: list[float]) -> str:
    """p50/p90/p99/max in milliseconds."""
    if not seconds:
        return "none"
    return (f"p50 {at(seconds, 0.50):6.1f}  p90 {at(seconds, 0.90):6.1f}  "
            f"p99 {at(seconds, 0.99):6.1f}  max {max(seconds) * 1000:6.1f} ms")


def machine_load() -> str:
    """The load average before the burst, where the system has one: figures taken beside
    other work are slower, and this says so."""
    if not hasattr(os, "getloadavg"):  # Windows
        return ""
    return f" (load average {os.getloadavg()[0]:.1f})"


def seconds_text(value: float | None) -> str:
    return "not within 60 s" if value is None else f"{value:.2f} s"


def report(tally: Tally, wall: float, tables: list[TableWork], lost: tuple[int, int, int],
           board: float | None, stored: float | None) -> None:
    planned = sum(len(b) for w in tables for b in w.finishes.values())
    sets = sum(len(w.levels) for w in tables)
    entries = len(tally.entries)
    meets = entries > 0 and at(tally.entries, 0.99) < P99_GOAL_MS
    print(f"entries         {entries:,} acknowledged of {planned:,} sent "
          f"({sets:,} sets, {len(tally.verifications):,} verified)")
    print(f"wall time       {wall:.2f} s (entries and verifications; the phones' loop took "
          f"{tally.client_cpu:.1f} s of CPU of it)")
    print(f"entries/s       {entries / wall:,.0f}")
    print(f"entry latency   {percentiles(tally.entries)}   "
          f"goal p99 < {P99_GOAL_MS} ms: {'met' if meets else 'MISSED'}")
    print(f"verify latency  {percentiles(tally.verifications)}")
    refusals = sum(tally.refused.values())
    print(f"refused         {refusals}"
          + "".join(f", {n} {what} {status}" for (what, status), n in tally.refused.items())
          + f" (422s expected 0); resent after a dropped connection: {tally.resent}")
    for message in tally.messages:
        print(f"  {message}")
    print(f"lost            {lost[0]} sets not verified in progress, {lost[1]} not in "
          f"the results, {lost[2]} stored with other levels   "
          f"goal 0: {'met' if not any(lost) else 'MISSED'}")
    print(f"board updated   {seconds_text(board)} after the last verification   "
          f"goal < {BOARD_GOAL_S:g} s: "
          f"{'met' if board is not None and board < BOARD_GOAL_S else 'MISSED'}")
    print(f"results stored  {seconds_text(stored)} after the last verification (every set)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500, help="tables (default 500)")
    parser.add_argument("--concurrency", type=int, default=64,
                        help="phones sending at once, so requests in flight at most (default 64)")
    parser.add_argument("--sets", type=int, default=2, help="sets in the round (default 2)")
    parser.add_argument("--boards-per-set", type=int, default=6,
                        help="boards in a set (default 6)")
    parser.add_argument("--seed", type=int, default=1, help="draws the finishing orders")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="make the event folder here (must not exist) and keep it")
    parser.add_argument("--platform", action="store_true",
                        help="issue 24: a platform's batches instead of phones "
                        "(benchmarks/live_platform.py)")
    parser.add_argument("--clients", type=int, default=4,
                        help="with --platform: clients pushing at once (default 4)")
    parser.add_argument("--batch", type=int, default=1000,
                        help="with --platform: results a batch (default 1000)")
    parser.add_argument("--standings", action="store_true",
                        help="with --platform: seconds from the last result to the round's "
                        "standings event (benchmarks/live_standings.py)")
    from live_standings import add_arguments, main_with
    add_arguments(parser)
    args = parser.parse_args()
    if args.platform and args.standings:
        return main_with(args)
    scratch = Path(tempfile.mkdtemp(prefix="live-bench-"))  # the server's log, the event
    path = args.keep or scratch / "event"
    if args.platform:
        from live_platform import run_platform
        try:
            run_platform(args, path, scratch)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return
    try:
        start = time.perf_counter()
        plan = make_event(path, args.tables, args.sets, args.boards_per_set)
        print(f"{args.tables} tables ({4 * args.tables:,} players), {args.sets} sets of "
              f"{args.boards_per_set} boards, concurrency {args.concurrency}, "
              f"{os.cpu_count()} cores shared by client and server{machine_load()}; event "
              f"made in {time.perf_counter() - start:.1f} s")
        port = free_port()
        server = start_server(path, port, scratch / "serve.log")
        try:
            tables = plan_work(plan, table_tokens(path), args.seed)
            tally, wall = asyncio.run(burst(port, tables, args.concurrency))
            expected = sum(len(w.levels) for w in tables)
            board, stored = wait_for_board(port, path, plan.sets_of_round(ROUND), expected,
                                           tally.last_verified)
            lost = lost_sets(port, path, tables)
        finally:
            stop_server(server)
        report(tally, wall, tables, lost, board, stored)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
