"""read: real camera raws give LibRaw's samples and the levels and geometry their README states; damaged files are
ReadErrors."""

from __future__ import annotations

import numpy as np
import pytest
import rawpy

import rawburst
from support import mosaic

# Facts from samples-raw/README.md: CFA, bits, black, white (None: not stated there).
REAL = {
    "canon-powershot-g2.crw": ("RGGB", 10, 32, 1023),
    "kodak-dc120.kdc": ("GRBG", 8, None, None),
    "kodak-dc120-jpeg.kdc": ("GRBG", None, None, None),
    "canon-550d-magiclantern.dng": ("RGGB", 14, 2056, 15000),
}


@pytest.mark.parametrize("name", REAL)
def test_real_raw_matches_libraw(sample, name):
    path = sample(name)
    image = rawburst.read(path)
    with rawpy.imread(str(path)) as raw:
        expected = raw.raw_image.copy()
    np.testing.assert_array_equal(image.mosaic, expected)
    assert image.mosaic.dtype == np.uint16 and image.mosaic.flags.owndata and image.mosaic.flags.c_contiguous

    cfa, bits, black, white = REAL[name]
    assert image.cfa == cfa
    assert bits is None or image.bits == bits
    assert black is None or np.all(image.black == black)
    assert white is None or image.white == white
    assert int(image.mosaic.max()) <= 2 ** image.bits - 1


def test_active_area_and_visible_view(sample):
    image = rawburst.read(sample("canon-550d-magiclantern.dng"))
    assert image.active_area == (26, 152, 1182, 1886)
    visible = image.visible
    assert visible.shape == (1182 - 26, 1886 - 152)
    assert np.shares_memory(visible, image.mosaic)
    np.testing.assert_array_equal(visible, image.mosaic[26:1182, 152:1886])
    left, top, width, height = image.default_crop
    assert left + width <= visible.shape[1] and top + height <= visible.shape[0]


def test_exif_of_a_camera_file(sample):
    path = sample("canon-powershot-g2.crw")
    image = rawburst.read(path)
    # LibRaw's model names leave the make out ("PowerShot G2"; the file's EXIF Model is "Canon PowerShot G2").
    assert image.exif["make"] == "Canon" and image.exif["model"].endswith("PowerShot G2")
    with rawpy.imread(str(path)) as raw:
        other = raw.other
    assert image.exif["iso"] == other.iso_speed == 50
    assert image.exif["exposure_time"] == pytest.approx(other.shutter_speed, rel=1e-6)
    assert (image.exif["f_number"], image.exif["focal_length"]) == pytest.approx((other.aperture, other.focal_length))
    assert all(value not in (None, "", 0) for value in image.exif.values())
    assert image.color is not None and image.color.color_matrix.shape == (3, 3)


STUBS = ["stubs/truncated-canon-350d.dng", "stubs/truncated-panasonic-lx3.rw2", "stubs/truncated-nikon-d70.nef",
         "stubs/header-only.raf", "gopro-hero7.gpr"]


@pytest.mark.parametrize("name", STUBS)
def test_damaged_or_unsupported_raws_are_read_errors(sample, name):
    with pytest.raises(rawburst.ReadError) as error:
        rawburst.read(sample(name))
    assert isinstance(error.value, OSError) and error.value.status == -3
    message = str(error.value)
    assert message and "\n" not in message


def test_unsupported_compression_says_so(sample):
    with pytest.raises(rawburst.ReadError, match="(?i)compression"):
        rawburst.read(sample("gopro-hero7.gpr"))


def test_truncated_dng_of_our_own(tmp_path):
    whole = tmp_path / "whole.dng"
    rawburst.write_dng(whole, mosaic(12), bits=12, compression="none", ccm=np.eye(3))
    cut = tmp_path / "cut.dng"
    data = whole.read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(rawburst.ReadError):
        rawburst.read(cut)


def test_missing_and_non_raw_files(tmp_path):
    with pytest.raises(rawburst.ReadError):
        rawburst.read(tmp_path / "missing.dng")
    text = tmp_path / "notes.dng"
    text.write_text("not a raw file\n" * 100)
    with pytest.raises(rawburst.ReadError):
        rawburst.read(text)
