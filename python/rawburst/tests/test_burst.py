"""capture_burst: frames through the burst engine into DNGs, every frame written or counted."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest
import rawpy

import rawburst


def digests(folder: Path) -> dict:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.glob("*.dng"))}


def test_a_burst_writes_the_frames_capture_gives(tmp_path: Path) -> None:
    result = rawburst.capture_burst(tmp_path / "burst", frames=3, sensor="mono-vision", seed=5, compression="lj92")
    assert (result.produced, result.written, result.dropped) == (3, 3, 0)
    files = sorted((tmp_path / "burst").glob("*.dng"))
    assert [p.name for p in files] == [f"mono-vision-{n:04d}.dng" for n in range(3)]
    assert result.bytes == sum(p.stat().st_size for p in files) and result.seconds > 0
    # The same sensor and seed without the engine: the DNGs hold exactly those frames, read by rawburst and LibRaw.
    with rawburst.capture(frames=3, sensor="mono-vision", seed=5) as frames:
        expected = [frame.mosaic for frame in frames]
    for path, mosaic in zip(files, expected):
        image = rawburst.read(path)
        assert image.cfa == "mono"
        np.testing.assert_array_equal(image.mosaic, mosaic)
        with rawpy.imread(str(path)) as raw:
            np.testing.assert_array_equal(raw.raw_image, mosaic)


def test_existing_files_are_kept_unless_overwrite(tmp_path: Path) -> None:
    folder = tmp_path / "burst"
    rawburst.capture_burst(folder, frames=2, sensor="mono-vision", seed=1)
    before = digests(folder)
    with pytest.raises(rawburst.WriteError):
        rawburst.capture_burst(folder, frames=2, sensor="mono-vision", seed=2)
    assert digests(folder) == before
    result = rawburst.capture_burst(folder, frames=2, sensor="mono-vision", seed=2, overwrite=True)
    assert result.written == 2 and digests(folder) != before


@pytest.mark.parametrize("arguments", [
    {"frames": 0}, {"frames": 2, "compression": "zip"}, {"frames": 2, "preview": 20}, {"frames": 2, "sensor": "nope"},
    {"frames": 2, "memory_budget_mib": 1}, {"frames": 2, "fps": -1},
])
def test_bad_values_are_refused_and_nothing_is_written(tmp_path: Path, arguments: dict) -> None:
    folder = tmp_path / "burst"
    with pytest.raises(rawburst.ArgumentError):
        rawburst.capture_burst(folder, **arguments)
    assert not list(folder.glob("*.dng")) if folder.exists() else True
