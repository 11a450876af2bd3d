"""Where an event's PDFs render (flows/pipeline/workers.py): the run's renderer processes on one
machine, a renderer of its own on each Dask worker (the worker renders too while it waits), and
in the process itself where it may not start processes; a renderer never outlives the process
that started it."""

from __future__ import annotations

import logging
import multiprocessing
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import Future
from pathlib import Path

from flows.pipeline import workers

ROOT = Path(__file__).resolve().parents[2]


def alive(pid: int) -> bool:
    """Whether process ``pid`` is running (a zombie, ended and not yet reaped, is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def gone(pid: int, within: float = 30.0) -> bool:
    deadline = time.monotonic() + within
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not alive(pid)


def test_how_many_renderers_a_process_hands_its_pdfs_to(monkeypatch):
    """One machine: one per core, shared by the events side by side, none when that is one (the
    run renders itself). A Dask worker (one event at a time, one worker per core): one of its
    own unless told; none where the worker is a daemonic process, which may not start any."""
    monkeypatch.setenv("CHESSFED_PDF_WORKERS", "3")
    assert workers.renderer_processes("local") == 3
    assert workers.renderer_processes("dask") == 3
    monkeypatch.setenv("CHESSFED_PDF_WORKERS", "1")
    assert workers.renderer_processes("local") == 0
    assert workers.renderer_processes("dask") == 1
    monkeypatch.delenv("CHESSFED_PDF_WORKERS")
    assert workers.renderer_processes("local") == (os.cpu_count() or 1 if (os.cpu_count() or 1) > 1 else 0)
    assert workers.renderer_processes("dask") == 1
    monkeypatch.setattr(multiprocessing.current_process(), "daemon", True)
    assert workers.renderer_processes("dask") == 0


def test_a_daemonic_dask_worker_starts_no_renderer_and_renders_its_pdfs_itself(tmp_path, monkeypatch):
    from flows.pipeline import outputs

    monkeypatch.setattr(multiprocessing.current_process(), "daemon", True)
    assert outputs.early_pdfs(tmp_path / "event", "dask") is None
    here: list[str] = []
    monkeypatch.setattr(workers, "html_to_pdf", lambda h: here.append(h) or h.encode())
    assert workers.htmls_to_pdfs(["<p>a</p>", "<p>b</p>"], renderer="dask") == [b"<p>a</p>", b"<p>b</p>"]
    assert here == ["<p>a</p>", "<p>b</p>"]


def test_a_dask_worker_renders_what_its_renderer_has_not_begun(monkeypatch):
    """While it waits, a Dask worker renders the documents its renderer has not begun, the
    shortest (the last) first; one begun stays with the renderer and its result is taken."""
    begun: Future = Future()
    begun.set_running_or_notify_cancel()
    submitted = iter([begun, Future(), Future()])
    monkeypatch.setattr(workers, "renderer_processes", lambda renderer: 1)
    monkeypatch.setattr(workers, "submit", lambda fn, html, renderer: next(submitted))
    here: list[str] = []
    monkeypatch.setattr(workers, "html_to_pdf", lambda h: here.append(h) or b"here " + h.encode())
    threading.Timer(0.2, begun.set_result, args=(b"renderer",)).start()
    assert workers.htmls_to_pdfs(["<p>longest</p>", "<p>b</p>", "<p>c</p>"], renderer="dask") == [
        b"renderer", b"here <p>b</p>", b"here <p>c</p>"]
    assert here == ["<p>c</p>", "<p>b</p>"]


def test_a_dask_worker_leaves_every_document_to_its_renderer_while_the_cluster_is_busy(monkeypatch):
    waiting = [Future(), Future()]
    submitted = iter(waiting)
    monkeypatch.setattr(workers, "cluster_has_room", lambda: False)
    monkeypatch.setattr(workers, "renderer_processes", lambda renderer: 1)
    monkeypatch.setattr(workers, "submit", lambda fn, html, renderer: next(submitted))
    here: list[str] = []
    monkeypatch.setattr(workers, "html_to_pdf", lambda h: here.append(h) or b"here")
    for f in waiting:
        threading.Timer(0.2, f.set_result, args=(b"renderer",)).start()
    assert workers.htmls_to_pdfs(["<p>a</p>", "<p>b</p>"], renderer="dask") == [b"renderer"] * 2
    assert here == []


def test_a_renderer_ends_when_the_process_that_started_it_is_killed(tmp_path):
    """A run killed (``kill -9``, out of memory) or a Dask worker killed by its nanny leaves no
    renderer behind: each holds its pool's pipes and would otherwise wait for work for good
    (and whatever read the run's output with it). (The killed run's own temporary folder,
    which no process is left to remove, goes to ``tmp_path``, not the machine's ``/tmp``.)"""
    script = ("import os, time\nfrom flows.pipeline import workers\n"
              "print(workers.submit(os.getpid).result(), flush=True)\ntime.sleep(600)\n")
    run = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE,
                           env={**os.environ, "CHESSFED_PDF_WORKERS": "2", "TMPDIR": str(tmp_path)})
    try:
        renderer = int(run.stdout.readline())
        assert renderer != run.pid and alive(renderer)
    finally:
        run.kill()
        run.wait()
    assert gone(renderer), f"renderer {renderer} still running after its run was killed"
    run.stdout.close()


def _render_on_the_worker() -> tuple[int, int, int, list[bytes]]:
    pdfs = workers.htmls_to_pdfs(["<p>one</p>", "<p>two</p>", "<p>three</p>"], renderer="dask")
    return (os.getpid(), workers.submit(os.getpid, renderer="dask").result(),
            workers.renderer_processes("dask"), pdfs)


def test_a_dask_worker_has_a_renderer_of_its_own_ended_with_the_worker():
    """On a LocalCluster started as ``chessfed run --task-runner dask`` starts it (workers that
    may start processes) and with :class:`flows.pipeline.cluster.Renderers` registered, as
    every Dask run does: the worker's PDFs render in a renderer process of its own, which ends
    when the worker closes — the worker is not left waiting for it until its nanny kills it."""
    import cloudpickle
    import dask
    import distributed

    from flows.pipeline.cluster import Renderers

    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    nanny = logging.getLogger("distributed.nanny")
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    nanny.addHandler(handler)
    try:
        with dask.config.set({"distributed.worker.daemon": False}), \
                distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                         dashboard_address=None) as cluster, \
                distributed.Client(cluster) as client:
            client.register_plugin(Renderers())
            worker, renderer, count, pdfs = client.submit(_render_on_the_worker).result()
            assert alive(renderer)
    finally:
        nanny.removeHandler(handler)
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    assert count == 1 and renderer != worker
    assert len(pdfs) == 3 and all(p.startswith(b"%PDF") for p in pdfs)
    assert gone(renderer), "the worker's renderer outlived the worker"
    assert not [r for r in records if "killing" in r.getMessage()], [r.getMessage() for r in records]


def _room_seen_from_an_events_step() -> bool:
    """As an event on a Dask worker: the cluster noted on the worker's thread, asked from a
    step's thread of its own (where Dask finds no worker)."""
    workers.note_cluster()
    seen: list[bool] = []
    step = threading.Thread(target=lambda: seen.append(workers.cluster_has_room()))
    step.start()
    step.join()
    return seen[0]


def test_a_dask_worker_renders_itself_only_while_the_cluster_has_an_idle_thread():
    """While every worker thread of the cluster runs an event, a worker does not render for its
    renderer (two workers and two renderers on two cores only shared them); with a thread
    idle — the last events of a run — it does; outside a cluster it does."""
    import distributed

    assert workers.cluster_has_room()
    try:
        with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                      dashboard_address=None) as cluster, \
                distributed.Client(cluster) as client:
            assert client.submit(_room_seen_from_an_events_step, pure=False).result() is True
            busy = distributed.Event(client=client)
            other = client.submit(busy.wait, 30, pure=False)  # an event on the other thread
            try:
                while not sum(len(k) for k in client.processing().values()):
                    time.sleep(0.05)
                assert client.submit(_room_seen_from_an_events_step, pure=False).result() is False
            finally:
                busy.set()
            other.result()
    finally:
        workers.note_cluster()  # not a worker here: none noted
    assert workers.cluster_has_room()
