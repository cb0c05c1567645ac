"""Helpers for the platform API's tests (issue 24): a platform's token, a result item and a
batch pushed to a running server."""

from __future__ import annotations

import time
from contextlib import contextmanager

import httpx
from event_support import run
from live_support import individual, running

from guandan_dup.live.tokens import RECHECK

RESULTS = "/api/v1/results"


def platform(event, name: str = "tencent") -> dict:
    token = run("event", "tokens", event, "--platform", name).split()[-1]
    time.sleep(RECHECK + 0.1)  # the running server sees the new token
    return {"Authorization": f"Bearer {token}"}


def push(client, header, items) -> list[dict]:
    answer = client.post(RESULTS, json={"results": items}, headers=header)
    assert answer.status_code == 200, answer.text
    return answer.json()["results"]


def item(i: str, table: int, set_no: int = 1, ns: str = "5", ew: str = "2", **more) -> dict:
    return {"id": i, "round": 1, "table": table, "set": set_no, "ns_level": ns,
            "ew_level": ew, **more}


def opened(tmp_path) -> tuple:
    """The 17-player event with round 1 open for the platform ``tencent``: (folder, its
    header)."""
    folder = individual(tmp_path)
    header = platform(folder)
    run("event", "open", folder, "--round", 1)
    return folder, header


@contextmanager
def client_of(folder):
    """An ``httpx`` client of ``folder`` served by a real uvicorn (``live_support``)."""
    with running(folder, store_delay=0.05) as base, httpx.Client(base_url=base) as client:
        yield client
