"""``rawburst COMMAND ... --exit-with-parent PID`` (the worker mode's option rawburst_dask starts every rawburst with):
the worker ends when the process that started it is killed, and does not start when that process is already gone.
These run the rawburst binary (see conftest.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest

PROBE = Path(__file__).resolve().parent / "parent_death_probe.py"
JOBS = 500  # ~20 ms each: the worker is still busy long after the probe kills its parent at its first results line


def manifest(folder: Path, raw: Path, count: int) -> Path:
    """``count`` jobs converting ``raw`` to distinct DNGs in ``folder/out``."""
    path = folder / "jobs.jsonl"
    path.write_text("".join(json.dumps({"input": str(raw), "output": str(folder / "out" / f"{n}.dng")}) + "\n"
                            for n in range(count)), encoding="utf-8")
    return path


def probe(rawburst: str, folder: Path, raw: Path, wait: float, extra: List[str]) -> Dict[str, Any]:
    """Runs parent_death_probe.py on a worker of JOBS jobs (one sandbox) and returns its facts."""
    arguments = [rawburst, "convert", "--manifest", str(manifest(folder, raw, JOBS)),
                 "--results", str(folder / "results.jsonl"), "-j", "1", *extra]
    done = subprocess.run([sys.executable, str(PROBE), str(folder), str(wait), *arguments],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def run(rawburst: str, arguments: List[str], folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run([rawburst, *arguments], cwd=folder, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=60)


def test_a_worker_is_killed_with_its_parent_and_its_sandbox_follows(rawburst: str, tmp_path: Path, sample_raw: Path):
    facts = probe(rawburst, tmp_path, sample_raw, 5.0, ["--exit-with-parent", "{PARENT}"])
    assert facts["sandbox"] is not None, f"the worker never ran a job: {facts['stderr']}"
    assert facts["firstLine"]["status"] == "ok"  # its sandboxes run jobs with the option in their arguments
    ended = facts["ended"]
    worker, sandbox = str(facts["worker"]), str(facts["sandbox"])
    assert worker in ended and sandbox in ended and facts["leftover"] == [], facts
    assert ended[worker]["signal"] == 9  # SIGKILL from the kernel (PR_SET_PDEATHSIG), not an exit of its own
    assert ended[worker]["seconds"] < 3.0
    assert ended[sandbox]["seconds"] < 4.0  # the sandbox saw its worker go (end of its input, or its parent watch)
    lines = (tmp_path / "results.jsonl").read_text(encoding="utf-8").splitlines()
    assert 1 <= len(lines) < JOBS  # killed mid-run


def test_without_the_option_a_worker_outlives_its_parent(rawburst: str, tmp_path: Path, sample_raw: Path):
    """The control: the same worker, with output and error in files (no broken pipe), keeps running."""
    facts = probe(rawburst, tmp_path, sample_raw, 1.0, [])
    assert facts["sandbox"] is not None, f"the worker never ran a job: {facts['stderr']}"
    assert facts["ended"] == {}
    assert facts["worker"] in facts["leftover"]  # the probe killed it afterwards


def test_a_worker_whose_parent_is_already_gone_does_not_start(rawburst: str, tmp_path: Path, sample_raw: Path):
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    gone = int(ended.stdout)  # a pid whose process has ended, as the parent that died before prctl
    jobs = manifest(tmp_path, sample_raw, 2)
    result = run(rawburst, ["convert", "--manifest", str(jobs), "--results", "r.jsonl",
                            "--exit-with-parent", str(gone)], tmp_path)
    assert result.returncode == 2
    assert result.stderr == (f"rawburst convert: --exit-with-parent {gone}: that process is not this worker's parent "
                             f"({os.getpid()} is): it has ended already, or it is not the one that started rawburst\n")
    assert result.stdout == ""
    assert not (tmp_path / "r.jsonl").exists() and not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", ["convert", "develop", "analyze"])
def test_with_its_parents_pid_the_worker_runs(rawburst: str, tmp_path: Path, sample_raw: Path, command: str):
    jobs = manifest(tmp_path, sample_raw, 3)
    result = run(rawburst, [command, "--manifest", str(jobs), "--check", "--exit-with-parent", str(os.getpid())],
                 tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (0, f"{jobs}: 3 jobs checked\n", "")


def test_one_job_runs_with_the_option(rawburst: str, tmp_path: Path, sample_raw: Path):
    jobs = manifest(tmp_path, sample_raw, 1)
    result = run(rawburst, ["convert", "--manifest", str(jobs), "--results", "r.jsonl", "--json",
                            "--exit-with-parent", str(os.getpid())], tmp_path)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert (summary["jobs"], summary["done"], summary["failed"]) == (1, 1, 0)
    assert (tmp_path / "out" / "0.dng").stat().st_size == summary["bytes"] > 0


@pytest.mark.parametrize("arguments, message", [
    (["{RAW}", "-o", "out", "--exit-with-parent", "{PID}"],
     "rawburst convert: --exit-with-parent applies to the worker mode (--manifest, --results, --shard, --check ...)\n"),
    (["--manifest", "m.jsonl", "--exit-with-parent", "0"],
     "rawburst convert: --exit-with-parent must be the pid of the process that starts rawburst, not '0'\n"),
    (["--manifest", "m.jsonl", "--exit-with-parent", "-1"], None),
    (["--manifest", "m.jsonl", "--exit-with-parent", "abc"],
     "rawburst convert: --exit-with-parent must be the pid of the process that starts rawburst, not 'abc'\n"),
    (["--manifest", "m.jsonl", "--exit-with-parent", "4294967296"],
     "rawburst convert: --exit-with-parent must be the pid of the process that starts rawburst, not '4294967296'\n"),
])
def test_bad_uses_are_refused_in_one_line(rawburst: str, tmp_path: Path, sample_raw: Path, arguments: List[str],
                                          message: str):
    filled = [a.replace("{RAW}", str(sample_raw)).replace("{PID}", str(os.getpid())) for a in arguments]
    result = run(rawburst, ["convert", *filled], tmp_path)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1 and "--exit-with-parent" in result.stderr, result.stderr
    if message is not None:
        assert result.stderr == message
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", ["convert", "develop", "analyze"])
def test_help_documents_the_option(rawburst: str, tmp_path: Path, command: str):
    text = " ".join(run(rawburst, [command, "--help"], tmp_path).stdout.split())
    assert "--exit-with-parent <pid> End with the process that starts this worker, which passes its own pid" in text
    assert "PR_SET_PDEATHSIG" in text and "exits at once with status 2" in text
