"""Keeping earlier results when chunks change: a file added to (or removed from) the tree moves later files into
other chunks, whose results files do not know them, so ``--resume`` would convert them again. Before a run, each
chunk whose manifest differs from the one its name had last time gets, appended to its results file, the newest
earlier "ok" line of each of its jobs found in the other chunks' results files; the worker mode then verifies them
(size and sha256 of the output) like its own, and redoes a job whose output no longer matches."""

from __future__ import annotations

import fcntl
import glob
import os
import time
from typing import Dict, List, Sequence, Tuple

from .planning import Chunk
from .task import TaskSettings, chunk_paths, results_lines

Key = Tuple[str, str]
Line = Tuple[str, str]  # (finished, the line's text)


def results_files(settings: TaskSettings) -> List[str]:
    """The command's chunk results files in the state folder."""
    return sorted(glob.glob(os.path.join(settings.state_dir, f"{settings.command}-chunk-*.results.jsonl")))


def changed_chunks(settings: TaskSettings, chunks: Sequence[Chunk]) -> List[Chunk]:
    """The chunks whose manifest is not the one their name had in the last run (none when no run was made)."""
    if not results_files(settings):
        return []
    changed = []
    for chunk in chunks:
        manifest, _ = chunk_paths(settings, chunk)
        try:
            with open(manifest, encoding="utf-8") as stream:
                same = stream.read() == chunk.manifest_text()
        except OSError:
            same = False
        if not same:
            changed.append(chunk)
    return changed


def ok_lines(path: str) -> Dict[Key, Line]:
    """The last "ok" line of each (input, output) in one results file, with its ``finished`` time."""
    found: Dict[Key, Line] = {}
    for text, line in results_lines(path):
        if line.get("status") == "ok":
            key = (str(line.get("input")), str(line.get("output")))
            found[key] = (str(line.get("finished") or ""), text.rstrip("\n") + "\n")
    return found


def newest_ok_lines(settings: TaskSettings) -> Dict[Key, Line]:
    """Across every results file, the newest "ok" line (by ``finished``, ISO 8601 UTC) of each (input, output)."""
    newest: Dict[Key, Line] = {}
    for path in results_files(settings):
        for key, line in ok_lines(path).items():
            if key not in newest or line[0] >= newest[key][0]:
                newest[key] = line
    return newest


def append_locked(path: str, text: str, wait: float = 30) -> None:
    """Appends ``text`` to ``path`` under the exclusive flock the worker mode takes, waiting up to ``wait`` s for an
    attempt of an earlier run that still holds it."""
    with open(path, "a", encoding="utf-8") as stream:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(stream.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        stream.write(text)
        stream.flush()
        os.fsync(stream.fileno())


def carry_over(settings: TaskSettings, chunks: Sequence[Chunk]) -> int:
    """Appends to each changed chunk's results file the newest earlier ok line of each of its jobs that its own
    last ok line is not; returns how many lines were carried."""
    changed = changed_chunks(settings, chunks)
    if not changed:
        return 0
    newest = newest_ok_lines(settings)
    carried = 0
    for chunk in changed:
        _, results = chunk_paths(settings, chunk)
        own = ok_lines(results)
        lines = [newest[key][1] for key in ((job.input, job.output) for job in chunk.jobs)
                 if key in newest and own.get(key) != newest[key]]
        if lines:
            append_locked(results, "".join(lines))
            carried += len(lines)
    return carried
