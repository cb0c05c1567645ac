"""Fixtures several test modules share: the rehearsed events of ``site_support`` and their
sites, each made once per session (tests only read them, or work on a copy)."""

from pathlib import Path

import pytest
from site_support import shared_event, shared_site


@pytest.fixture(scope="session")
def full(tmp_path_factory) -> Path:
    return shared_event("full", tmp_path_factory)


@pytest.fixture(scope="session")
def partial(tmp_path_factory) -> Path:
    return shared_event("partial", tmp_path_factory)


@pytest.fixture(scope="session")
def hostile(tmp_path_factory) -> Path:
    return shared_event("hostile", tmp_path_factory)


@pytest.fixture(scope="session")
def full_site(tmp_path_factory) -> Path:
    return shared_site("full", tmp_path_factory)


@pytest.fixture(scope="session")
def partial_site(tmp_path_factory) -> Path:
    return shared_site("partial", tmp_path_factory)


@pytest.fixture(scope="session")
def hostile_site(tmp_path_factory) -> Path:
    return shared_site("hostile", tmp_path_factory)
