"""rawburst on Dask: a folder tree or a manifest of raw files, cut into chunks, each chunk run by rawburst's worker
mode (``rawburst convert|develop|analyze --manifest``) on a Dask worker, the results gathered into one report.

The command line is ``python -m rawburst_dask convert|develop|analyze IN OUT [options]`` (see ``cli``); the pieces
are importable for scripts: ``planning`` (jobs and chunks), ``task`` (what runs on a worker), ``report`` (the
gathered lines and the summary) and ``runner`` (the cluster and the run).
"""

__version__ = "0.1.0"
