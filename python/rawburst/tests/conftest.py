"""Fixtures, and the library under test: RAWBURST_LIBRARY (the shared library) and RAWBURST (the rawburst command)
default to the repository's debug build in .build-opt/debug; SHARED (a folder holding samples-raw/) defaults to the
repository's sibling `shared`. The package is imported from this checkout.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from support import CLI, LIBRARY, PACKAGE, SAMPLES

os.environ["RAWBURST_LIBRARY"] = str(LIBRARY)
sys.path.insert(0, str(PACKAGE))


def unavailable(reason: str) -> None:
    """Skips the test, or under `make test` (RAWBURST_REQUIRE_TOOLS=1, as the Swift tests) fails it: a test that cannot
    run there is a broken setup, not a pass."""
    if os.environ.get("RAWBURST_REQUIRE_TOOLS") == "1":
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture
def sample():
    """The path of a real camera raw in samples-raw/ (the test is skipped when the folder is missing)."""
    def find(name: str) -> Path:
        path = SAMPLES / name
        if not path.is_file():
            unavailable(f"{path} is missing")
        return path
    return find


@pytest.fixture
def cli() -> Path:
    """The rawburst command (the test is skipped when it is not built)."""
    if not CLI.is_file():
        unavailable(f"{CLI} is missing")
    return CLI
