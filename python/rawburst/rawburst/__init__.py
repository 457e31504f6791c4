"""rawburst: raw photography for numpy — write DNGs from arrays, read raws, develop them, capture bursts.

The four calls::

    rawburst.write_dng("frame.dng", mosaic, cfa="RGGB", black=64, bits=10)
    image = rawburst.read("frame.dng")          # image.mosaic, image.black, image.exif, ...
    rawburst.develop("frame.dng", "frame.jpg")
    with rawburst.capture(frames=5) as burst:
        for frame in burst: ...

They call librawburst's C interface through ctypes (the GIL is released during every call). The library is found
through $RAWBURST_LIBRARY, then the copy bundled in this package, then the system's (librawburst.so.1), when first
needed; a library of another ABI version raises ABIError then.
"""

from . import _library
from .burst import BurstResult, capture_burst
from .capture import Capture, Frame, Summary, capture
from .develop import DevelopResult, develop
from .dng import DNGResult, UncalibratedColorWarning, write_dng
from .errors import ABIError, ArgumentError, Error, ExistsError, ReadError, SourceError, WriteError
from .metadata import Color, Layout
from .read import RawImage, read

__version__: str
"""The version of librawburst (read from the library on first use)."""


def __getattr__(name: str) -> str:
    """`__version__`, asked from the library when first wanted (loading it then)."""
    if name == "__version__":
        version: bytes = _library.library().rawburst_version()
        return version.decode("ascii")
    raise AttributeError(f"module 'rawburst' has no attribute {name!r}")

__all__ = [
    "ABIError",
    "ArgumentError",
    "BurstResult",
    "Capture",
    "Color",
    "DNGResult",
    "DevelopResult",
    "Error",
    "ExistsError",
    "Frame",
    "Layout",
    "RawImage",
    "ReadError",
    "SourceError",
    "Summary",
    "UncalibratedColorWarning",
    "WriteError",
    "capture",
    "capture_burst",
    "develop",
    "read",
    "write_dng",
]
