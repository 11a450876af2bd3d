"""What a run is over and what it tells at the end, without Prefect (the command line uses it
before deciding whether Prefect is needed at all): the event folders of an inputs folder, the
run's index page of events and the exit status an unattended job reads."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from flows.publish import render


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


def site_index(out: Path, folders: list[str], status: dict[str, str],
               names: dict[str, str]) -> str:
    """The run's index page: every event folder with its status, this run's where it ran,
    else what its last published manifest says."""
    events = []
    for name in folders:
        manifest = manifest_of(out / name)
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


def listed_events(out: Path, folders: list[str]) -> list[str]:
    """The events the run's index lists: this run's and those other runs published into the
    same output folder (one deployment per event: each run has one event, the index has them
    all)."""
    others = sorted(p.name for p in out.iterdir() if not p.name.startswith(".")
                    and (p / "manifest.json").exists()) if out.exists() else []
    return sorted(set(folders) | set(others))


def manifest_of(folder: Path) -> dict:
    """An event folder's published manifest (empty when there is none or it cannot be read)."""
    try:
        return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
