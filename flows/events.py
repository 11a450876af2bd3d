"""The top-level flow: every event folder under an inputs folder, each an independent
sub-flow; one event's failure is reported and does not stop the others."""

from __future__ import annotations

import datetime as dt
import traceback
from pathlib import Path

from prefect import flow

from flows.correspondence import correspondence_event
from flows.swiss import swiss_event
from flows.tasks import publish_config_error
from transforms.core.config import EventConfig, EventKind, parse_event_config
from transforms.core.errors import ConfigError


def check_config(folder: Path) -> EventConfig:
    """Read and load event.toml (every table is validated at load, so a bad key is reported
    before any step runs: ConfigError names the file and the key)."""
    name = f"{folder.name}/event.toml"
    try:
        text = (folder / "event.toml").read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError(name, "", f"not UTF-8 text: {e}") from None
    return parse_event_config(text, file=name)


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
            try:
                cfg = check_config(folder)
            except ConfigError as err:
                publish_config_error(folder, out / folder.name, err)
                status[folder.name] = f"error: {err}"
                continue
            runner = swiss_event if cfg.event.kind is EventKind.SWISS else correspondence_event
            runner(folder, out / folder.name, as_of)
            status[folder.name] = "ok"
        except Exception as e:  # noqa: BLE001 - one event's failure must not stop the others
            status[folder.name] = f"error: {e}"
            traceback.print_exc()
    return status
