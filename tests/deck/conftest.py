"""Every test here runs on both ways a session is opened (tests/conftest.py: ``open_path``)."""

import pytest


@pytest.fixture(autouse=True)
def both_open_paths(open_path: str) -> str:
    return open_path
