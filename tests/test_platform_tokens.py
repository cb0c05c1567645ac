"""Issue 24 item 1: platforms' tokens. ``event tokens DIR --platform NAME`` prints a new
token as the last word of its output and keeps only its SHA-256, owner-only; the server
knows the token as that platform without a restart, and not once it is revoked or
replaced."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import time

import httpx
import live_support
import pytest
from event_support import run
from live_support import running

from guandan_dup.event.folder import PLATFORMS
from guandan_dup.event.platforms import check_name, platform_hashes
from guandan_dup.live.tokens import RECHECK, Director, Keys, Platform

template, event, base = live_support.template, live_support.event, live_support.base


def make(event, name: str) -> str:
    return run("event", "tokens", event, "--platform", name).split()[-1]


def test_issue24_platform_token_is_the_last_word_and_only_its_hash_is_kept(event):
    token = make(event, "tencent")
    assert len(token) >= 43
    file = event / PLATFORMS
    assert stat.S_IMODE(os.stat(file).st_mode) == 0o600
    text = file.read_text(encoding="utf-8")
    assert token not in text
    assert json.loads(text)["tencent"]["sha256"] == hashlib.sha256(token.encode()).hexdigest()
    assert platform_hashes(event) == {"tencent": hashlib.sha256(token.encode()).hexdigest()}


def test_issue24_a_new_token_for_a_name_replaces_the_old_and_says_so(event):
    first = make(event, "tencent")
    output = run("event", "tokens", event, "--platform", "tencent")
    second = output.split()[-1]
    assert "Replaced the token of platform 'tencent'" in output
    assert second != first
    keys = Keys.load(event)
    assert keys.who(second) == Platform("tencent")
    assert keys.who(first) is None
    for history in (event / "history").glob("live-platforms.*"):
        assert stat.S_IMODE(os.stat(history).st_mode) == 0o600


@pytest.mark.parametrize("name, why", [
    ("", "expected a short identifier"),
    ("Tencent", "expected a short identifier"),
    ("qq games", "expected a short identifier"),
    ("-qq", "expected a short identifier"),
    ("x" * 33, "expected a short identifier"),
    ("../director", "expected a short identifier"),
])
def test_issue24_platform_name_is_a_short_identifier(event, name, why):
    output = run("event", "tokens", event, "--platform", name, code=1)
    assert f"Error: platform name {name!r}: {why}" in output
    assert not (event / PLATFORMS).exists()


@pytest.mark.parametrize("name", ["tencent", "qq-games", "a", "x_1", "9" * 32])
def test_issue24_platform_names_accepted(name):
    assert check_name(name) == name


@pytest.mark.parametrize("args, message", [
    (["--revoke-platform", "nobody"], "no platform 'nobody' has a token"),
    (["--platform", "a", "--round", "1"], "--platform goes alone"),
    (["--platform", "a", "--revoke-platform", "a"], "--platform and --revoke-platform go alone"),
    ([], "event tokens needs --round R"),
])
def test_issue24_platform_token_refusals(event, args, message):
    assert message in run("event", "tokens", event, *args, code=1)


def test_issue24_keys_know_platforms_directors_and_tables_apart(event):
    token = make(event, "tencent")
    keys = Keys.load(event)
    assert keys.who(token) == Platform("tencent")
    assert keys.who(token + "x") is None
    assert isinstance(keys.who((event / "director.token").read_text().strip()), Director)


def test_issue24_running_server_sees_new_and_revoked_platform_tokens(base, event):
    url = f"{base}/api/v1/rounds/1/tables/1/boards"
    token = make(event, "tencent")
    header = {"Authorization": f"Bearer {token}"}
    time.sleep(RECHECK + 0.1)
    answer = httpx.get(url, headers=header)
    assert answer.status_code != 401, answer.text  # known: refused only as not open yet
    run("event", "tokens", event, "--revoke-platform", "tencent")
    time.sleep(RECHECK + 0.1)
    answer = httpx.get(url, headers=header)
    assert answer.status_code == 401
    assert "error" in answer.json()


def test_issue24_no_token_is_logged_by_the_server(event, tmp_path, caplog):
    token = make(event, "tencent")
    with running(event) as url:
        httpx.get(f"{url}/api/v1/rounds/1/tables/1/boards",
                  headers={"Authorization": f"Bearer {token}"})
    assert token not in caplog.text
