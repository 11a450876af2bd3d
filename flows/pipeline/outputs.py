"""What an event's run writes and what it takes from the last run's outputs (DESIGN.md
"Outputs", "Publishing on a bad day"): every file written atomically inside the event's
folder (the last guard against a path made from the inputs), what a web server must deny, the
manifest of a run, the office's pages of a run whose event.toml cannot be used; and, from the
last run's manifest, the PDFs, groups of pages and pairings that may be taken again, the PDFs
started early."""


from __future__ import annotations

import datetime as dt
import hashlib
import platform
import threading
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from importlib.metadata import version
from pathlib import Path
from typing import Any

from flows import io
from flows.pipeline import last_good, publish_folder, unchanged, workers
from flows.pipeline.manifest import (
    CACHE,
    FILE,
    REBUILD,
    manifest_table,
    manifest_text,
    read_manifest,
)
from flows.site import pages, render
from flows.site.pages import OFFICE, Publication
from transforms.core.config import EventConfig, config_finding
from transforms.core.errors import ConfigError


def config_error_publication(event_dir: Path, out_dir: Path, error: ConfigError,
                             as_of: dt.date) -> Publication:
    """The office's pages of a run whose event.toml cannot be used: its validation report (the
    error with the key's line) and the office home."""
    path = event_dir / "event.toml"
    text = path.read_bytes().decode("utf-8", "replace") if path.exists() else None
    pub = Publication(out_dir, ctx={"event": {"name": event_dir.name, "venue": "", "dates": "",
                                              "code": ""}, "as_of": as_of.isoformat()})
    pages.publish_validation(pub, None, [config_finding(error, text)], as_of)
    pub.outcome.withheld.append(f"event.toml cannot be used ({error}): nothing of this run's inputs is "
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
    last_good.held_page(pub, pub.outcome.withheld, date, None, pub.outcome.findings)
    manifest = {"event": event_dir.name, "error": str(error),
                last_good.KEY: last_good.record("not published", date, "", pub.outcome.withheld)}
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
    in this process's renderers (the run's process pool, or a Dask worker's own renderer:
    ``workers.renderer_processes``); None where this process renders its PDFs itself. The
    renderers start now, in a thread (``workers.warm_up``: each imports WeasyPrint while the
    event's files are read and ranked). Started earlier, while the run's own Prefect server
    boots and its flow run is created, they took the CPU those need: a changed result at 3,000
    players 17.0 s on average, 15.7 s started here (six runs each, same hour)."""
    if not workers.renderer_processes(renderer):
        return None
    threading.Thread(target=workers.warm_up, args=(renderer,), name="chessfed-renderers",
                     daemon=True).start()
    previous = previous_render_hashes(out_dir)
    early = workers.EarlyPDFs(lambda rel, html: previous.get(rel) != render.digest(html), renderer)
    EARLY[str(out_dir)] = early
    return early


def discard_early_pdfs(out_dir: Path) -> None:
    """Forget the PDFs an event started early and did not take (it failed before them)."""
    early = EARLY.pop(str(out_dir), None)
    if early is not None:
        early.discard()


def write_files(out_dir: Path, files: Mapping[str, io.Content], on_disk: AbstractSet[str] = frozenset()
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
    return {rel for rel in pub.reuse.taken_files
            if rel in pub.files and pub.reuse.checksums.get(rel, (None,))[0] is pub.files[rel]}


def checksum(pub: Publication, rel: str) -> tuple[str, int]:
    """The sha256 and the size of ``pub.files[rel]`` as written (UTF-8 for text), hashed once
    per content (``pub.reuse.checksums``: a file taken from the last run comes with the checksum it
    was verified against)."""
    data = pub.files[rel]
    known = pub.reuse.checksums.get(rel)
    if known is not None and known[0] is data:
        return known[1], known[2]
    raw = io.as_bytes(data)
    pub.reuse.checksums[rel] = (data, hashlib.sha256(raw).hexdigest(), len(raw))
    return pub.reuse.checksums[rel][1], pub.reuse.checksums[rel][2]


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


def known_results(out_dir: Path, program: str) -> dict[str, Any]:
    """The results of the other events the event read in its last run (a series' events: its
    manifest's ``cache``), by name, with the checksum of what they were computed from, when that
    run was made by this ``program``; else none (every event is read again)."""
    results = manifest_table(read_manifest(out_dir), CACHE).get("results")
    if (not isinstance(results, dict) or results.get("program") != program
            or not isinstance(results.get("events"), dict)):
        return {}
    return results["events"]


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
        elif rel in pub.reuse.kept_pdfs:
            entry["html_sha256"] = pub.reuse.kept_pdfs[rel]
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
        "notes": pub.outcome.notes,
        last_good.KEY: pub.outcome.publication,
    }
    if pub.reuse.cache:
        manifest[CACHE] = pub.reuse.cache
    if key is not None:
        manifest[REBUILD] = key
    return manifest_text(manifest)


def _version(pkg: str) -> str:
    try:
        return version(pkg)
    except Exception:  # noqa: BLE001 - a missing optional package is not an error here
        return "not installed"
