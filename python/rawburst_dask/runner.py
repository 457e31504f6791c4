"""The run: a Dask client (a LocalCluster on 127.0.0.1, or the scheduler the user names), the chunks submitted with
retries, progress while they finish, and the report."""

from __future__ import annotations

import contextlib
import glob
import logging
import os
import sys
import time
import uuid
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from distributed import Client, LocalCluster, as_completed

from .carryover import carry_over
from .checking import run_check, translate, write_check_manifest
from .planning import STATE_FOLDER, BadName, Chunk, Job, PlanError, make_chunks
from .quiet import quiet_task_errors
from .report import bad_name_lines, read_attempts, report_lines, summarize, write_report
from .task import BinaryNotFound, ChunkResult, TaskSettings, find_rawburst, run_chunk


class RunError(Exception):
    """A run that cannot start (no cluster, no rawburst on a worker, options rawburst refuses): one line."""


@dataclass(frozen=True)
class RunOptions:
    """How to run: the cluster, the chunking, retries and where the report goes."""

    scheduler: Optional[str]
    workers: int
    chunk_size: int
    retries: int
    report_path: str
    progress: bool
    redo: bool = False  # every output replaced, the chunks' results started afresh
    manifest: Optional[str] = None  # the user's manifest as given (named in the check's refusal), None for a folder


@contextlib.contextmanager
def open_client(scheduler: Optional[str], workers: int) -> Iterator[Client]:
    """A client of the scheduler at ``scheduler``, or of a new LocalCluster of ``workers`` processes with one thread
    each on 127.0.0.1 (closed on the way out)."""
    if scheduler:
        try:
            client = Client(scheduler, timeout="20s")
        except (OSError, TimeoutError) as error:
            raise RunError(f"--scheduler {scheduler}: cannot connect ({one_line(error)})") from None
        except ValueError as error:  # distributed's word for an address it cannot parse
            raise RunError(f"--scheduler {scheduler}: not a scheduler address ({one_line(error)})") from None
        with client:
            yield client
        return
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                           scheduler_port=0, dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR)
    with cluster, Client(cluster) as client:
        yield client


def check_workers(client: Client, settings: TaskSettings, jobs: Sequence[Job], user_manifest: Optional[str]) -> None:
    """At least one worker is there (waiting up to 2 minutes for a cluster still scaling up), every worker finds
    rawburst, and one of them accepts the whole plan with the run's options (``rawburst ... --check``)."""
    try:
        client.wait_for_workers(1, timeout=120)
    except TimeoutError:
        raise RunError("no Dask worker joined the scheduler within 2 minutes") from None
    found: Dict[str, Tuple[bool, str]] = client.run(locate_binary)
    for worker, (ok, text) in sorted(found.items()):
        if not ok:
            raise RunError(f"worker {worker}: {text}")
    manifest = write_check_manifest(settings, jobs)
    status, line = client.submit(run_check, settings, manifest, pure=False).result()
    if status != 0:
        raise RunError(translate(line, manifest, jobs, user_manifest))


def locate_here() -> None:
    """Raises ``RunError`` when this machine has no rawburst."""
    ok, text = locate_binary()
    if not ok:
        raise RunError(text)


def locate_binary() -> Tuple[bool, str]:
    """On a worker: (True, the path of rawburst) or (False, why not)."""
    try:
        return True, find_rawburst()
    except BinaryNotFound as error:
        return False, str(error)


class Progress:
    """Chunks done out of the total, redrawn on one line of a terminal (nothing when not a terminal)."""

    def __init__(self, total: int, files: int, enabled: bool) -> None:
        self.total, self.files, self.enabled = total, files, enabled
        self.done, self.files_done, self.failed = 0, 0, 0

    def update(self, files: int, failed: bool) -> None:
        """Counts one finished chunk of ``files`` files and redraws."""
        self.done += 1
        self.files_done += files
        self.failed += int(failed)
        if self.enabled:
            text = f"\rchunks {self.done}/{self.total}, files {self.files_done}/{self.files}"
            sys.stderr.write(text + (f", {self.failed} chunks failed" if self.failed else "") + "\x1b[K")
            sys.stderr.flush()

    def finish(self) -> None:
        """Ends the progress line."""
        if self.enabled and self.done:
            sys.stderr.write("\n")


def one_line(error: BaseException) -> str:
    """An exception as one line (its type when it has no message)."""
    text = " ".join(str(error).split())
    return text or type(error).__name__


def gather(client: Client, chunks: Sequence[Chunk], settings: TaskSettings, options: RunOptions,
           ) -> Tuple[Dict[int, ChunkResult], Dict[int, str]]:
    """Submits every chunk (``retries`` each) and collects results and failures as they finish."""
    futures = {client.submit(run_chunk, chunk, settings, key=f"rawburst-{settings.run_token}-{chunk.name}",
                             retries=options.retries, pure=False): chunk for chunk in chunks}
    progress = Progress(len(chunks), sum(len(chunk.jobs) for chunk in chunks), options.progress)
    results: Dict[int, ChunkResult] = {}
    failures: Dict[int, str] = {}
    try:
        for future in as_completed(futures):
            chunk = futures[future]
            if future.status == "finished":
                results[chunk.index] = future.result()
            else:
                failures[chunk.index] = one_line(future.exception())
            progress.update(len(chunk.jobs), chunk.index in failures)
    finally:
        progress.finish()
    return results, failures


def carry_earlier_results(settings: TaskSettings, chunks: Sequence[Chunk]) -> int:
    """``carry_over``, with a results file locked too long as a ``RunError``."""
    try:
        return carry_over(settings, chunks)
    except BlockingIOError:
        raise RunError(f"{settings.state_dir}: a results file stays locked by another rawburst worker "
                       "(is another run still going?)") from None


def clear_results(settings: TaskSettings) -> None:
    """--redo: removes the command's chunk results files, so the results start afresh for this run."""
    for path in glob.glob(os.path.join(glob.escape(settings.state_dir), f"{settings.command}-chunk-*.results.jsonl")):
        os.unlink(path)


def run_chunks(chunks: Sequence[Chunk], jobs: Sequence[Job], settings: TaskSettings, options: RunOptions,
               ) -> Tuple[Dict[int, ChunkResult], Dict[int, str], int, float]:
    """On the cluster: checks the workers and the plan, carries earlier results over (or clears them with --redo)
    and runs the chunks; returns the results, the failures, the lines carried over and the chunks' wall time."""
    if options.scheduler is None:
        locate_here()  # the LocalCluster's workers run on this machine: say so before starting them
    with open_client(options.scheduler, options.workers) as client, quiet_task_errors(client):
        check_workers(client, settings, jobs, options.manifest)
        carried = 0
        if options.redo:
            clear_results(settings)
        else:
            carried = carry_earlier_results(settings, chunks)
        started = time.monotonic()  # the chunks' wall time: the cluster's start-up is not the files' cost
        results, failures = gather(client, chunks, settings, options)
    return results, failures, carried, time.monotonic() - started


def make_state_dir(out: str) -> str:
    """Creates ``OUT/.rawburst-dask`` and returns it."""
    state_dir = os.path.join(out, STATE_FOLDER)
    try:
        os.makedirs(state_dir, exist_ok=True)
    except OSError as error:
        raise PlanError(f"{state_dir}: cannot create the state folder ({error.strerror})") from None
    return state_dir


def run(command: str, jobs: List[Job], bad: Sequence[BadName], out: str, arguments: Sequence[str],
        options: RunOptions, filesystem: Any = None) -> Dict[str, Any]:
    """Runs ``jobs`` on the cluster, writes the report (with a failed line for each of ``bad``) and returns the
    summary."""
    chunks = make_chunks(jobs, options.chunk_size, command)
    state_dir = make_state_dir(out)
    token = time.strftime("%Y%m%dT%H%M%S") + "-" + uuid.uuid4().hex[:8]
    settings = TaskSettings(command, state_dir, token, tuple(arguments), filesystem, options.redo)
    results, failures, carried, seconds = run_chunks(chunks, jobs, settings, options) if chunks else ({}, {}, 0, 0.0)
    attempts = read_attempts(settings)
    lines = report_lines(chunks, results, failures, attempts, settings) + bad_name_lines(bad, len(jobs))
    try:
        write_report(options.report_path, lines)
    except OSError as error:
        raise RunError(f"{options.report_path}: cannot write the report ({error.strerror}); the chunks' results "
                       f"are in {state_dir}") from None
    return {**summarize(lines, chunks, attempts, seconds, options.report_path), "carriedOver": carried}
