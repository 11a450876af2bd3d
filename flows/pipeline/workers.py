"""The run's worker processes (DESIGN.md "Orchestration"), which the pipeline owns: one per core
(``CHESSFED_PDF_WORKERS`` to change it), started from a clean fork server with WeasyPrint
already imported, shared by every event of the run, at a lower priority. They render the PDFs
(:func:`flows.site.render.html_to_pdf`, each distinct document once, those of an event started
as soon as their HTML is made: :class:`EarlyPDFs`) and carry other CPU-bound work whose parts
are independent (the audit's rounds, handed to a kind's build as
:attr:`flows.kinds.base.Build.parallel`). On a Dask cluster each worker process runs one event
at a time and does that work itself (the cluster has one worker per core)."""

from __future__ import annotations

import atexit
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from flows.site.render import digest, html_to_pdf

_POOL: ProcessPoolExecutor | None = None


_POOL_LOCK = threading.Lock()


def pdf_workers() -> int:
    """How many PDFs render at once: one per core (``CHESSFED_PDF_WORKERS`` to change it),
    shared by every event of a run, so that events run side by side do not oversubscribe the
    machine."""
    try:
        return max(1, int(os.environ.get("CHESSFED_PDF_WORKERS", "")))
    except ValueError:
        return os.cpu_count() or 1


def pool() -> ProcessPoolExecutor:
    """The run's renderers: processes started from a clean fork server with WeasyPrint
    already imported (not forked from the run's process, whose Prefect threads may hold
    locks), started once and shared by every event of the run, at a lower priority
    (:data:`PDF_NICENESS`)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            ctx = multiprocessing.get_context("forkserver")
            ctx.set_forkserver_preload(["weasyprint", "flows.site.render"])
            _POOL = ProcessPoolExecutor(max_workers=pdf_workers(), mp_context=ctx,
                                        initializer=_lower_priority)
            atexit.register(_POOL.shutdown, cancel_futures=True)
        return _POOL


def submit(fn: Callable[..., Any], *args: Any) -> Future[Any]:
    """``fn(*args)`` in one of the run's renderers (:func:`pool`)."""
    return pool().submit(fn, *args)


def parallel_map(fn: Callable[[Any], Any], items: list[Any], renderer: str = "local") -> list[Any]:
    """``[fn(x) for x in items]`` computed in parallel in the run's renderers (``local``: one
    process per core, :func:`pool`); in this process when there is one item or one worker, and
    on a Dask worker (``dask``: each worker runs one event at a time and the cluster has one
    worker per core, so the cores are already busy with events; see :func:`htmls_to_pdfs`).
    ``fn`` and the items must pickle. Used for CPU-bound work whose parts are independent (the
    audit's rounds)."""
    if len(items) <= 1 or renderer == "dask" or pdf_workers() <= 1:
        return [fn(x) for x in items]
    return [f.result() for f in [submit(fn, x) for x in items]]


PDF_NICENESS = 10
"""How much lower the renderers' scheduling priority is than the run's (``nice``): they fill
every core, and the run's own work between them — Prefect's server answering, an event's flow
run being created, the next event's pages — is short and on the way to everything after it.
Measured on the demo (2 cores, same run A/B with the other changes of session 8): Prefect's
server answered 1-2 s sooner while the first PDFs rendered, and the run ended sooner."""


def _lower_priority() -> None:
    """A renderer's start: its priority lowered by :data:`PDF_NICENESS`."""
    os.nice(PDF_NICENESS)


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


_WARMED = threading.Event()


def warm_up() -> None:
    """Start the run's renderers now (each renders an empty page, which also loads its fonts),
    e.g. when an event's flow starts (``flows/pipeline/outputs.py`` ``early_pdfs``): the first
    PDFs then start at once. Once per process (a second call does nothing)."""
    with _POOL_LOCK:
        if _WARMED.is_set():
            return
        _WARMED.set()
    if pdf_workers() > 1:
        for _ in range(pdf_workers()):
            submit(html_to_pdf, "<p></p>")


class EarlyPDFs:
    """An event's PDFs handed to the run's renderers as their pages are built, so that they
    render while the rest of the site is assembled (``Publication.on_pdf``), not after it;
    :func:`htmls_to_pdfs` then takes each result from here instead of rendering it again.
    ``wanted(path, html)`` says which to start: those the run will render (not the unchanged
    ones, which are kept). Nothing starts where PDFs render in this process (one renderer)."""

    def __init__(self, wanted: Callable[[str, str], bool]) -> None:
        self.wanted = wanted
        self.futures: dict[str, Future[bytes]] = {}

    def __call__(self, rel: str, html: str) -> None:
        if pdf_workers() > 1 and self.wanted(rel, html):
            key = digest(html)
            if key not in self.futures:
                self.futures[key] = submit(html_to_pdf, html)

    def discard(self) -> None:
        """Forget what was not asked for (an event that failed before its PDFs)."""
        for f in self.futures.values():
            f.cancel()
        self.futures.clear()


def htmls_to_pdfs(htmls: list[str], early: EarlyPDFs | None = None, here: bool = False) -> list[bytes]:
    """Render independent documents in parallel processes (WeasyPrint is CPU-bound); each
    distinct HTML once, those already started (``early``) taken from there. ``here``: in this
    process, one after another — on a Dask worker, which runs one event at a time on a cluster
    of one worker per core. (Rendered as tasks of the cluster instead, the events waiting on
    them had to leave the workers' thread pools, so every event of the season started at once:
    at scale 1.0 the PDFs' time summed over the events was 10,771 s against 82 s in one
    process, and the run took 561 s against 416 s and 3.9 GB against 1.0 GB.)"""
    started = early.futures if early is not None else {}
    keys = [digest(h) for h in htmls]
    if here or pdf_workers() <= 1 or (len(htmls) <= 1 and not started):
        done: dict[str, bytes] = {}
        for k, h in zip(keys, htmls):
            if k not in done:
                done[k] = started.pop(k).result() if k in started else html_to_pdf(h)
        return [done[k] for k in keys]
    futures: dict[str, Future[bytes]] = {}
    for k, h in zip(keys, htmls):
        if k not in futures:
            futures[k] = started.pop(k) if k in started else submit(html_to_pdf, h)
    return [futures[k].result() for k in keys]
