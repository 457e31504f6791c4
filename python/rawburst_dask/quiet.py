"""Dask's retries without tracebacks: a worker logs every failed task attempt as a multi-line "Compute Failed" record
(key, state, task, exception, traceback) on the user's terminal (the LocalCluster's workers share it). A worker
plugin reduces those records to one line each: the task's key and the exception's one-line message."""

from __future__ import annotations

import contextlib
import logging
from typing import Any, Iterator

from distributed import Client
from distributed.diagnostics.plugin import WorkerPlugin

PLUGIN_NAME = "rawburst-dask-one-line-task-errors"
TASK_ERROR_LOGGER = "distributed.worker"


class OneLineTaskErrors(logging.Filter):
    """Rewrites "Compute Failed" records to ``attempt failed: KEY: MESSAGE`` (other records pass unchanged)."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if not text.startswith("Compute Failed"):
            return True
        fields = {}
        for row in text.splitlines()[1:]:
            name, _, value = row.partition(":")
            fields.setdefault(name.strip(), value.strip())
        message = " ".join(fields.get("Exception", "").split())
        record.msg, record.args, record.exc_info, record.exc_text = "attempt failed: %s: %s", (
            fields.get("Key", "?"), message), None, None
        return True


class OneLineTaskErrorsPlugin(WorkerPlugin):
    """Installs ``OneLineTaskErrors`` on every worker, those that join later too."""

    name = PLUGIN_NAME

    def setup(self, worker: Any) -> None:
        logger = logging.getLogger(TASK_ERROR_LOGGER)
        if not any(isinstance(existing, OneLineTaskErrors) for existing in logger.filters):
            logger.addFilter(OneLineTaskErrors())

    def teardown(self, worker: Any) -> None:
        logger = logging.getLogger(TASK_ERROR_LOGGER)
        for existing in [f for f in logger.filters if isinstance(f, OneLineTaskErrors)]:
            logger.removeFilter(existing)


@contextlib.contextmanager
def quiet_task_errors(client: Client) -> Iterator[None]:
    """The plugin registered for the run (and removed after it, leaving a running cluster as it was)."""
    client.register_plugin(OneLineTaskErrorsPlugin(), name=PLUGIN_NAME)
    try:
        yield
    finally:
        with contextlib.suppress(Exception):
            client.unregister_worker_plugin(PLUGIN_NAME)
