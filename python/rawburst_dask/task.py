"""The Dask task: one chunk run by ``rawburst <command> --manifest ... --results ... --resume`` on the worker's machine.

Everything a chunk writes lives in the state folder (``OUT/.rawburst-dask/``, storage every worker sees): its
manifest, its results (the worker mode's JSON lines, kept across attempts and runs so ``--resume`` can keep what an
earlier attempt finished) and one marker per attempt, created with O_EXCL, that says which worker tried it.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional, Tuple

from .planning import Chunk, Job
from .staging import stage_inputs, unstage_inputs


class BinaryNotFound(Exception):
    """Neither ``$RAWBURST`` nor ``rawburst`` on PATH names an executable."""


class ChunkFailed(Exception):
    """A chunk's rawburst could not run its jobs (refused to start, or was killed): Dask retries the task."""


@dataclass(frozen=True)
class TaskSettings:
    """What every chunk of one run shares: the command, the state folder, the run's token and rawburst's options."""

    command: str
    state_dir: str
    run_token: str
    arguments: Tuple[str, ...] = ()
    filesystem: Any = None  # the fsspec file system of a remote IN (its jobs' sources), else None
    redo: bool = False  # --redo: every output replaced (--overwrite, no --resume)


@dataclass(frozen=True)
class ChunkResult:
    """What a finished chunk returns: the worker mode's last line for each of its jobs (in chunk order)."""

    chunk: int
    attempt: int
    worker: str
    exit_code: int
    lines: List[Dict[str, Any]]
    summary: Optional[Dict[str, Any]]


def find_rawburst() -> str:
    """The rawburst executable on this machine: ``$RAWBURST``, else ``rawburst`` on PATH."""
    named = os.environ.get("RAWBURST")
    if named:
        if os.path.isfile(named) and os.access(named, os.X_OK):
            return os.path.abspath(named)
        raise BinaryNotFound(f"RAWBURST={named} is not an executable file")
    found = shutil.which("rawburst")
    if found is None:
        raise BinaryNotFound("rawburst is not on PATH (install it, or set RAWBURST to its path)")
    return found


def worker_name() -> str:
    """The Dask worker's address when running in one, else host:pid."""
    try:
        from distributed import get_worker
        return str(get_worker().address)
    except (ImportError, ValueError):
        return f"{socket.gethostname()}:{os.getpid()}"


def attempts_dir(settings: TaskSettings) -> str:
    """Where this run's attempt markers are."""
    return os.path.join(settings.state_dir, "attempts", settings.run_token)


def claim_attempt(settings: TaskSettings, chunk: Chunk, worker: str) -> int:
    """Creates the next free marker ``<chunk>.attempt-N`` (O_EXCL, so two attempts never share a number) holding who
    tries it and when; returns N."""
    folder = attempts_dir(settings)
    os.makedirs(folder, exist_ok=True)
    attempt = 1
    while True:
        path = os.path.join(folder, f"{chunk.name}.attempt-{attempt}")
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            attempt += 1
            continue
        record = {"chunk": chunk.name, "attempt": attempt, "worker": worker, "host": socket.gethostname(),
                  "pid": os.getpid(), "started": time.time()}
        with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
            stream.write(json.dumps(record) + "\n")
        return attempt


def write_atomically(path: str, text: str, mode: Optional[int] = None) -> None:
    """Writes ``text`` to ``path`` through a temporary file in the same folder, fsync'd and renamed (with ``mode``
    when given, else mkstemp's 0600)."""
    folder = os.path.dirname(path)
    descriptor, temporary = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
    try:
        if mode is not None:
            os.fchmod(descriptor, mode)
        with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def chunk_paths(settings: TaskSettings, chunk: Chunk) -> Tuple[str, str]:
    """The chunk's manifest and results files."""
    base = os.path.join(settings.state_dir, chunk.name)
    return base + ".jsonl", base + ".results.jsonl"


def exit_with_parent() -> List[str]:
    """The option that makes a rawburst started from this thread end with it: ``--exit-with-parent PID`` with this
    process's pid. rawburst asks Linux itself (PR_SET_PDEATHSIG) for SIGKILL when the thread that started it (the
    Dask worker's task thread, which waits for it) ends, and exits at once when its parent is no longer PID (the
    worker died before rawburst could ask). No ``preexec_fn``: running Python between fork and exec is unsafe in a
    process with threads, as a Dask worker is."""
    return ["--exit-with-parent", str(os.getpid())]


def rawburst_command(binary: str, settings: TaskSettings, manifest: str, results: str, run_id: str) -> List[str]:
    """The worker mode's command line for one chunk: ``--resume`` keeps verified outputs, ``--overwrite`` (--redo)
    replaces them all; ``--exit-with-parent`` ends it with the task's thread."""
    keep = "--overwrite" if settings.redo else "--resume"
    return [binary, settings.command, "--manifest", manifest, "--results", results, keep, "--json",
            "--run-id", run_id, *exit_with_parent(), *settings.arguments]


def results_lines(results: str) -> Iterator[Tuple[str, Dict[str, Any]]]:
    """The lines of a results file (none when it does not exist), each as its text and its object; a line cut by a
    killed worker is skipped (its job has another line, or none and is run again)."""
    if not os.path.exists(results):
        return
    with open(results, encoding="utf-8") as stream:
        for text in stream:
            try:
                line = json.loads(text)
            except json.JSONDecodeError:
                continue
            if isinstance(line, dict):
                yield text, line


def last_lines(results: str, jobs: List[Job]) -> List[Optional[Dict[str, Any]]]:
    """For each job, the last results line with its input and output (None when there is none)."""
    wanted = {(job.input, job.output): index for index, job in enumerate(jobs)}
    found: List[Optional[Dict[str, Any]]] = [None] * len(jobs)
    for _, line in results_lines(results):
        index = wanted.get((line.get("input"), line.get("output")))
        if index is not None:
            found[index] = line
    return found


def parse_summary(stdout: str) -> Optional[Dict[str, Any]]:
    """The worker mode's ``--json`` summary, or None when stdout holds none: the last JSON object that starts a line
    and ends one (rawburst pretty-prints it over several lines)."""
    decoder = json.JSONDecoder()
    start = len(stdout)
    while True:
        start = stdout.rfind("{", 0, start)
        if start < 0:
            return None
        if start > 0 and stdout[start - 1] != "\n":
            continue
        try:
            value, end = decoder.raw_decode(stdout, start)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict) and stdout[end:].partition("\n")[0].strip() == "":
            return value


def one_line(stderr: str) -> str:
    """The last non-empty line of ``stderr`` (rawburst's one-line error), or a placeholder."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return lines[-1] if lines else "(nothing on stderr)"


def run_chunk(chunk: Chunk, settings: TaskSettings) -> ChunkResult:
    """Runs one chunk on this machine and returns its jobs' lines; raises ``ChunkFailed`` (so Dask retries) when
    rawburst could not start or died."""
    binary = find_rawburst()
    worker = worker_name()
    attempt = claim_attempt(settings, chunk, worker)
    manifest, results = chunk_paths(settings, chunk)
    write_atomically(manifest, chunk.manifest_text())
    for folder in sorted({os.path.dirname(job.output) for job in chunk.jobs}):
        os.makedirs(folder, exist_ok=True)
    run_id = f"{settings.run_token}/{chunk.name}/attempt-{attempt}@{worker}"
    try:
        stage_inputs(settings.filesystem, chunk.jobs)
        process = subprocess.run(rawburst_command(binary, settings, manifest, results, run_id),
                                 stdin=subprocess.DEVNULL, capture_output=True, text=True)
    finally:
        unstage_inputs(chunk.jobs)
    if process.returncode < 0:
        raise ChunkFailed(f"{chunk.name}: rawburst was killed by signal {-process.returncode} on {worker}")
    if process.returncode not in (0, 1):
        raise ChunkFailed(f"{chunk.name}: rawburst exited {process.returncode} on {worker}: {one_line(process.stderr)}")
    lines = last_lines(results, chunk.jobs)
    missing = [job.input for job, line in zip(chunk.jobs, lines) if line is None]
    if missing:
        raise ChunkFailed(f"{chunk.name}: no result for {missing[0]} (and {len(missing) - 1} more) on {worker}")
    return ChunkResult(chunk.index, attempt, worker, process.returncode, [line for line in lines if line is not None],
                       parse_summary(process.stdout))
