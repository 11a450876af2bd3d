"""Whether an event must be built, the one check both the command line (before it starts
Prefect) and each event's task (:func:`flows.pipeline.events.run_event`) make: an event whose
published outputs still stand (:mod:`flows.pipeline.unchanged`) is not built; if only letters
of its last run are still to send, they go now, as the outbox keeps them
(:mod:`flows.pipeline.stored_letters`). No Prefect here: the command line decides with it
whether Prefect is needed at all."""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path

from flows.pipeline import progress, stored_letters, unchanged


def must_build(folder: Path, out_dir: Path, as_of: dt.date | None, send_mail: bool) -> str | None:
    """Why the event ``folder`` must be built (told on the progress log), or None when its
    outputs in ``out_dir`` still stand — the letters its last run still has to send sent now
    (a letter that cannot go keeps the event to build: "letters still to send"). The caller
    holds the event's lock."""
    t = time.perf_counter()
    reason = unchanged.check(folder, out_dir, as_of, send_mail, mail=False)
    due = unchanged.mail_due(out_dir) if reason is None and send_mail else 0
    cfg = stored_letters.event_config(folder, out_dir) if due else None
    if cfg is not None:  # only letters to send: sent as the outbox keeps them
        d = stored_letters.send_stored(folder, out_dir, cfg)
        progress.LOGGER.info("%s: unchanged; %d of %d letters still to send went now",
                             folder.name, d.sent, due)
    elif due:
        reason = "letters still to send"
    if reason is not None:
        progress.LOGGER.info("%s: to build (%s)", folder.name, reason)
        return reason
    progress.LOGGER.info("%s: unchanged since its last run, not built again (checked in %.2f s)",
                         folder.name, time.perf_counter() - t)
    return None
