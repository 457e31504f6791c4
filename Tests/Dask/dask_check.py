"""rawburst on Dask, checked end to end: a distributed.LocalCluster of 2 worker processes over TCP on 127.0.0.1
(started and stopped here), `python -m rawburst_dask convert` run against it, and what came out measured. The
assertions are in Tests/CLITests/DaskCLITests.swift; this prints one JSON object of facts.

    python3 dask_check.py RAWBURST SAMPLES WORK convert|kill|resume
"""
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dask_sources import make_tree  # noqa: E402

FILES = 300
CHUNK = 50


def environment(rawburst):
    """The environment of the cluster's workers and the CLI: the package from the checkout, the built binary."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(ROOT, "python") + os.pathsep + env.get("PYTHONPATH", "")
    env["RAWBURST"] = rawburst
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def start_cluster(rawburst):
    """A LocalCluster of 2 worker processes, one thread each, on 127.0.0.1, and a client of it."""
    import logging
    from distributed import Client, LocalCluster
    os.environ.update(environment(rawburst))  # the worker processes inherit it
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                           dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR)
    return cluster, Client(cluster)


def run_cli(arguments, rawburst, wait=True):
    """`python -m rawburst_dask ARGUMENTS` (a Popen when not waiting)."""
    command = [sys.executable, "-m", "rawburst_dask", *arguments]
    process = subprocess.Popen(command, env=environment(rawburst), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    return process.communicate(timeout=600) + (process.returncode,) if wait else process


def read_lines(path):
    """JSON lines of a file (cut lines skipped)."""
    out = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as stream:
            for text in stream:
                try:
                    out.append(json.loads(text))
                except json.JSONDecodeError:
                    pass
    return out


def sha256(path):
    with open(path, "rb") as stream:
        return hashlib.sha256(stream.read()).hexdigest()


class RawCache:
    """rawpy's raw_image of each distinct source (copies share one read)."""

    def __init__(self):
        self.by_digest = {}

    def source(self, path):
        import rawpy
        digest = sha256(path)
        if digest not in self.by_digest:
            with rawpy.imread(path) as raw:
                self.by_digest[digest] = raw.raw_image.copy()
        return self.by_digest[digest]


def check_outputs(lines, jobs, out, cache):
    """Facts about the report and the outputs: inputs each exactly once, statuses, digests, every output readable by
    rawpy with the source's raw samples, and no other file under OUT (a partial or duplicate output)."""
    import numpy
    import rawpy
    inputs = [line["input"] for line in lines]
    facts = {"reportLines": len(lines), "distinctInputs": len(set(inputs)),
             "inputsMatchPlan": sorted(inputs) == sorted(jobs),
             "statusOk": sum(1 for line in lines if line.get("status") == "ok"),
             "withDigests": sum(1 for line in lines if line.get("digest") and line.get("sha256")),
             "sha256Matches": 0, "rawSamplesEqual": 0, "errors": []}
    for line in lines:
        output = line["output"]
        if not os.path.exists(output):
            facts["errors"].append(f"missing {output}")
            continue
        if sha256(output) == line.get("sha256"):
            facts["sha256Matches"] += 1
        with rawpy.imread(output) as raw:
            if numpy.array_equal(raw.raw_image, cache.source(jobs[line["input"]])):
                facts["rawSamplesEqual"] += 1
            else:
                facts["errors"].append(f"pixels differ: {output}")
    expected = {line["output"] for line in lines}
    found, temporary = set(), []
    for directory, subdirectories, names in os.walk(out):
        subdirectories[:] = [d for d in subdirectories if d != ".rawburst-dask"]
        for name in names:
            path = os.path.join(directory, name)
            if name.startswith(".") and ".tmp" in name:
                temporary.append(path)
            elif name != "rawburst-report.jsonl":
                found.add(path)
    facts["unexpectedFiles"] = sorted(found - expected)[:10]
    facts["temporaryFiles"] = len(temporary)
    return facts


def is_alive(pid):
    """True for a process that exists and is not a zombie."""
    import psutil
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def leftovers(pids, work):
    """Processes still alive: the cluster's, or any rawburst whose command line names the work folder."""
    import psutil
    alive = [pid for pid in pids if is_alive(pid)]
    for process in psutil.process_iter(["pid", "cmdline"]):
        cmdline = process.info.get("cmdline") or []
        if cmdline and os.path.basename(cmdline[0]) == "rawburst" and any(work in part for part in cmdline):
            alive.append(process.info["pid"])
    return alive


def rawburst_processes(parent, name):
    """The pids of `parent`'s descendants whose program is `name`."""
    import psutil
    found = []
    for child in psutil.Process(parent).children(recursive=True):
        try:
            if os.path.basename((child.cmdline() or [""])[0]) == name:
                found.append(child.pid)
        except psutil.NoSuchProcess:
            pass
    return found


def cluster_pids(client):
    """The worker processes' pids by address, and their parents' when not this process (a LocalCluster keeps its
    nannies in here)."""
    import psutil
    workers = client.run(os.getpid)
    nannies = [psutil.Process(pid).ppid() for pid in workers.values()]
    return workers, [pid for pid in nannies if pid != os.getpid()]


def wait_for_chunk_in_progress(state, seconds=240):
    """A chunk whose results file has at least 5 lines but no more than half of its jobs' (so the kill lands well
    before it ends), and its first attempt's marker."""
    end = time.time() + seconds
    while time.time() < end:
        for name in sorted(os.listdir(state)) if os.path.isdir(state) else []:
            if not name.endswith(".results.jsonl"):
                continue
            chunk = name[:-len(".results.jsonl")]
            count = len(read_lines(os.path.join(state, name)))
            if 5 <= count <= CHUNK // 2:
                markers = [m for folder in os.listdir(os.path.join(state, "attempts"))
                           for m in [os.path.join(state, "attempts", folder, f"{chunk}.attempt-1")] if os.path.exists(m)]
                if markers:
                    with open(markers[0], encoding="utf-8") as stream:
                        return chunk, json.load(stream)
        time.sleep(0.05)
    return None, None


def scenario_convert(rawburst, work, jobs, cache, address):
    """300 files across 2 workers."""
    out = os.path.join(work, "out")
    stdout, stderr, status = run_cli(["convert", os.path.join(work, "in"), out, "--scheduler", address,
                                      "--chunk-size", str(CHUNK), "--json"], rawburst)
    lines = read_lines(os.path.join(out, "rawburst-report.jsonl"))
    return {"exitCode": status, "stderr": stderr[-2000:], "summary": json.loads(stdout or "{}"),
            **check_outputs(lines, jobs, out, cache)}


def scenario_kill(rawburst, work, jobs, cache, address, client):
    """One worker process SIGKILLed while its chunk runs."""
    out = os.path.join(work, "out")
    workers, _ = cluster_pids(client)
    process = run_cli(["convert", os.path.join(work, "in"), out, "--scheduler", address, "--chunk-size", str(CHUNK),
                       "--json"], rawburst, wait=False)
    chunk, marker = wait_for_chunk_in_progress(os.path.join(out, ".rawburst-dask"))
    facts = {"killedChunk": chunk}
    if chunk is not None:
        pid = workers[marker["worker"]]
        children = rawburst_processes(pid, os.path.basename(rawburst))
        os.kill(pid, signal.SIGKILL)
        time.sleep(3)
        # What the killed attempt finished: its lines (a retry may already be appending its own).
        done_before = [line["input"] for line in read_lines(os.path.join(out, ".rawburst-dask", f"{chunk}.results.jsonl"))
                       if "/attempt-1@" in str(line.get("run"))]
        facts.update(killedWorkerPid=pid, rawburstChildren=len(children),
                     childrenAliveAfterKill=[c for c in children if is_alive(c)],
                     finishedByKilledAttempt=len(done_before))
    stdout, stderr = process.communicate(timeout=600)
    lines = read_lines(os.path.join(out, "rawburst-report.jsonl"))
    by_input = {line["input"]: line for line in lines}
    if chunk is not None:
        kept = [by_input[i] for i in done_before if i in by_input]
        facts["killedAttemptLinesKept"] = sum(1 for line in kept if "/attempt-1@" in str(line.get("run")))
        facts["killedChunkAttempts"] = max((line["attempts"] for line in lines if line["chunk"] == chunk), default=0)
    return {"exitCode": process.returncode, "stderr": stderr[-2000:], "summary": json.loads(stdout or "{}"),
            **facts, **check_outputs(lines, jobs, out, cache)}


def damage(path):
    """Flips 64 bytes in the middle of a file."""
    with open(path, "r+b") as stream:
        size = os.path.getsize(path)
        stream.seek(size // 2)
        data = bytearray(stream.read(64))
        stream.seek(size // 2)
        stream.write(bytes(b ^ 0xFF for b in data))


def scenario_resume(rawburst, work, jobs, cache, address):
    """Half the jobs run (a manifest of the first 150, the same chunks), one output damaged, one deleted; then the
    whole folder again."""
    out = os.path.join(work, "out")
    plan = sorted(jobs)
    mirrored = [(i, os.path.join(out, os.path.splitext(os.path.relpath(i, os.path.join(work, "in")))[0] + ".dng"))
                for i in plan]
    manifest = os.path.join(work, "half.jsonl")
    with open(manifest, "w", encoding="utf-8") as stream:
        for i, o in mirrored[:FILES // 2]:
            stream.write(json.dumps({"input": i, "output": o}) + "\n")
    _, stderr1, status1 = run_cli(["convert", manifest, out, "--scheduler", address, "--chunk-size", str(CHUNK),
                                   "--quiet"], rawburst)
    damaged, deleted = mirrored[10][1], mirrored[120][1]
    damage(damaged)
    os.unlink(deleted)
    before = {o: (os.stat(o).st_ino, os.stat(o).st_mtime_ns) for _, o in mirrored[:FILES // 2] if os.path.exists(o)}
    stdout, stderr, status = run_cli(["convert", os.path.join(work, "in"), out, "--scheduler", address,
                                      "--chunk-size", str(CHUNK), "--json"], rawburst)
    lines = read_lines(os.path.join(out, "rawburst-report.jsonl"))
    redone = sorted(line["output"] for line in lines if not line.get("kept"))
    untouched = sum(1 for o, stamp in before.items() if o != damaged and os.path.exists(o)
                    and (os.stat(o).st_ino, os.stat(o).st_mtime_ns) == stamp)
    expected_redone = sorted([damaged, deleted] + [o for _, o in mirrored[FILES // 2:]])
    facts = {"firstExitCode": status1, "firstStderr": stderr1[-1000:], "exitCode": status, "stderr": stderr[-2000:],
             "summary": json.loads(stdout or "{}"), "redoneAsExpected": redone == expected_redone,
             "redone": len(redone), "untouchedFirstHalf": untouched, **check_outputs(lines, jobs, out, cache)}
    # A file added in front of the others moves one file of every chunk into the next: the earlier results come
    # along (carried over), so only the new file is converted.
    first = os.path.join(work, "in", "batch-0", "aaa-added.dng")
    shutil.copyfile(jobs[plan[0]], first)
    stdout3, stderr3, status3 = run_cli(["convert", os.path.join(work, "in"), out, "--scheduler", address,
                                         "--chunk-size", str(CHUNK), "--json"], rawburst)
    added = [line for line in read_lines(os.path.join(out, "rawburst-report.jsonl")) if line["input"] == first]
    facts.update(addedExitCode=status3, addedStderr=stderr3[-1000:], addedSummary=json.loads(stdout3 or "{}"),
                 addedLineKept=added[0]["kept"] if added else None)
    return facts


def main():
    rawburst, samples, work, scenario = sys.argv[1:5]
    facts = {}
    cluster = client = None
    pids = []
    try:
        jobs = make_tree(rawburst, samples, work, FILES)
        cluster, client = start_cluster(rawburst)
        address = cluster.scheduler_address
        workers, nannies = cluster_pids(client)
        pids = list(workers.values()) + nannies
        cache = RawCache()
        if scenario == "convert":
            facts = scenario_convert(rawburst, work, jobs, cache, address)
        elif scenario == "kill":
            facts = scenario_kill(rawburst, work, jobs, cache, address, client)
        else:
            facts = scenario_resume(rawburst, work, jobs, cache, address)
        facts["sources"] = len({sha256(path) for path in jobs.values()})
        facts["files"] = len(jobs)
    finally:
        if client is not None:
            pids += list(client.run(os.getpid).values())
            client.close()
        if cluster is not None:
            cluster.close()
    end = time.time() + 15  # a closing cluster's processes may take a moment on a loaded machine
    while leftovers(pids, work) and time.time() < end:
        time.sleep(0.2)
    facts["leftoverProcesses"] = leftovers(pids, work)
    print(json.dumps(facts))


if __name__ == "__main__":
    main()
