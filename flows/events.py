"""The top-level flow: every event folder under an inputs folder, each an independent
sub-flow; one event's failure is reported and does not stop the others."""

from __future__ import annotations

import datetime as dt
import tomllib
import traceback
from pathlib import Path

from prefect import flow

from flows.correspondence import correspondence_event
from flows.swiss import swiss_event


def event_kind(event_dir: Path) -> str:
    data = tomllib.loads((event_dir / "event.toml").read_text(encoding="utf-8"))
    return str(data.get("event", {}).get("kind", ""))


@flow(name="chessfed-run")
def run_events(inputs: Path, out: Path, as_of: dt.date | None = None,
               only: list[str] | None = None) -> dict[str, str]:
    """Run every event folder (one with an event.toml) under ``inputs`` into ``out/<folder>``.
    ``inputs`` may also be a single event folder."""
    inputs, out = Path(inputs), Path(out)
    folders = [inputs] if (inputs / "event.toml").exists() else sorted(
        p for p in inputs.iterdir() if (p / "event.toml").exists())
    status: dict[str, str] = {}
    for folder in folders:
        if only and folder.name not in only:
            continue
        try:
            kind = event_kind(folder)
            runner = {"swiss": swiss_event, "correspondence": correspondence_event}.get(kind)
            if runner is None:
                status[folder.name] = f"error: {folder.name}/event.toml: [event].kind {kind!r} is not swiss or correspondence"
                continue
            runner(folder, out / folder.name, as_of)
            status[folder.name] = "ok"
        except Exception as e:  # noqa: BLE001 - one event's failure must not stop the others
            status[folder.name] = f"error: {e}"
            traceback.print_exc()
    return status
