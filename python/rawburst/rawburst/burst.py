"""capture_burst: a source's frames through rawburst's burst engine into DNGs, every frame written or counted."""

from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass
from typing import Optional, Tuple

from . import _library as c
from .capture import capture_params
from .dng import COMPRESSIONS
from .errors import argument_error


@dataclass(frozen=True)
class BurstResult:
    """What a burst did. produced == written + dropped; the dropped by reason: late on the clock, no free slot in
    the pool, lost by the camera or stream, and anything else (a failed write, a stop)."""

    folder: str
    produced: int
    written: int
    dropped: int
    dropped_late: int
    dropped_pool_full: int
    dropped_by_source: int
    dropped_other: int
    bytes: int
    seconds: float


def capture_burst(
    folder: c.PathLike,
    frames: int,
    fps: Optional[float] = None,
    source: str = "simulator",
    sensor: Optional[str] = None,
    scene: Optional[str] = None,
    seed: int = 0,
    iso: Optional[float] = None,
    shutter: Optional[float] = None,
    camera: Optional[str] = None,
    stream: Optional[c.PathLike] = None,
    stream_format: Optional[str] = None,
    stream_size: Optional[Tuple[int, int]] = None,
    compression: str = "none",
    memory_budget_mib: Optional[int] = None,
    writers: Optional[int] = None,
    preview: Optional[int] = None,
    overwrite: bool = False,
) -> BurstResult:
    """Captures `frames` frames into DNGs in `folder` (created when missing) through the burst engine: a
    memory-bounded frame pool, writer threads, and books in which every frame the source produced is written or
    dropped with its reason. On a clock (`fps`) a frame that cannot start on its tick is dropped and counted, never
    delayed. The GIL is released for the whole burst.

    Args:
        folder: where the DNGs go (named <sensor>-<sequence number>.dng).
        frames: the burst's length (>= 1).
        fps: frames a second on the burst's clock; None: as fast as they are written.
        source, sensor, scene, seed, iso, shutter, camera, stream, stream_format, stream_size: as `capture`.
        compression: "none" (fastest), "packed" or "lj92".
        memory_budget_mib: the memory the burst may use (default 512 MiB).
        writers: writer threads (default one per core).
        preview: the long edge of each DNG's JPEG preview (64...1024), None for none.
        overwrite: replace DNGs that exist in the folder.

    Raises:
        ArgumentError: a bad value. SourceError: the source cannot be opened. WriteError: a frame could not be
        written (the others are on disk; the books still balance).
    """
    if compression not in COMPRESSIONS:
        raise argument_error(f"compression must be one of {', '.join(COMPRESSIONS)}, not {compression!r}")
    if int(frames) != frames or frames < 1:
        raise argument_error(f"frames must be a whole number >= 1, not {frames!r}")
    params = capture_params(frames, source, sensor, scene, seed, iso, shutter, fps, camera, stream, stream_format,
                            stream_size)
    burst = c.BurstParams()
    c.library().rawburst_burst_params_init(ctypes.byref(burst))
    burst.compression = COMPRESSIONS[compression]
    burst.memory_budget_mib = int(memory_budget_mib or 0)
    burst.writers = int(writers or 0)
    burst.preview = int(preview or 0)
    burst.overwrite = 1 if overwrite else 0
    result = c.sized(c.BurstResult)
    c.call("rawburst_capture_burst", ctypes.byref(params), os.fsencode(folder), ctypes.byref(burst), ctypes.byref(result))
    return BurstResult(folder=os.fsdecode(os.fspath(folder)), produced=result.produced, written=result.written,
                       dropped=result.dropped, dropped_late=result.dropped_late,
                       dropped_pool_full=result.dropped_pool_full, dropped_by_source=result.dropped_by_source,
                       dropped_other=result.dropped_other, bytes=result.bytes, seconds=result.seconds)
