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


@pytest.fixture
def sample():
    """The path of a real camera raw in samples-raw/ (the test is skipped when the folder is missing)."""
    def find(name: str) -> Path:
        path = SAMPLES / name
        if not path.is_file():
            pytest.skip(f"{path} is missing")
        return path
    return find


@pytest.fixture
def cli() -> Path:
    """The rawburst command (the test is skipped when it is not built)."""
    if not CLI.is_file():
        pytest.skip(f"{CLI} is missing")
    return CLI
