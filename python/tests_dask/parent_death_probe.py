"""``python3 parent_death_probe.py FOLDER WAIT RAWBURST-ARGS...``: what becomes of a rawburst worker when the
process that started it is killed. Run by test_exit_with_parent.py in its own process, never imported by the tests.

This process makes itself a child subreaper (PR_SET_CHILD_SUBREAPER), so that orphans below it are adopted and
reaped here, whose exit statuses are then known. It starts a *parent*: a small Python process that starts
``rawburst ARGS`` (with ``--exit-with-parent <parent's pid>`` when ARGS hold ``{PARENT}``) with standard input on
/dev/null and output and error in files of FOLDER (so no broken pipe can end it), prints the worker's pid and sleeps.
Once the worker runs jobs (its results file has a line and it has a sandbox child), the parent is killed with
SIGKILL; the worker and its sandbox are then reaped as they end, for up to WAIT seconds, and what is still running
is killed (and reported). Prints one JSON object."""

from __future__ import annotations

import ctypes
import json
import os
import signal
import subprocess
import sys
import time
from typing import Dict, List, Optional

PR_SET_CHILD_SUBREAPER = 36
START = 60.0  # seconds the worker is given to start running jobs

PARENT = r"""
import os, subprocess, sys, time
folder, arguments = sys.argv[1], [a.replace("{PARENT}", str(os.getpid())) for a in sys.argv[2:]]
with open(os.path.join(folder, "stdout.txt"), "wb") as out, open(os.path.join(folder, "stderr.txt"), "wb") as err:
    worker = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
print(worker.pid, flush=True)
time.sleep(3600)
"""


def children(pid: int) -> List[int]:
    """The pids whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as stream:
                fields = stream.read().rpartition(")")[2].split()
        except OSError:
            continue
        if len(fields) > 1 and int(fields[1]) == pid:
            found.append(int(entry))
    return found


def ending(status: int) -> Dict[str, int]:
    """A wait status as {"signal": N} or {"exit": N}."""
    return {"signal": os.WTERMSIG(status)} if os.WIFSIGNALED(status) else {"exit": os.WEXITSTATUS(status)}


def reap(pids: List[int], seconds: float) -> Dict[int, Dict[str, float]]:
    """Reaps ``pids`` (adopted orphans, or own children) as they end, for up to ``seconds``: how and when each ended."""
    ended: Dict[int, Dict[str, float]] = {}
    start = time.monotonic()
    while len(ended) < len(pids) and time.monotonic() - start < seconds:
        for pid in pids:
            if pid in ended:
                continue
            try:
                done, status = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:  # not (yet) adopted by this process: still the child of a living one
                continue
            if done == pid:
                ended[pid] = {**ending(status), "seconds": round(time.monotonic() - start, 3)}
        time.sleep(0.01)
    return ended


def wait_for_jobs(worker: int, results: str) -> Optional[int]:
    """The worker's sandbox once the worker has written a results line (jobs run with these options), or None when
    that does not happen within START seconds."""
    deadline = time.monotonic() + START
    while time.monotonic() < deadline:
        sandboxes = children(worker)
        if sandboxes and os.path.exists(results) and os.path.getsize(results) > 0:
            return sandboxes[0]
        time.sleep(0.05)
    return None


def main() -> None:
    folder, wait, arguments = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "PR_SET_CHILD_SUBREAPER")
    parent = subprocess.Popen([sys.executable, "-c", PARENT, folder, *arguments], stdout=subprocess.PIPE)
    worker = int(parent.stdout.readline())
    results = arguments[arguments.index("--results") + 1]
    facts: Dict[str, object] = {"worker": worker}
    sandbox = wait_for_jobs(worker, results)
    facts["sandbox"] = sandbox
    with open(results, encoding="utf-8") as stream:
        facts["firstLine"] = json.loads(stream.readline() or "null")
    parent.kill()
    parent.wait()
    watched = [worker] + ([sandbox] if sandbox else [])
    ended = reap(watched, wait)
    facts["ended"] = {str(pid): how for pid, how in ended.items()}
    leftover = [pid for pid in watched if pid not in ended]
    leftover += [pid for pid in children(os.getpid()) if pid not in watched]
    facts["leftover"] = leftover
    for pid in leftover:  # never leave a process behind, whatever the outcome
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    reap(leftover, 5)
    with open(os.path.join(folder, "stderr.txt"), encoding="utf-8", errors="replace") as stream:
        facts["stderr"] = stream.read()[-2000:]
    print(json.dumps(facts))


if __name__ == "__main__":
    main()
