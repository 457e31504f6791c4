"""Inputs on other storage: IN may be any fsspec URL the workers can reach (``s3://``, ``gs://``, ``sftp://``,
``zip://...::file://...`` ...). The client lists it; each task downloads its chunk's inputs to a local folder on its
worker (the same path on every worker, so a retry's jobs are the same jobs for ``--resume``), runs the worker mode on
the copies and removes them. Outputs stay on a path every worker sees."""

from __future__ import annotations

import hashlib
import os
import posixpath
import tempfile
from typing import Any, List, Optional, Sequence, Tuple

from fsspec.core import split_protocol, url_to_fs

from .planning import RAW_EXTENSIONS, Job, PlanError

STAGE_FOLDER = "rawburst-dask-stage"
LOCAL_PROTOCOLS = (None, "file", "local")


def is_local(location: str) -> bool:
    """True for a plain path or a ``file://`` URL."""
    return split_protocol(location)[0] in LOCAL_PROTOCOLS


def open_remote(location: str) -> Tuple[Any, str]:
    """The fsspec file system and path of a URL (one line when its backend is missing or the URL is bad)."""
    try:
        return url_to_fs(location)
    except (ImportError, ValueError) as error:
        raise PlanError(f"{location}: {' '.join(str(error).split())}") from None


def stage_folder(location: str) -> str:
    """The local folder a remote IN is staged to on every worker (named by the URL, so stable across attempts)."""
    digest = hashlib.sha256(location.encode()).hexdigest()[:16]
    return os.path.join(tempfile.gettempdir(), STAGE_FOLDER, digest)


def is_raw(path: str) -> bool:
    """A raw by extension, with no hidden part in its path."""
    parts = path.split("/")
    extension = posixpath.splitext(parts[-1])[1][1:].lower()
    return extension in RAW_EXTENSIONS and not any(part.startswith(".") for part in parts)


def plan_remote_folder(location: str, filesystem: Any, root: str, out: str, extension: str) -> List[Job]:
    """Jobs for every raw under the URL ``location`` (``root`` on ``filesystem``): inputs staged under
    ``stage_folder``, outputs mirrored under the local ``out``."""
    try:
        found = sorted(path for path in filesystem.find(root) if is_raw(posixpath.relpath(path, root)))
    except OSError as error:
        raise PlanError(f"{location}: cannot list it ({' '.join(str(error).split())})") from None
    stage = stage_folder(location)
    jobs = []
    for number, path in enumerate(found):
        relative = posixpath.relpath(path, root)
        jobs.append(Job(number, os.path.join(stage, relative),
                        os.path.join(out, f"{posixpath.splitext(relative)[0]}.{extension}"), source=path))
    if not jobs:
        raise PlanError(f"{location}: no raw files found")
    return jobs


def stage_inputs(filesystem: Optional[Any], jobs: Sequence[Job]) -> None:
    """Downloads each job's source to its input path (through a temporary name, so a cut download is never taken
    for the file). A source that has gone is left missing: the worker mode records the job as file-not-found.
    Other errors (the storage unreachable) raise, and Dask retries the chunk."""
    if filesystem is None:
        return
    for job in jobs:
        if job.source is None:
            continue
        os.makedirs(os.path.dirname(job.input), exist_ok=True)
        partial = f"{job.input}.{os.getpid()}.part"
        try:
            filesystem.get_file(job.source, partial)
            os.replace(partial, job.input)
        except FileNotFoundError:
            continue
        finally:
            if os.path.exists(partial):
                os.unlink(partial)


def unstage_inputs(jobs: Sequence[Job]) -> None:
    """Removes the staged copies of the jobs' inputs, and the folders under the stage folder they leave empty."""
    folders = set()
    for job in jobs:
        if job.source is None:
            continue
        try:
            os.unlink(job.input)
        except FileNotFoundError:
            pass
        folder = os.path.dirname(job.input)
        while STAGE_FOLDER in folder.split(os.sep)[:-1]:  # the input's folders, up to the URL's own stage folder
            folders.add(folder)
            folder = os.path.dirname(folder)
    for folder in sorted(folders, key=len, reverse=True):
        try:
            os.rmdir(folder)
        except OSError:
            pass  # not empty: another chunk's inputs are staged there


def display_input(filesystem: Optional[Any], job: Job) -> str:
    """The input as the report shows it: the source's URL when staged, else the path."""
    if filesystem is None or job.source is None:
        return job.input
    return str(filesystem.unstrip_protocol(job.source))
