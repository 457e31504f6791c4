"""report: one line per input in plan order (results, chunk failures, bad names), the summary's exact figures, the
report file and the human line."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any, Dict

import pytest

from rawburst_dask.planning import BadName, Chunk, Job
from rawburst_dask.report import (CHUNK_FAILED, Attempt, bad_name_lines, failed_line, human_bytes, is_kept,
                                  read_attempts, report_lines, summarize, summary_text, write_report)
from rawburst_dask.task import ChunkResult, TaskSettings, claim_attempt

TOKEN = "20261208T000000-abcdef12"


def settings_in(folder: Path, **changes) -> TaskSettings:
    state = folder / ".rawburst-dask"
    state.mkdir(exist_ok=True)
    return TaskSettings(**{"command": "convert", "state_dir": str(state), "run_token": TOKEN, **changes})


def ok(job: Job, bytes_: int, run: str) -> Dict[str, Any]:
    return {"input": job.input, "output": job.output, "status": "ok", "bytes": bytes_, "error": None, "run": run,
            "job": 0}


def failed(job: Job, kind: str) -> Dict[str, Any]:
    return {"input": job.input, "output": job.output, "status": "failed", "bytes": None,
            "error": {"kind": kind, "message": "m"}, "run": f"{TOKEN}/x", "job": 0}


@pytest.fixture
def plan():
    jobs = [Job(n, f"/in/{n}.cr2", f"/out/{n}.dng") for n in range(5)]
    return jobs, [Chunk(0, "convert-chunk-0000", jobs[:2]), Chunk(1, "convert-chunk-0001", jobs[2:4]),
                  Chunk(2, "convert-chunk-0002", jobs[4:])]


def test_attempts_are_read_from_the_markers_in_order(tmp_path: Path, plan):
    settings = settings_in(tmp_path)
    _, chunks = plan
    for worker in ("w1", "w2", "w3"):
        claim_attempt(settings, chunks[1], worker)
    claim_attempt(settings, chunks[0], "w9")
    other = settings_in(tmp_path, run_token="older")
    claim_attempt(other, chunks[2], "w0")  # another run's: not this one's
    assert read_attempts(settings) == {
        "convert-chunk-0000": [Attempt("convert-chunk-0000", 1, "w9")],
        "convert-chunk-0001": [Attempt("convert-chunk-0001", n, f"w{n}") for n in (1, 2, 3)]}


def test_a_damaged_marker_still_counts_as_an_attempt(tmp_path: Path):
    settings = settings_in(tmp_path)
    folder = Path(settings.state_dir) / "attempts" / TOKEN
    folder.mkdir(parents=True)
    (folder / "convert-chunk-0000.attempt-1").write_text("{cut")
    (folder / "convert-chunk-0000.attempt-2").write_text("")
    assert read_attempts(settings) == {"convert-chunk-0000": [Attempt("convert-chunk-0000", 1, "?"),
                                                              Attempt("convert-chunk-0000", 2, "?")]}


def test_kept_is_an_ok_line_of_an_earlier_run():
    assert is_kept({"status": "ok", "run": "older/convert-chunk-0000/attempt-1@w"}, TOKEN)
    assert is_kept({"status": "ok", "run": None}, TOKEN)
    assert not is_kept({"status": "ok", "run": f"{TOKEN}/convert-chunk-0000/attempt-1@w"}, TOKEN)
    assert not is_kept({"status": "failed", "run": "older/x"}, TOKEN)
    assert is_kept({"status": "ok", "run": f"{TOKEN}-other/x"}, f"{TOKEN}-o")  # another run whose token starts alike


def test_report_lines_follow_the_plan(tmp_path: Path, plan):
    settings = settings_in(tmp_path)
    jobs, chunks = plan
    results = {
        0: ChunkResult(0, 2, "w2", 1, [ok(jobs[0], 100, f"{TOKEN}/c0"), failed(jobs[1], "corrupt")], None),
        2: ChunkResult(2, 1, "w1", 0, [ok(jobs[4], 7, "older/c2")], None),
    }
    attempts = {"convert-chunk-0000": [Attempt("convert-chunk-0000", n, "w") for n in (1, 2)],
                "convert-chunk-0001": [Attempt("convert-chunk-0001", n, "w") for n in (1, 2, 3)]}
    lines = report_lines(chunks, results, {1: "rawburst was killed by signal 9"}, attempts, settings)
    assert [(line["input"], line["job"], line["status"], line["chunk"], line["attempts"], line["kept"])
            for line in lines] == [
        ("/in/0.cr2", 0, "ok", "convert-chunk-0000", 2, False),
        ("/in/1.cr2", 1, "failed", "convert-chunk-0000", 2, False),
        ("/in/2.cr2", 2, "failed", "convert-chunk-0001", 3, False),
        ("/in/3.cr2", 3, "failed", "convert-chunk-0001", 3, False),
        ("/in/4.cr2", 4, "ok", "convert-chunk-0002", 1, True),  # no marker read: the result's attempt
    ]
    assert lines[2]["error"] == {"kind": CHUNK_FAILED, "message": "rawburst was killed by signal 9"}
    assert lines[2]["output"] == "/out/2.dng" and lines[2]["bytes"] is None
    assert results[0].lines[0]["job"] == 0 and "chunk" not in results[0].lines[0]  # the results are not changed


def test_failed_and_bad_name_lines_carry_every_key(plan):
    line = failed_line("/in/x.cr2", "/out/x.dng", 7, "why")
    assert line == {"input": "/in/x.cr2", "output": "/out/x.dng", "status": "failed", "action": None, "bytes": None,
                    "seconds": None, "peakMemory": None, "digestKind": None, "digest": None, "sha256": None,
                    "settings": None, "error": {"kind": "chunk-failed", "message": "why"}, "warnings": [],
                    "job": 7, "run": None, "finished": None}
    bad = bad_name_lines([BadName("/in/x\\xff.kdc", "/out/x\\xff.dng"), BadName("/in/y\\xfe.kdc", "/out/y.dng")], 5)
    assert [(b["input"], b["job"], b["error"]["kind"], b["chunk"], b["attempts"], b["kept"]) for b in bad] == [
        ("/in/x\\xff.kdc", 5, "bad-name", None, 0, False), ("/in/y\\xfe.kdc", 6, "bad-name", None, 0, False)]
    assert bad[0]["error"]["message"].startswith("/in/x\\xff.kdc: the file name is not valid UTF-8")


def test_the_summary_counts_exactly(plan):
    _, chunks = plan
    lines = [
        {"status": "ok", "kept": False, "bytes": 1000},
        {"status": "ok", "kept": False, "bytes": 500},
        {"status": "ok", "kept": True, "bytes": 9999},  # kept: its bytes were written by an earlier run
        {"status": "failed", "kept": False, "bytes": None, "error": {"kind": "timeout"}},
        {"status": "failed", "kept": False, "error": {"kind": "corrupt"}},
        {"status": "failed", "kept": False, "error": {"kind": "timeout"}},
        {"status": "failed", "kept": False, "error": None},
    ]
    attempts = {"convert-chunk-0001": [Attempt("convert-chunk-0001", 1, "w1"), Attempt("convert-chunk-0001", 2, "w2")],
                "convert-chunk-0000": [Attempt("convert-chunk-0000", 1, "w1")]}
    summary = summarize(lines, chunks, attempts, 3.0, "/out/report.jsonl")
    assert summary == {"files": 7, "ok": 2, "kept": 1, "failed": 4,
                       "failuresByKind": {"corrupt": 1, "timeout": 2, "unknown": 1}, "bytes": 1500, "seconds": 3.0,
                       "filesPerSecond": 2.0, "chunks": 3,
                       "chunksRetried": [{"chunk": "convert-chunk-0001", "attempts": 2, "workers": ["w1", "w2"]}],
                       "results": "/out/report.jsonl"}
    assert list(summary["failuresByKind"]) == ["corrupt", "timeout", "unknown"]
    assert summarize([], [], {}, 0.0, "r")["filesPerSecond"] is None
    assert summarize(lines[:1], chunks, {}, 0.0004, "r")["seconds"] == 0.0


def test_the_report_file_is_sorted_json_lines_with_an_ordinary_mode(tmp_path: Path):
    path = tmp_path / "new" / "report.jsonl"
    old = os.umask(0o027)
    try:
        write_report(str(path), [{"b": 1, "a": "é"}, {"input": "/x"}])
    finally:
        os.umask(old)
    assert path.read_text(encoding="utf-8") == '{"a": "\\u00e9", "b": 1}\n{"input": "/x"}\n'
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert os.listdir(path.parent) == ["report.jsonl"]


@pytest.mark.parametrize("count, text", [
    (0, "0 B"), (999, "999 B"), (1000, "1.0 kB"), (1_234_567, "1.2 MB"), (5 * 10**9, "5.0 GB"),
    (2 * 10**12, "2.0 TB"), (3 * 10**15, "3000.0 TB"),
])
def test_human_bytes(count: int, text: str):
    assert human_bytes(count) == text


def test_the_summary_as_a_human_line():
    summary = {"files": 300, "ok": 296, "kept": 1, "failed": 3, "failuresByKind": {"corrupt": 1, "timeout": 2},
               "bytes": 1_200_000_000, "seconds": 41.04, "filesPerSecond": 7.29, "chunks": 2,
               "chunksRetried": [{"chunk": "convert-chunk-0001", "attempts": 2, "workers": ["w1", "w2"]}],
               "results": "/out/r.jsonl"}
    assert summary_text(summary) == (
        "300 files: 296 ok, 1 kept, 3 failed (corrupt 1, timeout 2); 1.2 GB in 41.0 s (7.29 files/s); 2 chunks; "
        "report: /out/r.jsonl\nconvert-chunk-0001: 2 attempts on w1, w2")
    quiet = {**summary, "failed": 0, "failuresByKind": {}, "filesPerSecond": None, "chunksRetried": []}
    assert summary_text(quiet) == (
        "300 files: 296 ok, 1 kept, 0 failed; 1.2 GB in 41.0 s; 2 chunks; report: /out/r.jsonl")
    assert json.loads(json.dumps(summary)) == summary  # what --json prints
