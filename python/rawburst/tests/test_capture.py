"""capture: simulator and stream frames, each in its own array, counted in the summary; the same seed repeats."""

from __future__ import annotations

import itertools
import time

import numpy as np
import pytest

import rawburst
from support import HEIGHT, WIDTH, mosaic


def test_five_simulator_frames():
    with rawburst.capture(frames=5, seed=1) as burst:
        layout = burst.layout
        frames = list(burst)
    assert len(frames) == 5
    for frame in frames:
        assert frame.mosaic.shape == layout.shape and frame.mosaic.dtype == np.uint16
        assert frame.mosaic.flags.owndata and frame.mosaic.flags.c_contiguous
        assert frame.mosaic.std() > 0
        assert int(frame.mosaic.max()) <= layout.white
        assert frame.exposure_time > 0 and frame.iso > 0
    assert [f.sequence_number for f in frames] == [0, 1, 2, 3, 4]
    assert all(a.timestamp_ns < b.timestamp_ns for a, b in zip(frames, frames[1:]))
    for a, b in itertools.combinations(frames, 2):
        assert not np.shares_memory(a.mosaic, b.mosaic)
    second = frames[1].mosaic.copy()
    frames[0].mosaic[:] = 0
    np.testing.assert_array_equal(frames[1].mosaic, second)
    assert burst.summary == rawburst.Summary(produced=5, delivered=5, dropped=0)


def test_layout_exif_and_color_of_the_sensor():
    with rawburst.capture(frames=1, sensor="phone-wide") as burst:
        assert (burst.layout.width, burst.layout.height, burst.layout.bits) == (4032, 3024, 12)
        assert burst.layout.cfa == "RGGB" and burst.layout.white == 4095
        assert np.all(burst.layout.black == 256)
        assert burst.exif["make"] == "rawburst" and burst.exif["model"] == "Simulated phone-wide"
        assert burst.color is not None and burst.color.color_matrix.shape == (3, 3)


def test_same_seed_same_frames():
    def frames(seed):
        with rawburst.capture(frames=2, seed=seed) as burst:
            return [frame.mosaic for frame in burst]
    first, again, other = frames(7), frames(7), frames(8)
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(first[0], other[0])


def test_close_early_twice_then_iterate():
    burst = rawburst.capture(frames=3)
    frame = next(burst)
    assert frame.sequence_number == 0
    summary = burst.close()
    assert burst.close() == summary == burst.summary
    assert summary.delivered == 1 and summary.produced >= 1
    with pytest.raises(StopIteration):
        next(burst)


def test_a_slow_consumer_drops_frames_and_counts_them():
    with rawburst.capture(frames=3, fps=50, seed=2) as burst:
        numbers = []
        for frame in burst:
            numbers.append(frame.sequence_number)
            time.sleep(0.1)
    gaps = sum(b - a - 1 for a, b in zip(numbers, numbers[1:]))
    summary = burst.summary
    assert summary.delivered == 3 and gaps > 0
    assert summary.dropped >= gaps and summary.produced == summary.delivered + summary.dropped


def test_a_frame_written_as_a_dng_reads_back(tmp_path):
    with rawburst.capture(frames=1, seed=3) as burst:
        frame = next(burst)
        layout, color, exif = burst.layout, burst.color, burst.exif
    path = tmp_path / "frame.dng"
    rawburst.write_dng(path, frame.mosaic, cfa=layout.cfa, black=layout.black.ravel(), white=layout.white,
                       bits=layout.bits, color_matrix=color.color_matrix, illuminant=color.illuminant,
                       as_shot_neutral=color.as_shot_neutral,
                       exif={**exif, "exposure_time": frame.exposure_time, "iso": frame.iso})
    image = rawburst.read(path)
    np.testing.assert_array_equal(image.mosaic, frame.mosaic)
    assert (image.cfa, image.white, image.bits) == (layout.cfa, layout.white, layout.bits)
    assert image.exif["model"] == "Simulated phone-wide"


def test_stream_frames_are_delivered_exactly(tmp_path):
    frames = [mosaic(12, seed=seed) for seed in range(3)]
    stream = tmp_path / "frames.raw"
    stream.write_bytes(b"".join(f.astype("<u2").tobytes() for f in frames))
    with rawburst.capture(frames=0, source="stream", stream=stream, stream_format="SRGGB12",
                          stream_size=(WIDTH, HEIGHT)) as burst:
        assert burst.layout.shape == (HEIGHT, WIDTH) and burst.layout.cfa == "RGGB"
        got = [frame.mosaic for frame in burst]
    assert len(got) == 3
    for a, b in zip(got, frames):
        np.testing.assert_array_equal(a, b)
    assert burst.summary.delivered == 3


def test_stream_ending_mid_frame_is_a_source_error(tmp_path):
    stream = tmp_path / "short.raw"
    stream.write_bytes(mosaic(12).astype("<u2").tobytes()[: WIDTH * HEIGHT])
    with pytest.raises(rawburst.SourceError):
        with rawburst.capture(frames=0, source="stream", stream=stream, stream_format="SRGGB12",
                              stream_size=(WIDTH, HEIGHT)) as burst:
            list(burst)


def test_bad_sources():
    with pytest.raises(rawburst.ArgumentError):
        rawburst.capture(sensor="no-such-sensor")
    with pytest.raises(rawburst.ArgumentError):
        rawburst.capture(source="scanner")
    with pytest.raises(rawburst.ArgumentError):
        rawburst.capture(frames=-1)
    with pytest.raises(rawburst.SourceError):
        rawburst.capture(source="camera", camera="no-such-camera")


def test_a_stream_that_ends_inside_a_later_frame_is_a_source_error_after_the_whole_ones(tmp_path):
    stream = tmp_path / "cut.raw"
    whole = mosaic(12).astype("<u2").tobytes()
    stream.write_bytes(whole * 2 + whole[: len(whole) // 3])
    got = []
    with pytest.raises(rawburst.SourceError):
        with rawburst.capture(frames=0, source="stream", stream=stream, stream_format="SRGGB12",
                              stream_size=(WIDTH, HEIGHT)) as burst:
            for frame in burst:
                got.append(frame.mosaic)
    assert len(got) == 2
    assert burst.summary is not None and burst.summary.produced == burst.summary.delivered + burst.summary.dropped


def test_closing_before_the_first_frame_counts_it_dropped():
    burst = rawburst.capture(frames=3, sensor="mono-vision", seed=2)
    summary = burst.close()
    assert summary is not None and (summary.produced, summary.delivered, summary.dropped) == (1, 0, 1)
