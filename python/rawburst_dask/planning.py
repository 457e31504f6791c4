"""Planning: a folder tree or a manifest becomes jobs (an input, an output, optional per-job settings), and the jobs
become chunks of a few hundred files, each one Dask task."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from fsspec.core import split_protocol
from fsspec.implementations.local import LocalFileSystem

# rawburst's ConversionPlan.rawExtensions (Sources/RawJobs/ConversionPlan.swift): the names a folder walk picks up.
RAW_EXTENSIONS = frozenset({
    "3fr", "ari", "arw", "bay", "bmq", "cap", "cine", "cr2", "cr3", "crw", "cs1", "dc2", "dcr", "dcs", "dng", "drf",
    "eip", "erf", "fff", "gpr", "ia", "iiq", "k25", "kc2", "kdc", "mdc", "mef", "mfw", "mos", "mrw", "nef", "nrw",
    "orf", "ori", "pef", "ptx", "pxn", "qtk", "r3d", "raf", "raw", "rdc", "rw1", "rw2", "rwl", "rwz", "sr2", "srf",
    "srw", "sti", "x3f",
})

COMMANDS = ("convert", "develop", "analyze")

# develop's --format values and the extension rawburst gives each (RawDevelop's OutputFormat.fileExtension).
FORMAT_EXTENSIONS = {"jpg": "jpg", "jpeg": "jpg", "jpe": "jpg", "heic": "heic", "heif": "heic", "hif": "heic",
                     "tif": "tif", "tiff": "tif", "png": "png"}

# The keys a manifest line may carry besides input and output (the worker mode's contract).
MANIFEST_EXTRAS = ("options", "timeout", "memoryLimit")

STATE_FOLDER = ".rawburst-dask"


# The error kind of a walked file whose name is not valid UTF-8: it cannot be written into a JSON manifest, so it is
# recorded as failed by the plan itself and never run.
BAD_NAME = "bad-name"


class PlanError(Exception):
    """A plan that cannot be made (a missing folder, a bad manifest line, two inputs for one output): one line."""


@dataclass(frozen=True)
class Job:
    """One input and the output it becomes; ``number`` is its place in the whole plan (0-based); ``source`` is the
    input's path on other storage when ``input`` is its staged copy (see ``staging``)."""

    number: int
    input: str
    output: str
    extras: Dict[str, Any] = field(default_factory=dict)
    source: Optional[str] = None
    line: Optional[int] = None  # its line in the user's manifest (1-based), None for a walked folder

    def manifest_line(self) -> Dict[str, Any]:
        """The job as one line of the worker mode's manifest."""
        line: Dict[str, Any] = {"input": self.input, "output": self.output}
        line.update(self.extras)
        return line


@dataclass(frozen=True)
class Chunk:
    """A run of consecutive jobs, one Dask task; ``name`` names its files under the state folder."""

    index: int
    name: str
    jobs: List[Job]

    def manifest_text(self) -> str:
        """The chunk's manifest for the worker mode: one JSON line per job."""
        return "".join(json.dumps(job.manifest_line()) + "\n" for job in self.jobs)


def local_path(location: str, what: str) -> str:
    """A local path for ``location`` (a path or a ``file://`` URL), absolute; other fsspec URLs are refused (``what``
    names the argument)."""
    protocol, _ = split_protocol(location)
    if protocol not in (None, "file", "local"):
        raise PlanError(f"{location}: {what} must be a local path or a file:// URL (a folder every worker sees, "
                        f"e.g. a mount); only IN may be on other storage")
    path = LocalFileSystem._strip_protocol(location) if protocol else location
    return os.path.abspath(os.path.expanduser(path))


def output_extension(command: str, develop_format: Optional[str]) -> str:
    """The extension of the outputs: dng for convert, the format's for develop (default jpg), json for analyze."""
    if command == "convert":
        return "dng"
    if command == "analyze":
        return "json"
    chosen = (develop_format or "jpg").lower().lstrip(".")
    if chosen not in FORMAT_EXTENSIONS:
        raise PlanError(f"--format: '{develop_format}' is not one of jpg, heic, tiff, png")
    return FORMAT_EXTENSIONS[chosen]


@dataclass(frozen=True)
class BadName:
    """A walked raw whose path is not valid UTF-8: its input and output with the undecodable bytes escaped."""

    input: str
    output: str

    @property
    def message(self) -> str:
        """The report's one-line reason."""
        return f"{self.input}: the file name is not valid UTF-8 (it cannot go into a JSON manifest); rename it"


def escaped(path: str) -> str:
    """A path from ``os.walk`` with bytes that are not UTF-8 (surrogate-escaped by Python) written as ``\\xNN``."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def is_valid_utf8(path: str) -> bool:
    """False for a path holding bytes that are not UTF-8 (lone surrogates in Python's decoding)."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def walk_raws(folder: str, skip: Optional[str] = None) -> Iterator[str]:
    """The raw files under ``folder`` (by extension, any case), sorted by path; hidden names and ``skip`` (the
    output folder when it lies inside) are left out, as rawburst's own folder scan does."""
    found: List[str] = []
    for directory, subdirectories, names in os.walk(folder):
        subdirectories[:] = [d for d in subdirectories
                             if not d.startswith(".") and os.path.join(directory, d) != skip]
        for name in names:
            extension = os.path.splitext(name)[1][1:].lower()
            if not name.startswith(".") and extension in RAW_EXTENSIONS:
                found.append(os.path.join(directory, name))
    return iter(sorted(found))


def plan_folder(folder: str, out: str, extension: str) -> Tuple[List[Job], List[BadName]]:
    """Jobs for every raw under ``folder``, the outputs mirroring its tree under ``out`` with ``extension``, and the
    raws whose names are not valid UTF-8 (not jobs: each becomes a failed report line)."""
    if not os.path.isdir(folder):
        raise PlanError(f"{folder}: no such folder")
    jobs: List[Job] = []
    bad: List[BadName] = []
    for path in walk_raws(folder, skip=out):
        stem = os.path.splitext(os.path.relpath(path, folder))[0]
        output = os.path.join(out, f"{stem}.{extension}")
        if is_valid_utf8(path) and is_valid_utf8(output):
            jobs.append(Job(len(jobs), path, output))
        else:
            bad.append(BadName(escaped(path), escaped(output)))
    if not jobs and not bad:
        raise PlanError(f"{folder}: no raw files found")
    return jobs, bad


def parse_manifest_line(text: str, where: str, number: int, line: Optional[int] = None) -> Job:
    """One manifest line as a job; relative paths are taken from the current directory, as rawburst does."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise PlanError(f"{where}: not JSON ({error.msg})") from None
    if not isinstance(value, dict):
        raise PlanError(f"{where}: not a JSON object")
    paths = []
    for key in ("input", "output"):
        path = value.get(key)
        if not isinstance(path, str) or not path:
            raise PlanError(f"{where}: \"{key}\" is missing or not a string")
        paths.append(os.path.abspath(path))
    unknown = sorted(set(value) - {"input", "output", *MANIFEST_EXTRAS})
    if unknown:
        raise PlanError(f"{where}: unknown key \"{unknown[0]}\"")
    extras = {key: value[key] for key in MANIFEST_EXTRAS if key in value}
    return Job(number, paths[0], paths[1], extras, line=line)


def plan_manifest(manifest: str) -> List[Job]:
    """The jobs of a JSON-lines manifest (blank lines skipped). Lines end at "\\n" only (a "\\r" before it is
    dropped), as rawburst reads them: U+2028 or U+0085 inside a JSON string is part of the line."""
    try:
        with open(manifest, encoding="utf-8", newline="") as stream:
            lines = [text.removesuffix("\r") for text in stream.read().split("\n")]
    except OSError as error:
        raise PlanError(f"{manifest}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise PlanError(f"{manifest}: not UTF-8 text") from None
    jobs: List[Job] = []
    for line_number, text in enumerate(lines, start=1):
        if text.strip():
            jobs.append(parse_manifest_line(text, f"{manifest} line {line_number}", len(jobs), line_number))
    if not jobs:
        raise PlanError(f"{manifest}: no jobs")
    return jobs


def check_outputs(jobs: Sequence[Job]) -> None:
    """Refuses two jobs with one output and an output that is its own input, by path string: a quick first look.
    rawburst's ``--check`` (checking.py) compares them by device and inode, which a linked folder cannot hide."""
    seen: Dict[str, str] = {}
    for job in jobs:
        if job.output in seen:
            raise PlanError(f"{seen[job.output]} and {job.input} would both be written to {job.output}")
        if job.output == job.input:
            raise PlanError(f"{job.input}: the output would replace its own input")
        seen[job.output] = job.input


def plan_jobs(command: str, source: str, out: str, develop_format: Optional[str] = None,
              ) -> Tuple[List[Job], List[BadName]]:
    """The jobs of a run: ``source`` is a folder (walked and mirrored under ``out``) or a ``.jsonl`` manifest; and
    the walked raws whose names are not valid UTF-8."""
    if command not in COMMANDS:
        raise PlanError(f"unknown command '{command}' (convert, develop or analyze)")
    extension = output_extension(command, develop_format)
    bad: List[BadName] = []
    if os.path.isfile(source) and source.endswith(".jsonl"):
        jobs = plan_manifest(source)
    elif os.path.isfile(source):
        raise PlanError(f"{source}: a manifest must be a .jsonl file")
    else:
        jobs, bad = plan_folder(source, out, extension)
    check_outputs(jobs)
    return jobs, bad


def make_chunks(jobs: Sequence[Job], chunk_size: int, command: str) -> List[Chunk]:
    """Consecutive runs of ``chunk_size`` jobs, named ``<command>-chunk-0000`` ... (stable for the same plan and
    size, so a second run finds the first one's results)."""
    if chunk_size < 1:
        raise PlanError(f"--chunk-size must be at least 1, not {chunk_size}")
    count = (len(jobs) + chunk_size - 1) // chunk_size
    width = max(4, len(str(count - 1)))
    return [Chunk(index, f"{command}-chunk-{index:0{width}d}", list(jobs[index * chunk_size:(index + 1) * chunk_size]))
            for index in range(count)]
