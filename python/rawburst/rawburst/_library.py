"""Loading librawburst and the ctypes mirror of its C interface (Sources/CRawBurst/include/rawburst.h).

Every struct below repeats the header's fields in the header's order and types; ctypes lays them out as the C
compiler does. The library is opened with ctypes.CDLL, which releases the GIL for the length of every call into it,
so a long write, read, develop or capture in one thread lets the other Python threads run.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from pathlib import Path
from typing import Optional, Tuple, Type, TypeVar, Union

from .errors import ABI, ABIError, check

ABI_VERSION = 1
"""The RAWBURST_ABI_VERSION these bindings mirror."""

BUNDLED_NAME = "librawburst.so.1"
"""The library's file name inside the package (its soname)."""

c_uint32 = ctypes.c_uint32
c_uint64 = ctypes.c_uint64
c_double = ctypes.c_double
c_char_p = ctypes.c_char_p
c_int = ctypes.c_int
c_size_t = ctypes.c_size_t
c_void_p = ctypes.c_void_p

PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
"""What the calls take as a file name."""

END = 1
"""rawburst_status RAWBURST_END: rawburst_capture_next has no more frames."""

# rawburst_compression.
COMPRESSION_NONE = 0
COMPRESSION_PACKED = 1
COMPRESSION_LJ92 = 2


class Layout(ctypes.Structure):
    """rawburst_layout."""

    _fields_ = [
        ("struct_size", c_uint32),
        ("width", c_uint32),
        ("height", c_uint32),
        ("bits_per_sample", c_uint32),
        ("white_level", c_uint32),
        ("cfa_rows", c_uint32),
        ("cfa_columns", c_uint32),
        ("cfa", ctypes.c_uint8 * 36),
        ("cfa_text", ctypes.c_char * 40),
        ("black_rows", c_uint32),
        ("black_columns", c_uint32),
        ("black", c_double * 256),
        ("active_top", c_uint32),
        ("active_left", c_uint32),
        ("active_bottom", c_uint32),
        ("active_right", c_uint32),
        ("crop_left", c_uint32),
        ("crop_top", c_uint32),
        ("crop_width", c_uint32),
        ("crop_height", c_uint32),
    ]


class Exif(ctypes.Structure):
    """rawburst_exif."""

    _fields_ = [
        ("struct_size", c_uint32),
        ("make", c_char_p),
        ("model", c_char_p),
        ("serial_number", c_char_p),
        ("lens", c_char_p),
        ("capture_time", c_char_p),
        ("exposure_time", c_double),
        ("f_number", c_double),
        ("iso", c_double),
        ("focal_length", c_double),
        ("orientation", c_uint32),
    ]


class Gps(ctypes.Structure):
    """rawburst_gps."""

    _fields_ = [
        ("struct_size", c_uint32),
        ("present", c_uint32),
        ("latitude", c_double),
        ("longitude", c_double),
        ("has_altitude", c_uint32),
        ("altitude", c_double),
    ]


class Color(ctypes.Structure):
    """rawburst_color."""

    _fields_ = [
        ("struct_size", c_uint32),
        ("channels", c_uint32),
        ("color_matrix", c_double * 12),
        ("illuminant", c_uint32),
        ("as_shot_neutral", c_double * 4),
        ("baseline_exposure", c_double),
    ]


class DngParams(ctypes.Structure):
    """rawburst_dng_params."""

    _fields_ = [
        ("struct_size", c_uint32),
        ("cfa", c_char_p),
        ("bits_per_sample", c_uint32),
        ("white_level", c_uint32),
        ("black_count", c_uint32),
        ("black", c_double * 36),
        ("color_matrix", ctypes.POINTER(c_double)),
        ("illuminant", c_uint32),
        ("ccm", ctypes.POINTER(c_double)),
        ("as_shot_neutral", ctypes.POINTER(c_double)),
        ("baseline_exposure", c_double),
        ("crop", c_uint32),
        ("compression", c_uint32),
        ("overwrite", c_uint32),
        ("preview", c_uint32),
        ("exif", Exif),
        ("gps", Gps),
        ("noise_planes", c_uint32),
        ("noise_scale", c_double * 4),
        ("noise_offset", c_double * 4),
    ]


class DngResult(ctypes.Structure):
    """rawburst_dng_result."""

    _fields_ = [
        ("struct_size", c_uint32),
        ("bytes", c_uint64),
        ("compression", c_uint32),
        ("bits_per_sample", c_uint32),
        ("digest", ctypes.c_uint8 * 16),
    ]


class DevelopParams(ctypes.Structure):
    """rawburst_develop_params."""

    _fields_ = [
        ("struct_size", c_uint32),
        ("white_balance", c_char_p),
        ("exposure", c_double),
        ("long_edge", c_uint32),
        ("quality", c_uint32),
        ("bits", c_uint32),
        ("overwrite", c_uint32),
    ]


class DevelopResult(ctypes.Structure):
    """rawburst_develop_result."""

    _fields_ = [
        ("struct_size", c_uint32),
        ("width", c_uint32),
        ("height", c_uint32),
        ("bytes", c_uint64),
    ]


class CaptureParams(ctypes.Structure):
    """rawburst_capture_params."""

    _fields_ = [
        ("struct_size", c_uint32),
        ("source", c_char_p),
        ("sensor", c_char_p),
        ("scene", c_char_p),
        ("seed", c_uint64),
        ("camera", c_char_p),
        ("stream_path", c_char_p),
        ("stream_format", c_char_p),
        ("stream_width", c_uint32),
        ("stream_height", c_uint32),
        ("iso", c_double),
        ("shutter", c_double),
        ("fps", c_double),
        ("frames", c_uint64),
    ]


class Frame(ctypes.Structure):
    """rawburst_frame."""

    _fields_ = [
        ("struct_size", c_uint32),
        ("sequence_number", c_uint64),
        ("timestamp_ns", c_uint64),
        ("exposure_time", c_double),
        ("iso", c_double),
    ]


class CaptureSummary(ctypes.Structure):
    """rawburst_capture_summary."""

    _fields_ = [
        ("struct_size", c_uint32),
        ("produced", c_uint64),
        ("delivered", c_uint64),
        ("dropped", c_uint64),
    ]


class BurstParams(ctypes.Structure):
    """rawburst_burst_params."""

    _fields_ = [
        ("struct_size", c_uint32),
        ("compression", c_uint32),
        ("memory_budget_mib", c_uint32),
        ("writers", c_uint32),
        ("overwrite", c_uint32),
        ("preview", c_uint32),
    ]


class BurstResult(ctypes.Structure):
    """rawburst_burst_result."""

    _fields_ = [
        ("struct_size", c_uint32),
        ("produced", c_uint64),
        ("written", c_uint64),
        ("dropped", c_uint64),
        ("dropped_late", c_uint64),
        ("dropped_pool_full", c_uint64),
        ("dropped_by_source", c_uint64),
        ("dropped_other", c_uint64),
        ("bytes", c_uint64),
        ("seconds", c_double),
    ]


S = TypeVar("S", bound=ctypes.Structure)

def sized(struct_type: Type[S]) -> S:
    """A zeroed struct of `struct_type` whose `struct_size` is set, as every call expects."""
    value = struct_type()
    value.struct_size = ctypes.sizeof(struct_type)
    return value


_P = ctypes.POINTER
_SIGNATURES = {
    "rawburst_version": (c_char_p, []),
    "rawburst_abi_version": (c_int, []),
    "rawburst_last_error": (c_char_p, []),
    "rawburst_read": (c_int, [c_char_p, _P(c_void_p)]),
    "rawburst_image_samples": (c_void_p, [c_void_p, _P(c_size_t)]),
    "rawburst_image_layout": (c_int, [c_void_p, _P(Layout)]),
    "rawburst_image_exif": (c_int, [c_void_p, _P(Exif)]),
    "rawburst_image_gps": (c_int, [c_void_p, _P(Gps)]),
    "rawburst_image_color": (c_int, [c_void_p, _P(Color)]),
    "rawburst_image_free": (None, [c_void_p]),
    "rawburst_dng_params_init": (None, [_P(DngParams)]),
    "rawburst_write_dng": (c_int, [c_char_p, c_void_p, c_uint32, c_uint32, c_size_t, _P(DngParams), _P(DngResult)]),
    "rawburst_develop_params_init": (None, [_P(DevelopParams)]),
    "rawburst_develop": (c_int, [c_char_p, c_char_p, _P(DevelopParams), _P(DevelopResult)]),
    "rawburst_capture_params_init": (None, [_P(CaptureParams)]),
    "rawburst_capture_open": (c_int, [_P(CaptureParams), _P(c_void_p)]),
    "rawburst_capture_layout": (c_int, [c_void_p, _P(Layout)]),
    "rawburst_capture_exif": (c_int, [c_void_p, _P(Exif)]),
    "rawburst_capture_color": (c_int, [c_void_p, _P(Color)]),
    "rawburst_capture_next": (c_int, [c_void_p, c_void_p, c_size_t, c_size_t, _P(Frame)]),
    "rawburst_capture_close": (c_int, [c_void_p, _P(CaptureSummary)]),
    "rawburst_burst_params_init": (None, [_P(BurstParams)]),
    "rawburst_capture_burst": (c_int, [_P(CaptureParams), c_char_p, _P(BurstParams), _P(BurstResult)]),
}


def _find() -> Optional[str]:
    """The library to load: $RAWBURST_LIBRARY, else the copy bundled in the package, else the system's."""
    explicit = os.environ.get("RAWBURST_LIBRARY")
    if explicit:
        return explicit
    bundled = Path(__file__).resolve().parent / BUNDLED_NAME
    if bundled.is_file():
        return str(bundled)
    return ctypes.util.find_library("rawburst")


def _load() -> Tuple[ctypes.CDLL, str]:
    """Opens the library, checks that it speaks this ABI version and types its functions."""
    path = _find()
    if path is None:
        raise OSError("librawburst not found: set RAWBURST_LIBRARY to its path, bundle librawburst.so.1 in the "
                      "package, or install it where the dynamic linker finds it")
    # ctypes.CDLL (unlike ctypes.PyDLL) releases the GIL during every call into the library: a long write, read,
    # develop or capture_next in one thread lets the program's other threads run.
    library = ctypes.CDLL(path)
    # The version is asked first: a library of another ABI version may not have the functions below.
    library.rawburst_abi_version.restype = c_int
    version = library.rawburst_abi_version()
    if version != ABI_VERSION:
        raise ABIError(f"{path} has ABI version {version}; these bindings need {ABI_VERSION}",
                       status=ABI)
    for name, (restype, argtypes) in _SIGNATURES.items():
        function = getattr(library, name)
        function.restype = restype
        function.argtypes = argtypes
    return library, path


_loaded: Optional[Tuple[ctypes.CDLL, str]] = None


def _load_once() -> Tuple[ctypes.CDLL, str]:
    """The library and its path, loaded on first use (so `import rawburst` works without it, and a missing library
    or another ABI version is an error the caller can catch)."""
    global _loaded
    if _loaded is None:
        _loaded = _load()
    return _loaded


def library() -> ctypes.CDLL:
    """The library, its functions typed."""
    return _load_once()[0]


def library_path() -> str:
    """The path the library was loaded from."""
    return _load_once()[1]


def last_error() -> str:
    """The message of the last call that failed on this thread."""
    return (library().rawburst_last_error() or b"").decode("utf-8", "replace")


def call(function_name: str, *arguments: object) -> int:
    """Calls a library function that returns a rawburst_status; raises the matching error on a failure."""
    status = getattr(library(), function_name)(*arguments)
    return check(status, last_error)


def text(value: Optional[bytes]) -> Optional[str]:
    """A C string from the library as str (None for NULL)."""
    return None if value is None else value.decode("utf-8", "replace")
