"""cli: what reaches rawburst and what is refused before anything runs (no cluster is started here)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rawburst_dask.cli import (check_passthrough, check_report_path, make_parser, rawburst_arguments, run_wide_option,
                               split_passthrough)
from rawburst_dask.planning import PlanError


def test_the_arguments_after_the_first_double_dash_go_to_rawburst():
    assert split_passthrough(["convert", "in", "out", "--", "--compression", "packed", "--", "x"]) == (
        ["convert", "in", "out"], ["--compression", "packed", "--", "x"])
    assert split_passthrough(["convert", "in", "out"]) == (["convert", "in", "out"], [])


@pytest.mark.parametrize("argument, name", [
    ("--manifest", "--manifest"), ("--manifest=x.jsonl", "--manifest"), ("-j4", "-j"), ("-j", "-j"), ("-q", "-q"),
    ("--exit-with-parent", "--exit-with-parent"), ("--exit-with-parent=12", "--exit-with-parent"),
    ("--worker-child", "--worker-child"), ("--compression", None), ("-1", None), ("-", None), ("packed", None),
    ("-x", None),
])
def test_run_wide_options_are_recognised(argument: str, name: str):
    assert run_wide_option(argument) == name


@pytest.mark.parametrize("argument, hint", [
    ("--exit-with-parent=1", "rawburst_dask sets it itself"), ("--overwrite", "use --redo before --"),
    ("-j4", "use -j before --"), ("--check", "rawburst_dask sets it itself"), ("-o", "use OUT before --"),
])
def test_run_wide_options_are_refused_after_the_double_dash(argument: str, hint: str):
    check_passthrough(["--compression", "packed", "--wb", "-1"])
    with pytest.raises(PlanError) as refused:
        check_passthrough(["--compression", "packed", argument])
    assert str(refused.value) == f"-- {argument}: a run-wide rawburst option cannot be passed through ({hint})"


def test_the_options_every_chunk_gets():
    args = make_parser().parse_args(["convert", "in", "out", "--timeout-per-file", "30", "--memory-limit-per-file",
                                     "2G", "-j", "3"])
    assert rawburst_arguments(args, ["--compression", "packed"]) == [
        "--timeout-per-file", "30", "--memory-limit-per-file", "2G", "-j", "3", "--compression", "packed"]
    assert rawburst_arguments(make_parser().parse_args(["analyze", "in", "out"]), []) == []


def test_parser_defaults_and_refusals(capsys: pytest.CaptureFixture):
    args = make_parser().parse_args(["develop", "in", "out"])
    assert (args.workers, args.chunk_size, args.retries, args.redo, args.scheduler) == (2, 200, 2, False, None)
    for bad in (["convert", "in", "out", "--chunk-size", "0"], ["convert", "in", "out", "--timeout-per-file", "0"],
                ["inspect", "in", "out"]):
        with pytest.raises(SystemExit) as exited:
            make_parser().parse_args(bad)
        assert exited.value.code == 2
        assert capsys.readouterr().err.startswith("error: ")


def test_the_reports_path_is_checked_first(tmp_path: Path):
    check_report_path(str(tmp_path / "r.jsonl"), default=False)
    check_report_path(str(tmp_path / "out" / "r.jsonl"), default=True)  # OUT is created with the state folder
    with pytest.raises(PlanError, match=re.escape(f"--results {tmp_path}: is a folder")):
        check_report_path(str(tmp_path), default=False)
    with pytest.raises(PlanError, match=re.escape(f"no such folder {tmp_path}/no")):
        check_report_path(str(tmp_path / "no" / "r.jsonl"), default=False)
