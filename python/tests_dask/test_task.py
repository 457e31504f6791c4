"""task: the binary's lookup, attempt markers, atomic writes, the worker mode's command line and the reading of its
results; ``run_chunk`` against the real rawburst (no cluster: called in this process)."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import stat
from pathlib import Path

import pytest

from rawburst_dask.planning import Chunk, Job
from rawburst_dask.task import (BinaryNotFound, ChunkFailed, TaskSettings, chunk_paths, claim_attempt,
                                exit_with_parent, find_rawburst, last_lines, one_line, parse_summary, rawburst_command,
                                results_lines, run_chunk, worker_name, write_atomically)


def settings_in(folder: Path, **changes) -> TaskSettings:
    state = folder / ".rawburst-dask"
    state.mkdir(exist_ok=True)
    return TaskSettings(**{"command": "convert", "state_dir": str(state), "run_token": "T1", **changes})


def test_the_binary_is_rawburst_named_by_the_environment_or_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    binary = tmp_path / "bin" / "rawburst"
    binary.parent.mkdir()
    binary.write_text("#!/bin/sh\n")
    monkeypatch.delenv("RAWBURST", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(BinaryNotFound, match="rawburst is not on PATH"):
        find_rawburst()
    monkeypatch.setenv("RAWBURST", str(binary))
    with pytest.raises(BinaryNotFound, match=f"RAWBURST={binary} is not an executable file"):
        find_rawburst()
    binary.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RAWBURST", "bin/rawburst")
    assert find_rawburst() == str(binary)
    monkeypatch.delenv("RAWBURST")
    monkeypatch.setenv("PATH", str(binary.parent))
    assert find_rawburst() == str(binary)


def test_outside_dask_the_worker_is_host_and_pid():
    assert worker_name() == f"{socket.gethostname()}:{os.getpid()}"


def test_attempts_are_numbered_by_exclusive_markers(tmp_path: Path):
    settings = settings_in(tmp_path)
    chunk = Chunk(3, "convert-chunk-0003", [])
    assert [claim_attempt(settings, chunk, f"w{n}") for n in range(3)] == [1, 2, 3]
    folder = Path(settings.state_dir) / "attempts" / "T1"
    assert sorted(os.listdir(folder)) == [f"convert-chunk-0003.attempt-{n}" for n in (1, 2, 3)]
    record = json.loads((folder / "convert-chunk-0003.attempt-2").read_text())
    assert (record["chunk"], record["attempt"], record["worker"], record["pid"]) == ("convert-chunk-0003", 2, "w1",
                                                                                      os.getpid())
    assert record["host"] == socket.gethostname() and isinstance(record["started"], float)


def test_writing_atomically_leaves_only_the_file(tmp_path: Path):
    path = tmp_path / "m.jsonl"
    write_atomically(str(path), "one\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # mkstemp's
    write_atomically(str(path), "two\n", mode=0o644)
    assert path.read_text() == "two\n" and stat.S_IMODE(path.stat().st_mode) == 0o644
    assert os.listdir(tmp_path) == ["m.jsonl"]


def test_chunk_files_are_named_after_the_chunk(tmp_path: Path):
    settings = settings_in(tmp_path)
    assert chunk_paths(settings, Chunk(0, "develop-chunk-0012", [])) == (
        f"{settings.state_dir}/develop-chunk-0012.jsonl", f"{settings.state_dir}/develop-chunk-0012.results.jsonl")


def test_the_worker_modes_command_line(tmp_path: Path):
    settings = settings_in(tmp_path, arguments=("-j", "4", "--compression", "packed"))
    parent = ["--exit-with-parent", str(os.getpid())]
    assert exit_with_parent() == parent
    assert rawburst_command("/bin/rawburst", settings, "m.jsonl", "r.jsonl", "T1/c/attempt-1@w") == [
        "/bin/rawburst", "convert", "--manifest", "m.jsonl", "--results", "r.jsonl", "--resume", "--json",
        "--run-id", "T1/c/attempt-1@w", *parent, "-j", "4", "--compression", "packed"]
    redo = settings_in(tmp_path, redo=True)
    assert rawburst_command("rb", redo, "m", "r", "id")[6] == "--overwrite"
    assert "--resume" not in rawburst_command("rb", redo, "m", "r", "id")


def test_results_lines_skip_torn_and_foreign_lines(tmp_path: Path):
    results = tmp_path / "r.jsonl"
    assert list(results_lines(str(results))) == []
    a1 = {"input": "/a", "output": "/a.dng", "status": "failed"}
    a2 = {"input": "/a", "output": "/a.dng", "status": "ok"}
    c = {"input": "/c", "output": "/c.dng", "status": "ok"}
    results.write_text(json.dumps(a1) + "\n" + "[1]\n" + json.dumps(c) + "\n" + '{"input": "/b", "outp\n'
                       + json.dumps(a2) + "\n")
    assert [line for _, line in results_lines(str(results))] == [a1, c, a2]
    jobs = [Job(0, "/a", "/a.dng"), Job(1, "/b", "/b.dng"), Job(2, "/c", "/other.dng")]
    assert last_lines(str(results), jobs) == [a2, None, None]  # /c wrote another output: not this job's


def test_the_summary_is_the_last_json_object_on_stdout():
    pretty = '{\n  "done" : 2,\n  "failuresByKind" : {\n\n  },\n  "jobs" : 2\n}\n'  # as rawburst prints it
    assert parse_summary(pretty) == {"done": 2, "failuresByKind": {}, "jobs": 2}
    assert parse_summary('progress\n{"jobs": 1}\n{"jobs": 2, "done": 2}\n\n') == {"jobs": 2, "done": 2}
    assert parse_summary('{"jobs": 1}\nnot json\n') == {"jobs": 1}
    assert parse_summary('{"jobs": 1} and more\n') is None
    assert parse_summary('x{"jobs": 1}\n') is None
    assert parse_summary("[1, 2]\nnot json\n") is None
    assert parse_summary("") is None


def test_one_line_of_stderr():
    assert one_line("warning\nrawburst convert: bad\n  \n") == "rawburst convert: bad"
    assert one_line(" \n") == "(nothing on stderr)"


def test_a_chunk_runs_on_the_real_rawburst(rawburst: str, tmp_path: Path, sample_raw: Path):
    settings = settings_in(tmp_path)
    jobs = [Job(0, str(sample_raw), str(tmp_path / "out" / "a" / "k.dng")),
            Job(1, str(tmp_path / "missing.kdc"), str(tmp_path / "out" / "b" / "m.dng"))]
    chunk = Chunk(0, "convert-chunk-0000", jobs)
    result = run_chunk(chunk, settings)
    assert (result.chunk, result.attempt, result.exit_code) == (0, 1, 1)  # one job failed: exit status 1
    assert result.worker == worker_name()
    assert [(line["input"], line["status"]) for line in result.lines] == [(jobs[0].input, "ok"),
                                                                          (jobs[1].input, "failed")]
    assert result.lines[1]["error"]["kind"] == "file-not-found"
    output = Path(jobs[0].output).read_bytes()
    assert result.lines[0]["sha256"] == hashlib.sha256(output).hexdigest() and result.lines[0]["bytes"] == len(output)
    assert result.lines[0]["run"] == f"T1/convert-chunk-0000/attempt-1@{worker_name()}"
    assert result.summary["jobs"] == 2 and result.summary["done"] == 1 and result.summary["failed"] == 1
    manifest, results = chunk_paths(settings, chunk)
    assert Path(manifest).read_text() == chunk.manifest_text()
    # A second attempt keeps the verified output (--resume) and runs the failed job again.
    again = run_chunk(chunk, settings)
    assert again.attempt == 2 and again.summary["kept"] == 1 and again.summary["failed"] == 1
    assert len(Path(results).read_text().splitlines()) == 3


def test_a_rawburst_that_refuses_to_start_fails_the_chunk(rawburst: str, tmp_path: Path, sample_raw: Path):
    settings = settings_in(tmp_path, arguments=("--no-such-option",))
    chunk = Chunk(0, "convert-chunk-0000", [Job(0, str(sample_raw), str(tmp_path / "k.dng"))])
    with pytest.raises(ChunkFailed, match=r"convert-chunk-0000: rawburst exited 2 on .*--no-such-option"):
        run_chunk(chunk, settings)
