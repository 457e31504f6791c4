"""Writing and reading a 12 MP DNG: rawburst against what PyPI offers. Run by hand:

    RAWBURST_LIBRARY=/path/to/librawburst.so.1 python3 python/rawburst/benchmarks/bench_write_dng.py

The frame is a 4032x3024 12-bit frame of the simulator's phone-wide sensor (rawburst.capture). Every writer is
timed warm (one run first, untimed) over 5 runs, each ending with fsync of the file and of its folder, and checked
once to give back the samples through rawpy. Writers:

- rawburst.write_dng, lossless JPEG (lj92);
- imagecodecs.ljpeg_encode + tifffile: the lossless JPEG path on PyPI, as one stream for the whole frame and as
  256x256 tiles (both shown), in a DNG container tifffile writes;
- PiDNG's uncompressed path (12-bit packed strips; its lossless JPEG path does not run on Python 3.10+);
- dngpy (Adobe's DNG SDK): a DNG rawburst wrote is opened once, then its pixels set and the file saved.

Readers: rawburst.read and rawpy.imread(...).raw_image.copy() of the rawburst file.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Iterator, List, Optional, Tuple

import dngpy
import imagecodecs
import numpy as np
import rawpy
import tifffile
from pidng.core import RAW2DNG, DNGTags, Tag
from pidng.defs import CalibrationIlluminant, CFAPattern, DNGVersion, Orientation, PhotometricInterpretation

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import rawburst  # noqa: E402  (the package of this checkout)

RUNS = 5
BLACK, WHITE, BITS = 256, 4095, 12
TILE = 256


def frame() -> np.ndarray:
    """A 12 MP frame from the simulator (12-bit samples in 16-bit containers, RGGB, black 256)."""
    with rawburst.capture(frames=1, sensor="phone-wide", seed=1) as burst:
        layout = burst.layout
        assert (layout.width, layout.height, layout.bits, layout.cfa) == (4032, 3024, BITS, "RGGB"), layout
        return next(burst).mosaic


def fsync(path: Path) -> None:
    """Flushes a file and its folder to the disk."""
    for target, flags in ((path, os.O_RDONLY), (path.parent, os.O_RDONLY | os.O_DIRECTORY)):
        fd = os.open(target, flags)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_bytes(path: Path, data: bytes) -> None:
    """Writes `data` to a new file and syncs it."""
    with open(path, "wb") as file:
        file.write(data)
    fsync(path)


def rawburst_lj92(mosaic: np.ndarray, path: Path) -> None:
    rawburst.write_dng(path, mosaic, black=BLACK, bits=BITS, ccm=np.eye(3), compression="lj92", overwrite=True)
    fsync(path)


def _rational(values: List[float]) -> Tuple[int, ...]:
    """TIFF SRATIONALs (numerator, denominator pairs) of `values`."""
    return tuple(v for x in values for v in (round(x * 10000), 10000))


DNG_TAGS = [
    (271, "s", 0, "bench", True),
    (272, "s", 0, "tifffile", True),
    (50706, "B", 4, (1, 4, 0, 0), True),
    (50707, "B", 4, (1, 1, 0, 0), True),
    (50708, "s", 0, "bench tifffile", True),
    (33421, "H", 2, (2, 2), True),
    (33422, "B", 4, (0, 1, 1, 2), True),
    (50714, "H", 1, (BLACK,), True),
    (50717, "H", 1, (WHITE,), True),
    (50721, "2i", 9, _rational([1, 0, 0, 0, 1, 0, 0, 0, 1]), True),
    (50778, "H", 1, (21,), True),
    (50728, "2I", 3, (1, 1, 1, 1, 1, 1), True),
]
"""The DNG tags of the tifffile container: version, camera, CFA, levels, an identity colour matrix."""


def tifffile_container(path: Path, segments: List[bytes], shape: Tuple[int, int], tile: Tuple[int, int]) -> None:
    """A DNG of lossless-JPEG tiles `segments` (compression 7), written by tifffile, synced."""
    with open(path, "wb") as file:
        with tifffile.TiffWriter(file) as tiff:
            tiff.write(iter(segments), shape=shape, dtype=np.uint16, tile=tile, compression=7, photometric=32803,
                       bitspersample=BITS, subfiletype=0, extratags=DNG_TAGS)
    fsync(path)


def imagecodecs_whole(mosaic: np.ndarray, path: Path) -> None:
    tifffile_container(path, [imagecodecs.ljpeg_encode(mosaic, bitspersample=BITS)], mosaic.shape, mosaic.shape)


def imagecodecs_tiles(mosaic: np.ndarray, path: Path) -> None:
    height, width = mosaic.shape
    padded = np.pad(mosaic, ((0, -height % TILE), (0, -width % TILE)), mode="edge")
    tiles = [imagecodecs.ljpeg_encode(np.ascontiguousarray(padded[r:r + TILE, c:c + TILE]), bitspersample=BITS)
             for r in range(0, padded.shape[0], TILE) for c in range(0, padded.shape[1], TILE)]
    tifffile_container(path, tiles, mosaic.shape, (TILE, TILE))


def pidng_tags(mosaic: np.ndarray) -> DNGTags:
    """PiDNG's tags for the frame (its README's set)."""
    height, width = mosaic.shape
    tags = DNGTags()
    for tag, value in [
        (Tag.ImageWidth, width), (Tag.ImageLength, height), (Tag.TileWidth, width), (Tag.TileLength, height),
        (Tag.Orientation, Orientation.Horizontal),
        (Tag.PhotometricInterpretation, PhotometricInterpretation.Color_Filter_Array),
        (Tag.SamplesPerPixel, 1), (Tag.BitsPerSample, BITS), (Tag.CFARepeatPatternDim, [2, 2]),
        (Tag.CFAPattern, CFAPattern.RGGB), (Tag.BlackLevel, BLACK), (Tag.WhiteLevel, WHITE),
        (Tag.ColorMatrix1, [[1, 1], [0, 1], [0, 1], [0, 1], [1, 1], [0, 1], [0, 1], [0, 1], [1, 1]]),
        (Tag.CalibrationIlluminant1, CalibrationIlluminant.D65), (Tag.AsShotNeutral, [[1, 1], [1, 1], [1, 1]]),
        (Tag.Make, "bench"), (Tag.Model, "pidng"), (Tag.UniqueCameraModel, "bench pidng"),
        (Tag.DNGVersion, DNGVersion.V1_4), (Tag.DNGBackwardVersion, DNGVersion.V1_2),
    ]:
        tags.set(tag, value)
    return tags


def pidng_uncompressed(mosaic: np.ndarray, path: Path) -> None:
    writer = RAW2DNG()
    writer.options(pidng_tags(mosaic), path="", compress=False)
    write_bytes(path, bytes(writer.convert(mosaic)))


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """Sends the process's standard output and error to /dev/null: the DNG SDK prints its timings there."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        os.dup2(null, 2)
        yield
    finally:
        for fd, copy in zip((1, 2), saved):
            os.dup2(copy, fd)
            os.close(copy)
        os.close(null)


def dngpy_writer(template: Path) -> Callable[[np.ndarray, Path], None]:
    """dngpy's writer: the DNG at `template` opened once; each run sets its pixels and saves it."""
    with quiet():
        document = dngpy.Dng(str(template))

    def write(mosaic: np.ndarray, path: Path) -> None:
        with quiet():
            document.set_raw_pixels(mosaic[:, :, None])
            document.save(str(path))
        fsync(path)
    return write


def timings(run: Callable[[], object]) -> Tuple[float, float]:
    """Best and median seconds of RUNS warm runs."""
    run()
    seconds = []
    for _ in range(RUNS):
        start = time.perf_counter()
        run()
        seconds.append(time.perf_counter() - start)
    return min(seconds), statistics.median(seconds)


def check(path: Path, mosaic: np.ndarray) -> None:
    """The file gives back the samples through LibRaw (rawpy)."""
    with rawpy.imread(str(path)) as raw:
        assert np.array_equal(raw.raw_image, mosaic), f"{path.name}: rawpy reads other samples"


def table(title: str, rows: List[Tuple[str, float, float, Optional[int]]]) -> str:
    """A markdown table of the rows (name, best, median, bytes), with each best time's ratio to the first row's."""
    reference = rows[0][1]
    lines = [f"### {title}", "", "| | best ms | median ms | MB | best / first row |", "|---|---:|---:|---:|---:|"]
    for name, best, median, size in rows:
        megabytes = f"{size / 1e6:.1f}" if size is not None else ""
        lines.append(f"| {name} | {best * 1e3:.1f} | {median * 1e3:.1f} | {megabytes} | {best / reference:.2f}x |")
    return "\n".join(lines)


def main() -> None:
    mosaic = frame()
    print(f"rawburst {rawburst.__version__} ({rawburst._library.library_path()}), frame {mosaic.shape[1]}x"
          f"{mosaic.shape[0]} {BITS}-bit, {RUNS} warm runs each, fsync of file and folder included\n")
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DIR")) as scratch:
        folder = Path(scratch)
        ours = folder / "rawburst.dng"
        writers = [
            ("rawburst.write_dng (lj92)", rawburst_lj92),
            ("imagecodecs.ljpeg_encode, whole frame + tifffile", imagecodecs_whole),
            (f"imagecodecs.ljpeg_encode, {TILE}x{TILE} tiles + tifffile", imagecodecs_tiles),
            ("PiDNG, uncompressed (12-bit packed)", pidng_uncompressed),
        ]
        rawburst_lj92(mosaic, ours)
        writers.append(("dngpy (Adobe DNG SDK) save", dngpy_writer(ours)))
        rows = []
        for index, (name, write) in enumerate(writers):
            path = folder / f"{index}.dng"
            best, median = timings(lambda: write(mosaic, path))
            check(path, mosaic)
            rows.append((name, best, median, path.stat().st_size))
        print(table("Writing a 12 MP DNG", rows) + "\n")

        def rawpy_read() -> np.ndarray:
            with rawpy.imread(str(ours)) as raw:
                return raw.raw_image.copy()
        assert np.array_equal(rawburst.read(ours).mosaic, rawpy_read())
        reads = [("rawburst.read", *timings(lambda: rawburst.read(ours)), None),
                 ("rawpy.imread(...).raw_image.copy()", *timings(rawpy_read), None)]
        print(table("Reading it back (the rawburst lj92 file)", reads))


if __name__ == "__main__":
    main()
