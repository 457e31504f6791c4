"""checking: the check manifest keeps the user's line numbers, rawburst's refusal is translated back to the user's
file or the walked input, and ``run_check`` runs the real rawburst ``--check``."""

from __future__ import annotations

import json
import os
from pathlib import Path

from rawburst_dask.checking import (check_command, check_line, check_manifest_text, run_check, translate,
                                    write_check_manifest)
from rawburst_dask.planning import Job
from rawburst_dask.task import TaskSettings


def settings_in(folder: Path, **changes) -> TaskSettings:
    state = folder / ".rawburst-dask"
    state.mkdir(exist_ok=True)
    return TaskSettings(**{"command": "convert", "state_dir": str(state), "run_token": "T1", **changes})


def test_a_jobs_check_line_is_its_manifest_line_else_its_number_plus_one():
    assert check_line(Job(4, "/a", "/b", line=9)) == 9
    assert check_line(Job(4, "/a", "/b")) == 5


def test_the_check_manifest_keeps_the_users_line_numbers():
    jobs = [Job(0, "/a.cr2", "/a.dng", line=2), Job(1, "/b.cr2", "/b.dng", {"timeout": 3}, line=5)]
    lines = check_manifest_text(jobs).split("\n")
    assert lines == ["", json.dumps({"input": "/a.cr2", "output": "/a.dng"}), "", "",
                     json.dumps({"input": "/b.cr2", "output": "/b.dng", "timeout": 3}), ""]
    assert check_manifest_text([Job(0, "/x", "/y"), Job(1, "/z", "/w")]).count("\n") == 2
    assert check_manifest_text([]) == ""


def test_the_check_manifest_is_written_to_the_state_folder(tmp_path: Path):
    settings = settings_in(tmp_path, command="analyze")
    path = write_check_manifest(settings, [Job(0, "/a.cr2", "/a.json")])
    assert path == f"{settings.state_dir}/analyze-check.jsonl"
    assert Path(path).read_text() == '{"input": "/a.cr2", "output": "/a.json"}\n'


def test_the_check_command_line(tmp_path: Path):
    settings = settings_in(tmp_path, arguments=("--compression", "packed"))
    assert check_command("/bin/rawburst", settings, "c.jsonl") == [
        "/bin/rawburst", "convert", "--manifest", "c.jsonl", "--check", "--exit-with-parent", str(os.getpid()),
        "--compression", "packed"]


def test_a_refusal_names_the_users_manifest_or_the_walked_input():
    line = "error: /state/convert-check.jsonl line 3: --wb: 'sunny' is not a white balance"
    jobs = [Job(0, "/in/a.cr2", "/out/a.dng"), Job(1, "/in/b.cr2", "/out/b.dng"), Job(2, "/in/c.cr2", "/out/c.dng")]
    assert translate(line, "/state/convert-check.jsonl", jobs, "jobs.jsonl") == (
        "jobs.jsonl line 3: --wb: 'sunny' is not a white balance")
    assert translate(line, "/state/convert-check.jsonl", jobs, None) == (
        "/in/c.cr2: --wb: 'sunny' is not a white balance")
    unknown = "rawburst convert: /state/convert-check.jsonl line 9: bad"
    assert translate(unknown, "/state/convert-check.jsonl", jobs, None) == unknown


def test_the_real_check_accepts_a_good_plan_and_names_the_line_of_a_bad_one(rawburst: str, tmp_path: Path,
                                                                             sample_raw: Path):
    settings = settings_in(tmp_path)
    good = [Job(0, str(sample_raw), str(tmp_path / "a.dng"), line=1),
            Job(1, str(sample_raw), str(tmp_path / "b.dng"), {"options": {"compression": "packed"}}, line=3)]
    manifest = write_check_manifest(settings, good)
    assert run_check(settings, manifest) == (0, "(nothing on stderr)")
    bad = good + [Job(2, str(sample_raw), str(tmp_path / "c.dng"), {"options": {"compression": "zip"}}, line=4)]
    manifest = write_check_manifest(settings, bad)
    status, line = run_check(settings, manifest)
    assert status == 2
    assert line.startswith(f"rawburst convert: {manifest} line 4: ") and "zip" in line
    assert translate(line, manifest, bad, "mine.jsonl").startswith("rawburst convert: mine.jsonl line 4: ")
    assert not (tmp_path / "a.dng").exists()
