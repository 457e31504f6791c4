"""read: any raw LibRaw reads (DNGs included) into a numpy mosaic and its metadata, through rawburst_read."""

from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple

import numpy as np

from . import _library as c
from .errors import Error
from .metadata import Color, color_from, exif_from, gps_from, layout_from


@dataclass(frozen=True)
class RawImage:
    """A raw file's samples and what they mean.

    Attributes:
        mosaic: the samples, uint16, shape (height, width), masked borders included; the array owns its memory.
        cfa: the colour filter repeat as text ("RGGB", "mono", or 36 X-Trans letters).
        cfa_pattern: the same as rows of DNG CFAPattern codes (0 red, 1 green, 2 blue, ...).
        black: black levels repeating from the active area's top-left, shaped (rows, columns).
        white: the saturation code.
        bits: significant bits of each sample.
        active_area: the image pixels of the mosaic (top, left, bottom, right).
        default_crop: the part meant to be shown, relative to the active area (left, top, width, height).
        exif: the known EXIF values (make, model, serial_number, lens, capture_time, exposure_time, f_number, iso,
            focal_length, orientation).
        gps: {"latitude", "longitude"[, "altitude"]}, or None.
        color: the colour calibration, or None (monochrome, or none in the file).
    """

    mosaic: np.ndarray
    cfa: str
    cfa_pattern: Tuple[Tuple[int, ...], ...]
    black: np.ndarray
    white: int
    bits: int
    active_area: Tuple[int, int, int, int]
    default_crop: Tuple[int, int, int, int]
    exif: Dict[str, Any]
    gps: Optional[Dict[str, float]]
    color: Optional[Color]

    @property
    def visible(self) -> np.ndarray:
        """The active area of the mosaic (a view, not a copy)."""
        top, left, bottom, right = self.active_area
        return self.mosaic[top:bottom, left:right]


def _samples(image: ctypes.c_void_p, width: int, height: int) -> np.ndarray:
    """The image's samples copied once into a new (height, width) array."""
    row_stride = ctypes.c_size_t()
    address = c.library().rawburst_image_samples(image, ctypes.byref(row_stride))
    if not address or width == 0 or height == 0:
        raise Error(f"the library gave no samples for a {width}x{height} image: {c.last_error()}")
    buffer = (ctypes.c_uint16 * (row_stride.value * (height - 1) + width)).from_address(address)
    rows = np.lib.stride_tricks.as_strided(np.ctypeslib.as_array(buffer), shape=(height, width),
                                           strides=(2 * row_stride.value, 2), writeable=False)
    return rows.copy()


def read(path: c.PathLike) -> RawImage:
    """Reads a raw file (anything LibRaw reads, DNGs included).

    Raises:
        ReadError: the file is missing, unreadable, truncated, damaged or not a raw file (also an OSError).
    """
    image = ctypes.c_void_p()
    c.call("rawburst_read", os.fsencode(path), ctypes.byref(image))
    try:
        layout, exif, gps, color = c.sized(c.Layout), c.sized(c.Exif), c.sized(c.Gps), c.sized(c.Color)
        c.call("rawburst_image_layout", image, ctypes.byref(layout))
        c.call("rawburst_image_exif", image, ctypes.byref(exif))
        c.call("rawburst_image_gps", image, ctypes.byref(gps))
        c.call("rawburst_image_color", image, ctypes.byref(color))
        shape = layout_from(layout)
        return RawImage(
            mosaic=_samples(image, shape.width, shape.height),
            cfa=shape.cfa,
            cfa_pattern=shape.cfa_pattern,
            black=shape.black,
            white=shape.white,
            bits=shape.bits,
            active_area=shape.active_area,
            default_crop=shape.default_crop,
            exif=exif_from(exif),
            gps=gps_from(gps),
            color=color_from(color),
        )
    finally:
        c.library().rawburst_image_free(image)
