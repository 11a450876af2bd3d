"""The top-level flow: every event folder under an inputs folder, each an independent
sub-flow; one event's failure is reported and does not stop the others."""

from __future__ import annotations

import csv
import datetime as dt
import json
import traceback
from pathlib import Path

from prefect import flow

from flows.correspondence import correspondence_event
from flows.publish import render
from flows.swiss import swiss_event
from flows.tasks import publish_config_error, write_outputs
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


def event_folders(inputs: Path) -> list[Path]:
    """The event folders of a run: ``inputs`` itself when it has an event.toml, else every
    folder under it that has one, by name. ``inputs`` itself is resolved, so that ``.`` or
    ``..`` give the folder's real name (the outputs go to ``<out>/<name>``, never to ``<out>``
    or beside it)."""
    inputs = Path(inputs)
    if (inputs / "event.toml").exists():
        return [inputs.resolve()]
    return sorted(p for p in inputs.iterdir() if (p / "event.toml").exists())


def exit_status(out: Path, status: dict[str, str]) -> int:
    """What an unattended job learns from a run: 0 every event published with clean inputs,
    1 every event published but some input rows were rejected (errors in an event's
    ``office/validation.csv``), 2 an event failed or could not be run."""
    if any(s != "ok" for s in status.values()):
        return 2
    for name in status:
        path = Path(out) / name / "office" / "validation.csv"
        if path.exists():
            with open(path, newline="", encoding="utf-8") as fh:
                if any(row.get("severity") == "error" for row in csv.DictReader(fh)):
                    return 1
    return 0


@flow(name="chessfed-run")
def run_events(inputs: Path, out: Path, as_of: dt.date | None = None,
               only: list[str] | None = None, send_mail: bool = True) -> dict[str, str]:
    """Run every event folder (one with an event.toml) under ``inputs`` into ``out/<folder>``,
    then write the run's index of events (``out/index.html``). ``inputs`` may also be a single
    event folder. ``send_mail=False`` (``--dry-run-mail``): the outbox is written, nothing is
    sent through SMTP."""
    inputs, out = Path(inputs), Path(out)
    folders = event_folders(inputs)
    status: dict[str, str] = {}
    names: dict[str, str] = {}
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
            names[folder.name] = cfg.event.name
            runner = swiss_event if cfg.event.kind is EventKind.SWISS else correspondence_event
            runner(folder, out / folder.name, as_of, send_mail)
            status[folder.name] = "ok"
        except Exception as e:  # noqa: BLE001 - one event's failure must not stop the others
            status[folder.name] = f"error: {e}"
            traceback.print_exc()
    # the index lists also the events other runs published into the same folder (one
    # deployment per event: each run has one event, the index has them all)
    others = sorted(p.name for p in out.iterdir() if (p / "manifest.json").exists()) if out.exists() else []
    listed = sorted({f.name for f in folders} | set(others))
    write_outputs.fn(out, {"index.html": site_index(out, listed, status, names)})
    return status


def site_index(out: Path, folders: list[str], status: dict[str, str],
               names: dict[str, str]) -> str:
    """The run's index page: every event folder with its status, this run's where it ran,
    else what its last published manifest says."""
    events = []
    for name in folders:
        manifest = _manifest(out / name)
        title = names.get(name) or manifest.get("name") or name
        if name in status:
            ok = status[name] == "ok"
            state = "published" if ok else "not published"
            detail = (f"as of {manifest.get('as_of', '')}" if ok
                      else status[name].removeprefix("error: ")[:300])
        else:
            state = "not run this time"
            detail = (f"last published as of {manifest['as_of']}" if manifest.get("as_of")
                      else "never published")
        events.append({"href": f"{name}/index.html", "name": title, "status": state,
                       "css": "ok" if state == "published" else "warning", "detail": detail})
    return render.render_page("site.html", title="Events", subtitle=(
        "Every event of this folder: its pages, standings, pairings and prizes."), events=events)


def _manifest(folder: Path) -> dict:
    try:
        return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
