"""The Prefect tasks every event flow shares: one task per read, write, render or send, with
retries only on I/O; and ``finish``, which renders, writes, sends and records the manifest.

No task has a cache policy (``NO_CACHE``, the ``event`` task of flows/pipeline/events.py too): Prefect's
default one hashes every input of every call for a cache chessfed never reads (what is built
again is decided by flows/pipeline/unchanged.py and the manifest's ``html_sha256``) — for the demo's
Swiss event every page and PDF, 12 MB, pickled and hashed once per task, about 50 ms each
(measured: 4 such tasks 0.69-0.89 s with it, 0.51-0.55 s without)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import platform
import threading
import time
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

from prefect import Flow, flow, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE
from prefect.states import Completed, State
from prefect.utilities.annotations import quote

from flows import io
from flows.kinds.base import Build, FlowKind
from flows.mail import messages as mail
from flows.mail import outbox
from flows.mail.letters import Letter, without_addresses
from flows.pipeline import last_good, publish_folder, unchanged, workers
from flows.pipeline.manifest import (
    CACHE,
    FILE,
    REBUILD,
    manifest_path,
    manifest_table,
    manifest_text,
    read_manifest,
)
from flows.pipeline.progress import Steps
from flows.registry import flow_kind_of, rules_parts
from flows.site import pages, paging, render
from flows.site.pages import OFFICE, Publication
from transforms.core.config import EventConfig, config_finding
from transforms.core.errors import ConfigError
from transforms.core.ingest import RawFile, ReadLimits
from transforms.kinds import read_limits


def check_config(folder: Path, suffix: str = "") -> EventConfig:
    """Read and load event.toml (every table is validated at load, so a bad key is reported
    before any step runs: ConfigError names the file and the key); ``suffix``: what the file's
    name carries after ``event.toml`` (a last good publication's copy: ``event.toml.txt``).
    Read once while the file is unchanged (:func:`flows.io.load_event_config`): the run's
    choice of the event's kind, its flow's ``read-config`` and the input reader's limits share
    it."""
    return io.load_event_config(folder, suffix)


@task(name="read-config", retries=2, retry_delay_seconds=[1, 3], cache_policy=NO_CACHE)
def read_config(event_dir: Path) -> EventConfig | ConfigError:
    """The event's configuration (:func:`check_config`), or the error that keeps it from being
    used — returned, not raised: reading again would not correct it, and the flow then holds
    the event's last good publication (:mod:`flows.pipeline.last_good`)."""
    try:
        return check_config(event_dir)
    except ConfigError as e:
        return e


@task(name="read-inputs", retries=2, retry_delay_seconds=[1, 3], cache_policy=NO_CACHE)
def read_inputs(event_dir: Path, names: list[str], suffix: str = "") -> dict[str, RawFile]:
    """Read every CSV the event has among ``names`` as strings (absent files are skipped),
    each under the limits its event.toml sets (:func:`transforms.kinds.read_limits`; the
    defaults where event.toml cannot be used); ``suffix``: what the files' names carry after
    the input's name (a last good publication's copies: ``players.csv.txt``)."""
    try:
        cfg: EventConfig | None = check_config(event_dir, suffix)
    except ConfigError:
        cfg = None
    out = {}
    for name in names:
        path = event_dir / f"{name}{suffix}"
        if path.exists():
            out[name] = io.read_csv_strings(path, read_limits(cfg, name) if cfg else ReadLimits())
    return out


def config_error_publication(event_dir: Path, out_dir: Path, error: ConfigError,
                             as_of: dt.date) -> Publication:
    """The office's pages of a run whose event.toml cannot be used: its validation report (the
    error with the key's line) and the office home."""
    path = event_dir / "event.toml"
    text = path.read_bytes().decode("utf-8", "replace") if path.exists() else None
    pub = Publication(out_dir, ctx={"event": {"name": event_dir.name, "venue": "", "dates": "",
                                              "code": ""}, "as_of": as_of.isoformat()})
    pages.publish_validation(pub, None, [config_finding(error, text)], as_of)
    pub.withheld.append(f"event.toml cannot be used ({error}): nothing of this run's inputs is "
                        "published.")
    return pub


def publish_config_error(event_dir: Path, out_dir: Path, error: ConfigError,
                         as_of: dt.date | None = None) -> None:
    """An event published for the first time whose event.toml cannot be used still gets its
    validation report (office) and a public home saying its pages are being prepared (the
    reason is the office's). An event published before keeps its last good publication
    instead (:mod:`flows.pipeline.last_good`, through its flow)."""
    date = as_of or dt.date.today()
    pub = config_error_publication(event_dir, out_dir, error, date)
    pub.ctx["as_of"] = ""
    pub.page("index.html", "index.html", pdf=False, title=event_dir.name, facts=[],
             subtitle="This event's pages are being prepared: they will be published as soon as "
                      "the office has checked its configuration.",
             highlights=[], errors=None, warnings=None, links=[])
    last_good.held_page(pub, pub.withheld, date, None, pub.findings)
    manifest = {"event": event_dir.name, "error": str(error),
                last_good.KEY: last_good.record("not published", date, "", pub.withheld)}
    files = {**pub.files, **DENIED, FILE: manifest_text(manifest)}
    staging = publish_folder.stage(out_dir)
    write_files(staging, files)
    publish_folder.publish(staging, out_dir)


EARLY: dict[str, workers.EarlyPDFs] = {}
"""Each event's PDFs started while its pages are built (by its output folder), from
:func:`early_pdfs` until :func:`render_pdfs` takes them."""


def early_pdfs(out_dir: Path, renderer: str) -> workers.EarlyPDFs | None:
    """What renders an event's PDFs as soon as their HTML is made (``Publication.on_pdf``):
    those :func:`render_pdfs` will render (their HTML changed since the published manifest),
    in the run's process pool; None on a Dask cluster (the PDFs go to it together). The
    pool's renderers start now, in a thread (``workers.warm_up``: each imports WeasyPrint
    while the event's files are read and ranked). Started earlier, while the run's own
    Prefect server boots and its flow run is created, they took the CPU those need: a changed
    result at 3,000 players 17.0 s on average, 15.7 s started here (six runs each, same hour)."""
    if renderer != "local":
        return None
    threading.Thread(target=workers.warm_up, name="chessfed-renderers", daemon=True).start()
    previous = previous_render_hashes(out_dir)
    early = workers.EarlyPDFs(lambda rel, html: previous.get(rel) != render.digest(html))
    EARLY[str(out_dir)] = early
    return early


def discard_early_pdfs(out_dir: Path) -> None:
    """Forget the PDFs an event started early and did not take (it failed before them)."""
    early = EARLY.pop(str(out_dir), None)
    if early is not None:
        early.discard()


@task(name="pdfs", retries=1, retry_delay_seconds=2, cache_policy=NO_CACHE)
def render_pdfs(htmls: dict[str, str], previous: dict[str, str],
                renderer: str = "local", early: str = "") -> dict[str, bytes | None]:
    """Render the PDFs whose HTML changed since the last run (``previous``: path -> sha256 of
    the HTML it was made from); unchanged ones come back as None and are kept. The longest
    documents go first, so that the parallel renderers finish close together. ``renderer``:
    ``local`` (the run's process pool, one per core) or ``dask`` (tasks of the Dask cluster
    the run executes on). ``early``: the output folder whose PDFs :func:`early_pdfs` already
    started (their results are taken, not rendered again)."""
    todo = sorted((p for p, h in htmls.items()
                   if previous.get(p) != render.digest(h)),
                  key=lambda p: (-len(htmls[p]), p))
    batch = [htmls[p] for p in todo]
    if renderer == "dask" and batch:
        pdfs = workers.htmls_to_pdfs_dask(batch)
    else:
        started = EARLY.pop(early, None) if early else None
        pdfs = workers.htmls_to_pdfs(batch, started)
        if started is not None:
            started.discard()  # started but not asked for (a PDF whose HTML was made again)
    out: dict[str, bytes | None] = {p: None for p in htmls}
    out.update(zip(todo, pdfs))
    return out


def write_files(out_dir: Path, files: dict[str, bytes | str], on_disk: AbstractSet[str] = frozenset()
                ) -> list[str]:
    """Write every output atomically; files that are byte-identical are left untouched, and so
    are those of ``on_disk`` (known to be on disk as they are: taken from there this run,
    :func:`unchanged_on_disk`) without reading them again.

    The last guard against a path made from the inputs (the pages name their files through
    ``flows.site.names.file_part``): a path that is absolute, holds a NUL or a backslash, has a
    ``..`` part, or whose folder resolves outside ``out_dir`` (a symbolic link) is refused
    before anything is written — ValueError naming it, so the event fails and says why. (Its
    last part may be a link: a write replaces the link, never what it points to.)"""
    root = Path(out_dir).resolve()
    folders: dict[str, bool] = {}
    for rel in files:
        parts = rel.split("/")
        folder = rel.rpartition("/")[0]
        if folder not in folders and rel and "\0" not in rel:
            resolved = (root / folder).resolve()
            folders[folder] = resolved == root or resolved.is_relative_to(root)
        if (not rel or "\0" in rel or "\\" in rel or rel.startswith("/") or ".." in parts
                or "" in parts or "." in parts or not folders[folder]):
            raise ValueError(f"refusing to write {rel!r}: not a file inside {out_dir}")
    written = []
    for rel, data in sorted(files.items()):
        path = out_dir / rel
        if rel in on_disk and path.exists():
            continue
        raw = io.as_bytes(data)
        if path.exists() and path.read_bytes() == raw:
            continue
        io.atomic_write(path, raw)
        written.append(rel)
    return written


def unchanged_on_disk(pub: Publication) -> set[str]:
    """The files of ``pub`` still as they were taken from the last run's outputs (verified
    against their checksums, :meth:`flows.site.pages.Publication.take`), not replaced since."""
    return {rel for rel in pub.taken_files
            if rel in pub.files and pub.checksums.get(rel, (None,))[0] is pub.files[rel]}


def checksum(pub: Publication, rel: str) -> tuple[str, int]:
    """The sha256 and the size of ``pub.files[rel]`` as written (UTF-8 for text), hashed once
    per content (``pub.checksums``: a file taken from the last run comes with the checksum it
    was verified against)."""
    data = pub.files[rel]
    known = pub.checksums.get(rel)
    if known is not None and known[0] is data:
        return known[1], known[2]
    raw = io.as_bytes(data)
    pub.checksums[rel] = (data, hashlib.sha256(raw).hexdigest(), len(raw))
    return pub.checksums[rel][1], pub.checksums[rel][2]


@task(name="write", retries=2, retry_delay_seconds=[1, 3], cache_policy=NO_CACHE)
def write_outputs(out_dir: Path, files: dict[str, bytes | str]) -> list[str]:
    """:func:`write_files` as a task of the flow that writes (retried: a disk may be busy)."""
    return write_files(out_dir, files)


DENY = "Require all denied\n"
"""An Apache (2.4) ``.htaccess`` that keeps a folder from the web."""
DENIED = {f"{OFFICE}.htaccess": DENY, "outbox/.htaccess": DENY,
          ".htaccess": '<Files "manifest.json">\n  Require all denied\n</Files>\n'}
"""Every event's private parts, marked for a web server to deny (Apache reads these files;
the README gives the nginx lines): the office's pages, the outbox (addresses, letters) and
the manifest (the office's record of the run: its letters by key, its notes)."""


def known_pairings(out_dir: Path) -> dict[str, Any]:
    """The audit's pairings the event's last complete run made (its manifest's ``cache``), by
    their key (:func:`transforms.swiss.event.pairing_key`), when that run was made by this
    program (the same code, templates and libraries: :func:`flows.pipeline.unchanged.
    program_fingerprint`); else none (every round is paired again)."""
    pairings = manifest_table(read_manifest(out_dir), CACHE).get("pairings")
    if (not isinstance(pairings, dict) or pairings.get("program") != unchanged.program_fingerprint()
            or not isinstance(pairings.get("rounds"), dict)):
        return {}
    return pairings["rounds"]


def kept_groups(out_dir: Path, program: str) -> dict[str, dict[str, Any]]:
    """The groups of pages the event's last run published (its manifest's ``cache``:
    :meth:`flows.site.pages.Publication.group`), when that run was made by this ``program``
    (:func:`flows.pipeline.unchanged.program_fingerprint`), each marked ``pdfs_as_rendered``
    when its PDFs are still on disk as rendered from the HTML recorded (the manifest's
    ``html_sha256``; a group without is built again). The group's other files are checked
    when taken."""
    cache = manifest_table(read_manifest(out_dir), CACHE)
    if (cache.get("program") != program
            or not isinstance(cache.get("groups"), dict)):
        return {}
    rendered = previous_render_hashes(out_dir)
    return {name: g | {"pdfs_as_rendered": all(rendered.get(rel) == sha
                                               for rel, sha in g.get("pdfs", {}).items())}
            for name, g in cache["groups"].items() if isinstance(g, dict)}


def previous_render_hashes(out_dir: Path) -> dict[str, str]:
    """The PDFs of the event's last run that may be kept: path -> sha256 of the HTML each was
    rendered from, for those still on disk — none when that run's renderer was another
    (:func:`flows.site.render.renderer_id`: a PDF is its HTML and its renderer), and of those
    only the files still as that run wrote them."""
    data = read_manifest(out_dir)
    if data.get("renderer") != render.renderer_id():
        return {}
    return {o["path"]: o["html_sha256"] for o in data.get("outputs", [])
            if o.get("html_sha256") and _as_recorded(out_dir / o["path"], o)}


def _as_recorded(path: Path, entry: dict[str, Any]) -> bool:
    """The file is on disk with the size and checksum its manifest entry records (a PDF
    replaced or damaged since is rendered again, not adopted)."""
    try:
        return path.stat().st_size == entry.get("bytes") and io.sha256(path) == entry.get("sha256")
    except OSError:
        return False


def event_flow(event_dir: Path, out_dir: Path, as_of: dt.date | None, send_mail: bool,
               renderer: str, kind: FlowKind) -> State:
    """The body of an event's flow (:func:`kind_flow`: one flow per kind of
    :mod:`flows.registry`), each step a task run of its own: the event folder's
    fingerprint (before reading: see flows/pipeline/unchanged.py); ``read-config``,
    ``read-inputs`` (the kind's input files); the kind's ``assemble`` (its rulebook's steps —
    validation, standings, audit, pairing, prizes or the correspondence rules — then
    ``pages``, in memory); what the public may see (:func:`settle`: this run's publication, or
    the last good one held); then :func:`finish` (``pdfs``, ``messages``, ``write``, ``mail``,
    ``manifest``). Returns the flow run's final state (:func:`final_state`)."""
    names = kind.inputs
    started = time.perf_counter()
    inputs_sha = unchanged.inputs_fingerprint(event_dir)
    error: ConfigError | None = None
    pub: Publication | None
    step = Steps(event_dir.name)
    with step("read"):
        loaded = read_config(event_dir)
        if isinstance(loaded, EventConfig):
            names = list(loaded.files) or names  # as the event's kind and rules part ask
        raw = read_inputs(event_dir, names) if isinstance(loaded, EventConfig) else {}
    if isinstance(loaded, ConfigError):
        cfg, error, pub, letters = None, loaded, None, []
        date = unchanged.run_date(event_dir, as_of) or unchanged.decide_run_date(as_of, None)
    else:
        cfg = loaded
        date = unchanged.decide_run_date(as_of, cfg.event.as_of)
        pub, letters = kind.assemble(cfg, raw, date, build_for(kind, cfg, out_dir, renderer, step))
    pub, cfg, letters = settle(pub, cfg, letters, error, event_dir, out_dir, names, date, step)
    manifest = finish(pub, cfg, event_dir, names, date, started, letters, send_mail=send_mail,
                      step=step, renderer=renderer, inputs_sha=inputs_sha)
    return final_state(out_dir, manifest)


def kind_flow(kind: FlowKind) -> Flow:
    """The Prefect flow of one kind of event (named as the kind registers it, e.g.
    ``swiss-event``; each run named after the event folder): :func:`event_flow` with the
    kind's build."""
    def run_kind(event_dir: Path, out_dir: Path, as_of: dt.date | None = None,
                 send_mail: bool = True, renderer: str = "local") -> State:
        return event_flow(event_dir, out_dir, as_of, send_mail, renderer, kind)

    run_kind.__doc__ = f"Run one event folder of kind {kind.kind.value!r} ({kind.summary}) into out_dir."
    return flow(run_kind, name=kind.flow_name, flow_run_name="{event_dir.name}")


def build_for(kind: FlowKind, cfg: EventConfig, out_dir: Path, renderer: str, step: Steps,
              notice: str = "") -> Build:
    """What a kind's build of the event gets from the run (:class:`flows.kinds.base.Build`):
    its step timer, the PDFs rendered as soon as their HTML is made (:func:`early_pdfs`), the
    pages and letters of the rules part the event chooses (:func:`flows.registry.rules_parts`),
    and, for a kind that takes them, the groups of pages and the audit's pairings the last run
    of this program made (:func:`kept_groups`, :func:`known_pairings`)."""
    program = unchanged.program_fingerprint()
    return Build(out_dir, renderer, step, notice, program, early_pdfs(out_dir, renderer),
                 kept_groups(out_dir, program) if kind.uses_last_run else {},
                 known_pairings(out_dir) if kind.uses_last_run else {}, rules_parts(cfg),
                 lambda fn, items: workers.parallel_map(fn, list(items), renderer))


STATE_NAMES = {0: "Completed", 1: "Rejected rows", 3: "Held", 4: "Letters pending"}
"""The name of an event flow run's final state by its outcome (:data:`flows.pipeline.run_index.EXIT_CODES`;
3 is "Partial" for a first publication in part)."""


def final_state(out_dir: Path, manifest: dict[str, Any]) -> State:
    """The event flow run's final state, what an operator sees first in Prefect's UI: Completed
    when published clean, else a Completed state named for what needs the office
    (:data:`STATE_NAMES`: rows rejected, the last good publication held, letters pending or
    failed), its message the console's line; its result the path of the event's manifest (not
    the manifest: Prefect walks a flow's returned value, and a 3,000-player event's manifest,
    which lists every file, cost 0.5 s there). The event's summary goes to a markdown artifact
    (:func:`summary_markdown`, key ``chessfed-<event folder>``)."""
    from flows.pipeline.run_index import outcome

    done = outcome(out_dir.parent, out_dir.name, "ok")
    name = STATE_NAMES.get(done.code, "Completed")
    if done.code == 3 and (manifest.get(last_good.KEY) or {}).get("status") != "held":
        name = "Partial"
    create_markdown_artifact(markdown=summary_markdown(manifest, done.line), key=artifact_key(
        out_dir.name), description=f"{manifest.get('name', out_dir.name)}: what this run published")
    return Completed(name=name, message=done.line, data=str(manifest_path(out_dir)))


def artifact_key(folder: str) -> str:
    """An artifact key from an event folder's name (Prefect's keys: lower-case letters, digits
    and dashes)."""
    return "chessfed-" + "".join(c if c.isalnum() else "-" for c in folder.lower()).strip("-")


def summary_markdown(manifest: dict[str, Any], line: str) -> str:
    """What one event's run published, held back and mailed, for the office reading Prefect's
    UI (the event's flow run's artifact). Names no address (the manifest's notes carry none)."""
    shown = manifest.get(last_good.KEY) or {}
    mail_report = manifest.get("mail") or {}
    outputs = manifest.get("outputs") or []
    public = [o for o in outputs if not str(o["path"]).startswith((OFFICE, "outbox/"))]
    rows = [f"# {manifest.get('name', '')} — as of {manifest.get('as_of', '')}", "",
            f"**{line}**", "", "| | |", "|---|---|",
            f"| Publication | {shown.get('status', '')} |",
            f"| Shown | {shown.get('state', '')} (as of {shown.get('as_of', '')}) |",
            f"| Files | {len(public)} public, {len(outputs) - len(public)} for the office |",
            f"| PDFs rendered | {manifest.get('timings', {}).get('pdfs_rendered', 0)} |",
            f"| Letters | {mail_report.get('messages', 0)} "
            f"({', '.join(f'{k} {v}' for k, v in (mail_report.get('by_kind') or {}).items())}) |",
            *(f"| Mail: {k.replace('_', ' ')} | {mail_report[k]} |"
              for k in ("sent", "not_sent_again", "pending", "failed", "reason", "would_send")
              if mail_report.get(k) not in (None, "", 0))]
    withheld = shown.get("withheld") or []
    if withheld:
        rows += ["", "## Held back", "", *(f"- {w}" for w in withheld)]
    notes = manifest.get("notes") or []
    if notes:
        rows += ["", "## Notes", "", *(f"- {n}" for n in notes)]
    return "\n".join(rows) + "\n"


def settle(pub: Publication | None, cfg: EventConfig | None, letters: list[Letter],
           error: ConfigError | None, event_dir: Path, out_dir: Path, names: list[str],
           date: dt.date, step: Steps) -> tuple[Publication, EventConfig, list[Letter]]:
    """DESIGN.md "Publishing on a bad day" — what this run publishes (:mod:`flows.pipeline.last_good`):
    everything, when nothing of its inputs is withheld (and the inputs are kept as the last
    good ones); else the last good publication rebuilt and marked, with this run's office
    pages, and only the office's letters; else (a first publication) what could be published,
    without the bulletin's letters. ``pub`` is None when event.toml cannot be used
    (``error``)."""
    if pub is not None and not pub.withheld:
        pub.files.update(last_good.snapshot(event_dir, names))
        pub.publication = last_good.record("current", date, pub.state)
        return pub, cfg, letters  # type: ignore[return-value]
    current = pub if pub is not None else config_error_publication(event_dir, out_dir, error, date)
    withheld = current.withheld
    office = [x for x in letters if x.kind in last_good.OFFICE_KINDS]
    last = last_good.find(out_dir)
    if last is None:  # a first publication: what can be published is
        assert pub is not None and cfg is not None  # (no event.toml: publish_config_error)
        last_good.held_page(pub, withheld, date, None, pub.findings)
        pub.publication = last_good.record("partial", date, pub.state, withheld)
        return pub, cfg, [x for x in letters if x.kind != "bulletin"] + last_good.letters(
            cfg, withheld, pub.findings, date, None)
    discard_early_pdfs(out_dir)  # the public PDFs are the last good ones
    good_cfg = check_config(last.folder, last.suffix)
    good_raw = read_inputs(last.folder, list(good_cfg.files) or names, last.suffix)
    good_kind = flow_kind_of(good_cfg.event.kind)  # the kind of the publication held
    good, _ = good_kind.assemble(good_cfg, good_raw, last.as_of, build_for(
        good_kind, good_cfg, out_dir, "held", step, notice=last_good.held_notice(last)))
    held = last_good.hold(good, current, last, withheld, date, current.findings)
    held.publication = last_good.record("held", last.as_of, last.state, withheld,
                                        since=last.since or date.isoformat())
    mail_cfg = cfg or good_cfg
    return held, mail_cfg, office + last_good.letters(mail_cfg, withheld, current.findings, date,
                                                      last)


def finish(pub: Publication, cfg: EventConfig | None, event_dir: Path, input_names: list[str],
           as_of: dt.date, started: float, letters: list[Letter] | None = None,
           send_mail: bool = True, step: Steps | None = None,
           renderer: str = "local", inputs_sha: str | None = None) -> dict[str, Any]:
    """Render PDFs, write the outputs and the outbox, then send (after everything is
    published: a mail failure never blocks publishing), and the manifest (with the timings of
    every step, ``step``). ``inputs_sha``: the event folder's fingerprint taken when the run
    started; with it the final manifest carries the run's rebuild key
    (:mod:`flows.pipeline.unchanged`), so that a rerun with no change does not build again."""
    step = step or Steps(event_dir.name, pub.timings)
    previous = previous_render_hashes(pub.out_dir)
    with step("pdfs") as info:
        pdfs = render_pdfs(quote(pub.pdfs), previous, renderer,
                           str(pub.out_dir) if pub.on_pdf else "")
        rendered = sum(data is not None for data in pdfs.values())
        info["detail"] = f"{rendered} rendered, {len(pdfs) - rendered} unchanged"
    pub.timings["pdfs_rendered"] = rendered
    pdfs.update({rel: None for rel in pub.kept_pdfs if rel not in pdfs})  # kept with their pages
    for rel, data in pdfs.items():
        if data is not None:
            pub.files[rel] = data
    letters = letters or []
    with step("messages") as info:
        outgoing, unmade = compose_task(quote(pub), cfg, quote(letters), quote(pdfs), as_of)
        info["detail"] = f"{len(outgoing)} messages" + (f", {len(unmade)} not made" if unmade else "")
    pub.files.update(DENIED)
    with step("write"):
        publish_task(quote(pub), cfg, event_dir, input_names, as_of, quote(pdfs),
                     {"messages": len(letters), "by_kind": _by_kind(letters), "state": "not sent yet",
                      **unmade_report(unmade)})
    with step("mail"):  # after the switch: the ledger of what went is the published one
        mail_report = mail_task(quote(pub), cfg, event_dir, quote(letters), quote(outgoing),
                                send_mail, quote(unmade))
    step.finish(time.perf_counter() - started)
    key = None
    if inputs_sha is not None and cfg is not None:
        key = unchanged.completed_key(
            unchanged.rebuild_key(inputs_sha, as_of, send_mail, bool(cfg.publish.smtp_host) and send_mail),
            pub.out_dir, {o.key: o.digest for o in outgoing})
    text = manifest_json(pub, cfg, event_dir, input_names, as_of, pdfs, pub.out_dir, mail_report,
                         key=key)
    write_outputs(pub.out_dir, {FILE: text})
    return json.loads(text)


@task(name="publish", retries=2, retry_delay_seconds=[1, 3], cache_policy=NO_CACHE)
def publish_task(pub: Publication, cfg: EventConfig | None, event_dir: Path,
                 input_names: list[str], as_of: dt.date, pdfs: dict[str, bytes | None],
                 mail_report: dict[str, Any]) -> None:
    """The event's outputs written whole in a staging folder with their manifest, then switched
    in one step (flows/pipeline/publish_folder.py): a run killed before the switch leaves the previous
    outputs as they were."""
    staging = publish_folder.stage(pub.out_dir)
    write_files(staging, pub.files, unchanged_on_disk(pub))
    for rel in sorted(pub.paged):
        for stale in paging.stale_parts(staging, rel, pub.files):
            stale.unlink()
    for stale in pub.stale_group_files(set(pdfs)):
        (staging / stale).unlink(missing_ok=True)
    write_files(staging, {FILE: manifest_json(
        pub, cfg, event_dir, input_names, as_of, pdfs, staging, mail_report)})
    publish_folder.publish(staging, pub.out_dir)


@task(name="mail", cache_policy=NO_CACHE)
def mail_task(pub: Publication, cfg: EventConfig | None, event_dir: Path, letters: list[Letter],
              outgoing: list[outbox.Outgoing], send_mail: bool,
              unmade: list[Unmade] = ()) -> dict[str, Any]:
    """:func:`send_letters` as the flow's mail step. No task retries: each message is retried
    by the outbox itself (``[publish] smtp_retries``, with backoff), and what still waits stays
    pending for the next run (``chessfed mail --retry``)."""
    return send_letters(pub, cfg, event_dir, letters, outgoing, send_mail, unmade)


def manifest_json(pub: Publication, cfg: EventConfig | None, event_dir: Path,
                  input_names: list[str], as_of: dt.date, pdfs: dict[str, bytes | None],
                  root: Path, mail_report: dict[str, Any], key: dict[str, Any] | None = None) -> str:
    """The event's manifest (inputs and outputs with their checksums as written under
    ``root``: those of ``pub.files`` from their content, the same bytes :func:`write_files`
    wrote — reading 3,000 pages back cost 0.7 s twice a run at 3,000 players; versions, timings, what the mail did, notes; ``key``: the run's rebuild key,
    in the final manifest of a complete run only)."""
    outputs = []
    for rel in sorted(set(pub.files) | set(pdfs)):
        entry: dict[str, Any] = {"path": rel}
        path = root / rel
        if rel in pub.files:  # as written under root (write_files): hashed once, not read back
            entry["sha256"], entry["bytes"] = checksum(pub, rel)
        elif path.exists():  # a PDF kept from the last run
            entry["sha256"] = io.sha256(path)
            entry["bytes"] = path.stat().st_size
        if rel in pub.pdfs:
            entry["html_sha256"] = render.digest(pub.pdfs[rel])
        elif rel in pub.kept_pdfs:
            entry["html_sha256"] = pub.kept_pdfs[rel]
        outputs.append(entry)
    inputs = [{"path": n, "sha256": io.sha256(event_dir / n), "bytes": (event_dir / n).stat().st_size}
              for n in ["event.toml", *input_names] if (event_dir / n).exists()]
    manifest = {
        "event": cfg.event.id if cfg else event_dir.name,
        "name": cfg.event.name if cfg else event_dir.name,
        "as_of": as_of.isoformat(),
        "inputs": inputs,
        "outputs": outputs,
        "versions": {p: _version(p) for p in ("chessfed", "prefect", "polars", "jinja2", "weasyprint")}
        | {"python": platform.python_version()},
        "renderer": render.renderer_id(),
        "timings": pub.timings,
        "mail": mail_report,
        "notes": pub.notes,
        last_good.KEY: pub.publication,
    }
    if pub.cache:
        manifest[CACHE] = pub.cache
    if key is not None:
        manifest[REBUILD] = key
    return manifest_text(manifest)


@task(name="messages", cache_policy=NO_CACHE)
def compose_task(pub: Publication, cfg: EventConfig | None, letters: list[Letter],
                 pdfs: dict[str, bytes | None], as_of: dt.date
                 ) -> tuple[list[outbox.Outgoing], list[Unmade]]:
    """:func:`compose_letters` as the flow's step that writes every letter as its message."""
    return compose_letters(pub, cfg, letters, pdfs, as_of)


def compose_letters(pub: Publication, cfg: EventConfig | None, letters: list[Letter],
                    pdfs: dict[str, bytes | None], as_of: dt.date
                    ) -> tuple[list[outbox.Outgoing], list[Unmade]]:
    """Every letter as its message, put in the outbox (``outbox/<key>.eml``); attachments
    from this run's files, else the published ones. The Date header is the run's date at
    18:00 UTC, so a rerun writes the same bytes (the message goes with the Date it is sent
    at). A letter whose recipient already got another version of it is a correction
    (:func:`flows.mail.messages.correction_for`: its subject and first line say so, it refers
    to the letter it corrects); the ledger compares the letter without those marks.

    Returns the messages and the letters that could not be made (:class:`Unmade`: a header
    the email library refuses), which the run counts and shows (DESIGN.md "Publishing on a
    bad day": nothing is lost without a word). A letter whose recipient received this very
    content as a correction keeps, in the outbox, the copy that went (``outbox/sent/<key>.eml``:
    :func:`flows.mail.outbox.received_copy`), not a version nobody received."""
    if not letters:
        return [], []
    assert cfg is not None
    files = {**{k: v for k, v in pub.files.items() if isinstance(v, bytes)},
             **{k: v for k, v in pdfs.items() if v is not None}}
    for rel in {a for letter in letters for a in letter.attachments if a not in files}:
        path = pub.out_dir / rel
        if path.exists():
            files[rel] = path.read_bytes()
    date = dt.datetime.combine(as_of, dt.time(18, 0)).strftime("%a, %d %b %Y %H:%M:%S +0000")
    ledger = outbox.read_ledger(pub.out_dir / outbox.LEDGER)
    out: list[outbox.Outgoing] = []
    unmade: list[Unmade] = []
    for letter in letters:
        try:
            kw: dict[str, Any] = {
                "sender": cfg.publish.sender, "subject_prefix": cfg.publish.subject_prefix,
                "site_url": cfg.publish.site_url, "date": date, "attachments": files,
                "signature": f"{cfg.event.organiser} — {cfg.event.contact}"}
            msg = mail.compose(letter, **kw)
            digest = outbox.content_digest(msg)
            row = ledger.get(letter.key)
            copy = pub.out_dir / f"{outbox.SENT}{letter.key}.eml"
            if not copy.exists() and row and row["status"] == "sent":
                copy = pub.out_dir / f"outbox/{letter.key}.eml"  # a ledger of before outbox/sent/
            correction = mail.correction_for(row, digest, msg,
                                             copy.read_bytes() if copy.exists() else None)
            if correction is not None:
                msg = mail.compose(letter, **kw, correction=correction)
        except ValueError as e:  # a header the email library refuses (e.g. a line break)
            pub.notes.append(without_addresses(f"mail: no message {letter.key}: {e}"))
            unmade.append(Unmade(letter.key, letter.kind, letter.to_email, str(e)))
            continue
        received = outbox.received_copy(pub.out_dir, row, digest, str(msg["Message-ID"]))
        if received is not None:  # as it went: its Date, Message-ID and a correction's marks
            pub.files[f"outbox/{letter.key}.eml"] = received
            msg = mail.parsed(received)
        else:
            pub.files[f"outbox/{letter.key}.eml"] = msg.as_bytes()
        out.append(outbox.Outgoing.of(letter.key, msg, digest))
    return out, unmade


@dataclass(frozen=True)
class Unmade:
    """A letter the run meant to send and could not make: its key, kind, recipient and why."""

    key: str
    kind: str
    recipient: str
    reason: str


def unmade_report(unmade: list[Unmade]) -> dict[str, Any]:
    """The manifest's record of the letters not made (none: nothing), without addresses (the
    office's mail page shows them)."""
    if not unmade:
        return {}
    return {"not_made": len(unmade),
            "not_made_letters": [{"key": u.key, "kind": u.kind,
                                  "reason": without_addresses(u.reason)} for u in unmade]}


def mail_how(cfg: EventConfig | None, send_mail: bool) -> str:
    """How this run's messages go, in the office's words."""
    if cfg is None or not cfg.publish.smtp_host:
        return "Written to the outbox only (no [publish] smtp_host): nothing is sent."
    if not send_mail:
        return "Dry run (--dry-run-mail): written to the outbox, nothing sent."
    tls = " with STARTTLS" if cfg.publish.smtp_starttls else " over TLS" if cfg.publish.smtp_tls else ""
    return f"Sent through {cfg.publish.smtp_host}:{cfg.publish.smtp_port}{tls}."


def _by_kind(letters: list[Letter]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for letter in letters:
        counts[letter.kind or "other"] = counts.get(letter.kind or "other", 0) + 1
    return dict(sorted(counts.items()))


def send_letters(pub: Publication, cfg: EventConfig | None, event_dir: Path, letters: list[Letter],
                 outgoing: list[outbox.Outgoing], send_mail: bool,
                 unmade: list[Unmade] = ()) -> dict[str, Any]:
    """Deliver through SMTP when configured (and not a dry run), then the office's mail page
    again with the ledger's state and the letters not made (``unmade``); what happened goes to
    the manifest (with the ledger's letters of unknown fate, however old: each stays on the
    console and in the exit status until the office resolves it with ``chessfed mail``). Any
    failure here is noted, never raised: the site is already published."""
    report: dict[str, Any] = {"messages": len(letters), "by_kind": _by_kind(letters),
                              **unmade_report(list(unmade))}
    if cfg is None:
        return report
    ledger_path = pub.out_dir / outbox.LEDGER
    try:
        if cfg.publish.smtp_host and send_mail:
            held = pub.publication.get("status") == "held"
            d = outbox.deliver(pub.out_dir, event_dir, cfg.publish, outgoing, env=os.environ,
                               stored=held, supersede=not held)
            report |= {"sent": d.sent, "failed": d.failed, "pending": d.pending,
                       "not_sent_again": d.skipped, "superseded": d.superseded,
                       "reason": d.reason}
            pub.notes.append(f"mail: {d.sent} sent, {d.skipped} already sent, {d.failed} failed, "
                             f"{d.pending} pending through {cfg.publish.smtp_host}:{cfg.publish.smtp_port}")
            pub.notes.extend(f"mail: {n}" for n in d.notes)
        elif cfg.publish.smtp_host:
            todo = outbox.to_send(outbox.read_ledger(ledger_path), outgoing)
            report |= {"dry_run": True, "would_send": len(todo)}
            pub.notes.append(f"mail: dry run, {render.plural(len(todo), 'message')} would be sent")
    except Exception as e:  # noqa: BLE001 - mail never blocks publishing; the office is told
        report["error"] = f"{type(e).__name__}: {e}"
        pub.notes.append(f"mail: delivery stopped: {type(e).__name__}: {e}")
    ledger = outbox.read_ledger(ledger_path)
    unknown = sum(r["status"] == "unknown" for r in ledger.values())
    if unknown:
        report["unknown"] = unknown
    pages.publish_mail_page(pub, by_kind=report["by_kind"], ledger=list(ledger.values()),
                            undelivered=outbox.undelivered(ledger), how=mail_how(cfg, send_mail),
                            unmade=[{"key": u.key, "kind": u.kind, "recipient": u.recipient,
                                     "reason": u.reason} for u in unmade])
    write_files(pub.out_dir, {pages.MAIL_PAGE: pub.files[pages.MAIL_PAGE]})
    return report


def _version(pkg: str) -> str:
    try:
        return version(pkg)
    except Exception:  # noqa: BLE001 - a missing optional package is not an error here
        return "not installed"
