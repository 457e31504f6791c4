"""develop: a raw file into a picture (JPEG, HEIF, TIFF or PNG), through rawburst_develop."""

from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass
from typing import Optional

from . import _library as c
from .errors import argument_error


@dataclass(frozen=True)
class DevelopResult:
    """What develop made: the picture's size in pixels, the file's size in bytes, and its path."""

    width: int
    height: int
    bytes: int
    path: str


def _count(value: Optional[int], name: str, low: int, high: int) -> int:
    """An optional whole number checked to be low...high, as the library's 0-means-default field."""
    if value is None:
        return 0
    if int(value) != value or not low <= value <= high:
        raise argument_error(f"{name} must be a whole number {low}...{high}, not {value!r}")
    return int(value)


def develop(
    input: c.PathLike,
    output: c.PathLike,
    white_balance: Optional[str] = None,
    exposure: float = 0.0,
    long_edge: Optional[int] = None,
    quality: Optional[int] = None,
    bits: Optional[int] = None,
    overwrite: bool = False,
) -> DevelopResult:
    """Develops the raw file `input` into `output`, whose extension says the format: .jpg .heic .tif .png.

    Args:
        white_balance: None or "as-shot" (the camera's), "auto" (grey world), a preset (daylight, cloudy,
            shade, tungsten, fluorescent, flash), or a temperature with a tint ("5600K", "4800K+10").
        exposure: EV added.
        long_edge: long edge of the picture in pixels; None: the full size.
        quality: JPEG or HEIF quality 1...100; None: the encoder's default (90).
        bits: bits per sample of a TIFF (8, 16 or 32) or PNG (8 or 16); None: the format's default.
        overwrite: replace a file that exists at `output`.

    Raises:
        ReadError: `input` cannot be read. ExistsError: `output` exists without `overwrite`. WriteError:
        `output` cannot be written. ArgumentError: a bad value. Nothing is written in any of these cases.
    """
    params = c.DevelopParams()
    c.library().rawburst_develop_params_init(ctypes.byref(params))
    params.white_balance = white_balance.encode("utf-8") if white_balance is not None else None
    params.exposure = float(exposure)
    params.long_edge = _count(long_edge, "long_edge", 1, 2 ** 32 - 1)
    params.quality = _count(quality, "quality", 1, 100)
    params.bits = _count(bits, "bits", 8, 32)
    params.overwrite = 1 if overwrite else 0
    result = c.sized(c.DevelopResult)
    c.call("rawburst_develop", os.fsencode(input), os.fsencode(output), ctypes.byref(params), ctypes.byref(result))
    return DevelopResult(width=int(result.width), height=int(result.height), bytes=int(result.bytes),
                         path=os.fsdecode(output))
