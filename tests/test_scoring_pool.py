"""A scoring run allocates Arrow memory from jemalloc (the system pool where pyarrow has no
jemalloc), and puts the process's own pool back afterwards (``scoring.pool``)."""

import pyarrow as pa
import pytest

from guandan_dup.scoring.pool import returning_memory, run_pool


@pytest.fixture
def other_pool():
    """A default pool other than the run's (Arrow's default on Linux is mimalloc)."""
    previous = pa.default_memory_pool()
    for pool in (pa.mimalloc_memory_pool, pa.system_memory_pool):
        try:
            if pool().backend_name != run_pool().backend_name:
                pa.set_memory_pool(pool())
                break
        except NotImplementedError:
            continue
    else:
        pytest.skip("this pyarrow has no pool but the run's")
    yield
    pa.set_memory_pool(previous)


def test_a_run_borrows_its_pool_and_gives_it_back(monkeypatch, other_pool):
    monkeypatch.delenv("ARROW_DEFAULT_MEMORY_POOL", raising=False)
    before = pa.default_memory_pool().backend_name
    with returning_memory():
        assert pa.default_memory_pool().backend_name == run_pool().backend_name
        kept = pa.array(range(1000))  # allocated in the run's pool, freed after the switch
    assert pa.default_memory_pool().backend_name == before
    del kept


def test_the_runs_pool_is_jemalloc_where_pyarrow_has_it():
    try:
        wanted = pa.jemalloc_memory_pool().backend_name
    except NotImplementedError:
        wanted = "system"
    assert run_pool().backend_name == wanted


def test_the_pool_is_given_back_when_the_run_fails(monkeypatch):
    monkeypatch.delenv("ARROW_DEFAULT_MEMORY_POOL", raising=False)
    before = pa.default_memory_pool().backend_name
    with pytest.raises(RuntimeError), returning_memory():
        raise RuntimeError("a block failed")
    assert pa.default_memory_pool().backend_name == before


def test_a_pool_the_user_chose_is_left_alone(monkeypatch):
    monkeypatch.setenv("ARROW_DEFAULT_MEMORY_POOL", "system")
    before = pa.default_memory_pool().backend_name
    with returning_memory():
        assert pa.default_memory_pool().backend_name == before
