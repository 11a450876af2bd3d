"""Where an event's flow finds what :mod:`flows.prepare` assembled for it before the flow
started (kept apart from :mod:`flows.prepare`, which imports the flows, so that the flows
import only this): :class:`Prepared`, the process's :data:`PREPARER` and :func:`take`."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from flows.progress import Steps


@dataclass
class Prepared:
    """One event's prepared part: its config, the run date, its publication assembled in
    memory and its letters (:func:`flows.swiss.assemble`, :func:`flows.correspondence.assemble`),
    the fingerprint, run-date argument, output folder and renderer it was prepared for, and
    when its preparation started and ended (``perf_counter``)."""

    fingerprint: str
    as_of: dt.date | None
    out_dir: Path
    renderer: str
    cfg: Any
    date: dt.date
    pub: Any
    letters: list
    started: float = 0.0
    ended: float = 0.0

    def handed_over(self, flow_started: float) -> tuple[Any, dt.date, Any, list, Steps]:
        """What the flow goes on with: config, run date, publication, letters and the step
        timer holding the prepared steps' timings, with ``prepared_s``: how much of them ran
        before the flow's body started (the rest ran while the flow waited for it, inside the
        flow's time)."""
        before = max(0.0, min(self.ended, flow_started) - self.started)
        self.pub.timings["prepared_s"] = round(before, 3)
        return self.cfg, self.date, self.pub, self.letters, Steps(self.out_dir.name, self.pub.timings)


def run_date(as_of: dt.date | None, cfg: Any) -> dt.date:
    """The run date (``[event] as_of`` in inputs/README.md): the one asked for (``--as-of``),
    else the event's ``as_of``, else today — the same for a prepared event and for its flow (:meth:`flows.prepare.Preparer.take`
    compares them)."""
    return as_of or cfg.event.as_of or dt.date.today()


class Preparer(Protocol):
    def take(self, folder: Path, fingerprint: str, as_of: dt.date | None, out_dir: Path,
             renderer: str) -> Prepared | None: ...


PREPARER: Preparer | None = None
"""The preparer of this process's run (set by the command line: :class:`flows.prepare.Preparer`),
else None."""


def take(folder: Path, fingerprint: str, as_of: dt.date | None, out_dir: Path,
         renderer: str) -> Prepared | None:
    """The flow's side: the event's prepared part (:meth:`flows.prepare.Preparer.take`), None
    when this process prepares nothing."""
    preparer = PREPARER
    if preparer is None:
        return None
    return preparer.take(Path(folder).resolve(), fingerprint, as_of, Path(out_dir), renderer)
