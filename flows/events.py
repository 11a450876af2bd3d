"""The top-level flow: every event folder under an inputs folder, each an independent
sub-flow; one event's failure is reported and does not stop the others."""

from __future__ import annotations

import datetime as dt
import traceback
from pathlib import Path

from prefect import flow

from flows.common import publish_config_error
from flows.correspondence import correspondence_event, rules_of
from flows.swiss import swiss_event
from transforms.core.config import EventConfig, EventKind, from_table, parse_event_config
from transforms.core.errors import ConfigError
from transforms.fide.tiebreaks import parse_code, parse_edition
from transforms.national_junior.entries import JuniorEntryRules


def check_config(folder: Path) -> EventConfig:
    """Load event.toml and every rules table it has, so a bad key is reported before any
    step runs (ConfigError names the file and the key)."""
    name = f"{folder.name}/event.toml"
    try:
        text = (folder / "event.toml").read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError(name, "", f"not UTF-8 text: {e}") from None
    cfg = parse_event_config(text, file=name)
    if cfg.swiss is not None:
        for code in cfg.swiss.tiebreaks:
            parse_code(code, file=name)
        parse_edition(cfg.swiss.tiebreak_edition, file=name)
        if "entries" in cfg.rules:
            from_table(JuniorEntryRules, cfg.rules["entries"], file=name, key="entries")
    else:
        rules_of(cfg)
    return cfg


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
