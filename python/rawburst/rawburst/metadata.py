"""What a frame's samples mean — layout, EXIF, GPS, colour — between the C structs and Python values."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _library as c
from .errors import argument_error

CFA_LETTERS = "RGBCMYW"
"""DNG CFAPattern codes 0...6 as letters."""

EXIF_TEXT_KEYS = ("make", "model", "serial_number", "lens", "capture_time")
EXIF_NUMBER_KEYS = ("exposure_time", "f_number", "iso", "focal_length")
EXIF_KEYS = EXIF_TEXT_KEYS + EXIF_NUMBER_KEYS + ("orientation",)

GpsInput = Union[Mapping[str, float], Sequence[float]]


@dataclass(frozen=True)
class Layout:
    """How a frame's samples are laid out.

    Attributes:
        width, height: the buffer in samples, masked borders included.
        bits: significant bits of each 16-bit sample.
        white: the saturation code (DNG WhiteLevel).
        cfa: the colour filter repeat as text ("RGGB", "mono", or 36 X-Trans letters).
        cfa_pattern: the same as rows of DNG CFAPattern codes (0 red, 1 green, 2 blue, ...).
        black: black levels repeating from the active area's top-left, shaped (rows, columns).
        active_area: the image pixels of the buffer (top, left, bottom, right).
        default_crop: the part meant to be shown, relative to the active area (left, top, width, height).
    """

    width: int
    height: int
    bits: int
    white: int
    cfa: str
    cfa_pattern: Tuple[Tuple[int, ...], ...]
    black: np.ndarray
    active_area: Tuple[int, int, int, int]
    default_crop: Tuple[int, int, int, int]

    @property
    def shape(self) -> Tuple[int, int]:
        """(height, width): the shape of an array holding one frame."""
        return self.height, self.width


@dataclass(frozen=True)
class Color:
    """How the camera's colours are read (DNG colour tags).

    Attributes:
        color_matrix: ColorMatrix1, XYZ to camera, shaped (channels, 3).
        illuminant: the EXIF LightSource code of color_matrix (21 = D65, 17 = standard light A).
        as_shot_neutral: the camera's response to white as shot (channels values), or None when not known.
        baseline_exposure: DNG BaselineExposure in EV.
    """

    color_matrix: np.ndarray
    illuminant: int
    as_shot_neutral: Optional[np.ndarray]
    baseline_exposure: float


def layout_from(raw: c.Layout) -> Layout:
    """A Layout from a filled rawburst_layout."""
    rows, columns = raw.cfa_rows, raw.cfa_columns
    codes = list(raw.cfa[: rows * columns])
    black_rows, black_columns = max(raw.black_rows, 1), max(raw.black_columns, 1)
    black = np.array(raw.black[: black_rows * black_columns], dtype=np.float64).reshape(black_rows, black_columns)
    return Layout(
        width=raw.width,
        height=raw.height,
        bits=raw.bits_per_sample,
        white=raw.white_level,
        cfa=raw.cfa_text.decode("ascii"),
        cfa_pattern=tuple(tuple(codes[r * columns:(r + 1) * columns]) for r in range(rows)),
        black=black,
        active_area=(raw.active_top, raw.active_left, raw.active_bottom, raw.active_right),
        default_crop=(raw.crop_left, raw.crop_top, raw.crop_width, raw.crop_height),
    )


def exif_from(raw: c.Exif) -> Dict[str, Any]:
    """The known values of a filled rawburst_exif (no key for a NULL string or a zero number)."""
    values: Dict[str, Any] = {}
    for key in EXIF_TEXT_KEYS:
        value = c.text(getattr(raw, key))
        if value:
            values[key] = value
    for key in EXIF_NUMBER_KEYS:
        if getattr(raw, key):
            values[key] = float(getattr(raw, key))
    if raw.orientation:
        values["orientation"] = int(raw.orientation)
    return values


def gps_from(raw: c.Gps) -> Optional[Dict[str, float]]:
    """A filled rawburst_gps as {"latitude", "longitude"[, "altitude"]}, or None without a fix."""
    if not raw.present:
        return None
    fix = {"latitude": raw.latitude, "longitude": raw.longitude}
    if raw.has_altitude:
        fix["altitude"] = raw.altitude
    return fix


def color_from(raw: c.Color) -> Optional[Color]:
    """A filled rawburst_color as a Color, or None when there is no colour calibration."""
    channels = raw.channels
    if channels == 0:
        return None
    neutral = np.array(raw.as_shot_neutral[:channels], dtype=np.float64)
    return Color(
        color_matrix=np.array(raw.color_matrix[: channels * 3], dtype=np.float64).reshape(channels, 3),
        illuminant=int(raw.illuminant),
        as_shot_neutral=neutral if neutral.any() else None,
        baseline_exposure=float(raw.baseline_exposure),
    )


def _capture_time(value: Union[str, datetime.datetime]) -> str:
    """ISO 8601 text of a capture time given as text or a datetime (milliseconds kept when there are any)."""
    if isinstance(value, datetime.datetime):
        return value.isoformat(timespec="milliseconds" if value.microsecond else "seconds")
    if isinstance(value, str):
        return value
    raise argument_error(f"exif capture_time must be ISO 8601 text or a datetime, not {type(value).__name__}")


def fill_exif(target: c.Exif, exif: Optional[Mapping[str, Any]], default_make: str, default_model: str) -> None:
    """Fills a rawburst_exif from a dict with EXIF_KEYS; without a make and a model, the defaults name the camera.

    The struct keeps the encoded strings alive (ctypes holds a reference to what a c_char_p field is set to).
    """
    exif = dict(exif or {})
    unknown = set(exif) - set(EXIF_KEYS)
    if unknown:
        raise argument_error(f"unknown exif keys {sorted(unknown)} (known: {', '.join(EXIF_KEYS)})")
    if not exif.get("make") and not exif.get("model"):
        exif["make"], exif["model"] = default_make, default_model
    if exif.get("capture_time") is not None:
        exif["capture_time"] = _capture_time(exif["capture_time"])
    for key in EXIF_TEXT_KEYS:
        value = exif.get(key)
        if value is not None:
            setattr(target, key, str(value).encode("utf-8"))
    for key in EXIF_NUMBER_KEYS:
        value = exif.get(key)
        if value is not None:
            if not value >= 0:
                raise argument_error(f"exif {key} must be a number >= 0, not {value!r}")
            setattr(target, key, float(value))
    orientation = exif.get("orientation")
    if orientation is not None:
        if orientation not in range(1, 9):
            raise argument_error(f"exif orientation must be 1...8, not {orientation!r}")
        target.orientation = int(orientation)


def fill_gps(target: c.Gps, gps: Optional[GpsInput]) -> None:
    """Fills a rawburst_gps from {"latitude", "longitude"[, "altitude"]} or (latitude, longitude[, altitude])."""
    if gps is None:
        return
    if isinstance(gps, Mapping):
        unknown = set(gps) - {"latitude", "longitude", "altitude"}
        if unknown or "latitude" not in gps or "longitude" not in gps:
            raise argument_error("gps needs latitude and longitude (and optionally altitude), "
                                 f"not the keys {sorted(gps)}")
        fix = [gps["latitude"], gps["longitude"]] + ([gps["altitude"]] if gps.get("altitude") is not None else [])
    else:
        fix = list(gps)
    if len(fix) not in (2, 3):
        raise argument_error(f"gps is (latitude, longitude[, altitude]), not {gps!r}")
    latitude, longitude = float(fix[0]), float(fix[1])
    if not (-90 <= latitude <= 90 and -180 <= longitude <= 180):
        raise argument_error(f"gps latitude {latitude} or longitude {longitude} out of range")
    target.present = 1
    target.latitude, target.longitude = latitude, longitude
    if len(fix) == 3:
        target.has_altitude = 1
        target.altitude = float(fix[2])
