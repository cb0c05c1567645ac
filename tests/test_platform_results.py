"""Issue 24 item 3: a platform pushes results by the batch (``POST /api/v1/results``); each
counts as verified, takes the checks of a table's entry and the journal and store path into
results.parquet, and its id is idempotent per platform across batches and restarts."""

from __future__ import annotations

import json

import httpx
import pytest
from event_support import run
from live_support import individual, running, tokens, wait_for
from platform_support import RESULTS, client_of, item, opened, platform, push

from guandan_dup.event import EventFolder
from guandan_dup.event.ingest import read_entered
from guandan_dup.levels import LEVEL_NAMES
from guandan_dup.live.pushes import MAX_ITEMS


@pytest.fixture
def served(tmp_path):
    """The 17-player event served, a client and a platform's header."""
    folder = individual(tmp_path)
    header = platform(folder)
    with running(folder, store_delay=0.05) as base, httpx.Client(base_url=base) as client:
        yield folder, client, header


def test_issue24_every_item_is_answered_in_the_order_given(served):
    event, client, header = served
    run("event", "open", event, "--round", 1)
    answers = push(client, header, [
        item("a", 1), "not an object", {"round": 1}, item("b", 9),
        item("c", 2, ns="Z"), item("d", 3), item("e", 1, ns="4"),
        {"id": "f", "round": 1, "table": 4, "board": 1, "finish": "NS"}])
    assert answers[0] == {"id": "a", "state": "verified"}
    assert answers[1]["id"] is None and answers[1]["problems"][0]["field"] is None
    assert answers[2]["id"] is None and answers[2]["problems"][0]["field"] == "id"
    assert answers[3]["id"] == "b" and answers[3]["problems"][0]["field"] == "table"
    assert answers[4]["id"] == "c" and answers[4]["problems"][0]["field"] == "ns_level"
    assert answers[5] == {"id": "d", "state": "verified"}
    assert answers[6]["id"] == "e" and "already verified" in answers[6]["problems"][0]["message"]
    assert answers[7] == {"id": "f", "state": "entered"}  # set 1's boards 2 and 3 to come


def test_issue24_the_same_id_again_answers_as_before_and_stores_once(served):
    event, client, header = served
    run("event", "open", event, "--round", 1)
    first = push(client, header, [item("x1", 1)])
    again = push(client, header, [item("x1", 1)])
    assert first == again == [{"id": "x1", "state": "verified"}]
    wait_for(lambda: (r := EventFolder.open(event).read(1, "results")) is not None and len(r))
    entered = read_entered(EventFolder.open(event), 1)
    assert len(entered) == 1 and entered["source"].tolist() == ["platform tencent"]


def test_issue24_the_same_id_with_another_body_is_a_problem_of_that_item(served):
    event, client, header = served
    run("event", "open", event, "--round", 1)
    push(client, header, [item("x1", 1)])
    answers = push(client, header, [item("x1", 2), item("x2", 2)])
    assert answers[0] == {"id": "x1", "problems": [
        {"field": "id", "message": "id 'x1' was already used for another result; a new "
                                   "result needs a new id"}]}
    assert answers[1] == {"id": "x2", "state": "verified"}


def test_issue24_a_round_not_open_takes_no_platform_result(served):
    _, client, header = served
    answers = push(client, header, [item("a", 1), item("b", 2)])
    for answer in answers:
        assert "round 1 is not open" in answer["problems"][0]["message"], answer


@pytest.mark.parametrize("body, status, message", [
    (b"not json", 400, "not JSON"),
    (b"[]", 400, "expected a JSON object"),
    (b'{"results": 3}', 400, "expected a JSON object"),
    (json.dumps({"results": [{"id": str(i)} for i in range(MAX_ITEMS + 1)]}).encode(), 413,
     "at most 1000"),
])
def test_issue24_a_batch_that_is_not_a_list_of_results_is_refused(served, body, status,
                                                                  message):
    _, client, header = served
    answer = client.post(RESULTS, content=body, headers=header)
    assert answer.status_code == status
    assert message in answer.json()["error"]


@pytest.mark.parametrize("who, status", [("none", 401), ("unknown", 401), ("table", 403),
                                         ("director", 403)])
def test_issue24_results_need_a_platform_token(served, who, status):
    event, client, _ = served
    keys = tokens(event)
    header = {"none": {}, "unknown": {"Authorization": "Bearer nope"},
              "table": keys.table(1), "director": keys.boss}[who]
    answer = client.post(RESULTS, json={"results": []}, headers=header)
    assert answer.status_code == status and "error" in answer.json()


def test_issue24_platform_results_reach_results_parquet_and_ids_survive_a_restart(tmp_path):
    event, header = opened(tmp_path)
    with client_of(event) as client:
        assert push(client, header, [item("p1", 1), item("p2", 2, ns="3", ew="4")]) == [
            {"id": "p1", "state": "verified"}, {"id": "p2", "state": "verified"}]
    results = EventFolder.open(event).read(1, "results")
    got = sorted((t, s, LEVEL_NAMES[n], LEVEL_NAMES[e]) for t, s, n, e in zip(
        results["table"], results["set"], results["ns_level"], results["ew_level"],
        strict=True))
    assert got == [(1, 1, "5", "2"), (2, 1, "3", "4")]
    with client_of(event) as client:
        answers = push(client, header, [item("p1", 1), item("p2", 1)])
    assert answers[0] == {"id": "p1", "state": "verified"}
    assert "already used" in answers[1]["problems"][0]["message"]
    assert len(EventFolder.open(event).read(1, "results")) == 2
