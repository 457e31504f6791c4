"""write_dng: the samples, levels, layout and metadata other readers find in the file, and what it refuses."""

from __future__ import annotations

import datetime
import subprocess
import warnings

import numpy as np
import pytest
import rawpy

import rawburst
import rawburst.dng
from support import CLI, HEIGHT, WIDTH, adobe, exiftool, exiftool_problems, mosaic

CCM = [[1.80, -0.62, -0.18], [-0.28, 1.62, -0.34], [0.06, -0.58, 1.52]]
"""A Raspberry Pi-like camera to linear sRGB matrix (rows sum to 1: white stays white)."""
NEUTRAL = [0.52, 1.0, 0.61]
CALIBRATED = {"ccm": CCM, "as_shot_neutral": NEUTRAL}
"""Colour for the tests about something else (no uncalibrated-colour warning)."""

XTRANS = "GGRGGB" "GGBGGR" "BRGRBG" "GGBGGR" "GGRGGB" "RBGBRG"
LETTER_CODES = {letter: code for code, letter in enumerate("RGBCMYW")}

# XYZ of D65 white (Y = 1) and XYZ to linear sRGB (IEC 61966-2-1).
D65 = np.array([0.95047, 1.0, 1.08883])
XYZ_TO_SRGB = np.array([[3.2404542, -1.5371385, -0.4985314],
                        [-0.9692660, 1.8760108, 0.0415560],
                        [0.0556434, -0.2040259, 1.0572252]])


def blacks(bits: int) -> list:
    """Four different black levels (CFA order) for a `bits`-bit frame."""
    return [level << (bits - 10) for level in (64, 60, 62, 66)]


def numbers(value: object) -> np.ndarray:
    """exiftool's -n value of a list tag ("1 2 3") as numbers."""
    return np.array(str(value).split(), dtype=np.float64)


@pytest.mark.parametrize("bits", [10, 12, 14, 16])
@pytest.mark.parametrize("compression", ["none", "packed", "lj92"])
def test_libraw_reads_every_sample_and_level(tmp_path, compression, bits):
    frame, black = mosaic(bits), blacks(bits)
    path = tmp_path / "frame.dng"
    result = rawburst.write_dng(path, frame, black=black, bits=bits, compression=compression, **CALIBRATED)

    with rawpy.imread(str(path)) as raw:
        np.testing.assert_array_equal(raw.raw_image, frame)
        assert raw.white_level == 2 ** bits - 1
        pattern, letters = raw.raw_pattern, raw.color_desc.decode()
        assert [[letters[i] for i in row] for row in pattern] == [["R", "G"], ["G", "B"]]
        assert [raw.black_level_per_channel[pattern[r][c]] for r in (0, 1) for c in (0, 1)] == black
    assert result.bytes == path.stat().st_size
    stored = {"none": 16, "packed": bits, "lj92": bits}[compression]
    assert (result.compression, result.bits_per_sample) == (compression, stored) or \
        (compression, bits, result.compression, result.bits_per_sample) == ("packed", 16, "none", 16)


@pytest.mark.parametrize("compression", ["none", "packed", "lj92"])
def test_validators_and_digest(tmp_path, compression):
    frame = mosaic(12)
    path = tmp_path / "frame.dng"
    result = rawburst.write_dng(path, frame, black=256, bits=12, compression=compression, **CALIBRATED)

    assert exiftool(path, "NewRawImageDigest")["NewRawImageDigest"].lower() == result.digest
    assert exiftool_problems(path) == []
    pixels, complaints = adobe(path, tmp_path)
    assert complaints == []
    np.testing.assert_array_equal(pixels, frame)
    if CLI.is_file():
        inspect = subprocess.run([str(CLI), "inspect", "--validate", str(path)], capture_output=True, text=True)
        assert inspect.returncode == 0, inspect.stdout + inspect.stderr


@pytest.mark.parametrize("cfa", ["RGGB", "BGGR", "GRBG", "GBRG"])
def test_bayer_layouts(tmp_path, cfa):
    path = tmp_path / "frame.dng"
    frame = mosaic(12)
    rawburst.write_dng(path, frame, cfa=cfa, bits=12, **CALIBRATED)

    with rawpy.imread(str(path)) as raw:
        letters = raw.color_desc.decode()
        assert "".join(letters[i] for row in raw.raw_pattern for i in row) == cfa
    image = rawburst.read(path)
    assert image.cfa == cfa
    assert image.cfa_pattern == ((LETTER_CODES[cfa[0]], LETTER_CODES[cfa[1]]),
                                 (LETTER_CODES[cfa[2]], LETTER_CODES[cfa[3]]))
    np.testing.assert_array_equal(image.mosaic, frame)


def test_xtrans(tmp_path):
    path = tmp_path / "xtrans.dng"
    frame = mosaic(14, width=252, height=192)
    rawburst.write_dng(path, frame, cfa=XTRANS, bits=14, black=1024, **CALIBRATED)

    with rawpy.imread(str(path)) as raw:
        np.testing.assert_array_equal(raw.raw_image, frame)
        letters = raw.color_desc.decode()
        assert "".join(letters[i] for row in raw.raw_pattern for i in row) == XTRANS
    image = rawburst.read(path)
    assert image.cfa == XTRANS
    assert image.cfa_pattern == tuple(tuple(LETTER_CODES[x] for x in XTRANS[r * 6:r * 6 + 6]) for r in range(6))
    np.testing.assert_array_equal(image.mosaic, frame)


def test_monochrome(tmp_path, recwarn):
    path = tmp_path / "mono.dng"
    frame = mosaic(12)
    rawburst.write_dng(path, frame, cfa="mono", bits=12, black=240)

    assert not [w for w in recwarn if issubclass(w.category, rawburst.UncalibratedColorWarning)]
    with rawpy.imread(str(path)) as raw:
        np.testing.assert_array_equal(raw.raw_image, frame)
    image = rawburst.read(path)
    assert image.cfa == "mono" and len(image.cfa_pattern) == 1 and len(image.cfa_pattern[0]) == 1
    assert image.color is None
    np.testing.assert_array_equal(image.mosaic, frame)
    assert image.black.tolist() == [[240.0]]


def test_metadata_as_exiftool_and_read_see_it(tmp_path):
    path = tmp_path / "frame.dng"
    taken = datetime.datetime(2026, 12, 8, 10, 11, 12, 345000, tzinfo=datetime.timezone(datetime.timedelta(hours=1)))
    exif = {"exposure_time": 1 / 120, "f_number": 1.8, "iso": 200, "focal_length": 4.1, "capture_time": taken,
            "lens": "wide 4.1mm f/1.8", "serial_number": "RB-0042", "orientation": 6}
    rawburst.write_dng(path, mosaic(12), bits=12, exif=exif, gps=(-33.8568, 151.2153, 58.0), baseline_exposure=0.5,
                       **CALIBRATED)

    tags = exiftool(path)
    assert (tags["Make"], tags["Model"], tags["UniqueCameraModel"]) == ("rawburst", "numpy", "rawburst numpy")
    assert tags["ExposureTime"] == pytest.approx(1 / 120, rel=1e-6)
    assert (tags["FNumber"], tags["ISO"], tags["FocalLength"], tags["Orientation"]) == pytest.approx((1.8, 200, 4.1, 6))
    assert tags["DateTimeOriginal"] == "2026:12:08 10:11:12"
    assert "wide 4.1mm f/1.8" in tags.values() and "RB-0042" in tags.values()
    assert (tags["GPSLatitudeRef"], tags["GPSLongitudeRef"]) == ("S", "E")
    assert abs(tags["GPSLatitude"]) == pytest.approx(33.8568, abs=1e-6)
    assert tags["GPSLongitude"] == pytest.approx(151.2153, abs=1e-6)
    assert tags["GPSAltitude"] == pytest.approx(58.0, abs=1e-3)
    assert tags["BaselineExposure"] == pytest.approx(0.5)

    image = rawburst.read(path)
    assert image.exif["make"] == "rawburst" and image.exif["model"] == "numpy"
    assert image.exif["exposure_time"] == pytest.approx(1 / 120, rel=1e-6)
    assert (image.exif["f_number"], image.exif["iso"], image.exif["orientation"]) == (pytest.approx(1.8), 200, 6)
    assert image.exif["capture_time"].startswith("2026-12-08T10:11:12")
    assert image.gps == {"latitude": pytest.approx(-33.8568, abs=1e-6), "longitude": pytest.approx(151.2153, abs=1e-6),
                         "altitude": pytest.approx(58.0, abs=1e-3)}
    assert image.color is not None and image.color.baseline_exposure == pytest.approx(0.5)


def test_given_make_and_model(tmp_path):
    path = tmp_path / "pi.dng"
    rawburst.write_dng(path, mosaic(10), bits=10, exif={"make": "Raspberry Pi", "model": "imx477"}, **CALIBRATED)
    tags = exiftool(path, "Make", "Model", "UniqueCameraModel")
    assert (tags["Make"], tags["Model"], tags["UniqueCameraModel"]) == ("Raspberry Pi", "imx477", "Raspberry Pi imx477")


def test_read_gives_back_what_was_written(tmp_path):
    path = tmp_path / "frame.dng"
    frame, black = mosaic(12), blacks(12)
    rawburst.write_dng(path, frame, black=black, bits=12, crop=8, illuminant="D65", **CALIBRATED)

    image = rawburst.read(path)
    np.testing.assert_array_equal(image.mosaic, frame)
    assert image.mosaic.dtype == np.uint16 and image.mosaic.flags.owndata and image.mosaic.flags.c_contiguous
    assert image.black.tolist() == [black[:2], black[2:]]
    assert (image.white, image.bits, image.cfa) == (4095, 12, "RGGB")
    assert image.active_area == (0, 0, HEIGHT, WIDTH)
    assert image.default_crop == (8, 8, WIDTH - 16, HEIGHT - 16)
    np.testing.assert_array_equal(image.visible, frame)
    assert image.color is not None
    assert image.color.color_matrix.shape == (3, 3) and image.color.illuminant == 21
    np.testing.assert_allclose(image.color.as_shot_neutral, NEUTRAL, atol=1e-4)


def test_default_levels(tmp_path):
    cases = [({}, 16, 65535), ({"bits": 12}, 12, 4095), ({"white": 1000}, 10, 1000), ({"white": 200}, 8, 200)]
    for index, (levels, bits, white) in enumerate(cases):
        path = tmp_path / f"levels-{index}.dng"
        frame = np.minimum(mosaic(bits), white)
        result = rawburst.write_dng(path, frame, compression="packed", **levels, **CALIBRATED)
        image = rawburst.read(path)
        assert (image.bits, image.white) == (bits, white), levels
        assert result.bits_per_sample == bits or (bits == 16 and result.compression == "none")
        np.testing.assert_array_equal(image.mosaic, frame)
        with rawpy.imread(str(path)) as raw:
            assert raw.white_level == white


def test_row_strided_view_is_written_in_place(tmp_path, monkeypatch):
    big = mosaic(12, width=WIDTH + 40, height=HEIGHT + 10)
    view = big[:HEIGHT, :WIDTH]
    assert not view.flags.c_contiguous and view.base is big
    copies = []
    real = np.ascontiguousarray
    monkeypatch.setattr(np, "ascontiguousarray", lambda *a, **k: copies.append(a) or real(*a, **k))
    in_place = rawburst.write_dng(tmp_path / "view.dng", view, bits=12, **CALIBRATED)
    assert copies == []
    monkeypatch.undo()

    contiguous = rawburst.write_dng(tmp_path / "copy.dng", view.copy(), bits=12, **CALIBRATED)
    assert in_place.digest == contiguous.digest
    np.testing.assert_array_equal(rawburst.read(tmp_path / "view.dng").mosaic, view)


@pytest.mark.parametrize("layout", ["fortran", "every other column", "upside-down rows", "byteswapped"])
def test_other_layouts_are_copied_once(tmp_path, monkeypatch, layout):
    frame = mosaic(12)
    arranged = {
        "fortran": lambda: np.asfortranarray(frame),
        "every other column": lambda: np.repeat(frame, 2, axis=1)[:, ::2],
        "upside-down rows": lambda: frame[::-1].copy()[::-1],
        "byteswapped": lambda: frame.astype(">u2"),
    }[layout]()
    np.testing.assert_array_equal(arranged, frame)
    copies = []
    real = np.ascontiguousarray
    monkeypatch.setattr(np, "ascontiguousarray", lambda *a, **k: copies.append(a) or real(*a, **k))
    result = rawburst.write_dng(tmp_path / "arranged.dng", arranged, bits=12, **CALIBRATED)
    # A byte-swapped array is converted (astype), which already gives a contiguous native copy.
    assert len(copies) == (0 if layout == "byteswapped" else 1)
    monkeypatch.undo()
    assert result.digest == rawburst.write_dng(tmp_path / "plain.dng", frame, bits=12, **CALIBRATED).digest


def test_ccm_gives_a_colour_matrix_that_maps_d65_to_as_shot_neutral(tmp_path):
    path = tmp_path / "ccm.dng"
    rawburst.write_dng(path, mosaic(12), bits=12, ccm=CCM, as_shot_neutral=NEUTRAL)

    tags = exiftool(path, "ColorMatrix1", "AsShotNeutral", "CalibrationIlluminant1", "ProfileName")
    matrix = numbers(tags["ColorMatrix1"]).reshape(3, 3)
    np.testing.assert_allclose(numbers(tags["AsShotNeutral"]), NEUTRAL, atol=1e-4)
    assert tags["CalibrationIlluminant1"] == 21
    assert "Uncalibrated" not in str(tags.get("ProfileName", ""))
    white = matrix @ D65
    np.testing.assert_allclose(white / white[1], np.array(NEUTRAL) / NEUTRAL[1], rtol=2e-3)
    # The whole matrix: XYZ -> linear sRGB -> white-balanced camera RGB (inverse CCM) -> camera RGB (times neutral).
    expected = np.diag(NEUTRAL) @ np.linalg.inv(CCM) @ XYZ_TO_SRGB
    np.testing.assert_allclose(matrix / matrix[1, 1], expected / expected[1, 1], atol=2e-3)


def test_color_matrix_is_written_as_given(tmp_path):
    path = tmp_path / "matrix.dng"
    matrix = [[0.6722, -0.0635, -0.0963], [-0.4287, 1.2460, 0.2028], [-0.0908, 0.2162, 0.5668]]
    rawburst.write_dng(path, mosaic(12), bits=12, color_matrix=matrix, illuminant="A", as_shot_neutral=NEUTRAL)
    tags = exiftool(path, "ColorMatrix1", "CalibrationIlluminant1")
    np.testing.assert_allclose(numbers(tags["ColorMatrix1"]).reshape(3, 3), matrix, atol=1e-4)
    assert tags["CalibrationIlluminant1"] == 17
    color = rawburst.read(path).color
    assert color is not None and color.illuminant == 17
    np.testing.assert_allclose(color.color_matrix, matrix, atol=1e-4)


def test_uncalibrated_warning_fires_once(tmp_path, monkeypatch):
    monkeypatch.setattr(rawburst.dng, "_warned_uncalibrated", False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rawburst.write_dng(tmp_path / "calibrated.dng", mosaic(12), bits=12, **CALIBRATED)
        rawburst.write_dng(tmp_path / "a.dng", mosaic(12), bits=12)
        rawburst.write_dng(tmp_path / "b.dng", mosaic(12), bits=12)
    uncalibrated = [w for w in caught if issubclass(w.category, rawburst.UncalibratedColorWarning)]
    assert len(uncalibrated) == 1 and "colour" in str(uncalibrated[0].message)
    assert uncalibrated[0].filename == __file__
    assert exiftool(tmp_path / "a.dng", "ProfileName")["ProfileName"] == "Uncalibrated: no camera profile"


def test_noise_profile(tmp_path):
    path = tmp_path / "noise.dng"
    pairs = [(2.0e-5, 1.0e-7), (1.5e-5, 0.8e-7), (2.5e-5, 1.2e-7)]
    rawburst.write_dng(path, mosaic(12), bits=12, noise_profile=pairs, **CALIBRATED)
    np.testing.assert_allclose(numbers(exiftool(path, "NoiseProfile")["NoiseProfile"]), np.ravel(pairs), rtol=1e-6)


def test_preview(tmp_path):
    plain = rawburst.write_dng(tmp_path / "plain.dng", mosaic(12), bits=12, **CALIBRATED)
    previewed = rawburst.write_dng(tmp_path / "preview.dng", mosaic(12), bits=12, preview=128, **CALIBRATED)
    assert previewed.bytes > plain.bytes
    assert exiftool_problems(tmp_path / "preview.dng") == []


def test_existing_file_is_refused_then_replaced(tmp_path):
    path = tmp_path / "frame.dng"
    rawburst.write_dng(path, mosaic(12, seed=1), bits=12, **CALIBRATED)
    before = path.read_bytes()
    with pytest.raises(rawburst.ExistsError) as refused:
        rawburst.write_dng(path, mosaic(12, seed=2), bits=12, **CALIBRATED)
    assert isinstance(refused.value, FileExistsError) and refused.value.status == -2 and str(refused.value)
    assert path.read_bytes() == before

    rawburst.write_dng(path, mosaic(12, seed=2), bits=12, overwrite=True, **CALIBRATED)
    np.testing.assert_array_equal(rawburst.read(path).mosaic, mosaic(12, seed=2))


BAD = {
    "float32": (lambda f: f.astype(np.float32), {}),
    "int16": (lambda f: f.astype(np.int16), {}),
    "uint8": (lambda f: (f >> 8).astype(np.uint8), {}),
    "3-D": (lambda f: f[:, :, None], {}),
    "1-D": (lambda f: f.ravel(), {}),
    "odd width": (lambda f: f[:, :-1], {}),
    "odd height": (lambda f: f[:-1], {}),
    "width not whole X-Trans repeats": (lambda f: f, {"cfa": XTRANS}),
    "unknown CFA": (lambda f: f, {"cfa": "RGBX"}),
    "five-letter CFA": (lambda f: f, {"cfa": "RGGBR"}),
    "black equal to white": (lambda f: f, {"bits": 12, "black": 4095}),
    "black above white": (lambda f: f, {"white": 1000, "black": [64, 64, 1200, 64]}),
    "three black levels": (lambda f: f, {"black": [64, 64, 64]}),
    "white above 2**bits-1": (lambda f: f, {"bits": 12, "white": 4096}),
    "bits 7": (lambda f: f >> 5, {"bits": 7}),
    "bits 17": (lambda f: f, {"bits": 17}),
    "samples above 2**bits-1": (lambda f: f, {"bits": 10}),
    "samples above the bits of white": (lambda f: f, {"white": 1000}),
    "compression": (lambda f: f, {"compression": "zip"}),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_input_raises_and_writes_nothing(tmp_path, case):
    arrange, arguments = BAD[case]
    bad = arrange(mosaic(12))
    arguments = {"bits": 12, **CALIBRATED, **arguments} if "white" not in arguments else {**CALIBRATED, **arguments}
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    with pytest.raises(rawburst.ArgumentError) as error:
        rawburst.write_dng(fresh / "bad.dng", bad, **arguments)
    assert isinstance(error.value, ValueError) and error.value.status == -1 and str(error.value)
    assert list(fresh.iterdir()) == []

    existing = tmp_path / "existing.dng"
    rawburst.write_dng(existing, mosaic(12), bits=12, **CALIBRATED)
    before = existing.read_bytes()
    with pytest.raises(rawburst.ArgumentError):
        rawburst.write_dng(existing, bad, overwrite=True, **arguments)
    assert existing.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["existing.dng", "fresh"]


def test_missing_folder_is_a_write_error(tmp_path):
    with pytest.raises(rawburst.WriteError) as error:
        rawburst.write_dng(tmp_path / "missing" / "frame.dng", mosaic(12), bits=12, **CALIBRATED)
    assert isinstance(error.value, OSError) and error.value.status == -4 and str(error.value)
    assert list(tmp_path.iterdir()) == []
