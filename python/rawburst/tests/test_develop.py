"""develop: pictures Pillow and tifffile open, at the size reported, and the errors of its inputs and outputs."""

from __future__ import annotations

import numpy as np
import pytest
import tifffile
from PIL import Image

import rawburst
from support import HEIGHT, WIDTH, mosaic

CALIBRATED = {"ccm": [[1.8, -0.62, -0.18], [-0.28, 1.62, -0.34], [0.06, -0.58, 1.52]], "as_shot_neutral": [0.5, 1, 0.6]}


@pytest.fixture
def dng(tmp_path):
    """A 12-bit DNG of a smooth frame, cropped by 8 pixels on every side."""
    path = tmp_path / "frame.dng"
    rawburst.write_dng(path, mosaic(12), bits=12, black=256, crop=8, **CALIBRATED)
    return path


def test_jpeg_of_the_default_crop(tmp_path, dng):
    out = tmp_path / "frame.jpg"
    result = rawburst.develop(dng, out, white_balance="as-shot", quality=85)
    with Image.open(out) as picture:
        assert picture.format == "JPEG" and picture.mode == "RGB"
        assert picture.size == (result.width, result.height) == (WIDTH - 16, HEIGHT - 16)
        pixels = np.asarray(picture)
    assert result.bytes == out.stat().st_size and result.path == str(out)
    assert pixels.std() > 1


def test_long_edge_and_options(tmp_path, dng):
    out = tmp_path / "small.jpg"
    result = rawburst.develop(dng, out, white_balance="5600K", exposure=0.5, long_edge=120)
    with Image.open(out) as picture:
        assert picture.size == (result.width, result.height) and max(picture.size) == 120


def test_sixteen_bit_tiff(tmp_path, dng):
    out = tmp_path / "frame.tif"
    result = rawburst.develop(dng, out, bits=16)
    pixels = tifffile.imread(out)
    assert pixels.dtype == np.uint16 and pixels.shape == (result.height, result.width, 3)


def test_real_camera_raw(tmp_path, sample):
    out = tmp_path / "g2.jpg"
    result = rawburst.develop(sample("canon-powershot-g2.crw"), out, long_edge=400)
    with Image.open(out) as picture:
        assert picture.size == (result.width, result.height) and max(picture.size) == 400


def test_errors_leave_nothing(tmp_path, dng):
    with pytest.raises(rawburst.ReadError):
        rawburst.develop(tmp_path / "missing.dng", tmp_path / "a.jpg")
    with pytest.raises(rawburst.WriteError):
        rawburst.develop(dng, tmp_path / "missing" / "a.jpg")
    with pytest.raises(rawburst.ArgumentError):
        rawburst.develop(dng, tmp_path / "a.jpg", white_balance="purple")
    with pytest.raises(rawburst.ArgumentError):
        rawburst.develop(dng, tmp_path / "a.jpg", quality=101)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["frame.dng"]

    existing = tmp_path / "existing.jpg"
    existing.write_bytes(b"mine")
    with pytest.raises(rawburst.ExistsError):
        rawburst.develop(dng, existing)
    assert existing.read_bytes() == b"mine"
    rawburst.develop(dng, existing, overwrite=True)
    with Image.open(existing) as picture:
        assert picture.format == "JPEG"
