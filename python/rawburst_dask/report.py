"""The report: one line per input (the worker mode's last line for it, with its chunk and attempts), written
atomically, and the run's summary."""

from __future__ import annotations

import glob
import json
import os
from collections import Counter
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Sequence

from .planning import BAD_NAME, BadName, Chunk
from .staging import display_input
from .task import ChunkResult, TaskSettings, attempts_dir, write_atomically

# The error kind of a job whose chunk never produced results (every attempt failed): not one of the worker mode's
# kinds, which describe a file; this one describes the run.
CHUNK_FAILED = "chunk-failed"


@dataclass(frozen=True)
class Attempt:
    """One attempt at a chunk, from its marker file."""

    chunk: str
    number: int
    worker: str


def read_attempts(settings: TaskSettings) -> Dict[str, List[Attempt]]:
    """This run's attempts per chunk name, in attempt order."""
    found: Dict[str, List[Attempt]] = {}
    for path in glob.glob(os.path.join(attempts_dir(settings), "*.attempt-*")):
        try:
            with open(path, encoding="utf-8") as stream:
                record = json.loads(stream.read() or "{}")
        except (OSError, json.JSONDecodeError):
            record = {}
        name, _, number = os.path.basename(path).rpartition(".attempt-")
        found.setdefault(name, []).append(Attempt(name, int(number), str(record.get("worker", "?"))))
    for attempts in found.values():
        attempts.sort(key=lambda attempt: attempt.number)
    return found


def failed_line(job_input: str, job_output: str, number: int, message: str) -> Dict[str, Any]:
    """A report line for a job whose chunk failed every attempt (the worker mode's fields, null where unknown)."""
    return {"input": job_input, "output": job_output, "status": "failed", "action": None, "bytes": None,
            "seconds": None, "peakMemory": None, "digestKind": None, "digest": None, "sha256": None, "settings": None,
            "error": {"kind": CHUNK_FAILED, "message": message}, "warnings": [], "job": number, "run": None,
            "finished": None}


def bad_name_lines(bad: Sequence[BadName], first: int) -> List[Dict[str, Any]]:
    """Failed report lines (kind ``bad-name``) for the walked raws whose names are not UTF-8, numbered from
    ``first`` (after the plan's jobs); they never ran."""
    lines = []
    for offset, name in enumerate(bad):
        line = failed_line(name.input, name.output, first + offset, name.message)
        line["error"]["kind"] = BAD_NAME
        lines.append({**line, "chunk": None, "attempts": 0, "kept": False})
    return lines


def is_kept(line: Mapping[str, Any], run_token: str) -> bool:
    """True for an ok line written by an earlier run (the worker mode verified its output and kept it)."""
    run = line.get("run")
    return line.get("status") == "ok" and not (isinstance(run, str) and run.startswith(run_token + "/"))


def report_lines(chunks: Sequence[Chunk], results: Mapping[int, ChunkResult], failures: Mapping[int, str],
                 attempts: Mapping[str, List[Attempt]], settings: TaskSettings) -> List[Dict[str, Any]]:
    """One line per job of the plan, in plan order: the worker mode's line with ``job`` set to the plan's number,
    ``input`` to the source's URL for a staged input, and ``chunk``, ``attempts`` (this run's, for its chunk) and
    ``kept`` added."""
    lines: List[Dict[str, Any]] = []
    for chunk in chunks:
        result = results.get(chunk.index)
        tries = len(attempts.get(chunk.name, [])) or (result.attempt if result else 0)
        for position, job in enumerate(chunk.jobs):
            if result is not None:
                line = dict(result.lines[position])
            else:
                line = failed_line(job.input, job.output, job.number, failures.get(chunk.index, "no result"))
            line.update(job=job.number, input=display_input(settings.filesystem, job), chunk=chunk.name,
                        attempts=tries, kept=is_kept(line, settings.run_token))
            lines.append(line)
    return lines


def summarize(lines: Sequence[Mapping[str, Any]], chunks: Sequence[Chunk], attempts: Mapping[str, List[Attempt]],
              seconds: float, report_path: str) -> Dict[str, Any]:
    """The run's figures: files, ok (done now), kept, failed, failures by kind, bytes written now, seconds, files/s
    (files run now, ok or failed, per second) and the chunks tried more than once."""
    kept = sum(1 for line in lines if line.get("kept"))
    failed = [line for line in lines if line.get("status") != "ok"]
    done = len(lines) - kept - len(failed)
    kinds = Counter(str((line.get("error") or {}).get("kind", "unknown")) for line in failed)
    written = sum(int(line.get("bytes") or 0) for line in lines if line.get("status") == "ok" and not line.get("kept"))
    retried = [{"chunk": name, "attempts": len(tries), "workers": [attempt.worker for attempt in tries]}
               for name, tries in sorted(attempts.items()) if len(tries) > 1]
    return {"files": len(lines), "ok": done, "kept": kept, "failed": len(failed),
            "failuresByKind": dict(sorted(kinds.items())), "bytes": written, "seconds": round(seconds, 3),
            "filesPerSecond": round((done + len(failed)) / seconds, 3) if seconds > 0 else None,
            "chunks": len(chunks), "chunksRetried": retried, "results": report_path}


def file_mode() -> int:
    """0644 less the process's umask: what an ordinary new file gets."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o644 & ~umask


def write_report(path: str, lines: Sequence[Mapping[str, Any]]) -> None:
    """Writes the report's JSON lines atomically (temporary file, fsync, rename), mode 0644 less the umask."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    write_atomically(os.path.abspath(path), "".join(json.dumps(line, sort_keys=True) + "\n" for line in lines),
                     mode=file_mode())


def human_bytes(count: int) -> str:
    """``count`` bytes in kB/MB/GB."""
    value = float(count)
    for unit in ("B", "kB", "MB", "GB", "TB"):
        if value < 1000 or unit == "TB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1000
    return f"{value:.1f} TB"


def summary_text(summary: Mapping[str, Any]) -> str:
    """The summary as one human line (plus the retried chunks)."""
    kinds = ", ".join(f"{kind} {count}" for kind, count in summary["failuresByKind"].items())
    rate = summary["filesPerSecond"]
    text = (f"{summary['files']} files: {summary['ok']} ok, {summary['kept']} kept, {summary['failed']} failed"
            + (f" ({kinds})" if kinds else "")
            + f"; {human_bytes(summary['bytes'])} in {summary['seconds']:.1f} s"
            + (f" ({rate:.2f} files/s)" if rate is not None else "")
            + f"; {summary['chunks']} chunks; report: {summary['results']}")
    for retried in summary["chunksRetried"]:
        text += f"\n{retried['chunk']}: {retried['attempts']} attempts on {', '.join(retried['workers'])}"
    return text
