"""carryover: when the chunks of a plan change, each changed chunk's results file gets the newest earlier ok line of
each of its jobs, and nothing else."""

from __future__ import annotations

import fcntl
import json
from pathlib import Path
from typing import List

import pytest

from rawburst_dask.carryover import (append_locked, carry_over, changed_chunks, newest_ok_lines, ok_lines,
                                     results_files)
from rawburst_dask.planning import Chunk, Job, make_chunks
from rawburst_dask.task import TaskSettings, chunk_paths, write_atomically


def settings_in(folder: Path) -> TaskSettings:
    state = folder / ".rawburst-dask"
    state.mkdir(exist_ok=True)
    return TaskSettings("convert", str(state), "T2")


def line(job: Job, status: str, finished: str) -> str:
    return json.dumps({"input": job.input, "output": job.output, "status": status, "finished": finished}) + "\n"


def ran(settings: TaskSettings, chunk: Chunk, lines: List[str]) -> None:
    """As an earlier run left the chunk: its manifest and its results."""
    manifest, results = chunk_paths(settings, chunk)
    write_atomically(manifest, chunk.manifest_text())
    with open(results, "a", encoding="utf-8") as stream:
        stream.write("".join(lines))


def test_no_earlier_run_changes_nothing(tmp_path: Path):
    settings = settings_in(tmp_path)
    chunks = make_chunks([Job(0, "/a", "/a.dng")], 1, "convert")
    assert results_files(settings) == [] and changed_chunks(settings, chunks) == []
    assert carry_over(settings, chunks) == 0


def test_ok_lines_are_the_last_ok_per_input_and_output(tmp_path: Path):
    a, b = Job(0, "/a", "/a.dng"), Job(1, "/b", "/b.dng")
    path = tmp_path / "r.jsonl"
    path.write_text(line(a, "ok", "2026-01-01T00:00:00Z") + line(a, "ok", "2026-01-02T00:00:00Z")
                    + line(a, "failed", "2026-01-03T00:00:00Z") + line(b, "failed", "2026-01-01T00:00:00Z")
                    + '{"input": "/b", "out')
    assert ok_lines(str(path)) == {("/a", "/a.dng"): ("2026-01-02T00:00:00Z", line(a, "ok", "2026-01-02T00:00:00Z"))}


def test_a_file_added_in_front_carries_every_moved_job_over(tmp_path: Path):
    settings = settings_in(tmp_path)
    old = [Job(n, f"/in/{n}", f"/out/{n}.dng") for n in range(4)]
    before = make_chunks(old, 2, "convert")
    ran(settings, before[0], [line(old[0], "ok", "2026-01-01T00:00:00Z"), line(old[1], "ok", "2026-01-01T00:00:01Z")])
    ran(settings, before[1], [line(old[2], "ok", "2026-01-01T00:00:02Z"),
                              line(old[3], "failed", "2026-01-01T00:00:03Z")])
    new = Job(0, "/in/new", "/out/new.dng")
    after = make_chunks([new] + [Job(n + 1, job.input, job.output) for n, job in enumerate(old)], 2, "convert")
    # chunk 0: new, /in/0 — chunk 1: /in/1, /in/2 — chunk 2: /in/3
    assert [chunk.name for chunk in changed_chunks(settings, after)] == [chunk.name for chunk in after]
    assert carry_over(settings, after) == 1  # /in/1 into chunk 1 (/in/0 and /in/2 are there already; /in/3 never ok)
    _, results0 = chunk_paths(settings, after[0])
    _, results1 = chunk_paths(settings, after[1])
    _, results2 = chunk_paths(settings, after[2])
    assert Path(results0).read_text().splitlines()[2:] == []  # /in/0's own ok line is there already
    assert Path(results1).read_text().splitlines()[2:] == [line(old[1], "ok", "2026-01-01T00:00:01Z").rstrip("\n")]
    assert not Path(results2).exists()
    assert carry_over(settings, after) == 0  # a second call finds every newest line in place


def test_only_changed_chunks_get_lines_and_the_newest_wins(tmp_path: Path):
    settings = settings_in(tmp_path)
    a, b = Job(0, "/a", "/a.dng"), Job(1, "/b", "/b.dng")
    same = Chunk(0, "convert-chunk-0000", [a])
    ran(settings, same, [line(a, "ok", "2026-01-01T00:00:00Z"), line(b, "ok", "2026-01-05T00:00:00Z")])
    moved = Chunk(1, "convert-chunk-0001", [b])
    ran(settings, Chunk(1, "convert-chunk-0001", [a]), [line(b, "ok", "2026-01-02T00:00:00Z")])
    assert newest_ok_lines(settings)[("/b", "/b.dng")][0] == "2026-01-05T00:00:00Z"
    assert changed_chunks(settings, [same, moved]) == [moved]
    assert carry_over(settings, [same, moved]) == 1
    _, results = chunk_paths(settings, moved)
    assert Path(results).read_text().splitlines() == [line(b, "ok", "2026-01-02T00:00:00Z").rstrip("\n"),
                                                      line(b, "ok", "2026-01-05T00:00:00Z").rstrip("\n")]
    _, untouched = chunk_paths(settings, same)
    assert len(Path(untouched).read_text().splitlines()) == 2


def test_appending_waits_for_the_workers_lock(tmp_path: Path):
    path = tmp_path / "r.jsonl"
    append_locked(str(path), "one\n")
    with open(path, "a") as holder:
        fcntl.flock(holder.fileno(), fcntl.LOCK_EX)
        with pytest.raises(BlockingIOError):
            append_locked(str(path), "two\n", wait=0.2)
    append_locked(str(path), "three\n")
    assert path.read_text() == "one\nthree\n"
