"""Issue 22's pinned JSON API, against a real uvicorn on 127.0.0.1 (``live_support``).

Entries (201 / 200 / 409 / 422), verification, disputes, the table's view, the director's
progress and queue, tokens (401 / 403), errors as JSON, and verified sets reaching
rounds/R/results.parquet exactly as ``event ingest`` stores a file's rows (SPEC 5, 11)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time

import httpx
import pandas as pd
import pytest
from event_support import run, team_knockout_by_lot, write
from live_support import (
    ROOT,
    individual,
    knockout,
    running,
    seats,
    teams,
    tokens,
    wait_for,
)

from guandan_dup.errors import InvalidResultsError
from guandan_dup.event import EventFolder, ingest
from guandan_dup.event.ingest import read_entered
from guandan_dup.ledger import load
from guandan_dup.live.tokens import RECHECK, revoke

ENTRIES = "/api/v1/rounds/1/tables/{}/entries"


@pytest.fixture
def event(tmp_path):
    return individual(tmp_path)


@pytest.fixture
def served(event):
    with running(event, store_delay=0.05) as base, httpx.Client(base_url=base) as client:
        yield event, client, tokens(event)


def post(client, table, body, headers):
    return client.post(ENTRIES.format(table), json=body, headers=headers)


def boards(client, keys, table, set_no, finishes, first=1, prefix="b"):
    for i, finish in enumerate(finishes):
        answer = post(client, table, {"id": f"{prefix}{table}.{set_no}.{i}", "set": set_no,
                                      "board": first + i, "finish": finish}, keys.table(table))
        assert answer.status_code == 201, answer.text
    return answer.json()


def stored(event, round_no=1):
    return EventFolder.open(event).read(round_no, "results")


def test_pinned_an_entry_is_201_the_same_again_200_another_body_409(served):
    _, client, keys = served
    body = {"id": "e1", "set": 1, "ns_level": "5", "ew_level": "2"}
    first = post(client, 1, body, keys.table(1))
    assert first.status_code == 201
    assert first.json() == {"id": "e1", "state": "entered", "round": 1, "table": 1, "set": 1,
                            "levels": {"ns": "5", "ew": "2"}, "played": 0, "complete": True}
    again = post(client, 1, body, keys.table(1))
    assert (again.status_code, again.json()) == (200, first.json())
    other = post(client, 1, body | {"ew_level": "3"}, keys.table(1))
    assert other.status_code == 409 and "already used" in other.json()["error"]


def test_pinned_invalid_is_422_with_every_problem_in_ingests_words(served):
    _, client, keys = served
    answer = post(client, 1, {"id": "e1", "set": 1, "ns_level": "A+", "ew_level": "Z"},
                  keys.table(1))
    assert answer.status_code == 422
    assert answer.json() == {"problems": [{"field": "ew_level", "message": (
        "value 'Z': unknown level; expected one of 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A, "
        "A+")}]}
    answer = post(client, 1, {"id": "e2", "set": 1, "ns_level": "A+", "ew_level": "2"},
                  keys.table(1))
    assert answer.status_code == 422
    assert "no set of at most 3 boards starting at 2/2" in answer.json()["problems"][0][
        "message"]
    answer = client.post(ENTRIES.format(1), content=b"{not json",
                         headers=keys.table(1) | {"content-type": "application/json"})
    assert answer.status_code == 422 and "not JSON" in answer.json()["problems"][0]["message"]


def test_spec11_before_verification_a_new_entry_replaces_after_it_only_the_director(served):
    _, client, keys = served
    boards(client, keys, 2, 1, ["NS", "NES", "ENW"])
    replaced = post(client, 2, {"id": "again", "set": 1, "board": 3, "finish": "NS"},
                    keys.table(2))
    assert replaced.status_code == 201 and replaced.json()["levels"] == {"ns": "10", "ew": "2"}
    assert client.post("/api/v1/rounds/1/tables/2/sets/1/verify",
                       headers=keys.table(2)).json()["state"] == "verified"
    late = post(client, 2, {"id": "late", "set": 1, "board": 3, "finish": "EW"}, keys.table(2))
    assert late.status_code == 409
    assert "only the director can change it now" in late.json()["error"]
    resent = post(client, 2, {"id": "again", "set": 1, "board": 3, "finish": "NS"},
                  keys.table(2))
    assert (resent.status_code, resent.json()) == (200, replaced.json())


def test_pinned_verify_is_409_while_incomplete_then_200(served):
    _, client, keys = served
    verify = "/api/v1/rounds/1/tables/3/sets/2/verify"
    answer = client.post(verify, headers=keys.table(3))
    assert answer.status_code == 409 and "no entry yet" in answer.json()["error"]
    boards(client, keys, 3, 2, ["NS", "EW"], first=4)
    answer = client.post(verify, headers=keys.table(3))
    assert answer.status_code == 409
    assert "2 of 3 boards entered" in answer.json()["error"]
    boards(client, keys, 3, 2, ["ENS"], first=6, prefix="c")
    answer = client.post(verify, headers=keys.table(3))
    assert (answer.status_code, answer.json()["state"]) == (200, "verified")
    assert client.post(verify, headers=keys.table(3)).status_code == 200


def test_pinned_tokens_401_for_none_or_unknown_403_for_another_table_or_round(served):
    event, client, keys = served
    body = {"id": "e", "set": 1, "ns_level": "3", "ew_level": "2"}
    assert post(client, 1, body, {}).status_code == 401
    assert post(client, 1, body, {"Authorization": "Bearer nonsense"}).status_code == 401
    assert post(client, 1, body, keys.table(2)).status_code == 403
    assert client.post("/api/v1/rounds/2/tables/1/entries", json=body,
                       headers=keys.table(1)).status_code == 403
    assert client.get("/api/v1/rounds/1/tables/1", headers=keys.table(2)).status_code == 403
    assert client.get("/api/v1/rounds/1/progress", headers=keys.table(1)).status_code == 403
    assert client.get("/api/v1/rounds/1/progress").status_code == 401
    revoke(event, 1, 1)
    time.sleep(RECHECK)  # a revocation from another process counts within RECHECK s
    answer = post(client, 1, body, keys.table(1))
    assert answer.status_code == 401 and answer.json()["error"]
    assert post(client, 1, body, tokens(event).table(1)).status_code == 201


def test_errors_are_json_never_a_traceback(served):
    _, client, keys = served
    for answer in (client.get("/api/v1/nowhere"),
                   client.get("/api/v1/rounds/1/tables/1/entries"),
                   client.get("/api/v1/rounds/9/progress", headers=keys.boss),
                   client.get("/api/v1/rounds/2/progress", headers=keys.boss),
                   client.post(ENTRIES.format(1), content=b"x" * 70_000,
                               headers=keys.table(1))):
        assert answer.status_code >= 400
        assert answer.headers["content-type"] == "application/json"
        assert set(answer.json()) == {"error"} and "Traceback" not in answer.text
    assert "not seated yet" in client.get("/api/v1/rounds/2/progress",
                                          headers=keys.boss).json()["error"]


def test_health_answers_200(served):
    _, client, _ = served
    answer = client.get("/api/v1/health")
    assert answer.status_code == 200 and answer.json()["ok"] is True


def test_verified_sets_reach_results_parquet_as_ingest_stores_a_files_rows(served, tmp_path):
    event, client, keys = served
    copy = tmp_path / "copy"
    shutil.copytree(event, copy, ignore=shutil.ignore_patterns("live", ".guandan-dup.lock"))
    boards(client, keys, 1, 1, ["NS", "NES", "ENW"])
    post(client, 2, {"id": "s", "set": 1, "ns_level": "4", "ew_level": "2"}, keys.table(2))
    for table in (1, 2):
        client.post(f"/api/v1/rounds/1/tables/{table}/sets/1/verify", headers=keys.table(table))
    # Within 2 s on a quiet machine (benchmarks/live.py measures it); a test only waits.
    results = wait_for(lambda: (r := stored(event)) is not None and len(r) == 2 and r,
                       timeout=30.0)
    entered = read_entered(EventFolder.open(event), 1)
    assert sorted(entered["table"]) == [1, 2] and set(entered["source"]) == {"table"}
    # The store writes the files, then tells the desk: the progress follows a moment later.
    def all_stored():
        answer = client.get("/api/v1/rounds/1/progress", headers=keys.boss).json()
        return answer if all("stored" not in s for s in answer["sets"]) else None

    progress = wait_for(all_stored, timeout=30.0)
    assert all("stored" not in s for s in progress["sets"])
    board_rows = pd.DataFrame([{"round": 1, "table": 1, "set": 1, "board": b, "finish": f,
                                **seats(event, 1, 1)}
                               for b, f in ((1, "NS"), (2, "NES"), (3, "ENW"))])
    set_rows = pd.DataFrame([{"round": 1, "table": 2, "set": 1, "ns_level": "4",
                              "ew_level": "2", **seats(event, 1, 2)}])
    ingest(EventFolder.open(copy), write(board_rows, tmp_path / "boards.parquet"), 1)
    ingest(EventFolder.open(copy), write(set_rows, tmp_path / "sets.parquet"), 1)
    pd.testing.assert_frame_equal(results, EventFolder.open(copy).read(1, "results"))


def test_spec11_a_file_may_not_change_a_set_verified_at_the_table(served, tmp_path):
    event, client, keys = served
    post(client, 1, {"id": "s", "set": 1, "ns_level": "4", "ew_level": "2"}, keys.table(1))
    client.post("/api/v1/rounds/1/tables/1/sets/1/verify", headers=keys.table(1))
    wait_for(lambda: stored(event) is not None)
    row = {"round": 1, "table": 1, "set": 1, **seats(event, 1, 1)}
    with pytest.raises(InvalidResultsError) as refused:
        ingest(EventFolder.open(event), write(pd.DataFrame([row | {
            "ns_level": "5", "ew_level": "2"}]), tmp_path / "r.parquet"), 1)
    message = str(refused.value)
    assert "table 1 set 1 was verified at the table as 4/2" in message
    assert "correct it at the director's console" in message
    before = EventFolder.open(event).file(1, "results").read_bytes()
    report = ingest(EventFolder.open(event), write(pd.DataFrame([row | {
        "ns_level": "4", "ew_level": "2"}]), tmp_path / "same.parquet"), 1)
    assert report.changed is False
    assert EventFolder.open(event).file(1, "results").read_bytes() == before


def test_spec11_the_directors_correction_needs_a_reason_and_is_a_ledger_row(served):
    event, client, keys = served
    post(client, 1, {"id": "s", "set": 1, "ns_level": "4", "ew_level": "2"}, keys.table(1))
    client.post("/api/v1/rounds/1/tables/1/sets/1/verify", headers=keys.table(1))
    fix = {"id": "fix", "set": 1, "ns_level": "5", "ew_level": "2"}
    answer = post(client, 1, fix, keys.boss)
    assert answer.status_code == 422 and answer.json()["problems"][0]["field"] == "reason"
    answer = post(client, 1, fix | {"reason": "both sides agree board 2 was a 双下"},
                  keys.boss)
    assert (answer.status_code, answer.json()["state"]) == (201, "verified")
    ledger = wait_for(lambda: (EventFolder.open(event).path / "ledger.parquet").exists()
                      and load(event / "ledger.parquet"))
    row = ledger.iloc[-1]
    assert (row["kind"], int(row["table"]), int(row["set"]), row["result"], row["reason"]) == (
        "corrected", 1, 1, "5/2", "both sides agree board 2 was a 双下")
    results = stored(event)
    assert results[["ns_level", "ew_level"]].iloc[0].tolist() == [3, 0]
    entered = read_entered(EventFolder.open(event), 1)
    assert entered["source"].tolist() == ["director"]


def test_art48_a_final_round_takes_no_entry_and_a_correction_needs_override(event):
    run("event", "ledger", "add", event, "ends", "--round", 1, "--at",
        "2020-01-01T10:00+00:00", "--reason", "the round ended")
    keys = tokens(event)
    with running(event, store_delay=0.05) as base, httpx.Client(base_url=base) as client:
        body = {"id": "s", "set": 1, "ns_level": "4", "ew_level": "2"}
        answer = post(client, 1, body, keys.table(1))
        assert answer.status_code == 409 and "is final" in answer.json()["error"]
        fix = body | {"reason": "the scoresheet"}
        answer = post(client, 1, fix, keys.boss)
        assert answer.status_code == 201  # not verified yet: an entry like any other
        assert client.post("/api/v1/rounds/1/tables/1/sets/1/verify",
                           headers=keys.boss).status_code == 200
        wait_for(lambda: stored(event) is not None)
        again = post(client, 1, {"id": "t", "set": 1, "ns_level": "5", "ew_level": "2",
                                 "reason": "typo"}, keys.boss)
        assert again.status_code == 409 and '"override": true' in again.json()["error"]
        forced = post(client, 1, {"id": "t", "set": 1, "ns_level": "5", "ew_level": "2",
                                  "reason": "typo", "override": True}, keys.boss)
        assert forced.status_code == 201
        wait_for(lambda: bool(stored(event)["ns_level"].iloc[0] == 3))
        kinds = load(event / "ledger.parquet")["kind"].tolist()
        assert kinds[-2:] == ["override", "corrected"]


def test_the_table_view_shows_seats_sets_boards_start_levels_and_entries(event):
    run("event", "ledger", "add", event, "late", "--round", 1, "--table", 2, "--set", 2,
        "--side", "EW", "--minutes", 7, "--reason", "lost")
    keys = tokens(event)
    with running(event, store_delay=0.05) as base, httpx.Client(base_url=base) as client:
        boards(client, keys, 2, 1, ["NS"])
        view = client.get("/api/v1/rounds/1/tables/2", headers=keys.table(2)).json()
    names = dict(zip(*EventFolder.open(event).players()[["player", "name"]].T.values,
                     strict=True))
    assert view["round"] == 1 and view["table"] == 2 and view["group"] == 1
    north = seats(event, 1, 2)["north"]
    assert view["seats"]["north"] == {"player": north, "name": names[north]}
    first, second = view["sets"]
    assert (first["set"], first["boards"], first["state"]) == (1, [1, 2, 3], "entered")
    assert first["entries"] == [{"id": "b2.1.0", "board": 1, "finish": "NS",
                                 "levels": {"ns": "5", "ew": "2"}}]
    assert (first["levels"], first["complete"]) == ({"ns": "5", "ew": "2"}, False)
    assert second["start"] == {"ns": "4", "ew": "2"}  # EW 7 minutes late: NS start at 4
    assert second["state"] == "missing" and second["levels"] is None


def test_progress_and_queue_show_the_director_every_tables_sets(served):
    _, client, keys = served
    boards(client, keys, 1, 1, ["NS"])
    post(client, 2, {"id": "s", "set": 1, "ns_level": "4", "ew_level": "2"}, keys.table(2))
    client.post("/api/v1/rounds/1/tables/2/sets/1/verify", headers=keys.table(2))
    answer = client.post("/api/v1/rounds/1/tables/3/sets/1/dispute",
                         json={"note": "EW say board 1 was theirs"}, headers=keys.table(3))
    assert answer.json()["state"] == "disputed"
    progress = client.get("/api/v1/rounds/1/progress", headers=keys.boss).json()
    assert progress["round"] == 1 and len(progress["sets"]) == 8
    states = {(s["table"], s["set"]): s["state"] for s in progress["sets"]}
    assert states[(1, 1)] == "entered" and states[(2, 1)] == "verified"
    assert states[(3, 1)] == "disputed" and states[(4, 2)] == "missing"
    assert set(progress["sets"][0]) >= {"table", "set", "state"}
    queue = client.get("/api/v1/rounds/1/queue", headers=keys.boss).json()
    assert [(s["table"], s["state"]) for s in queue["sets"]][:2] == [(3, "disputed"),
                                                                      (1, "entered")]
    assert queue["sets"][0]["note"] == "EW say board 1 was theirs"


def test_a_busy_folder_lock_delays_the_write_and_loses_nothing(served):
    event, client, keys = served
    post(client, 4, {"id": "r", "set": 2, "ns_level": "3", "ew_level": "2"}, keys.table(4))
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\n"
         "from guandan_dup.event.transaction import writing\n"
         "with writing(sys.argv[1], 'event score'):\n"
         "    print('held', flush=True); time.sleep(2.5)\n", str(event)],
        cwd=ROOT, env={"PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    post(client, 4, {"id": "s", "set": 2, "ns_level": "4", "ew_level": "2"}, keys.table(4))
    assert client.post("/api/v1/rounds/1/tables/4/sets/2/verify",
                       headers=keys.table(4)).status_code == 200
    time.sleep(1.0)
    assert stored(event) is None  # the command still holds the folder
    holder.wait(10)
    results = wait_for(lambda: stored(event) is not None and stored(event), timeout=5)
    assert results[["table", "set"]].values.tolist() == [[4, 2]]


def test_seed003_a_knockout_table_names_the_winner_of_the_extra_boards(tmp_path):
    event = knockout(tmp_path)
    keys = tokens(event)
    with running(event, store_delay=0.05) as base, httpx.Client(base_url=base) as client:
        post(client, 1, {"id": "s", "set": 1, "ns_level": "5", "ew_level": "5"},
             keys.table(1))
        answer = client.post("/api/v1/rounds/1/tables/1/sets/1/verify", headers=keys.table(1))
        assert answer.status_code == 409 and "extra boards" in answer.json()["error"]
        answer = post(client, 1, {"id": "t", "set": 1, "tiebreak": "ew"}, keys.table(1))
        assert answer.status_code == 201 and answer.json()["tiebreak"] == "EW"
        assert client.post("/api/v1/rounds/1/tables/1/sets/1/verify",
                           headers=keys.table(1)).status_code == 200
        results = wait_for(lambda: stored(event) is not None and stored(event))
    assert results["tiebreak"].tolist() == ["EW"]


def test_spec8_each_room_of_a_team_match_is_a_table(tmp_path):
    event = teams(tmp_path)
    keys = tokens(event)
    with running(event, store_delay=0.05) as base, httpx.Client(base_url=base) as client:
        view = client.get("/api/v1/rounds/1/tables/1", headers=keys.table(1)).json()
        assert view["match"]["room"] == "open" and view["match"]["other_table"] == 3
        assert view["match"]["ns_team"] == view["match"]["away"]["team"]
        for table in (1, 3):
            post(client, table, {"id": f"s{table}", "set": 1, "ns_level": "4",
                                 "ew_level": "2"}, keys.table(table))
            assert client.post(f"/api/v1/rounds/1/tables/{table}/sets/1/verify",
                               headers=keys.table(table)).status_code == 200
        results = wait_for(lambda: (r := stored(event)) is not None and len(r) == 2 and r)
    assert sorted(results["table"]) == [1, 3]


def test_spec9_a_team_knockout_match_level_over_both_rooms_needs_its_extra_boards(tmp_path):
    event = team_knockout_by_lot(tmp_path, 4)
    run("event", "deal", event, "--round", 1, "--quiet")
    run("event", "seat", event, "--round", 1)
    keys = tokens(event)
    level = {"set": 1, "ns_level": "4", "ew_level": "2"}  # the same in both rooms: 0 级差
    with running(event, store_delay=0.05) as base, httpx.Client(base_url=base) as client:
        room = client.get("/api/v1/rounds/1/tables/1", headers=keys.table(1)).json()["match"]
        other = room["other_table"]
        post(client, 1, {"id": "o", **level}, keys.table(1))
        assert client.post("/api/v1/rounds/1/tables/1/sets/1/verify",
                           headers=keys.table(1)).status_code == 200
        post(client, other, {"id": "c", **level}, keys.table(other))
        answer = client.post(f"/api/v1/rounds/1/tables/{other}/sets/1/verify",
                             headers=keys.table(other))
        assert answer.status_code == 409 and "level over both rooms" in answer.json()["error"]
        post(client, other, {"id": "t", "set": 1, "tiebreak": "NS"}, keys.table(other))
        assert client.post(f"/api/v1/rounds/1/tables/{other}/sets/1/verify",
                           headers=keys.table(other)).status_code == 200
        results = wait_for(lambda: (r := stored(event)) is not None and len(r) == 2 and r)
    closed = results[results["table"] == other].iloc[0]
    assert closed["tiebreak"] == f"#{room['home']['team']}"  # closed room: home is N-S


def test_a_failing_route_logs_its_path_without_the_token(caplog):
    """A bug on a table's page is logged for the director, but the page's path carries the
    table's token, which never reaches a log (issue 22, security)."""
    import asyncio

    from starlette.requests import Request

    from guandan_dup.live import app as live_app

    request = Request({"type": "http", "method": "GET", "path": "/t/SeCrEtToKeN123",
                       "query_string": b"", "headers": []})
    try:
        raise RuntimeError("boom")
    except RuntimeError as error:
        with caplog.at_level("ERROR", logger="guandan_dup.live"):
            answer = asyncio.run(live_app._bug(request, error))
    assert answer.status_code == 500
    assert "/t/…" in caplog.text and "SeCrEtToKeN123" not in caplog.text
