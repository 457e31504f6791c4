"""planning: folder walks and manifests become the exact jobs, and jobs the exact chunks."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from rawburst_dask.planning import (BadName, Chunk, Job, PlanError, RAW_EXTENSIONS, check_outputs, escaped,
                                    is_valid_utf8, local_path, make_chunks, output_extension, plan_folder,
                                    plan_jobs, plan_manifest, walk_raws)


def touch(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"raw")
    return path


def jobs_of(count: int) -> list:
    return [Job(n, f"/in/{n}.cr2", f"/out/{n}.dng") for n in range(count)]


def test_raw_extensions_are_the_swift_folder_scans(repo: Path):
    source = (repo / "Sources" / "RawJobs" / "ConversionPlan.swift").read_text(encoding="utf-8")
    block = source[source.index("rawExtensions: Set<String> = ["):]
    block = block[:block.index("]")]
    assert RAW_EXTENSIONS == frozenset(re.findall(r'"([0-9a-z]+)"', block))


def test_a_folder_tree_is_walked_sorted_and_mirrored(tmp_path: Path):
    source, out = tmp_path / "in", tmp_path / "out"
    for name in ("b/2.NEF", "a.CR2", "b/1.cr2", "b/c/3.Dng", "notes.txt", ".hidden.cr2", ".cache/x.cr2", "b/.d/4.cr2",
                 "sidecar.xmp", "noextension"):
        touch(source / name)
    jobs, bad = plan_folder(str(source), str(out), "dng")
    assert bad == []
    assert [(job.number, job.input, job.output) for job in jobs] == [
        (0, f"{source}/a.CR2", f"{out}/a.dng"),
        (1, f"{source}/b/1.cr2", f"{out}/b/1.dng"),
        (2, f"{source}/b/2.NEF", f"{out}/b/2.dng"),
        (3, f"{source}/b/c/3.Dng", f"{out}/b/c/3.dng"),
    ]
    assert all(job.extras == {} and job.source is None and job.line is None for job in jobs)


def test_an_output_folder_inside_the_input_is_not_walked(tmp_path: Path):
    touch(tmp_path / "a.cr2")
    touch(tmp_path / "dngs" / "old.dng")  # an earlier run's output: a raw extension, inside IN
    jobs, _ = plan_folder(str(tmp_path), str(tmp_path / "dngs"), "dng")
    assert [job.input for job in jobs] == [str(tmp_path / "a.cr2")]
    assert list(walk_raws(str(tmp_path))) == [str(tmp_path / "a.cr2"), str(tmp_path / "dngs" / "old.dng")]


def test_a_name_that_is_not_utf8_is_a_bad_name_not_a_job(tmp_path: Path):
    touch(tmp_path / "good.kdc")
    with open(os.path.join(os.fsencode(tmp_path), b"x\xff.kdc"), "wb") as stream:
        stream.write(b"raw")
    jobs, bad = plan_folder(str(tmp_path), str(tmp_path / "out"), "jpg")
    assert [job.input for job in jobs] == [str(tmp_path / "good.kdc")]
    assert bad == [BadName(f"{tmp_path}/x\\xff.kdc", f"{tmp_path}/out/x\\xff.jpg")]
    assert bad[0].message == (f"{tmp_path}/x\\xff.kdc: the file name is not valid UTF-8 (it cannot go into a JSON "
                              f"manifest); rename it")
    assert escaped(os.fsdecode(b"/a/\xfe\xffb")) == "/a/\\xfe\\xffb"
    assert is_valid_utf8("/a/é") and not is_valid_utf8(os.fsdecode(b"/a/\xff"))


def test_a_folder_without_raws_or_a_missing_folder_is_refused(tmp_path: Path):
    touch(tmp_path / "readme.txt")
    with pytest.raises(PlanError, match=re.escape(f"{tmp_path}: no raw files found")):
        plan_folder(str(tmp_path), str(tmp_path / "out"), "dng")
    with pytest.raises(PlanError, match=re.escape(f"{tmp_path}/missing: no such folder")):
        plan_folder(str(tmp_path / "missing"), str(tmp_path / "out"), "dng")


def test_a_manifest_keeps_line_numbers_extras_and_makes_paths_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    manifest = tmp_path / "jobs.jsonl"
    manifest.write_bytes(
        b'{"input": "raws/a.CR2", "output": "out/a.dng"}\r\n'
        b"\n"
        b"   \n"
        b'{"input": "/abs/b.NEF", "output": "out/b.jpg", "options": {"wb": "daylight", "size": 1024}, '
        b'"timeout": 30, "memoryLimit": "2G"}\n'
        + '{"input": "c\u2028d.cr2", "output": "e\u0085f.dng"}'.encode("utf-8"))  # no final newline
    jobs = plan_manifest(str(manifest))
    assert jobs == [
        Job(0, f"{tmp_path}/raws/a.CR2", f"{tmp_path}/out/a.dng", {}, line=1),
        Job(1, "/abs/b.NEF", f"{tmp_path}/out/b.jpg",
            {"options": {"wb": "daylight", "size": 1024}, "timeout": 30, "memoryLimit": "2G"}, line=4),
        Job(2, f"{tmp_path}/c\u2028d.cr2", f"{tmp_path}/e\u0085f.dng", {}, line=5),
    ]
    assert jobs[1].manifest_line() == {"input": "/abs/b.NEF", "output": f"{tmp_path}/out/b.jpg",
                                       "options": {"wb": "daylight", "size": 1024}, "timeout": 30,
                                       "memoryLimit": "2G"}


@pytest.mark.parametrize("text, message", [
    ('{"input": "a.cr2", "output": "a.dng"}\n[1, 2]\n', " line 2: not a JSON object"),
    ('{"input": "a.cr2", "output": "a.dng"}\n{"input": "b.cr2"\n', " line 2: not JSON ("),
    ('\n{"input": "a.cr2"}\n', ' line 2: "output" is missing or not a string'),
    ('{"input": 3, "output": "a.dng"}\n', ' line 1: "input" is missing or not a string'),
    ('{"input": "", "output": "a.dng"}\n', ' line 1: "input" is missing or not a string'),
    ('{"input": "a.cr2", "output": "a.dng", "zeta": 1, "alpha": 2}\n', ' line 1: unknown key "alpha"'),
    ("\n \n", ": no jobs"),
])
def test_a_bad_manifest_line_is_named(tmp_path: Path, text: str, message: str):
    manifest = tmp_path / "m.jsonl"
    manifest.write_text(text, encoding="utf-8")
    with pytest.raises(PlanError) as refused:
        plan_manifest(str(manifest))
    assert str(refused.value).startswith(f"{manifest}{message}")


def test_an_unreadable_manifest_is_one_line(tmp_path: Path):
    (tmp_path / "latin1.jsonl").write_bytes(b'{"input": "\xe9.cr2", "output": "a.dng"}\n')
    with pytest.raises(PlanError, match=re.escape(f"{tmp_path}/latin1.jsonl: not UTF-8 text")):
        plan_manifest(str(tmp_path / "latin1.jsonl"))
    with pytest.raises(PlanError, match=re.escape(f"{tmp_path}/none.jsonl: No such file or directory")):
        plan_manifest(str(tmp_path / "none.jsonl"))


def test_two_jobs_for_one_output_or_an_output_on_its_input_are_refused():
    check_outputs([Job(0, "/a.cr2", "/a.dng"), Job(1, "/b.cr2", "/b.dng")])
    with pytest.raises(PlanError, match=re.escape("/a.cr2 and /a.NEF would both be written to /o/a.dng")):
        check_outputs([Job(0, "/a.cr2", "/o/a.dng"), Job(1, "/a.NEF", "/o/a.dng")])
    with pytest.raises(PlanError, match=re.escape("/x.dng: the output would replace its own input")):
        check_outputs([Job(0, "/x.dng", "/x.dng")])


def test_plan_jobs_chooses_folder_or_manifest(tmp_path: Path):
    touch(tmp_path / "in" / "a.cr2")
    touch(tmp_path / "in" / "a.NEF")
    with pytest.raises(PlanError, match="would both be written to"):
        plan_jobs("convert", str(tmp_path / "in"), str(tmp_path / "out"))
    (tmp_path / "in" / "a.NEF").unlink()
    jobs, bad = plan_jobs("analyze", str(tmp_path / "in"), str(tmp_path / "out"))
    assert [job.output for job in jobs] == [f"{tmp_path}/out/a.json"] and bad == []
    (tmp_path / "jobs.jsonl").write_text('{"input": "/r/a.cr2", "output": "/o/a.jpg"}\n', encoding="utf-8")
    jobs, bad = plan_jobs("develop", str(tmp_path / "jobs.jsonl"), str(tmp_path / "out"), "png")
    assert jobs == [Job(0, "/r/a.cr2", "/o/a.jpg", line=1)] and bad == []  # a manifest names its own outputs
    (tmp_path / "jobs.txt").write_text("", encoding="utf-8")
    with pytest.raises(PlanError, match=re.escape(f"{tmp_path}/jobs.txt: a manifest must be a .jsonl file")):
        plan_jobs("convert", str(tmp_path / "jobs.txt"), str(tmp_path / "out"))
    with pytest.raises(PlanError, match="unknown command 'inspect'"):
        plan_jobs("inspect", str(tmp_path / "in"), str(tmp_path / "out"))


@pytest.mark.parametrize("command, chosen, extension", [
    ("convert", None, "dng"), ("convert", "png", "dng"), ("analyze", None, "json"), ("develop", None, "jpg"),
    ("develop", "JPEG", "jpg"), ("develop", ".heif", "heic"), ("develop", "hif", "heic"), ("develop", "TIFF", "tif"),
    ("develop", "png", "png"),
])
def test_output_extensions(command: str, chosen: str, extension: str):
    assert output_extension(command, chosen) == extension


def test_an_unknown_develop_format_is_refused():
    with pytest.raises(PlanError, match=re.escape("--format: 'gif' is not one of jpg, heic, tiff, png")):
        output_extension("develop", "gif")


def test_chunks_are_consecutive_runs_with_stable_names():
    jobs = jobs_of(7)
    chunks = make_chunks(jobs, 3, "develop")
    assert [(chunk.index, chunk.name, [job.number for job in chunk.jobs]) for chunk in chunks] == [
        (0, "develop-chunk-0000", [0, 1, 2]), (1, "develop-chunk-0001", [3, 4, 5]), (2, "develop-chunk-0002", [6])]
    assert make_chunks(jobs, 7, "convert")[0].jobs == jobs
    assert make_chunks([], 5, "convert") == []


def test_chunk_names_widen_past_ten_thousand_chunks():
    chunks = make_chunks(jobs_of(10_001), 1, "convert")
    assert (chunks[0].name, chunks[-1].name) == ("convert-chunk-00000", "convert-chunk-10000")
    assert make_chunks(jobs_of(10_000), 1, "convert")[-1].name == "convert-chunk-9999"


def test_a_chunk_size_below_one_is_refused():
    with pytest.raises(PlanError, match="--chunk-size must be at least 1, not 0"):
        make_chunks(jobs_of(2), 0, "convert")


def test_a_chunks_manifest_is_one_json_line_per_job():
    chunk = Chunk(0, "convert-chunk-0000", [Job(0, "/a.cr2", "/a.dng"),
                                            Job(1, "/b.cr2", "/b.dng", {"options": {"compression": "packed"}})])
    lines = chunk.manifest_text().split("\n")
    assert lines[-1] == "" and len(lines) == 3
    assert [json.loads(line) for line in lines[:-1]] == [
        {"input": "/a.cr2", "output": "/a.dng"},
        {"input": "/b.cr2", "output": "/b.dng", "options": {"compression": "packed"}}]


def test_local_paths_and_urls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", "/home/someone")
    assert local_path("out", "OUT") == f"{tmp_path}/out"
    assert local_path("file:///data/out", "OUT") == "/data/out"
    assert local_path("~/out", "OUT") == "/home/someone/out"
    with pytest.raises(PlanError, match=re.escape("s3://bucket/out: OUT must be a local path or a file:// URL")):
        local_path("s3://bucket/out", "OUT")
