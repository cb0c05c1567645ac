"""Issue 22, security: table tokens of at least 128 bits, one per round and table, stable
until revoked; 6-digit PINs unique in a round; the director's token owner-only; a table's
token names its own table and round only."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import time

import pytest
from event_support import run, seated_event

from guandan_dup.errors import GuandanError
from guandan_dup.event import EventFolder
from guandan_dup.event.access import DIRECTOR_TOKEN, REVOKED, SECRET, links
from guandan_dup.live import tokens
from guandan_dup.live.tokens import RECHECK, Director, Keys, Table


@pytest.fixture
def event(tmp_path):
    """17 players, 4 tables, round 1 seated (``event_support.seated_event``)."""
    return seated_event(tmp_path)


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_table_tokens_carry_at_least_128_bits_and_are_urlsafe(event):
    found = tokens.table_links(event, 1, "http://10.1.2.3:8000")
    assert [link.table for link in found] == [1, 2, 3, 4]
    for link in found:
        assert len(link.token) * 6 >= 128, link.token
        assert set(link.token) <= set(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        assert link.url == f"http://10.1.2.3:8000/t/{link.token}"
        assert len(link.pin) == 6 and link.pin.isdigit()
    assert len({link.token for link in found}) == 4


def test_tokens_and_pins_are_stable_across_calls_and_processes(event):
    first = tokens.table_links(event, 1, "http://h:1")
    again = tokens.table_links(event, 1, "http://h:1")
    assert first == again
    csv = run("event", "tokens", event, "--round", 1, "--base-url", "http://h:1")
    assert csv.splitlines()[1:] == [f"{x.table},{x.pin},{x.url}" for x in first]


def test_event_init_makes_the_secret_owner_only_and_nothing_replaces_it(event):
    secret = (event / SECRET).read_bytes()
    assert len(bytes.fromhex(secret.decode())) == 32
    assert mode(event / SECRET) == 0o600
    tokens.table_links(event, 1, "http://h:1")
    tokens.revoke(event, 1, 1)
    assert (event / SECRET).read_bytes() == secret


def test_a_folder_made_before_the_secret_gets_one_when_first_needed(event):
    (event / SECRET).unlink()
    first = tokens.table_links(event, 1, "http://h:1")
    assert mode(event / SECRET) == 0o600
    assert tokens.table_links(event, 1, "http://h:1") == first


def test_revoking_a_table_changes_its_token_and_pin_only(event):
    before = tokens.table_links(event, 1, "http://h:1")
    tokens.revoke(event, 1, 3)
    after = tokens.table_links(event, 1, "http://h:1")
    assert [a for a in after if a.table != 3] == [b for b in before if b.table != 3]
    assert after[2].token != before[2].token and after[2].pin != before[2].pin
    assert json.loads((event / REVOKED).read_text()) == {"1": [3]}


def test_revoking_a_table_not_seated_is_refused(event):
    with pytest.raises(GuandanError, match="round 1 has no table 9"):
        tokens.revoke(event, 1, 9)
    with pytest.raises(GuandanError, match="round 2 is not seated yet"):
        tokens.revoke(event, 2, 1)
    assert not (event / REVOKED).exists()


def test_pins_are_unique_in_a_round_even_when_the_draw_collides():
    """500 tables draw from a million PINs: collisions are certain over many rounds (the
    birthday bound), and each is drawn again; a revoked PIN is never issued again."""
    secret = bytes(range(32))
    for round_no in range(1, 41):
        found = links(secret, round_no, range(1, 501), [7, 7, 9], "")
        pins = [link.pin for link in found]
        assert len(set(pins)) == 500, f"round {round_no}"
    first = {x.table: x.pin for x in links(secret, 1, range(1, 501), [], "")}
    revoked = {x.table: x.pin for x in links(secret, 1, range(1, 501), [7], "")}
    assert revoked[7] not in first.values()


def test_a_pin_changes_only_when_its_own_table_is_revoked():
    """PINs are drawn in the order they were issued, so revoking a later table never moves
    the PIN of a table revoked earlier (a card printed after the first revocation)."""
    secret = b"s" * 32
    once = {x.table: x.pin for x in links(secret, 2, range(1, 61), [5], "")}
    twice = {x.table: x.pin for x in links(secret, 2, range(1, 61), [5, 40], "")}
    assert {t: p for t, p in twice.items() if t != 40} == {
        t: p for t, p in once.items() if t != 40}


def test_links_differ_between_rounds_and_between_secrets():
    a = links(b"a" * 32, 1, [1, 2], [], "")
    b = links(b"a" * 32, 2, [1, 2], [], "")
    c = links(b"b" * 32, 1, [1, 2], [], "")
    tokens_of = [{x.token for x in found} for found in (a, b, c)]
    assert not (tokens_of[0] & tokens_of[1]) and not (tokens_of[0] & tokens_of[2])


def test_the_director_token_is_made_once_owner_only(event):
    assert not (event / DIRECTOR_TOKEN).exists()
    token = tokens.director_token(event)
    assert len(token) >= 32
    assert mode(event / DIRECTOR_TOKEN) == 0o600
    assert tokens.director_token(event) == token
    assert (event / DIRECTOR_TOKEN).read_text() == token + "\n"


def test_the_director_token_read_back_tolerates_windows_line_endings(event):
    (event / DIRECTOR_TOKEN).write_bytes(b"x" * 43 + b"\r\n")
    assert tokens.director_token(event) == "x" * 43


def test_keys_name_a_tables_own_round_and_table_and_the_director(event):
    keys = Keys.load(event)
    found = tokens.table_links(event, 1)
    for link in found:
        assert keys.who(link.token) == Table(1, link.table)
        assert keys.table_of_pin(link.pin) == Table(1, link.table)
    assert keys.who(tokens.director_token(event)) == Director()
    assert keys.who("") is None
    assert keys.who("not-a-token") is None
    assert keys.who("ünïcode") is None
    assert keys.table_of_pin("1234567") is None


def test_keys_see_a_revocation_and_a_new_round_without_a_restart(event):
    keys = Keys.load(event, recheck=0)  # the files looked at on every lookup
    old = tokens.table_links(event, 1)[1]
    tokens.revoke(event, 1, 2)
    new = tokens.table_links(event, 1)[1]
    assert keys.who(old.token) is None
    assert keys.who(new.token) == Table(1, 2)
    assert keys.table_of_pin(new.pin) == Table(1, 2)
    run("event", "ingest", event, _results(event, 1), "--round", 1)
    run("event", "score", event, "--round", 1)
    run("event", "deal", event, "--round", 2, "--quiet")
    run("event", "seat", event, "--round", 2)
    for link in tokens.table_links(event, 2):
        assert keys.who(link.token) == Table(2, link.table)
        assert keys.table_of_pin(link.pin) == Table(2, link.table)
    assert keys.who(new.token) == Table(1, 2), "round 1's tokens still name round 1"


def test_keys_look_at_the_files_at_most_every_recheck_seconds(event):
    """A lookup trusts the last look for ``recheck`` seconds (a burst of entries stats no
    file), so a revocation from a second terminal counts within that bound; ``recheck()``
    (the console's own revocation) makes it count at once."""
    assert 0 < RECHECK <= 1
    keys = Keys.load(event, recheck=60)
    old = tokens.table_links(event, 1)[1]
    tokens.revoke(event, 1, 2)
    assert keys.who(old.token) == Table(1, 2), "trusts the look taken less than 60 s ago"
    keys.recheck()
    assert keys.who(old.token) is None
    keys = Keys.load(event, recheck=0.2)
    old = tokens.table_links(event, 1)[1]
    tokens.revoke(event, 1, 2)
    time.sleep(0.2)
    assert keys.who(old.token) is None
    assert keys.who(tokens.table_links(event, 1)[1].token) == Table(1, 2)


COLLIDING = hashlib.sha256(b"collide108934").digest()
"""A secret under which table 2 draws PIN 409285 in round 1 and in round 2 (found by trying
sha256(b"collide%d" % n) for n = 0, 1, ... with ``links`` over tables 1-4)."""


def test_a_pin_names_the_latest_seated_round_that_has_it(event):
    (event / SECRET).write_text(COLLIDING.hex() + "\n")
    assert tokens.table_links(event, 1)[1].pin == "409285"
    keys = Keys.load(event, recheck=0)
    assert keys.table_of_pin("409285") == Table(1, 2)
    run("event", "ingest", event, _results(event, 1), "--round", 1)
    run("event", "score", event, "--round", 1)
    run("event", "deal", event, "--round", 2, "--quiet")
    run("event", "seat", event, "--round", 2)
    assert tokens.table_links(event, 2)[1].pin == "409285"
    assert keys.table_of_pin("409285") == Table(2, 2)


def test_a_token_of_one_round_never_names_another_round(event):
    keys = Keys.load(event)
    for link in tokens.table_links(event, 1):
        caller = keys.who(link.token)
        assert caller.round == 1 and caller.table == link.table


def test_links_for_a_round_not_seated_or_not_planned_are_refused(event):
    with pytest.raises(GuandanError, match="round 2 is not seated yet"):
        tokens.table_links(event, 2)
    with pytest.raises(GuandanError, match="round 7 is not in the plan"):
        tokens.table_links(event, 7)


def test_the_base_url_is_saved_in_the_folder(event):
    tokens.save_base_url(event, "http://192.168.4.2:9000/")
    assert tokens.base_url(event) == "http://192.168.4.2:9000"
    assert tokens.table_links(event, 1)[0].url.startswith("http://192.168.4.2:9000/t/")


@pytest.mark.parametrize("url", ["192.168.1.2:8000", "ftp://h", "http://", "http://h/?a=1",
                                 "http://h/#x"])
def test_a_base_url_phones_cannot_open_is_refused(event, url):
    with pytest.raises(GuandanError, match="not an address phones can open"):
        tokens.save_base_url(event, url)


def test_the_default_base_url_is_the_lan_address_and_port_8000(event):
    url = tokens.base_url(event)
    assert url.startswith("http://") and url.endswith(":8000")


def test_a_damaged_secret_is_refused_in_words(event):
    (event / SECRET).write_text("not hex\n")
    with pytest.raises(GuandanError, match="is damaged .*printed again"):
        tokens.table_links(event, 1)


def _results(event, round_no):
    from event_support import set_results, write

    folder = EventFolder.open(event)
    return write(set_results(folder, round_no), event.parent / f"r{round_no}.parquet")
