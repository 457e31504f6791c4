"""staging: a remote IN (here fsspec's in-memory file system) becomes jobs on staged paths; a chunk's sources are
downloaded to exactly those paths and removed after."""

from __future__ import annotations

import hashlib
import os
import tempfile
import uuid
from pathlib import Path

import pytest
from fsspec.implementations.memory import MemoryFileSystem

from rawburst_dask.planning import Job, PlanError
from rawburst_dask.staging import (STAGE_FOLDER, display_input, is_local, is_raw, open_remote, plan_remote_folder,
                                   stage_folder, stage_inputs, unstage_inputs)


@pytest.fixture
def temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``tempfile.gettempdir()`` for the test: the stage folder's parent."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


@pytest.fixture
def remote():
    """An in-memory bucket ``memory://<unique>/raws`` with raws, a hidden file, a hidden folder and a text file."""
    filesystem = MemoryFileSystem()
    root = f"/{uuid.uuid4().hex}/raws"
    files = {"b/2.NEF": b"two", "a.CR2": b"one", "b/c/3.dng": b"three", "notes.txt": b"x", ".hidden.cr2": b"x",
             "b/.trash/4.cr2": b"x"}
    for name, data in files.items():
        filesystem.pipe_file(f"{root}/{name}", data)
    yield filesystem, root
    filesystem.rm(root.rsplit("/", 1)[0], recursive=True)


def test_local_and_remote_locations():
    assert is_local("/data/raws") and is_local("raws") and is_local("file:///data/raws")
    assert not is_local("s3://bucket/raws") and not is_local("memory://x") and not is_local("zip://a::file:///b.zip")


def test_the_stage_folder_is_named_by_the_url(temporary: Path):
    url = "s3://bucket/raws"
    digest = hashlib.sha256(url.encode()).hexdigest()[:16]
    assert stage_folder(url) == f"{temporary}/{STAGE_FOLDER}/{digest}"
    assert stage_folder(url) == stage_folder(url) != stage_folder("s3://bucket/raws2")


@pytest.mark.parametrize("path, raw", [
    ("a.CR2", True), ("x/y/z.nef", True), ("a.dng.txt", False), (".a.cr2", False), ("x/.cache/a.cr2", False),
    ("a", False), ("x.y/a.kdc", True),
])
def test_raws_by_extension_without_hidden_parts(path: str, raw: bool):
    assert is_raw(path) is raw


def test_a_remote_folder_is_planned_on_staged_inputs(remote, temporary: Path):
    filesystem, root = remote
    location = f"memory://{root}"
    jobs = plan_remote_folder(location, filesystem, root, "/out", "dng")
    stage = stage_folder(location)
    assert jobs == [
        Job(0, f"{stage}/a.CR2", "/out/a.dng", source=f"{root}/a.CR2"),
        Job(1, f"{stage}/b/2.NEF", "/out/b/2.dng", source=f"{root}/b/2.NEF"),
        Job(2, f"{stage}/b/c/3.dng", "/out/b/c/3.dng", source=f"{root}/b/c/3.dng"),
    ]
    assert [display_input(filesystem, job) for job in jobs] == [
        f"memory://{root}/a.CR2", f"memory://{root}/b/2.NEF", f"memory://{root}/b/c/3.dng"]
    assert display_input(None, jobs[0]) == jobs[0].input


def test_a_remote_folder_without_raws_is_refused(temporary: Path):
    filesystem = MemoryFileSystem()
    root = f"/{uuid.uuid4().hex}"
    filesystem.pipe_file(f"{root}/notes.txt", b"x")
    try:
        with pytest.raises(PlanError, match="no raw files found"):
            plan_remote_folder(f"memory://{root}", filesystem, root, "/out", "dng")
    finally:
        filesystem.rm(root, recursive=True)


def test_staging_downloads_each_source_to_its_input_and_unstaging_removes_them(remote, temporary: Path):
    filesystem, root = remote
    jobs = plan_remote_folder(f"memory://{root}", filesystem, root, "/out", "dng")
    filesystem.rm(f"{root}/b/2.NEF")  # gone since the plan: left missing, recorded by rawburst as file-not-found
    stage_inputs(filesystem, jobs)
    assert Path(jobs[0].input).read_bytes() == b"one"
    assert not os.path.exists(jobs[1].input)
    assert Path(jobs[2].input).read_bytes() == b"three"
    stage = Path(stage_folder(f"memory://{root}"))
    assert sorted(str(p.relative_to(stage)) for p in stage.rglob("*")) == ["a.CR2", "b", "b/c", "b/c/3.dng"]
    unstage_inputs(jobs)
    assert not stage.exists()  # the URL's folder went with its last input ...
    assert (temporary / STAGE_FOLDER).is_dir()  # ... the shared one stays


def test_unstaging_keeps_what_other_chunks_staged(remote, temporary: Path):
    filesystem, root = remote
    jobs = plan_remote_folder(f"memory://{root}", filesystem, root, "/out", "dng")
    stage_inputs(filesystem, jobs)
    unstage_inputs(jobs[1:2])
    stage = Path(stage_folder(f"memory://{root}"))
    assert sorted(str(p.relative_to(stage)) for p in stage.rglob("*")) == ["a.CR2", "b", "b/c", "b/c/3.dng"]


def test_local_jobs_are_neither_staged_nor_unstaged(tmp_path: Path):
    local = tmp_path / "a.cr2"
    local.write_bytes(b"mine")
    job = Job(0, str(local), str(tmp_path / "a.dng"))
    stage_inputs(None, [job])
    stage_inputs(MemoryFileSystem(), [job])  # no source: nothing to download
    unstage_inputs([job])
    assert local.read_bytes() == b"mine"


def test_a_bad_url_is_one_line():
    with pytest.raises(PlanError, match="nosuchprotocol"):
        open_remote("nosuchprotocol://x/raws")
