"""Helpers for the tests: paths, synthetic mosaics, exiftool and dngpy run as tools."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy as np

PACKAGE = Path(__file__).resolve().parents[1]
REPOSITORY = PACKAGE.parents[1]

LIBRARY = Path(os.environ.get("RAWBURST_LIBRARY", REPOSITORY / ".build-opt" / "debug" / "libCRawBurst.so"))
CLI = Path(os.environ.get("RAWBURST", REPOSITORY / ".build-opt" / "debug" / "rawburst"))
# The real camera raws: $SHARED/samples-raw (default: the repository's sibling `shared`), else the repository's own copy
# in samples/raw (what a fresh clone has), as the Swift tests' TestPaths look for them.
_SHARED_SAMPLES = Path(os.environ.get("SHARED", REPOSITORY.parent / "shared")) / "samples-raw"
SAMPLES = _SHARED_SAMPLES if _SHARED_SAMPLES.is_dir() else REPOSITORY / "samples" / "raw"

WIDTH, HEIGHT = 256, 192
"""The size of the synthetic frames: small, whole 2x2 and (for the height) 6x6 repeats."""


def mosaic(bits: int = 12, width: int = WIDTH, height: int = HEIGHT, seed: int = 0) -> np.ndarray:
    """A frame-like uint16 mosaic: a smooth gradient with mild noise spanning 0...2**bits-1 (both ends present)."""
    top = 2 ** bits - 1
    y, x = np.mgrid[0:height, 0:width]
    smooth = (x / (width - 1) * 0.7 + y / (height - 1) * 0.3) * top
    noise = np.random.default_rng(seed).normal(0, top * 0.01, size=(height, width))
    frame = np.clip(np.rint(smooth + noise), 0, top).astype(np.uint16)
    frame[0, 0], frame[-1, -1] = 0, top
    return frame


def exiftool(path: Path, *tags: str) -> Dict[str, Any]:
    """exiftool -j -n of `path` (numbers as numbers), for the given tags (all when none)."""
    output = subprocess.run(["exiftool", "-j", "-n", *(f"-{t}" for t in tags), str(path)],
                            check=True, capture_output=True, text=True).stdout
    return json.loads(output)[0]


def exiftool_problems(path: Path) -> List[str]:
    """What `exiftool -validate` finds in a file: its Warning and Error lines (and a verdict other than OK)."""
    output = subprocess.run(["exiftool", "-validate", "-warning", "-error", "-a", "-s", "--", str(path)],
                            check=True, capture_output=True, text=True).stdout
    problems, verdict = [], None
    for line in output.splitlines():
        name, _, value = line.partition(":")
        name, value = name.strip(), value.strip()
        if name == "Validate":
            verdict = value
        elif name.startswith(("Warning", "Error")):
            problems.append(f"{name}: {value}")
    if verdict != "OK" and not problems:
        problems.append(f"Validate: {verdict}")
    return problems


_ADOBE = """
import sys, numpy as np, dngpy
d = dngpy.Dng(sys.argv[1])
d.color_info
np.save(sys.argv[2], np.asarray(d.raw_pixels))
d.save(sys.argv[3])
"""


def adobe(path: Path, scratch: Path) -> Tuple[np.ndarray, List[str]]:
    """Reads a DNG with Adobe's DNG SDK (dngpy), colour included, and saves it again, as the repository's Swift tests
    do; returns the raw pixels it read and its complaints (stderr lines with Warning or Error).

    It runs in its own process: the SDK prints its warnings on the process's standard error.
    """
    pixels, saved = scratch / f"{path.stem}-adobe.npy", scratch / f"{path.stem}-adobe.dng"
    run = subprocess.run([sys.executable, "-c", _ADOBE, str(path), str(pixels), str(saved)],
                         capture_output=True, text=True)
    complaints = [line for line in run.stderr.splitlines() if "Warning" in line or "Error" in line]
    assert run.returncode == 0, run.stderr
    return np.load(pixels).squeeze(), complaints
