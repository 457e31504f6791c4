"""Issue #22's measurements: files per second converting 300 small raws (the Dask tests' tree: simulated-sensor DNGs
and the shared Kodak DC120 raws) with

  (a) the worker mode in one process:   rawburst convert --manifest M --results R -j 1 | -j 2
  (b) one rawburst process per file:     rawburst convert IN -o OUT.dng, one after the other | two at a time
  (c) Dask:                              python -m rawburst_dask convert IN OUT --workers 1 | 2 --chunk-size 50 -j 1
                                         (-j 1: one sandbox per Dask worker, so 1 worker = 1 core)

    python3 Benchmarks/dask/bench_worker.py RAWBURST [--samples DIR] [--work DIR] [--files 300] [--large 12]

With --large N it also times (a) and (b) on N copies of one full-size 12 MP frame of the simulated phone-wide sensor
(an uncompressed DNG of about 24 MB, converted to lossless JPEG): the per-file time of a realistic file, for
docs/scale.md. Outputs are deleted after each variant (the disk here is small).

Prints a Markdown table (files/s and the ratio to the one-process-per-file sequential run) and the commands. Every
variant writes into a fresh output folder; the machine is noisy, so compare within one run.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Dask"))

from dask_sources import make_tree  # noqa: E402


def fresh(folder):
    """An empty folder."""
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    return folder


def mirrored(tree, source, out):
    """(input, output) pairs mirroring the tree under `out`, in path order."""
    return [(path, os.path.join(out, os.path.splitext(os.path.relpath(path, source))[0] + ".dng"))
            for path in sorted(tree)]


def timed(function):
    """Wall seconds of `function()`."""
    started = time.monotonic()
    function()
    return time.monotonic() - started


def worker_mode(rawburst, pairs, out, jobs):
    """One worker-mode process over a manifest of every file."""
    manifest = os.path.join(out, "jobs.jsonl")
    with open(manifest, "w", encoding="utf-8") as stream:
        for source, target in pairs:
            stream.write(json.dumps({"input": source, "output": target}) + "\n")
    command = [rawburst, "convert", "--manifest", manifest, "--results", os.path.join(out, "results.jsonl"),
               "-j", str(jobs), "--quiet"]
    return timed(lambda: subprocess.run(command, check=True, capture_output=True))


def per_file(rawburst, pairs, parallel):
    """One `rawburst convert` process per file, `parallel` at a time."""
    def one(pair):
        os.makedirs(os.path.dirname(pair[1]), exist_ok=True)
        subprocess.run([rawburst, "convert", pair[0], "-o", pair[1]], check=True, capture_output=True)

    def run_all():
        with ThreadPoolExecutor(parallel) as pool:
            list(pool.map(one, pairs))
    return timed(run_all)


def dask_run(rawburst, source, out, workers):
    """`python -m rawburst_dask convert` on a LocalCluster of `workers` processes: wall time of the whole command
    and the summary's own seconds (chunks only, without the cluster's start-up)."""
    env = dict(os.environ, RAWBURST=rawburst,
               PYTHONPATH=os.path.join(ROOT, "python") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    command = [sys.executable, "-m", "rawburst_dask", "convert", source, out, "--workers", str(workers),
               "--chunk-size", "50", "-j", "1", "--json"]
    started = time.monotonic()
    result = subprocess.run(command, check=True, capture_output=True, text=True, env=env)
    return time.monotonic() - started, json.loads(result.stdout)["seconds"]


def large_tree(rawburst, work, count):
    """`count` copies of one 12 MP capture under WORK/large/in; returns {copy: source}."""
    folder = fresh(os.path.join(work, "large"))
    subprocess.run([rawburst, "capture", "--frames", "1", "--scene", "colorchart", "--iso", "200", "--shutter",
                    "1/60", "--focus", "1m", "-o", os.path.join(folder, "source")], check=True, capture_output=True)
    source = next(os.path.join(folder, "source", f) for f in sorted(os.listdir(os.path.join(folder, "source")))
                  if f.endswith(".dng"))
    os.makedirs(os.path.join(folder, "in"))
    tree = {}
    for i in range(count):
        path = os.path.join(folder, "in", f"frame-{i:03d}.dng")
        shutil.copyfile(source, path)
        tree[path] = source
    return tree


def time_large(rawburst, work, count):
    """(label, seconds, input bytes) of the worker mode -j 1/-j 2 and one process per file on the large files."""
    tree = large_tree(rawburst, work, count)
    source = os.path.join(work, "large", "in")
    size = sum(os.path.getsize(path) for path in tree)
    rows = []
    for jobs in (1, 2):
        out = fresh(os.path.join(work, "large", "out"))
        rows.append((f"12 MP: worker mode, -j {jobs}", worker_mode(rawburst, mirrored(tree, source, out), out, jobs), size))
    out = fresh(os.path.join(work, "large", "out"))
    rows.append(("12 MP: one process per file, sequential", per_file(rawburst, mirrored(tree, source, out), 1), size))
    shutil.rmtree(os.path.join(work, "large"))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rawburst")
    parser.add_argument("--samples", default=os.path.join(ROOT, "..", "shared", "samples-raw"))
    parser.add_argument("--work", default=None)
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--large", type=int, default=0, help="also time N copies of a 12 MP frame")
    args = parser.parse_args()
    rawburst = os.path.abspath(args.rawburst)
    work = args.work or tempfile.mkdtemp(prefix="rawburst-bench-dask-")
    tree = make_tree(rawburst, os.path.abspath(args.samples), work, args.files)
    source = os.path.join(work, "in")
    rows = []
    for jobs in (1, 2):
        out = fresh(os.path.join(work, f"worker-j{jobs}"))
        rows.append((f"worker mode, one process, -j {jobs}", worker_mode(rawburst, mirrored(tree, source, out), out, jobs)))
        shutil.rmtree(out)
    for parallel in (1, 2):
        out = fresh(os.path.join(work, f"per-file-{parallel}"))
        label = "one process per file, " + ("sequential" if parallel == 1 else "2 at a time")
        rows.append((label, per_file(rawburst, mirrored(tree, source, out), parallel)))
        shutil.rmtree(out)
    for workers in (1, 2):
        out = fresh(os.path.join(work, f"dask-{workers}"))
        wall, chunks = dask_run(rawburst, source, out, workers)
        rows.append((f"rawburst_dask, {workers} worker{'s' if workers > 1 else ''} (whole command)", wall))
        rows.append((f"rawburst_dask, {workers} worker{'s' if workers > 1 else ''} (chunks only)", chunks))
        shutil.rmtree(out)
    baseline = dict(rows)["one process per file, sequential"]
    print(f"{args.files} files, {len(set(tree.values()))} distinct sources, work folder {work}\n")
    print("| variant | seconds | files/s | vs one process per file, sequential |")
    print("|---|---|---|---|")
    for label, seconds in rows:
        print(f"| {label} | {seconds:.2f} | {args.files / seconds:.1f} | {baseline / seconds:.2f}x |")
    if args.large:
        rows = time_large(rawburst, work, args.large)
        print(f"\n{args.large} copies of a 12 MP frame ({rows[0][2] / args.large / 1e6:.1f} MB each)\n")
        print("| variant | seconds | files/s | s per file | input MB/s |")
        print("|---|---|---|---|---|")
        for label, seconds, size in rows:
            print(f"| {label} | {seconds:.2f} | {args.large / seconds:.2f} | {seconds / args.large:.3f} "
                  f"| {size / seconds / 1e6:.0f} |")
    if not args.work:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
