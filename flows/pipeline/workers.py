"""The run's worker processes (DESIGN.md "Orchestration"), which the pipeline owns: one per core
(``CHESSFED_PDF_WORKERS`` to change it), started from a clean fork server with WeasyPrint
already imported, shared by every event of the run, at a lower priority, and ended with the
process that started them. They render the PDFs (:func:`flows.site.render.html_to_pdf`, each
distinct document once, those of an event started as soon as their HTML is made:
:class:`EarlyPDFs`) and carry other CPU-bound work whose parts are independent (the audit's
rounds, handed to a kind's build as :attr:`flows.kinds.base.Build.parallel`). On a Dask cluster
each worker process runs one event at a time and has one renderer of its own
(:func:`renderer_processes`)."""

from __future__ import annotations

import atexit
import copyreg
import functools
import multiprocessing
import os
import threading
import types
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from flows.site.render import digest, html_to_pdf


def _mapping_proxy(items: dict[Any, Any]) -> types.MappingProxyType[Any, Any]:
    """A read-only mapping again, as pickled by :func:`_pickle_mapping_proxy`."""
    return types.MappingProxyType(items)


def _pickle_mapping_proxy(proxy: types.MappingProxyType[Any, Any]) -> tuple[Any, ...]:
    """How a read-only mapping pickles on its way to a renderer (``copyreg``): as its items,
    read-only again when unpickled. An event's configuration
    (:class:`transforms.core.config.EventConfig`, whose tables and files are read-only
    mappings) goes with its files to the renderers that read a series' events side by side, and
    ``pickle`` cannot pickle a ``MappingProxyType`` by itself."""
    return _mapping_proxy, (dict(proxy),)


copyreg.pickle(types.MappingProxyType, _pickle_mapping_proxy)

_POOL: ProcessPoolExecutor | None = None


_POOL_LOCK = threading.Lock()

_WARMED = threading.Event()


def pdf_workers() -> int:
    """How many PDFs render at once: one per core (``CHESSFED_PDF_WORKERS`` to change it),
    shared by every event of a run, so that events run side by side do not oversubscribe the
    machine."""
    return _told() or os.cpu_count() or 1


def _told() -> int | None:
    """``CHESSFED_PDF_WORKERS`` (at least one), None when not set to a number."""
    try:
        return max(1, int(os.environ.get("CHESSFED_PDF_WORKERS", "")))
    except ValueError:
        return None


def renderer_processes(renderer: str = "local") -> int:
    """How many renderer processes this process hands its PDFs to; 0: it renders them itself.
    ``local`` (the run's process, several events side by side): :func:`pdf_workers`, shared by
    every event of the run (0 when that is one). ``dask`` (this process is a worker of the Dask
    cluster the run executes on, which runs one event at a time, the cluster having one worker
    per core): one renderer of its own (``CHESSFED_PDF_WORKERS`` to change it), so that its
    event's PDFs render while the event's pages are made, as in a local run; 0 where the worker
    may not start processes (a daemonic worker process, Dask's default
    ``distributed.worker.daemon``; ``chessfed run --task-runner dask`` starts its
    ``LocalCluster`` without it, :func:`flows.pipeline.events.event_runner`)."""
    if renderer != "dask":
        n = pdf_workers()
        return n if n > 1 else 0
    if multiprocessing.current_process().daemon:
        return 0
    return _told() or 1


def pool(renderer: str = "local") -> ProcessPoolExecutor:
    """This process's renderers (:func:`renderer_processes`, at least one): processes started
    from a clean fork server with WeasyPrint already imported (not forked from the run's
    process, whose Prefect threads may hold locks), started once and shared by every event
    this process runs, at a lower priority (:data:`PDF_NICENESS`); each ends when this process
    does, killed or not (:func:`_start_renderer`)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            ctx = multiprocessing.get_context("forkserver")
            ctx.set_forkserver_preload(["weasyprint", "flows.site.render"])
            _POOL = ProcessPoolExecutor(max_workers=max(1, renderer_processes(renderer)),
                                        mp_context=ctx, initializer=_start_renderer)
            atexit.register(_POOL.shutdown, cancel_futures=True)
        return _POOL


def shutdown() -> None:
    """End this process's renderers now (a Dask worker closing, :mod:`flows.pipeline.cluster`);
    the next PDF starts them again."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is not None:
            _POOL.shutdown(cancel_futures=True)
            _POOL = None
        _WARMED.clear()


def submit(fn: Callable[..., Any], *args: Any, renderer: str = "local") -> Future[Any]:
    """``fn(*args)`` in one of this process's renderers (:func:`pool`)."""
    return pool(renderer).submit(fn, *args)


def parallel_map(fn: Callable[[Any], Any], items: list[Any], renderer: str = "local") -> list[Any]:
    """``[fn(x) for x in items]`` computed in parallel in this process's renderers
    (:func:`renderer_processes`: ``local``, the run's, one per core), on a Dask worker (``dask``)
    by its renderer and by the worker itself while it waits and the cluster has room
    (:func:`_help`); in this process
    when there is one item or no renderer. ``fn`` and the items must pickle. Used for CPU-bound
    work whose parts are independent (the audit's rounds, a series' events read)."""
    if len(items) <= 1 or not renderer_processes(renderer):
        return [fn(x) for x in items]
    futures = {i: submit(fn, x, renderer=renderer) for i, x in enumerate(items)}
    if renderer == "dask":
        _help(futures, {i: functools.partial(fn, x) for i, x in enumerate(items)})
    return [futures[i].result() for i in range(len(items))]


PDF_NICENESS = 10
"""How much lower the renderers' scheduling priority is than the run's (``nice``): they fill
every core, and the run's own work between them — Prefect's server answering, an event's flow
run being created, the next event's pages — is short and on the way to everything after it.
Measured on the demo (2 cores, same run A/B with the other changes of session 8): Prefect's
server answered 1-2 s sooner while the first PDFs rendered, and the run ended sooner."""


def _start_renderer() -> None:
    """A renderer's start: its priority lowered by :data:`PDF_NICENESS`, and a thread that
    ends it as soon as the process that started it is gone (:func:`_end_with`)."""
    os.nice(PDF_NICENESS)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent,), name="chessfed-parent",
                         daemon=True).start()


def _end_with(parent: multiprocessing.process.BaseProcess) -> None:
    """Wait until ``parent`` has ended, then end this renderer. A renderer holds the pipes of
    its pool's queues and so never sees them close: without this, a run killed (``kill -9``,
    the machine out of memory) or a Dask worker killed by its nanny on closing left its
    renderers and their fork server running for good, and whatever read the run's output (a
    shell pipe, a scheduler) waited for them."""
    parent.join()
    os._exit(0)


SUBSETTER = "harfbuzz-subset"
"""HarfBuzz's font subsetter (Debian's ``libharfbuzz-subset0``), which WeasyPrint subsets the
fonts embedded in a PDF with where the system has it, else with fontTools (measured on this
machine: a 900-player standings PDF 1.25 s -> 0.64 s, its crosstable 2.5 s -> 0.8 s; a
full-size season's PDFs took about four times as long without it)."""


def slow_fonts_note() -> str:
    """A line for the office when the PDFs will render without :data:`SUBSETTER` (what to
    install, and why), else ""."""
    import ctypes.util

    if ctypes.util.find_library(SUBSETTER) is not None:
        return ""
    return ("note: HarfBuzz's font subsetter is not installed (Debian: libharfbuzz-subset0): "
            "WeasyPrint subsets the PDFs' fonts with fontTools instead, two to four times as slowly")


def slow_pairing_note() -> str:
    """A line for the office when the Dutch engine's compiled matching core
    (``transforms/fide/dutch/cmatching.c``, built by ``make install`` with gcc) is missing: the
    pairings and their audit then run on the pure-Python core — the same pairings, several
    times as slowly on large fields (the full-size season: audit and pairing 235 s summed over
    its events without it, docs/benchmarks.md) — else ""."""
    from transforms.fide.dutch.matching import CORES

    if "compiled" in CORES:
        return ""
    return ("note: the pairing engine's compiled core is not built (make install builds it with "
            "gcc): pairings and their audit run on the pure-Python core, the same pairings "
            "several times as slowly on large fields")



def warm_up(renderer: str = "local") -> None:
    """Start this process's renderers now (each renders an empty page, which also loads its
    fonts), e.g. when an event's flow starts (``flows/pipeline/outputs.py`` ``early_pdfs``):
    the first PDFs then start at once. Once per process (a second call does nothing)."""
    with _POOL_LOCK:
        if _WARMED.is_set():
            return
        _WARMED.set()
    for _ in range(renderer_processes(renderer)):
        submit(html_to_pdf, "<p></p>", renderer=renderer)


class EarlyPDFs:
    """An event's PDFs handed to the run's renderers as their pages are built, so that they
    render while the rest of the site is assembled (``Publication.on_pdf``), not after it;
    :func:`htmls_to_pdfs` then takes each result from here instead of rendering it again.
    ``wanted(path, html)`` says which to start: those the run will render (not the unchanged
    ones, which are kept). Nothing starts where PDFs render in this process (no renderer:
    :func:`renderer_processes`)."""

    def __init__(self, wanted: Callable[[str, str], bool], renderer: str = "local") -> None:
        self.wanted = wanted
        self.renderer = renderer
        self.futures: dict[str, Future[bytes]] = {}

    def __call__(self, rel: str, html: str) -> None:
        if renderer_processes(self.renderer) and self.wanted(rel, html):
            key = digest(html)
            if key not in self.futures:
                self.futures[key] = submit(html_to_pdf, html, renderer=self.renderer)

    def discard(self) -> None:
        """Forget what was not asked for (an event that failed before its PDFs)."""
        for f in self.futures.values():
            f.cancel()
        self.futures.clear()


def htmls_to_pdfs(htmls: list[str], early: EarlyPDFs | None = None,
                  renderer: str = "local") -> list[bytes]:
    """Render independent documents in this process's renderers (WeasyPrint is CPU-bound,
    :func:`renderer_processes`); each distinct HTML once, those already started (``early``)
    taken from there; in this process, one after another, where it has no renderer. On a Dask
    worker (``dask``) this process renders too while it waits, if the cluster has room: the
    documents its renderer has not begun, the shortest first (:func:`_help`). (Rendered as tasks of the cluster instead,
    the events waiting on them had to leave the workers' thread pools, so every event of the
    season started at once: at scale 1.0 the PDFs' time summed over the events was 10,771 s
    against 82 s in one process, and the run took 561 s against 416 s and 3.9 GB against
    1.0 GB.)"""
    started = early.futures if early is not None else {}
    keys = [digest(h) for h in htmls]
    if not renderer_processes(renderer) or (len(htmls) <= 1 and not started):
        done: dict[str, bytes] = {}
        for k, h in zip(keys, htmls):
            if k not in done:
                done[k] = started.pop(k).result() if k in started else html_to_pdf(h)
        return [done[k] for k in keys]
    futures: dict[str, Future[bytes]] = {}
    for k, h in zip(keys, htmls):
        if k not in futures:
            futures[k] = started.pop(k) if k in started else submit(html_to_pdf, h, renderer=renderer)
    if renderer == "dask":
        _help(futures, {k: functools.partial(html_to_pdf, h) for k, h in zip(keys, htmls)})
    return [futures[k].result() for k in keys]


_CLUSTER: Any = None
"""The client of the Dask cluster this worker process runs events for (:func:`note_cluster`)."""


def note_cluster() -> None:
    """Remember the Dask cluster this process is a worker of — called as an event starts, on
    the worker's own thread, where Dask knows it (an event's steps run in threads of their own,
    where ``distributed.get_worker`` finds none)."""
    global _CLUSTER
    try:
        from distributed import get_client, get_worker

        get_worker()
        _CLUSTER = get_client()
    except (ImportError, ValueError):  # not on a Dask worker
        _CLUSTER = None


def cluster_has_room() -> bool:
    """Whether the Dask cluster this process works for (:func:`note_cluster`) runs fewer tasks
    than it has worker threads (``Client.processing``, ``Client.nthreads``: the tasks are the
    run's events); true where there is no cluster to ask (not a Dask worker, the scheduler
    gone)."""
    if _CLUSTER is None:
        return True
    try:
        processing: dict[str, Any] = _CLUSTER.processing()
        nthreads: dict[str, int] = _CLUSTER.nthreads()
    except Exception:  # noqa: BLE001 - a closed client, a lost scheduler: as if alone
        return True
    running = sum(len(keys) for keys in processing.values())
    return running < sum(nthreads.values())


def _help(futures: dict[Any, Future[Any]], work: Mapping[Any, Callable[[], Any]]) -> None:
    """Do here each of ``futures`` (``work[key]()``) its renderer has not begun, from the last
    (the shortest PDF: :func:`flows.pipeline.tasks.render_pdfs` orders the longest first) — a
    Dask worker would otherwise wait idle for its one renderer, and the last events of a run
    have the machine to themselves. Only while the cluster has a worker thread with nothing
    to do (:func:`cluster_has_room`): while every worker runs an event, every core already
    has a worker or a renderer, and a worker rendering too only made them share the cores
    (measured: 10-25 CPU-s more for ten full-size events, and slower, docs/benchmarks.md).
    One begun meanwhile stays with the renderer (``Future.cancel`` fails)."""
    if not cluster_has_room():
        return
    for key in reversed(list(futures)):
        if futures[key].cancel():
            mine: Future[Any] = Future()
            mine.set_result(work[key]())
            futures[key] = mine
