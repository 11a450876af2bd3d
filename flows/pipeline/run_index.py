"""What a run is over and what it tells at the end, without Prefect (the command line uses it
before deciding whether Prefect is needed at all): the event folders of an inputs folder, the
run's index page of events and the exit status an unattended job reads."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from flows.pipeline.manifest import FILE, manifest_head
from flows.site import render


def event_folders(inputs: Path) -> list[Path]:
    """The event folders of a run: ``inputs`` itself when it has an event.toml, else every
    folder under it that has one, by name. ``inputs`` itself is resolved, so that ``.`` or
    ``..`` give the folder's real name (the outputs go to ``<out>/<name>``, never to ``<out>``
    or beside it)."""
    inputs = Path(inputs)
    if (inputs / "event.toml").exists():
        return [inputs.resolve()]
    return sorted(p for p in inputs.iterdir() if (p / "event.toml").exists())


EVENT_TASK_RUN = "event-{folder.name}"
"""The name of each event's task run in the run's flow (Prefect's template on the event
folder): the run's end waits until every one is recorded (``flows.cli.main.wait_for_task_runs``)."""


def event_task_run(folder: str) -> str:
    """The name of the task run of the event folder ``folder`` (:data:`EVENT_TASK_RUN`)."""
    return EVENT_TASK_RUN.replace("{folder.name}", folder)


EXIT_CODES = {
    0: "every event published from clean inputs",
    1: "every event published, but some input rows were rejected (office/validation.html)",
    2: "an event failed or could not be run (its pages published before stay up)",
    3: "an event was held back at its last good state, or published in part (office/held.html)",
    4: "letters are pending, failed, not made or of unknown fate (office/mail.html; `chessfed mail`)",
}
"""The exit status of ``chessfed run`` (and of ``chessfed mail``): when several apply, the first
of 2, 3, 4, 1 wins, 0 only when none does."""
PRECEDENCE = (2, 3, 4, 1)


@dataclass(frozen=True)
class Outcome:
    """What one event's run came to: its exit status (:data:`EXIT_CODES`) and its console line."""

    code: int
    line: str
    codes: tuple[int, ...] = ()
    """Every status that applies (the line says each)."""


def rejected_rows(folder: Path) -> int:
    """The error rows of an event's published ``office/validation.csv``."""
    path = Path(folder) / "office" / "validation.csv"
    if not path.exists():
        return 0
    with open(path, newline="", encoding="utf-8") as fh:
        return sum(row.get("severity") == "error" for row in csv.DictReader(fh))


def outcome(out: Path, name: str, status: str, *, unchanged: bool = False) -> Outcome:
    """One event's outcome from its run's status ("ok" or "error: …") and what its published
    manifest says: published clean, with rejected rows, held at its last good state (and why),
    published in part, failed; and its letters pending or failed (how many, why)."""
    folder = Path(out) / name
    manifest = manifest_head(folder)
    shown = manifest.get("publication") if isinstance(manifest.get("publication"), dict) else {}
    codes: list[int] = []
    if status != "ok":
        codes.append(2)
        up = (f"; its pages published as of {shown['as_of']} stay up"
              if shown.get("status") in ("current", "held", "partial") else "")
        text = f"failed: {status.removeprefix('error: ')}{up}"
    elif shown.get("status") == "held":
        codes.append(3)
        text = (f"held at its last good state ({shown.get('state') or 'the event'}, published as "
                f"of {shown.get('as_of')}) — " + reasons(shown) + f" ({name}/office/held.html)")
    elif shown.get("status") in ("partial", "not published"):
        codes.append(3)
        text = (("published in part — " if shown["status"] == "partial" else "not published — ")
                + reasons(shown) + f" ({name}/office/held.html)")
    else:
        text = "published"
    rows = rejected_rows(folder) if status == "ok" else 0
    if rows:
        codes.append(1)
        text += (f"; {rows} input {'row' if rows == 1 else 'rows'} rejected "
                 f"({name}/office/validation.html)")
    mail = manifest.get("mail") if status == "ok" and isinstance(manifest.get("mail"), dict) else {}
    pending, failed = int(mail.get("pending") or 0), int(mail.get("failed") or 0)
    if pending:
        codes.append(4)
        why = f" ({mail['reason']})" if mail.get("reason") else ""
        text += (f"; {pending} {'letter' if pending == 1 else 'letters'} pending{why}: they go on "
                 "the next run, or now with `chessfed mail --retry`")
    if failed:
        codes.append(4)
        text += (f"; {failed} {'letter' if failed == 1 else 'letters'} failed for good "
                 f"({name}/office/mail.html)")
    unmade, unknown = int(mail.get("not_made") or 0), int(mail.get("unknown") or 0)
    if unmade:
        codes.append(4)
        text += (f"; {unmade} {'letter' if unmade == 1 else 'letters'} could not be made "
                 f"(a line break or control character in a header value: {name}/office/mail.html)")
    if unknown:
        codes.append(4)
        text += (f"; {unknown} {'letter' if unknown == 1 else 'letters'} of unknown fate (a run "
                 "stopped while the server had it): `chessfed mail --only "
                 f"{name}` says how to resolve")
    if unchanged:
        text += " (unchanged since its last run)"
    code = next((c for c in PRECEDENCE if c in codes), 0)
    return Outcome(code, f"{name}: {text}", tuple(sorted(set(codes))))


def reasons(shown: dict) -> str:
    """The reasons a publication gives for what it holds back, as one clause."""
    return " ".join(str(w).rstrip(".") + "." for w in shown.get("withheld", [])).rstrip(".")


def exit_status(out: Path, status: dict[str, str]) -> int:
    """What an unattended job learns from a run (:data:`EXIT_CODES`): the most serious of the
    events' outcomes."""
    codes = {c for name, s in status.items() for c in outcome(out, name, s).codes}
    return next((c for c in PRECEDENCE if c in codes), 0)


def site_index(out: Path, folders: list[str], status: dict[str, str],
               names: dict[str, str]) -> str:
    """The run's index page: every event folder with its status, this run's where it ran,
    else what its last published manifest says."""
    events = []
    for name in folders:
        manifest = manifest_head(out / name)
        title = names.get(name) or manifest.get("name") or name
        shown = manifest.get("publication") if isinstance(manifest.get("publication"), dict) else {}
        kind = shown.get("status", "current" if manifest.get("as_of") else "not published")
        when = shown.get("as_of") or manifest.get("as_of", "")
        if kind in ("current", "held") and when:
            state = "published"
            detail = f"as of {when}" + (f": the {shown['state']}" if shown.get("state") else "")
            if kind == "held":
                detail += "; newer results are being checked"
        elif kind == "partial":
            state, detail = "published in part", f"as of {when}; more pages follow once checked"
        else:
            state, detail = "not published yet", "its pages are being prepared"
        if name in status and status[name] != "ok" and state != "not published yet":
            detail += "; an update is pending"
        elif name not in status:
            detail += " (not run this time)"
        # Decision: no error text on this public page (the office's console, run.json and the
        # event's office pages say what went wrong).
        events.append({"href": folder_href(name), "name": title, "status": state,
                       "css": "ok" if state == "published" else "warning", "detail": detail})
    return render.render_page("site.html", title="Events", subtitle=(
        "Every event of this folder: its pages, standings, pairings and prizes."), events=events)


def folder_href(name: str) -> str:
    """DESIGN.md "Publishing on a bad day" (input never trusted) — the link from the run's index
    to an event folder's home: the name percent-encoded (RFC 3986: every character but letters,
    digits and ``-._~``), so that a folder named ``javascript:alert(1)`` is never a URL scheme
    (its colon is ``%3A``) and one named ``..\\x`` or ``a?b#c`` is one path segment that stays
    on the site."""
    return quote(name, safe="") + "/index.html"


def listed_events(out: Path, folders: list[str]) -> list[str]:
    """The events the run's index lists: this run's and those other runs published into the
    same output folder (one deployment per event: each run has one event, the index has them
    all)."""
    others = sorted(p.name for p in out.iterdir() if not p.name.startswith(".")
                    and (p / FILE).exists()) if out.exists() else []
    return sorted(set(folders) | set(others))
