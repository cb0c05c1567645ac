"""A scoring run allocates Arrow memory from a pool that gives freed memory back, and puts
the process's own pool back afterwards (``scoring.pool``)."""

import pyarrow as pa
import pytest

from guandan_dup.scoring.pool import returning_memory


def _has_jemalloc() -> bool:
    try:
        pa.jemalloc_memory_pool()
    except NotImplementedError:
        return False
    return True


@pytest.mark.skipif(not _has_jemalloc(), reason="this pyarrow is built without jemalloc")
def test_a_run_borrows_the_jemalloc_pool_and_gives_it_back(monkeypatch):
    monkeypatch.delenv("ARROW_DEFAULT_MEMORY_POOL", raising=False)
    before = pa.default_memory_pool().backend_name
    with returning_memory():
        assert pa.default_memory_pool().backend_name == "jemalloc"
        kept = pa.array(range(1000))  # allocated from jemalloc, freed after the switch back
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
