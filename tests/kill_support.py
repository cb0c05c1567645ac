"""A step killed at any instant (issue 9 item 2): a forked child that sends itself SIGKILL
just before its n-th ``os.replace`` or ``os.fsync``, the instants between which a step's
files change, and the check that the folder is then as before or as after the whole step."""

import os
import random
import re
import shutil
import signal
import traceback

from guandan_dup.event.transaction import JOURNAL, LOCK_FILE, reading


def in_child(work, kill_at: int | None = None, counted=("replace", "fsync")) -> int:
    """Run ``work()`` in a forked process; its exit code, or -signal if it was killed.

    With ``kill_at`` the child kills itself with SIGKILL just before its ``kill_at``-th call
    of the ``counted`` functions of ``os`` (``os.replace`` or ``os.fsync``); without it, the
    exit code is how many calls it made.
    """
    pid = os.fork()
    if pid == 0:
        calls = 0
        try:

            def count(real):
                def call(*args, **kwargs):
                    nonlocal calls
                    calls += 1
                    if calls == kill_at:
                        os.kill(os.getpid(), signal.SIGKILL)
                    return real(*args, **kwargs)

                return call

            for name in counted:
                setattr(os, name, count(getattr(os, name)))
            work()
            os._exit(min(calls, 250) if kill_at is None else 0)
        except BaseException:
            traceback.print_exc()
            os._exit(251)
    _, status = os.waitpid(pid, 0)
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def state(path):
    """The folder's files by name, history files by their content (their names hold the
    time), a round's scored.json less the time it records; the lock file left out (it only
    says who holds the lock)."""
    files, history = {}, []
    for p in sorted(path.rglob("*")):
        if p.is_file() and p.name != LOCK_FILE:
            rel = str(p.relative_to(path))
            if rel.startswith("history"):
                history.append((re.sub(r"\.\d{8}T[\d.]+Z(-\d+)?", "", rel), p.read_bytes()))
            elif p.name == "scored.json":
                files[rel] = re.sub(rb'"first_scored": "[^"]*"', b"TIME", p.read_bytes())
            else:
                files[rel] = p.read_bytes()
    return files, sorted(history)



def kill_points(path, work):
    """How many replace/fsync calls ``work`` makes on a copy of ``path``."""
    scratch = path.with_name("count")
    shutil.copytree(path, scratch)
    calls = in_child(lambda: work(scratch))
    shutil.rmtree(scratch)
    assert 0 < calls < 250
    return calls


def check_kill_anywhere(path, work, samples):
    """Kill ``work(path)`` just before each of ``samples`` of its replace/fsync calls: the
    folder is then (after the next command's recovery) in the before or the after state,
    no temporary file is left, and where it is the before state, doing the step again gives
    the after state."""
    before = state(path)
    done = path.with_name("done")
    shutil.copytree(path, done)
    assert in_child(lambda: work(done)) > 0
    after = state(done)
    assert after != before
    calls = kill_points(path, work)
    points = sorted(random.Random(9).sample(range(1, calls + 1), min(samples, calls)))
    seen = set()
    for n in points:
        trial = path.with_name(f"kill-{n}")
        shutil.copytree(path, trial)
        assert in_child(lambda t=trial: work(t), kill_at=n) == -signal.SIGKILL, n
        with reading(trial):
            pass  # the next command: recovers under the lock
        now = state(trial)
        assert now in (before, after), f"torn state after a kill at call {n}"
        seen.add(now == after)
        assert not [p for p in trial.rglob(".*") if p.name not in (LOCK_FILE,)], n
        assert not (trial / JOURNAL).exists()
        if now == before:
            assert in_child(lambda t=trial: work(t)) > 0, "the step can be done again"
            assert state(trial) == after
    assert seen == {False, True}, "killed both before and after the commit point"
