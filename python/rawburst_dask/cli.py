"""``python -m rawburst_dask convert|develop|analyze IN OUT [options] [-- rawburst options]``.

Exit status: 0 every input ok (done now or kept from an earlier run), 1 some inputs failed (each one recorded in the
report), 2 nothing could start (bad arguments, an unreadable manifest, no cluster, no rawburst, refused options).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import warnings
from typing import List, NoReturn, Optional, Sequence, Tuple

from .planning import COMMANDS, PlanError, check_outputs, local_path, output_extension, plan_jobs
from .report import summary_text
from .runner import RunError, RunOptions, run
from .staging import is_local, open_remote, plan_remote_folder

USAGE_EXIT = 2


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (``error: ...``) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"error: {message}\n")
        sys.exit(USAGE_EXIT)


def positive_int(text: str) -> int:
    """An integer of at least 1."""
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


def non_negative_int(text: str) -> int:
    """An integer of at least 0."""
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value


def positive_seconds(text: str) -> str:
    """A number of seconds above 0, kept as written for rawburst."""
    if not float(text) > 0:
        raise ValueError(text)
    return text


def make_parser() -> OneLineParser:
    """The command line's options."""
    parser = OneLineParser(prog="python -m rawburst_dask",
                           description="Run rawburst convert|develop|analyze over a Dask cluster: a folder tree "
                                       "(mirrored under OUT) or a .jsonl manifest, in chunks, one report line per input.",
                           epilog="Options after -- go to every rawburst run (e.g. -- --compression packed).")
    parser.add_argument("command", choices=COMMANDS, help="what rawburst does to each file")
    parser.add_argument("source", metavar="IN", help="a folder of raws (walked recursively; a path, or any fsspec URL "
                                                               "the workers reach: staged), or a manifest (.jsonl)")
    parser.add_argument("out", metavar="OUT", help="the output folder (mirrors IN); also holds .rawburst-dask/")
    parser.add_argument("--scheduler", metavar="ADDR", help="a running Dask scheduler (tcp://host:port); "
                                                            "default: a LocalCluster on 127.0.0.1")
    parser.add_argument("--workers", type=positive_int, default=2, metavar="N",
                        help="worker processes of the LocalCluster (one thread each; default 2)")
    parser.add_argument("--results", metavar="FILE", help="the report (default OUT/rawburst-report.jsonl)")
    parser.add_argument("--chunk-size", type=positive_int, default=200, metavar="N",
                        help="files per Dask task (default 200)")
    parser.add_argument("--retries", type=non_negative_int, default=2, metavar="N",
                        help="Dask retries of a chunk whose rawburst failed to run (default 2)")
    parser.add_argument("--timeout-per-file", type=positive_seconds, metavar="SECONDS",
                        help="rawburst kills a file's child after this long (kind timeout)")
    parser.add_argument("--memory-limit-per-file", metavar="SIZE",
                        help="rawburst kills a file's child above this resident size, e.g. 2G (kind memory-limit)")
    parser.add_argument("-j", "--jobs", type=positive_int, metavar="N", help="files in parallel inside each worker")
    parser.add_argument("--format", metavar="FORMAT", help="develop: jpg (default), heic, tiff or png")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress line and no human summary")
    parser.add_argument("--redo", action="store_true",
                        help="replace every output (rawburst --overwrite, no --resume); the results start afresh")
    return parser


def split_passthrough(argv: Sequence[str]) -> Tuple[List[str], List[str]]:
    """The arguments before ``--`` and the rawburst options after it."""
    items = list(argv)
    if "--" in items:
        cut = items.index("--")
        return items[:cut], items[cut + 1:]
    return items, []


# rawburst's run-wide options: this package sets them itself, or has its own option for them (named after "use").
RUN_WIDE = {"--manifest": None, "--results": "--results", "--resume": None, "--shard": None, "--jobs": "-j",
            "-j": "-j", "--run-id": None, "--json": "--json", "--quiet": "--quiet", "-q": "--quiet",
            "--overwrite": "--redo", "--output": "OUT", "-o": "OUT", "--worker-child": None,
            "--exit-with-parent": None,
            "--timeout-per-file": "--timeout-per-file", "--memory-limit-per-file": "--memory-limit-per-file",
            "--check": None, "--recursive": None, "-r": None, "--all-files": None, "--help": "--help", "-h": "--help"}


def run_wide_option(argument: str) -> Optional[str]:
    """The run-wide option ``argument`` names (``--name``, ``--name=value``, ``-j4``), else None."""
    if argument.startswith("--"):
        name = argument.partition("=")[0]
        return name if name in RUN_WIDE else None
    if argument.startswith("-") and len(argument) > 1 and not argument[1].isdigit():
        name = argument[:2]
        return name if name in RUN_WIDE else None
    return None


def check_passthrough(passthrough: Sequence[str]) -> None:
    """Refuses run-wide rawburst options after ``--`` (one line naming the package's own option, if any)."""
    for argument in passthrough:
        name = run_wide_option(argument)
        if name is not None:
            own = RUN_WIDE[name]
            hint = f"use {own} before --" if own else "rawburst_dask sets it itself"
            raise PlanError(f"-- {argument}: a run-wide rawburst option cannot be passed through ({hint})")


def check_report_path(report: str, default: bool) -> None:
    """Refuses a report path that is a folder, or whose folder is missing or not writable (the default one, in OUT,
    is created with OUT)."""
    folder = os.path.dirname(report)
    if os.path.isdir(report):
        raise PlanError(f"--results {report}: is a folder")
    if not os.path.isdir(folder):
        if default:
            return
        raise PlanError(f"--results {report}: no such folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PlanError(f"--results {report}: the folder {folder} is not writable")


def rawburst_arguments(args: argparse.Namespace, passthrough: Sequence[str]) -> List[str]:
    """The options every chunk's rawburst gets: the limits, -j and what came after ``--``."""
    arguments: List[str] = []
    if args.timeout_per_file is not None:
        arguments += ["--timeout-per-file", args.timeout_per_file]
    if args.memory_limit_per_file is not None:
        arguments += ["--memory-limit-per-file", args.memory_limit_per_file]
    if args.jobs is not None:
        arguments += ["-j", str(args.jobs)]
    return arguments + list(passthrough)


def execute(args: argparse.Namespace, passthrough: Sequence[str]) -> int:
    """Plans, runs and reports; returns the exit status."""
    if args.format is not None and args.command != "develop":
        raise PlanError("--format applies to develop only")
    check_passthrough(passthrough)
    out = local_path(args.out, "OUT")
    report = local_path(args.results, "--results") if args.results else os.path.join(out, "rawburst-report.jsonl")
    check_report_path(report, default=not args.results)
    extension = output_extension(args.command, args.format)
    filesystem, bad, manifest = None, [], None
    if is_local(args.source):
        jobs, bad = plan_jobs(args.command, local_path(args.source, "IN"), out, args.format)
        manifest = args.source if os.path.isfile(local_path(args.source, "IN")) else None
    else:
        filesystem, root = open_remote(args.source)
        jobs = plan_remote_folder(args.source, filesystem, root, out, extension)
        check_outputs(jobs)
    options = RunOptions(args.scheduler, args.workers, args.chunk_size, args.retries, report,
                         progress=sys.stderr.isatty() and not args.quiet, redo=args.redo, manifest=manifest)
    summary = run(args.command, jobs, bad, out, rawburst_arguments(args, passthrough), options, filesystem)
    if args.json:
        print(json.dumps(summary))
    elif not args.quiet:
        print(summary_text(summary))
    return 0 if summary["failed"] == 0 else 1


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line's entry point; returns the exit status."""
    # distributed's advice (a port taken, slow scratch folders) is not the user's business: errors come as one line.
    warnings.filterwarnings("ignore", category=UserWarning, module=r"distributed(\.|$)")
    own, passthrough = split_passthrough(sys.argv[1:] if argv is None else argv)
    args = make_parser().parse_args(own)
    try:
        return execute(args, passthrough)
    except (PlanError, RunError) as error:
        sys.stderr.write(f"error: {error}\n")
        return USAGE_EXIT
    except OSError as error:  # the scheduler lost mid-run, or the state folder's storage failing
        sys.stderr.write(f"error: {' '.join(str(error).split()) or type(error).__name__}; run again to resume "
                         "(finished files are kept)\n")
        return USAGE_EXIT
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted; run again to resume (finished files are kept)\n")
        return 130
