"""The manifest check before any chunk: the whole normalised plan, written once to the state folder, is read by
``rawburst COMMAND --manifest M --check [options]`` on one worker, exactly as a run would read it (JSON, keys, the
options parsed, values, duplicate outputs, an output that is another job's input by device and inode, NUL bytes).
A refusal stops the run with rawburst's one line, naming the line of the user's manifest (or the input of a walked
file)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from typing import Dict, List, Optional, Sequence, Tuple

from .planning import Job
from .task import TaskSettings, exit_with_parent, find_rawburst, one_line, write_atomically

CHECK_TIMEOUT = 600  # seconds: reading a manifest of millions of lines takes a while


def check_line(job: Job) -> int:
    """The job's line in the check manifest: its line in the user's manifest, else its number + 1."""
    return job.line if job.line is not None else job.number + 1


def check_manifest_text(jobs: Sequence[Job]) -> str:
    """The jobs as a manifest whose line numbers are the user's (blank lines where the user had blank lines)."""
    rows: List[str] = [""] * max((check_line(job) for job in jobs), default=0)
    for job in jobs:
        rows[check_line(job) - 1] = json.dumps(job.manifest_line())
    return "".join(row + "\n" for row in rows)


def write_check_manifest(settings: TaskSettings, jobs: Sequence[Job]) -> str:
    """Writes the check manifest into the state folder (storage every worker sees); returns its path."""
    path = os.path.join(settings.state_dir, f"{settings.command}-check.jsonl")
    write_atomically(path, check_manifest_text(jobs))
    return path


def check_command(binary: str, settings: TaskSettings, manifest: str) -> List[str]:
    """``rawburst COMMAND --manifest M --check`` with the run's pass-through options (and ``--exit-with-parent``, so a
    check of millions of lines stops with the worker that runs it)."""
    return [binary, settings.command, "--manifest", manifest, "--check", *exit_with_parent(), *settings.arguments]


def run_check(settings: TaskSettings, manifest: str) -> Tuple[int, str]:
    """On a worker: runs the check; returns its exit status and the last line of its stderr."""
    process = subprocess.run(check_command(find_rawburst(), settings, manifest), stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, timeout=CHECK_TIMEOUT)
    return process.returncode, one_line(process.stderr)


def translate(line: str, manifest: str, jobs: Sequence[Job], user_manifest: Optional[str]) -> str:
    """rawburst's refusal with the check manifest's name replaced: by the user's manifest (same line numbers), or,
    for a walked folder, ``LINE`` by the input of that job."""
    text = line.removeprefix("error: ")
    if user_manifest is not None:
        return text.replace(manifest, user_manifest)
    by_line: Dict[int, str] = {check_line(job): job.input for job in jobs}
    pattern = re.compile(re.escape(manifest) + r" line (\d+)")
    return pattern.sub(lambda match: by_line.get(int(match.group(1)), match.group(0)), text)
