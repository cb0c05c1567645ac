"""Issue 24 item 6: ``/api/v1/openapi.json`` describes every route of the JSON API, and
every path it describes is served."""

from __future__ import annotations

import re

import httpx
from live_support import individual, running

from guandan_dup.live.app import create_app
from guandan_dup.live.openapi import document


def served_operations(app) -> set[tuple[str, str]]:
    """(method, OpenAPI path) of every /api/v1 route of the app (HEAD aside)."""
    out = set()
    for route in app.routes:
        path = getattr(route, "path", "")
        if path.startswith("/api/v1"):
            openapi_path = re.sub(r"\{(\w+):\w+\}", r"{\1}", path)
            out |= {(m.lower(), openapi_path) for m in route.methods if m != "HEAD"}
    return out


def test_issue24_openapi_describes_every_route_and_only_routes_that_exist(tmp_path):
    described = {(method, path) for path, operations in document()["paths"].items()
                 for method in operations}
    served = served_operations(create_app(tmp_path))
    assert described - served == set(), "described but not served"
    assert served - described == set(), "served but not described"


def test_issue24_openapi_json_is_served_as_openapi_3_1(tmp_path):
    event = individual(tmp_path)
    with running(event) as base:
        answer = httpx.get(f"{base}/api/v1/openapi.json")
    assert answer.status_code == 200
    body = answer.json()
    assert body["openapi"] == "3.1.0" and body == document()
    for operations in body["paths"].values():
        for operation in operations.values():
            assert operation["responses"] and operation["summary"]
