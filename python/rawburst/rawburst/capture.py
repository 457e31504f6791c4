"""capture: frames from the simulator, a GenICam camera or a raw stream, each into a new numpy array."""

from __future__ import annotations

import ctypes
import os
import threading
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Dict, Iterator, Optional, Tuple, Type

import numpy as np

from . import _library as c
from .errors import argument_error
from .metadata import Color, Layout, color_from, exif_from, layout_from

SOURCES = ("simulator", "camera", "stream")


@dataclass(frozen=True)
class Frame:
    """One frame.

    Attributes:
        mosaic: the samples, a new uint16 array of the capture's layout shape (height, width) that owns its memory.
        sequence_number: the source's number for the frame (gaps are frames dropped).
        timestamp_ns: when the exposure started, CLOCK_MONOTONIC nanoseconds.
        exposure_time: seconds.
        iso: the ISO the frame was taken at.
    """

    mosaic: np.ndarray
    sequence_number: int
    timestamp_ns: int
    exposure_time: float
    iso: float


@dataclass(frozen=True)
class Summary:
    """What a capture did, from open to close: frames the source produced, delivered, and lost."""

    produced: int
    delivered: int
    dropped: int


def _positive(value: Optional[float], name: str) -> float:
    """An optional number > 0 as the library's 0-means-automatic field."""
    if value is None:
        return 0.0
    if not value > 0:
        raise argument_error(f"{name} must be > 0, not {value!r}")
    return float(value)


def _text(value: Optional[c.PathLike]) -> Optional[bytes]:
    """An optional string or path as a C string."""
    return None if value is None else os.fsencode(value)


class Capture:
    """An open capture: iterate it for Frames; use it as a context manager (or call close) to stop the source.

    Attributes:
        layout: how every frame's samples are laid out (its `shape` is each frame's array shape).
        exif: the known EXIF values of the frames (camera, lens, ...).
        color: the frames' colour calibration, or None.
        summary: after the frames end or the capture is closed, what it did; None before.

    One capture is used by one thread at a time; a lock makes another thread wait its turn.
    """

    def __init__(self, params: c.CaptureParams) -> None:
        handle = ctypes.c_void_p()
        c.call("rawburst_capture_open", ctypes.byref(params), ctypes.byref(handle))
        self._handle: Optional[ctypes.c_void_p] = handle
        self._lock = threading.Lock()
        self.summary: Optional[Summary] = None
        try:
            layout, exif, color = c.sized(c.Layout), c.sized(c.Exif), c.sized(c.Color)
            c.call("rawburst_capture_layout", handle, ctypes.byref(layout))
            c.call("rawburst_capture_exif", handle, ctypes.byref(exif))
            c.call("rawburst_capture_color", handle, ctypes.byref(color))
        except BaseException:
            self.close()
            raise
        self.layout: Layout = layout_from(layout)
        self.exif: Dict[str, Any] = exif_from(exif)
        self.color: Optional[Color] = color_from(color)

    def __iter__(self) -> Iterator[Frame]:
        return self

    def __next__(self) -> Frame:
        """The next frame in a new array; StopIteration (and the capture closed) when there are no more."""
        height, width = self.layout.shape
        mosaic = np.empty((height, width), dtype=np.uint16)
        frame = c.sized(c.Frame)
        with self._lock:
            if self._handle is None:
                raise StopIteration
            status = c.call("rawburst_capture_next", self._handle, mosaic.ctypes.data, width, mosaic.size,
                            ctypes.byref(frame))
        if status == c.END:
            self.close()
            raise StopIteration
        return Frame(mosaic=mosaic, sequence_number=int(frame.sequence_number), timestamp_ns=int(frame.timestamp_ns),
                     exposure_time=float(frame.exposure_time), iso=float(frame.iso))

    def close(self) -> Optional[Summary]:
        """Stops the source and frees the capture (again: nothing); returns the summary."""
        with self._lock:
            handle, self._handle = self._handle, None
            if handle is not None:
                summary = c.sized(c.CaptureSummary)
                c.call("rawburst_capture_close", handle, ctypes.byref(summary))
                self.summary = Summary(produced=int(summary.produced), delivered=int(summary.delivered),
                                       dropped=int(summary.dropped))
        return self.summary

    def __enter__(self) -> "Capture":
        return self

    def __exit__(self, kind: Optional[Type[BaseException]], value: Optional[BaseException],
                 traceback: Optional[TracebackType]) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "_handle", None) is not None:
            self.close()


def capture(
    frames: int = 10,
    source: str = "simulator",
    sensor: Optional[str] = None,
    scene: Optional[str] = None,
    seed: int = 0,
    iso: Optional[float] = None,
    shutter: Optional[float] = None,
    fps: Optional[float] = None,
    camera: Optional[str] = None,
    stream: Optional[c.PathLike] = None,
    stream_format: Optional[str] = None,
    stream_size: Optional[Tuple[int, int]] = None,
) -> Capture:
    """Opens a capture; iterate it for Frames, each in a new numpy array.

    Args:
        frames: frames to deliver before the iteration ends; 0: until closed.
        source: "simulator", "camera" (GenICam through Aravis) or "stream" (headerless frames).
        sensor, scene, seed: the simulator's built-in sensor profile ("phone-wide" when None), scene ("colorchart"
            when None) and random seed (the same seed gives the same frames).
        iso, shutter: ISO and exposure time in seconds; None: automatic.
        fps: frames a second on the source's clock; None: as fast as frames are asked for (the simulator only).
            A frame not taken on time is dropped and counted in the summary.
        camera: the Aravis device id (None: the first camera found).
        stream: a file or FIFO ("-": standard input) of headerless frames, their V4L2/libcamera pixel format
            `stream_format` (e.g. "SRGGB10_CSI2P", "pRAA") and size `stream_size` (width, height) in pixels.

    Raises:
        SourceError: the source cannot be opened. ArgumentError: a bad value.
    """
    params = capture_params(frames, source, sensor, scene, seed, iso, shutter, fps, camera, stream, stream_format, stream_size)
    return Capture(params)


def capture_params(frames: int, source: str, sensor: Optional[str], scene: Optional[str], seed: int,
                   iso: Optional[float], shutter: Optional[float], fps: Optional[float], camera: Optional[str],
                   stream: Optional[c.PathLike], stream_format: Optional[str],
                   stream_size: Optional[Tuple[int, int]]) -> c.CaptureParams:
    """The rawburst_capture_params of a capture (and of a burst): checked, C strings encoded."""
    if source not in SOURCES:
        raise argument_error(f"source must be one of {', '.join(SOURCES)}, not {source!r}")
    if int(frames) != frames or frames < 0:
        raise argument_error(f"frames must be a whole number >= 0, not {frames!r}")
    if int(seed) != seed or not 0 <= seed < 2 ** 64:
        raise argument_error(f"seed must be a whole number 0...2**64-1, not {seed!r}")
    params = c.CaptureParams()
    c.library().rawburst_capture_params_init(ctypes.byref(params))
    params.source = source.encode("ascii")
    params.sensor, params.scene, params.camera = _text(sensor), _text(scene), _text(camera)
    params.stream_path, params.stream_format = _text(stream), _text(stream_format)
    if stream_size is not None:
        params.stream_width, params.stream_height = (int(n) for n in stream_size)
    params.seed = int(seed)
    params.iso, params.shutter, params.fps = _positive(iso, "iso"), _positive(shutter, "shutter"), _positive(fps, "fps")
    params.frames = int(frames)
    return params
