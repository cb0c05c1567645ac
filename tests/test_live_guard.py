"""Issue 22, security: PIN guesses are rate-limited per client; console forms carry a CSRF
token only the server can compute."""

from __future__ import annotations

from guandan_dup.live.guard import PinGuard, csrf_ok, csrf_token


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_five_wrong_pins_in_a_minute_block_that_client_until_the_first_ages_out():
    clock = Clock()
    guard = PinGuard(clock=clock)
    for second in range(5):
        assert guard.retry_after("10.0.0.9") == 0, f"guess {second + 1} is allowed"
        guard.failed("10.0.0.9")
        clock.now += 1
    assert guard.retry_after("10.0.0.9") == 55, "the first failure leaves the window at 60 s"
    assert guard.retry_after("10.0.0.10") == 0, "another phone is not blocked"
    clock.now += 54.5
    assert guard.retry_after("10.0.0.9") == 1
    clock.now += 0.5
    assert guard.retry_after("10.0.0.9") == 0, "one failure aged out: one more guess"
    guard.failed("10.0.0.9")
    assert guard.retry_after("10.0.0.9") == 1


def test_failures_spread_over_more_than_a_minute_never_block():
    clock = Clock()
    guard = PinGuard(clock=clock)
    for _ in range(50):
        assert guard.retry_after("10.0.0.9") == 0
        guard.failed("10.0.0.9")
        clock.now += 15


def test_the_guard_forgets_the_quietest_clients_beyond_its_bound():
    clock = Clock()
    guard = PinGuard(limit=1, clock=clock, clients=3)
    for n in range(4):
        guard.failed(f"10.0.0.{n}")
    assert guard.retry_after("10.0.0.0") == 0, "forgotten: the memory stays bounded"
    assert all(guard.retry_after(f"10.0.0.{n}") == 60 for n in (1, 2, 3))


def test_a_csrf_token_belongs_to_one_session_and_one_key():
    key, other_key = b"k" * 32, b"q" * 32
    token = csrf_token(key, "session-a")
    assert len(token) >= 43
    assert csrf_ok(key, "session-a", token)
    assert not csrf_ok(key, "session-b", token)
    assert not csrf_ok(other_key, "session-a", token)
    assert not csrf_ok(key, "session-a", None)
    assert not csrf_ok(key, "session-a", "")
    assert not csrf_ok(key, "", csrf_token(key, ""))
    assert not csrf_ok(key, "session-a", token[:-1] + "é")
