"""``chessfed deploy`` — scheduled operation on a Prefect server: a process work pool and one
deployment of the ``chessfed-run`` flow per event folder, with the event's cron and time zone
from its ``[schedule]`` table (or ``--cron``/``--timezone``), run by ``prefect worker start``.

    export PREFECT_API_URL=http://127.0.0.1:4200/api     # the server (prefect server start)
    chessfed deploy inputs --out outputs [--pool chessfed]
    prefect worker start --pool chessfed

Every deployment writes into the same output folder (its event's subfolder and the run's
index, which lists every event published there).
"""

from __future__ import annotations

import contextlib
import zoneinfo
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENTRYPOINT = "flows/pipeline/events.py:run_events"


@dataclass(frozen=True)
class Planned:
    """One deployment to create: its name, event folder, cron and time zone."""

    name: str
    event_dir: Path
    cron: str
    timezone: str


def plan(inputs: Path, *, cron: str = "", timezone: str = "") -> list[Planned]:
    """A deployment per event folder with a schedule: its ``[schedule]`` (``--cron`` and
    ``--timezone`` win); an event without either is left out and named in the error."""
    from flows.pipeline.run_index import event_folders
    from flows.pipeline.tasks import check_config

    out, missing = [], []
    for folder in event_folders(Path(inputs)):
        cfg = check_config(folder)
        c = cron or (cfg.schedule.cron if cfg.schedule else "")
        tz = timezone or (cfg.schedule.timezone if cfg.schedule else "UTC")
        if not c:
            missing.append(folder.name)
            continue
        try:
            zoneinfo.ZoneInfo(tz)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"{folder.name}/event.toml: [schedule] timezone {tz!r} is not a known "
                             "time zone") from None
        out.append(Planned(cfg.event.id, folder.resolve(), c, tz))
    if missing:
        raise ValueError(f"no schedule for {', '.join(missing)}: add [schedule] cron = \"…\" to "
                         "its event.toml or give --cron")
    return out


def ensure_pool(pool: str) -> None:
    """The process work pool ``pool`` on the server, created if it is not there."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.actions import WorkPoolCreate
    from prefect.exceptions import ObjectAlreadyExists

    with get_client(sync_client=True) as client, contextlib.suppress(ObjectAlreadyExists):
        client.create_work_pool(WorkPoolCreate(name=pool, type="process"))


def deploy(inputs: Path, out: Path, *, pool: str = "chessfed", cron: str = "",
           timezone: str = "") -> list[str]:
    """Create (or update) the deployments on the server ``PREFECT_API_URL`` names; returns
    their names (``chessfed-run/<event id>``)."""
    from prefect.schedules import Cron

    from flows.pipeline.events import run_events

    planned = plan(inputs, cron=cron, timezone=timezone)
    ensure_pool(pool)
    flow = run_events.from_source(source=str(ROOT), entrypoint=ENTRYPOINT)
    names = []
    for p in planned:
        flow.deploy(name=p.name, work_pool_name=pool, schedules=[Cron(p.cron, timezone=p.timezone)],
                    parameters={"inputs": str(p.event_dir), "out": str(Path(out).resolve())},
                    # the steps' progress lines reach the run's logs on the server
                    job_variables={"env": {"PREFECT_LOGGING_EXTRA_LOGGERS": "chessfed"}},
                    print_next_steps=False, ignore_warnings=True)
        names.append(f"chessfed-run/{p.name}")
    return names
