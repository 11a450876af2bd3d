"""What a run on a Dask cluster (``chessfed run --task-runner dask``, ``--dask-address``) adds
to the cluster's workers: each worker's renderer (:func:`flows.pipeline.workers.renderer_processes`)
is ended when the worker closes (:class:`Renderers`). Imported on that path only."""

from __future__ import annotations

from typing import Any

from distributed import Worker
from distributed.diagnostics.plugin import WorkerPlugin

from flows.pipeline import workers


class Renderers(WorkerPlugin):
    """A Dask worker plugin: the worker's renderer process ends when the worker closes. A Dask
    worker process ends without running ``atexit`` and waits for its child processes first, so
    a renderer still waiting for work held it until its nanny killed it (4 s, at the end of
    every run on a ``LocalCluster``). Registered once per worker (``idempotent``): a
    cluster the office keeps running keeps its renderers from one run to the next."""

    name = "chessfed-renderers"
    idempotent = True

    def teardown(self, worker: Worker) -> None:
        workers.shutdown()


def register_renderers(task_runner: Any) -> None:
    """Register :class:`Renderers` on the cluster of ``task_runner`` (the run's
    ``prefect_dask.DaskTaskRunner``, through its documented ``client``); nothing for another
    task runner."""
    if hasattr(task_runner, "client"):
        task_runner.client.register_plugin(Renderers())
