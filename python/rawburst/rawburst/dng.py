"""write_dng: a numpy mosaic to a DNG file, through rawburst_write_dng."""

from __future__ import annotations

import ctypes
import os
import warnings
from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _library as c
from .errors import argument_error
from .metadata import CFA_LETTERS, GpsInput, fill_exif, fill_gps

Number = Union[int, float]

BAYER = ("RGGB", "BGGR", "GRBG", "GBRG")
COMPRESSIONS = {"none": c.COMPRESSION_NONE, "packed": c.COMPRESSION_PACKED, "lj92": c.COMPRESSION_LJ92}
ILLUMINANTS = {"D55": 20, "D65": 21, "D75": 22, "D50": 23, "A": 17, "B": 18, "C": 19}
"""EXIF LightSource codes by name, for `illuminant`."""

DEFAULT_MAKE, DEFAULT_MODEL = "rawburst", "numpy"

_warned_uncalibrated = False
"""Whether the process was already told that a DNG without a matrix has wrong colours (said once)."""


class UncalibratedColorWarning(UserWarning):
    """A DNG was written without a colour matrix: readers show camera RGB as if it were sRGB."""


@dataclass(frozen=True)
class DNGResult:
    """What write_dng wrote.

    Attributes:
        path: the file written.
        bytes: its size.
        compression: "none", "packed" or "lj92" (packing falls back to "none" when no depth packs the rows).
        bits_per_sample: bits of each stored sample.
        digest: DNG NewRawImageDigest (MD5 of the samples as the DNG specification defines it), hex.
    """

    path: str
    bytes: int
    compression: str
    bits_per_sample: int
    digest: str


def cfa_shape(cfa: str) -> Tuple[str, Tuple[int, int]]:
    """The CFA's canonical name and its repeat (rows, columns); ArgumentError for an unknown one."""
    if not isinstance(cfa, str):
        raise argument_error(f"cfa must be text, not {type(cfa).__name__}")
    if cfa.lower() == "mono":
        return "mono", (1, 1)
    name = cfa.upper()
    if name in BAYER:
        return name, (2, 2)
    if len(name) == 36 and set(name) <= set(CFA_LETTERS):
        return name, (6, 6)
    raise argument_error(f"unknown CFA {cfa!r}: use {', '.join(BAYER)}, mono or 36 letters of {CFA_LETTERS}")


def _samples(mosaic: np.ndarray, repeat: Tuple[int, int]) -> Tuple[np.ndarray, int]:
    """The array to hand to the library and its row stride in samples.

    Rows that are 2-byte samples side by side are passed in place, whatever the distance between rows (a crop
    such as `a[:, :w]` is not copied); anything else is copied once into a contiguous array.
    """
    if not isinstance(mosaic, np.ndarray):
        raise argument_error(f"mosaic must be a numpy array, not {type(mosaic).__name__}")
    if mosaic.dtype.kind != "u" or mosaic.dtype.itemsize != 2:
        raise argument_error(f"mosaic must be uint16, not {mosaic.dtype}")
    if mosaic.ndim != 2:
        raise argument_error(f"mosaic must be 2-D (height, width), not {mosaic.ndim}-D")
    height, width = mosaic.shape
    if height == 0 or width == 0 or height % repeat[0] or width % repeat[1]:
        raise argument_error(f"a {width}x{height} mosaic is not a whole number of {repeat[1]}x{repeat[0]} CFA repeats")
    if not mosaic.dtype.isnative:
        mosaic = mosaic.astype(np.uint16)
    row_bytes = mosaic.strides[0] if height > 1 else 2 * width
    in_place = mosaic.flags.aligned and mosaic.strides[1] == 2 and row_bytes >= 2 * width and row_bytes % 2 == 0
    if not in_place:
        mosaic = np.ascontiguousarray(mosaic)
        row_bytes = 2 * width
    return mosaic, row_bytes // 2


def _levels(bits: Optional[int], white: Optional[int]) -> Tuple[int, int]:
    """(bits, white) with the defaults filled in; ArgumentError when they are out of range."""
    if bits is not None and (int(bits) != bits or not 8 <= bits <= 16):
        raise argument_error(f"bits must be 8...16, not {bits!r}")
    if white is None:
        white = 2 ** bits - 1 if bits is not None else 65535
    if int(white) != white or not 1 <= white <= 65535:
        raise argument_error(f"white must be an integer 1...65535, not {white!r}")
    white = int(white)
    bits = int(bits) if bits is not None else max(8, white.bit_length())
    if white > 2 ** bits - 1:
        raise argument_error(f"white {white} does not fit {bits} bits (at most {2 ** bits - 1})")
    return bits, white


def _black(black: Union[Number, Sequence[Number], np.ndarray], repeat: Tuple[int, int], white: int) -> np.ndarray:
    """The black levels as a flat array of 0, 1 or CFA-size values; ArgumentError when out of range."""
    levels = np.asarray(black, dtype=np.float64).ravel()
    if levels.size not in (1, repeat[0] * repeat[1]):
        raise argument_error(f"black needs 1 or {repeat[0] * repeat[1]} values (CFA order), not {levels.size}")
    if not np.all((levels >= 0) & (levels < white)):
        raise argument_error(f"black {levels.tolist()} must be >= 0 and below white {white}")
    return levels if levels.any() else levels[:0]


def _doubles(value: Any, shape: Tuple[int, ...], name: str) -> "Optional[ctypes.Array[ctypes.c_double]]":
    """None, or `value` checked to have `shape` and finite numbers, as a C array of doubles (row-major)."""
    if value is None:
        return None
    array = np.asarray(value, dtype=np.float64)
    if array.shape != shape or not np.all(np.isfinite(array)):
        raise argument_error(f"{name} must be {' x '.join(map(str, shape))} finite numbers, not {value!r}")
    return (ctypes.c_double * array.size)(*array.ravel().tolist())


def _illuminant(illuminant: Union[None, int, str]) -> int:
    """An EXIF LightSource code from a code or a name in ILLUMINANTS (0: the library's default, D65)."""
    if illuminant is None:
        return 0
    if isinstance(illuminant, str):
        if illuminant.upper() not in ILLUMINANTS:
            raise argument_error(f"unknown illuminant {illuminant!r} (known: {', '.join(ILLUMINANTS)}, or a code)")
        return ILLUMINANTS[illuminant.upper()]
    if int(illuminant) != illuminant or not 0 <= illuminant <= 255:
        raise argument_error(f"illuminant must be an EXIF LightSource code 0...255, not {illuminant!r}")
    return int(illuminant)


def _noise(params: c.DngParams, profile: Optional[Sequence[Tuple[Number, Number]]], colours: int) -> None:
    """Sets the NoiseProfile: 1 (scale, offset) pair for every plane, or one per CFA colour."""
    if profile is None:
        return
    pairs = np.asarray(profile, dtype=np.float64)
    if pairs.ndim != 2 or pairs.shape[1] != 2 or pairs.shape[0] not in (1, colours) or pairs.shape[0] > 4:
        raise argument_error(f"noise_profile needs 1 or {colours} (scale, offset) pairs, not {profile!r}")
    if not np.all((pairs[:, 0] > 0) & (pairs[:, 1] >= 0) & np.isfinite(pairs).all(axis=1)):
        raise argument_error(f"noise_profile scales must be > 0 and offsets >= 0: {profile!r}")
    params.noise_planes = pairs.shape[0]
    for index, (scale, offset) in enumerate(pairs.tolist()):
        params.noise_scale[index], params.noise_offset[index] = scale, offset


def _warn_uncalibrated() -> None:
    """Warns once per process that a DNG without a matrix shows wrong colours."""
    global _warned_uncalibrated
    if not _warned_uncalibrated:
        _warned_uncalibrated = True
        warnings.warn("write_dng without color_matrix or ccm: the DNG says its colours are uncalibrated and readers "
                      "show camera RGB as sRGB (colours will be wrong); pass a matrix to fix this",
                      UncalibratedColorWarning, stacklevel=3)


def write_dng(
    path: c.PathLike,
    mosaic: np.ndarray,
    cfa: str = "RGGB",
    black: Union[Number, Sequence[Number], np.ndarray] = 0,
    white: Optional[int] = None,
    bits: Optional[int] = None,
    color_matrix: Optional[Any] = None,
    illuminant: Union[None, int, str] = None,
    ccm: Optional[Any] = None,
    as_shot_neutral: Optional[Sequence[Number]] = None,
    baseline_exposure: float = 0.0,
    exif: Optional[Mapping[str, Any]] = None,
    gps: Optional[GpsInput] = None,
    compression: str = "lj92",
    crop: int = 8,
    preview: Optional[int] = None,
    noise_profile: Optional[Sequence[Tuple[Number, Number]]] = None,
    overwrite: bool = False,
) -> DNGResult:
    """Writes a 2-D uint16 mosaic as a DNG; the file appears complete, or not at all.

    Args:
        path: the DNG to write.
        mosaic: the raw samples, a 2-D uint16 array or view. Rows of side-by-side samples are read in place
            whatever their spacing (a crop like ``a[:, :w]`` is not copied); other layouts are copied once.
        cfa: "RGGB", "BGGR", "GRBG", "GBRG", "mono", or 36 letters of an X-Trans pattern, from the top-left.
            The mosaic's width and height must be whole CFA repeats.
        black: one black level, or one per CFA position in CFA order.
        white: the saturation code; default 2**bits - 1 when bits is given, else 65535.
        bits: significant bits 8...16; default the fewest that hold white. Every sample must fit them.
        color_matrix: 3x3 XYZ to camera (DNG ColorMatrix1) under `illuminant`.
        illuminant: EXIF LightSource code or name ("D65", "A", ...) of color_matrix; default D65.
        ccm: 3x3 white-balanced camera RGB to linear sRGB (a Raspberry Pi tuning's CCM); used without
            color_matrix. Without either, the file says its colours are uncalibrated (warned once per process, not
            for "mono").
        as_shot_neutral: the camera's response to white as shot (3 numbers); default 1, 1, 1.
        baseline_exposure: DNG BaselineExposure in EV.
        exif: make, model, serial_number, lens, capture_time (ISO 8601 text or datetime), exposure_time (s),
            f_number, iso, focal_length (mm), orientation (1...8). Without make and model, the camera is
            "rawburst" "numpy".
        gps: {"latitude", "longitude"[, "altitude"]} or (latitude, longitude[, altitude]); degrees, metres.
        compression: "none" (16-bit strips), "packed" (samples at their bit depth) or "lj92" (lossless JPEG).
        crop: pixels left out of DefaultCrop on every side (rounded down to whole CFA repeats).
        preview: long edge of an embedded JPEG preview, 64...1024 pixels; None: none.
        noise_profile: DNG NoiseProfile, 1 (scale, offset) pair or one per CFA colour.
        overwrite: replace a file that exists at `path`.

    Raises:
        ArgumentError: a bad mosaic or value (also a ValueError). ExistsError: `path` exists without
        `overwrite`. WriteError: the file cannot be written. Nothing is written in any of these cases.
    """
    name, repeat = cfa_shape(cfa)
    samples, row_stride = _samples(mosaic, repeat)
    bits, white = _levels(bits, white)
    levels = _black(black, repeat, white)
    if compression not in COMPRESSIONS:
        raise argument_error(f"compression must be one of {', '.join(COMPRESSIONS)}, not {compression!r}")
    if int(crop) != crop or crop < 0:
        raise argument_error(f"crop must be an integer >= 0, not {crop!r}")
    if preview is not None and (int(preview) != preview or not 64 <= preview <= 1024):
        raise argument_error(f"preview must be 64...1024 pixels, not {preview!r}")

    params = c.DngParams()
    c.library().rawburst_dng_params_init(ctypes.byref(params))
    params.cfa = name.encode("ascii")
    params.bits_per_sample, params.white_level = bits, white
    params.black_count = levels.size
    params.black[: levels.size] = levels.tolist()
    # The struct's pointer fields keep their C arrays alive (ctypes holds a reference to what a field is set to).
    matrix = _doubles(color_matrix, (3, 3), "color_matrix")
    camera_to_srgb = _doubles(ccm, (3, 3), "ccm")
    neutral = _doubles(as_shot_neutral, (3,), "as_shot_neutral")
    if neutral is not None and min(neutral) <= 0:
        raise argument_error(f"as_shot_neutral values must be > 0, not {as_shot_neutral!r}")
    params.color_matrix = matrix
    params.ccm = camera_to_srgb
    params.as_shot_neutral = neutral
    params.illuminant = _illuminant(illuminant)
    params.baseline_exposure = float(baseline_exposure)
    params.crop = int(crop)
    params.compression = COMPRESSIONS[compression]
    params.overwrite = 1 if overwrite else 0
    params.preview = int(preview or 0)
    fill_exif(params.exif, exif, DEFAULT_MAKE, DEFAULT_MODEL)
    fill_gps(params.gps, gps)
    _noise(params, noise_profile, len(set(name)) if name != "mono" else 1)
    if matrix is None and camera_to_srgb is None and name != "mono":
        _warn_uncalibrated()

    height, width = samples.shape
    result = c.sized(c.DngResult)
    c.call("rawburst_write_dng", os.fsencode(path), samples.ctypes.data, width, height, row_stride,
           ctypes.byref(params), ctypes.byref(result))
    names = {code: text for text, code in COMPRESSIONS.items()}
    return DNGResult(
        path=os.fsdecode(path),
        bytes=int(result.bytes),
        compression=names.get(result.compression, str(result.compression)),
        bits_per_sample=int(result.bits_per_sample),
        digest=bytes(result.digest).hex(),
    )
