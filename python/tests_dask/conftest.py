"""Shared fixtures of rawburst_dask's unit tests (run from the checkout: ``python3 -m pytest python/tests_dask``).

The package is imported from ``python/`` (no install needed). Tests that run the rawburst binary take the
``rawburst`` fixture: ``$RAWBURST`` when set, else the debug build ``<repo>/.build-opt/debug/rawburst``; a missing
binary fails those tests with the command that builds it (they are never skipped)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

PYTHON_DIR = Path(__file__).resolve().parent.parent
REPO = PYTHON_DIR.parent
SAMPLES = REPO / "samples" / "raw"
DEBUG_BINARY = REPO / ".build-opt" / "debug" / "rawburst"

if str(PYTHON_DIR) not in sys.path:
    sys.path.insert(0, str(PYTHON_DIR))


def rawburst_path() -> Path:
    """The binary the tests run: ``$RAWBURST``, else the debug build in ``.build-opt``."""
    named = os.environ.get("RAWBURST")
    return Path(named).resolve() if named else DEBUG_BINARY


@pytest.fixture
def rawburst(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    """The rawburst binary (failing the test, with how to build it, when it is missing), also set as ``$RAWBURST``
    for ``task.find_rawburst``; its calibration cache goes to the test's folder, not the user's home."""
    path = rawburst_path()
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.fail(f"this test runs rawburst, and {path} is not an executable file: build it with "
                    f"`swift build --scratch-path .build-opt --product rawburst` in {REPO}, or set RAWBURST to a "
                    f"rawburst binary", pytrace=False)
    monkeypatch.setenv("RAWBURST", str(path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return str(path)


@pytest.fixture
def repo() -> Path:
    """The checkout's root."""
    return REPO


@pytest.fixture
def sample_raw() -> Path:
    """A small real raw of the repository's samples (a Kodak DC120 .kdc, 824 kB)."""
    path = SAMPLES / "kodak-dc120.kdc"
    if not path.is_file():
        pytest.fail(f"{path} is missing from the checkout", pytrace=False)
    return path
