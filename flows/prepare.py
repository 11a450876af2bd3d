"""The events of a run assembled while Prefect's local server starts (issue 13: orchestration
that costs little).

``chessfed run`` starts its own Prefect server (:func:`flows.cli.start_local_server`), which
needs 5-7 s of one core before it answers; meanwhile this process has imported what it needs
after 2 s and has nothing to do. A :class:`Preparer` uses that time: one thread takes the
run's events in order and runs, for each, the part of its flow that needs no Prefect and
writes nothing — read the event folder and ``assemble`` it (:func:`flows.swiss.assemble`,
:func:`flows.correspondence.assemble`: validation, the rulebook, every page in memory, the
letters; the PDFs start rendering as their HTML is made) — and starts no new event once the
server answers (the one in hand is finished). The event's flow, when it starts, asks for its
prepared part (:func:`flows.handover.take`, waiting while it is being made): it gets it only
if it was made from the same inputs (the event folder's fingerprint, taken before reading, as
the flow takes its own), for the same run date, output folder and renderer; otherwise — nothing prepared,
the inputs changed meanwhile, the preparation raised — the flow assembles the event itself, as
it always does under a deployment or any other caller. Rendering, writing, the outbox and the
mail stay the flow's tasks. What is published is the same either way (tests pin it).

The prepared steps keep their own timings in the event's manifest (``read_s``, ``pages_s``
…, told on the progress log as they end) and ``prepared_s`` says how much of the event's work
was done before its flow started; the run's ``run.json`` counts as Prefect's start only the
part of the wait for the server in which nothing was prepared (``prepared_while_starting_s``)."""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Callable
from pathlib import Path

from flows import unchanged
from flows.handover import Prepared, run_date
from flows.progress import Steps


def prepare_event(folder: Path, out_dir: Path, as_of: dt.date | None,
                  renderer: str = "local") -> Prepared:
    """The Prefect-free part of one event's flow, as its flow runs it: read the folder (the
    flow's read tasks, called as plain functions), then the kind's ``assemble``."""
    from flows import correspondence, swiss, tasks
    from transforms.core.config import EventConfig
    from transforms.kinds import EventKind

    started = time.perf_counter()
    fingerprint = unchanged.inputs_fingerprint(folder)
    step = Steps(folder.name)
    with step("read"):
        cfg = tasks.read_config.fn(folder)
        if not isinstance(cfg, EventConfig):
            raise cfg  # the flow holds the last good publication (flows/last_good.py)
        kind = correspondence if cfg.event.kind == EventKind.CORRESPONDENCE else swiss
        raw = tasks.read_inputs.fn(folder, list(cfg.files))
    date = run_date(as_of, cfg)
    pub, letters = kind.assemble(cfg, raw, date, out_dir, renderer, step)
    return Prepared(fingerprint, as_of, out_dir, renderer, cfg, date, pub, letters, started,
                    time.perf_counter())


class Preparer:
    """Prepares the events of a run in a thread of its own, in the run's order, until
    :meth:`close` (the server answers); :meth:`take` hands an event's part to its flow.
    ``then``: what the thread does when every event is prepared and the server has not
    answered yet (the command line starts the PDF renderers there)."""

    def __init__(self, folders: list[Path], out: Path, as_of: dt.date | None,
                 then: Callable[[], None] | None = None) -> None:
        self.folders = [Path(f).resolve() for f in folders]
        self.out = Path(out)
        self.as_of = as_of
        self.then = then
        self._lock = threading.Lock()
        self._closed = False
        self._done: dict[Path, Prepared | None] = {}
        self._busy: dict[Path, threading.Event] = {}
        self.started: float | None = None
        self.ended: float | None = None
        self._thread = threading.Thread(target=self._work, name="chessfed-prepare", daemon=True)

    def start(self) -> Preparer:
        self.started = time.perf_counter()
        self._thread.start()
        return self

    def _work(self) -> None:
        try:
            for folder in self.folders:
                with self._lock:
                    if self._closed:
                        return
                    busy = self._busy[folder] = threading.Event()
                try:
                    prepared: Prepared | None = prepare_event(folder, self.out / folder.name,
                                                              self.as_of)
                except Exception:  # noqa: BLE001 - the flow runs the steps again and reports it
                    _discard(self.out / folder.name)
                    prepared = None
                with self._lock:
                    self._done[folder] = prepared
                busy.set()
        finally:
            self.ended = time.perf_counter()
            if self.then is not None and not self._closed:
                self.then()  # e.g. the PDF renderers' start, in the rest of the wait

    def wait(self) -> None:
        """Until the thread has nothing more to prepare."""
        self._thread.join()

    def close(self) -> None:
        """No new event is started (the one being prepared is finished)."""
        with self._lock:
            self._closed = True

    def take(self, folder: Path, fingerprint: str, as_of: dt.date | None, out_dir: Path,
             renderer: str) -> Prepared | None:
        """The event's prepared part if it was prepared from these inputs, for this run date,
        output folder and renderer (waits while it is being prepared), once; else None (and
        the PDFs it started are dropped)."""
        with self._lock:
            busy = self._busy.get(folder)
        if busy is None:
            return None
        busy.wait()
        with self._lock:
            prepared = self._done.pop(folder, None)
        if prepared is None:
            return None
        if (prepared.fingerprint != fingerprint or prepared.as_of != as_of
                or prepared.out_dir != Path(out_dir) or prepared.renderer != renderer
                or prepared.date != run_date(as_of, prepared.cfg)):
            # inputs changed meanwhile, another run's settings, or prepared as of "today"
            # before midnight and taken after it
            _discard(prepared.out_dir)
            return None
        return prepared

    def busy_between(self, start: float, end: float) -> float:
        """Seconds of [start, end] during which this preparer was working."""
        if self.started is None:
            return 0.0
        stop = self.ended if self.ended is not None else time.perf_counter()
        return max(0.0, min(end, stop) - max(start, self.started))


def _discard(out_dir: Path) -> None:
    from flows.tasks import discard_early_pdfs

    discard_early_pdfs(out_dir)
