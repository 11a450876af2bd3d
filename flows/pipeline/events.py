"""The top-level flow: every event folder under an inputs folder, each an independent
sub-flow; one event's failure is reported and does not stop the others."""


import contextvars
import datetime as dt
import os
import traceback
from pathlib import Path

from prefect import Flow, flow, task
from prefect.cache_policies import NO_CACHE
from prefect.context import get_run_context
from prefect.states import Completed, Failed, State
from prefect.task_runners import TaskRunner, ThreadPoolTaskRunner

from flows.pipeline import last_good, progress, publish_folder, standing, workers
from flows.pipeline.event import kind_flow
from flows.pipeline.manifest import read_manifest
from flows.pipeline.outputs import discard_early_pdfs, publish_config_error
from flows.pipeline.run_index import (
    EVENT_TASK_RUN,
    event_folders,
    listed_events,
    site_index,
)
from flows.pipeline.tasks import check_config, write_outputs
from flows.registry import FLOW_KINDS, flow_kind_of
from transforms.core.errors import ConfigError
from transforms.kinds import EventKind

TASK_RUNNERS = ("threads", "dask")

EVENT_FLOWS: dict[EventKind, Flow] = {kind: kind_flow(k) for kind, k in FLOW_KINDS.items()}
"""The event flow of every registered kind (:func:`flows.pipeline.event.kind_flow`)."""

def default_jobs() -> int:
    """How many events run at once unless told: one per core."""
    return os.cpu_count() or 1


def event_runner(task_runner: str, jobs: int, dask_address: str | None = None) -> TaskRunner:
    """Where the events of a run execute: ``threads`` (this process, ``jobs`` events at once;
    their PDFs render in the run's process pool) or ``dask`` (prefect-dask: the cluster at
    ``dask_address``, else a ``LocalCluster`` of ``jobs`` single-threaded worker processes;
    the events are tasks of the cluster, each worker rendering its event's PDFs in a renderer
    process of its own, :func:`flows.pipeline.workers.renderer_processes`). The
    ``LocalCluster``'s workers are started as processes that may start processes (Dask's
    ``distributed.worker.daemon`` off); the workers of a cluster the office started have their
    renderers when started so too (``DASK_DISTRIBUTED__WORKER__DAEMON=False dask worker …``),
    else render their PDFs themselves."""
    if task_runner == "threads":
        return ThreadPoolTaskRunner(max_workers=jobs)
    if task_runner == "dask":
        import dask
        from prefect_dask import DaskTaskRunner

        if dask_address:
            return DaskTaskRunner(address=dask_address)
        dask.config.set({"distributed.worker.daemon": False})
        return DaskTaskRunner(cluster_kwargs={"n_workers": jobs, "threads_per_worker": 1,
                                              "processes": True, "dashboard_address": None})
    raise ValueError(f"task runner {task_runner!r}: expected one of {', '.join(TASK_RUNNERS)}")


@task(name="event", task_run_name=EVENT_TASK_RUN, cache_policy=NO_CACHE)
def run_event(folder: Path, out_dir: Path, as_of: dt.date | None, send_mail: bool,
              renderer: str = "local", rebuild: bool = False,
              checked: bool = False) -> tuple[str, str]:
    """One event folder into ``out_dir``: (its status, its name). Any failure is the event's
    status, never raised (one event's failure does not stop the others). An event whose
    published outputs still stand (:mod:`flows.pipeline.unchanged`) is not built again unless
    ``rebuild``; ``checked``: the caller has just found it changed (built without checking
    again)."""
    progress.failed_step(folder.name)  # none left from an earlier run of this process
    try:
        with publish_folder.event_lock(out_dir):
            if checked:
                progress.LOGGER.info("%s: building (found changed by the run's check)", folder.name)
            elif not rebuild and (name := unchanged_event(folder, out_dir, as_of, send_mail)):
                return "ok", name
            return _run_event(folder, out_dir, as_of, send_mail, renderer)
    except publish_folder.Busy as e:
        return f"error: {e}", folder.name
    except MemoryError:  # no traceback (nothing in it the office can act on): what and where
        where = progress.failed_where(folder.name)
        return (f"error: MemoryError (out of memory) {where}: an input may be far larger than "
                "the event (see [limits] in inputs/README.md)"), folder.name
    except Exception as e:  # noqa: BLE001 - one event's failure must not stop the others
        traceback.print_exc()  # never an empty reason: the error's type, the event, the step
        return f"error: {str(e) or f'{type(e).__name__} {progress.failed_where(folder.name)}'}", folder.name
    finally:
        discard_early_pdfs(out_dir)


def unchanged_event(folder: Path, out_dir: Path, as_of: dt.date | None, send_mail: bool) -> str:
    """The event's name when it is unchanged since its last complete run
    (:func:`flows.pipeline.standing.must_build`), else "" (the event is built)."""
    if standing.must_build(folder, out_dir, as_of, send_mail) is not None:
        return ""
    return read_manifest(out_dir).get("name") or folder.name


def _run_event(folder: Path, out_dir: Path, as_of: dt.date | None, send_mail: bool,
               renderer: str) -> tuple[str, str]:
    try:
        cfg = check_config(folder)
    except ConfigError as err:
        last = last_good.find(out_dir)
        if last is None:  # never published whole: nothing to hold, the office is told
            publish_config_error(folder, out_dir, err, as_of)
            return f"error: {err}", folder.name
        cfg = check_config(last.folder, last.suffix)  # its flow holds the last good publication
    runner = EVENT_FLOWS[flow_kind_of(cfg.event.kind).kind]
    if renderer == "dask":
        workers.note_cluster()  # (here, on the worker's thread: the flow's steps run in others)
        # On a Dask worker the event's flow is a flow run of its own (an empty context):
        # nested under the task's context rebuilt from the submitting process, it would
        # share that context's API client, which is not open in this process.
        contextvars.Context().run(runner, folder, out_dir, as_of, send_mail, renderer)
    else:
        runner(folder, out_dir, as_of, send_mail, renderer)
    return "ok", cfg.event.name


@flow(name="chessfed-run", task_runner=ThreadPoolTaskRunner(max_workers=default_jobs()))
def run_events(inputs: Path, out: Path, as_of: dt.date | None = None,
               only: list[str] | None = None, send_mail: bool = True,
               renderer: str = "local", rebuild: bool = False,
               changed: list[str] | None = None,
               found_unchanged: dict[str, str] | None = None) -> State:
    """Run every event folder (one with an event.toml) under ``inputs`` into ``out/<folder>``,
    then write the run's index of events (``out/index.html``). ``inputs`` may also be a single
    event folder. ``send_mail=False`` (``--dry-run-mail``): the outbox is written, nothing is
    sent through SMTP. The events are independent tasks of the flow's task runner (one per core
    at once unless :func:`events_flow` says otherwise), each running its event's flow; one
    event's failure is its own. ``renderer``: where the events' PDFs render (``local``: the
    run's process pool; ``dask``: the cluster the events run on, :func:`events_flow`). An
    event unchanged since its last complete run is not built again (:mod:`flows.pipeline.unchanged`)
    unless ``rebuild``; ``changed``: the event folders the caller's check has just found to
    build (``chessfed run``: built without checking them again); ``found_unchanged``: those it
    has found unchanged (folder -> event name): no task run, "ok".

    The flow run's final state: Completed with every event's status (folder -> "ok" or
    "error: …") as its result, Failed (the same result) when an event failed."""
    inputs, out = Path(inputs), Path(out)
    folders = [f for f in event_folders(inputs) if not only or f.name in only]
    if renderer == "dask":
        share_prefect_api()
        from flows.pipeline.cluster import register_renderers

        register_renderers(get_run_context().task_runner)
    skip = found_unchanged or {}
    futures = {f.name: run_event.submit(f, out / f.name, as_of, send_mail, renderer, rebuild,
                                        f.name in (changed or ()))
               for f in largest_first(folders) if f.name not in skip}
    status: dict[str, str] = {f.name: "ok" for f in folders if f.name in skip}
    names: dict[str, str] = {f.name: skip[f.name] for f in folders if f.name in skip}
    for name, future in sorted(futures.items()):
        try:
            status[name], names[name] = future.result()
        except Exception as e:  # noqa: BLE001 - e.g. a Dask worker lost: that event's failure
            status[name] = f"error: {type(e).__name__}: {e}"
    status = dict(sorted(status.items()))
    listed = listed_events(out, [f.name for f in folders])
    write_outputs(out, {"index.html": site_index(out, listed, status, names)})
    failed = sorted(n for n, s in status.items() if s != "ok")
    if failed:
        return Failed(message=f"{len(failed)} of {len(status)} events failed: {', '.join(failed)}",
                      data=status)
    return Completed(message=f"{len(status)} events run", data=status)


def largest_first(folders: list[Path]) -> list[Path]:
    """The event folders in the order their events start: the largest inputs first (bytes of
    the folder's files), so that a long event does not start last and leave the other cores
    idle at the end of the run. Ties keep the folders' order."""
    def size(folder: Path) -> int:
        try:
            return sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
        except OSError:  # unreadable: its event reports why when it runs
            return 0

    return sorted(folders, key=lambda f: -size(f))


def statuses(state: State) -> dict[str, str]:
    """Every event's status (folder -> "ok" or "error: …") from the final state of a run's flow
    called with ``return_state=True``, Completed or Failed alike."""
    result = state.result(raise_on_failure=False)
    if not isinstance(result, dict):
        raise RuntimeError(f"the run's flow ended {state.name}: {state.message}")
    return result


def events_flow(task_runner: str = "threads", jobs: int | None = None,
                dask_address: str | None = None, events: int = 0) -> Flow:
    """The run's flow on the task runner the command line asks for (:func:`event_runner`:
    ``jobs`` events at once, default one per core and no more than ``events``)."""
    jobs = max(1, min(jobs or default_jobs(), events or jobs or default_jobs()))
    task_runner = "dask" if dask_address else task_runner
    return run_events.with_options(task_runner=event_runner(task_runner, jobs, dask_address))


def share_prefect_api() -> None:
    """Dask worker processes started by this run find its Prefect API: the environment gets
    the URL of the server this flow talks to (the ephemeral one included) unless it has one."""
    if not os.environ.get("PREFECT_API_URL"):
        from prefect.client.orchestration import get_client

        os.environ["PREFECT_API_URL"] = str(get_client(sync_client=True).api_url)
