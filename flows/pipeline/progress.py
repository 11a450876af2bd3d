"""What a long run tells as it goes, and keeps: every step of every event (read, validate,
standings, audit, pairing, rules, pages, PDFs, letters, messages, write, mail) is timed, told
when it ends (the ``chessfed.progress`` logger: ``chessfed run`` prints it on stderr, a
deployment's run shows it in Prefect's logs) and added to the event's timings, which go to
its ``manifest.json``. Orchestration (Prefect's flow and task bookkeeping) is what the event
took beyond its steps."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

LOGGER = logging.getLogger("chessfed.progress")
LOGGER.setLevel(logging.INFO)  # every step, wherever Prefect's logging level stands

FAILED_IN: dict[str, str] = {}
"""Event -> the step an exception left, the innermost first (:meth:`Steps.__call__`), until
:func:`failed_step` takes it: where the event's failure is told to have happened."""


def failed_step(event: str) -> str:
    """The step of ``event`` an exception left since this was last asked ("" when none did),
    forgotten once told."""
    return FAILED_IN.pop(event, "")


def failed_where(event: str) -> str:
    """Where ``event``'s run failed, as its status says it (never an empty reason): the event,
    and the step the exception left when one did (:func:`failed_step`)."""
    step = failed_step(event)
    return f"while running event {event}" + (f", in its step {step!r}" if step else "")


STEPS = ("read", "validate", "standings", "ratings", "audit", "pairing", "prizes", "exports", "rules",
         "pages", "pdfs", "letters", "messages", "write", "mail")
"""The steps an event's timings may have (``<step>_s`` in the manifest), in run order."""


@dataclass
class Steps:
    """The step timer of one event: ``with steps("pairing"):`` times the block, adds it to
    ``timings["pairing_s"]`` (a step entered twice adds up) and tells it."""

    event: str
    timings: dict[str, Any] = field(default_factory=dict)

    @contextmanager
    def __call__(self, name: str) -> Iterator[dict[str, str]]:
        """Time one step; the caller may put a ``detail`` in the dict it gets (e.g. "26
        rendered, 4 kept"), told with the time."""
        info: dict[str, str] = {}
        t = time.perf_counter()
        try:
            yield info
        except BaseException:
            FAILED_IN.setdefault(self.event, name)
            raise
        finally:
            s = time.perf_counter() - t
            key = f"{name}_s"
            self.timings[key] = round(self.timings.get(key, 0.0) + s, 3)
            detail = f" ({info['detail']})" if info.get("detail") else ""
            LOGGER.info("%s: %s %.1f s%s", self.event, name, s, detail)

    def finish(self, total_s: float) -> None:
        """The event's total (its flow's body), the sum of its steps (``work_s``) and the rest
        (``orchestration_s``: Prefect's bookkeeping of the event's flow outside its steps)."""
        work = sum(v for k, v in self.timings.items()
                   if k.endswith("_s") and k.removesuffix("_s") in STEPS)
        inside = work
        self.timings["total_s"] = round(total_s, 3)
        self.timings["work_s"] = round(work, 3)
        self.timings["orchestration_s"] = round(max(total_s - inside, 0.0), 3)
        # "inside its flow": the flow run's creation and end are counted in run.json (the last
        # line of the run gives Prefect's whole part)
        LOGGER.info("%s: done in %.1f s (steps %.1f s, Prefect inside its flow %.1f s)",
                    self.event, total_s, inside, max(total_s - inside, 0.0))

