"""A scoring run allocates Arrow memory from the system pool (numpy's ``malloc``), and puts
the process's own pool back afterwards (``scoring.pool``)."""

import pyarrow as pa
import pytest

from guandan_dup.scoring.pool import returning_memory


@pytest.fixture
def other_pool():
    """A default pool other than the system one (Arrow's default on Linux is mimalloc)."""
    previous = pa.default_memory_pool()
    for pool in (pa.mimalloc_memory_pool, pa.jemalloc_memory_pool):
        try:
            pa.set_memory_pool(pool())
            break
        except NotImplementedError:
            continue
    else:
        pytest.skip("this pyarrow has no pool but the system one")
    yield
    pa.set_memory_pool(previous)


def test_a_run_borrows_the_system_pool_and_gives_it_back(monkeypatch, other_pool):
    monkeypatch.delenv("ARROW_DEFAULT_MEMORY_POOL", raising=False)
    before = pa.default_memory_pool().backend_name
    with returning_memory():
        assert pa.default_memory_pool().backend_name == "system"
        kept = pa.array(range(1000))  # allocated from malloc, freed after the switch back
    assert pa.default_memory_pool().backend_name == before
    del kept


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
