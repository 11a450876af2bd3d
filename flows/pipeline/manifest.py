"""An event's manifest (``outputs/<event>/manifest.json``, DESIGN.md "Outputs": inputs with
checksums, outputs, versions, timings, what the mail did, notes): the one module that reads it,
writes it and knows its keys. Every other module asks here.

Its keys (written by :func:`flows.pipeline.outputs.manifest_json`):

| key | what | written by, read by |
|---|---|---|
| ``event``, ``name``, ``as_of`` | the event's id and name, the run date | the run; the run's index |
| ``inputs``, ``outputs`` | each file with its sha256 and size; a PDF with the sha256 of its HTML | the run; the unchanged check, the PDFs and groups kept |
| ``versions``, ``renderer`` | the libraries; the PDF renderer's versions | the run; the PDFs kept |
| ``timings`` | each step of the event | :mod:`flows.pipeline.progress`; ``run.json`` |
| ``mail`` | what the mail did: counts, letters not made, the reason letters wait | the run, :mod:`flows.pipeline.stored_letters`; the exit status |
| ``notes`` | the office's notes of the run | the run |
| :data:`PUBLICATION` | what the public pages show (``current``, ``held``, ``partial``) | :mod:`flows.pipeline.last_good` |
| :data:`CACHE` | what the next run may take again: groups of pages, the audit's pairings | the kinds' builds (through the pipeline) |
| :data:`REBUILD` | the rebuild key of a complete run | :mod:`flows.pipeline.unchanged` |
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

FILE = "manifest.json"
"""The manifest's name in the event's output folder."""
PUBLICATION = "publication"
"""What the public pages show (:func:`flows.pipeline.last_good.record`)."""
CACHE = "cache"
"""What the next run may take instead of computing it again (``groups``, ``pairings``)."""
REBUILD = "rebuild_key"
"""The rebuild key of the event's last complete run (:mod:`flows.pipeline.unchanged`)."""


def manifest_path(folder: Path) -> Path:
    """Where an event's manifest is (``folder``: the event's output folder)."""
    return Path(folder) / FILE


def read_manifest(folder: Path) -> dict[str, Any]:
    """An event's published manifest (empty when there is none or it cannot be read), to read,
    not to change (:func:`fresh_manifest` for a copy to change): the same file (its inode, size and time,
    as a new manifest replaces the old: flows/io.py ``atomic_write``) is parsed once (a
    3,000-player event's manifest is 2 MB, and a run's end read it three times, ~0.1 s each)."""
    known = _stamp(folder)
    return _parsed(*known) if known else {}


BULKY = ("inputs", "outputs", CACHE)
"""The manifest's entries that grow with the event (every file, the groups kept): what
:func:`manifest_head` leaves out."""


def manifest_head(folder: Path) -> dict[str, Any]:
    """An event's published manifest without its :data:`BULKY` entries (its name, dates,
    publication, mail, timings, notes, rebuild key), to read: parsed once per file (its inode,
    size and time) and kept for a whole run's events — the run's end reads every event's (500
    events: the outcome of each, the index, the run's summary), which :func:`read_manifest`
    keeps only a few of."""
    known = _stamp(folder)
    return _head(*known) if known else {}


def _stamp(folder: Path) -> tuple[str, int, int, int] | None:
    """The manifest's file with its inode, size and time (what its parsed copies are kept
    by); None when there is none."""
    p = manifest_path(folder)
    try:
        st = p.stat()
    except OSError:
        return None
    return str(p), st.st_ino, st.st_size, st.st_mtime_ns


@lru_cache(maxsize=4096)
def _head(file: str, ino: int, size: int, mtime_ns: int) -> dict[str, Any]:
    return {k: v for k, v in _parsed(file, ino, size, mtime_ns).items() if k not in BULKY}


def manifest_entries(folder: Path, keys: tuple[str, ...]) -> dict[str, Any] | None:
    """Only the entries ``keys`` of an event's published manifest (None when there is none or
    it cannot be read), to read: the unchanged check needs the rebuild key and the outputs,
    and a manifest's :data:`CACHE` is most of it (a series over 334 events: 12 of its 16.5 MB;
    500 events' manifests, 45 MB, took the check 1.1 s to parse whole). A manifest as
    :func:`manifest_text` writes it has each top-level entry on a line of its own: only the
    lines of ``keys`` are parsed; one in another layout is parsed whole. Parsed once per file
    (its inode, size and time) and ``keys``."""
    known = _stamp(folder)
    return _entries(*known, keys) if known else None


@lru_cache(maxsize=64)
def _entries(file: str, ino: int, size: int, mtime_ns: int, keys: tuple[str, ...]
             ) -> dict[str, Any] | None:
    try:
        text = Path(file).read_text(encoding="utf-8")
    except (OSError, ValueError):
        return None
    lines = text.split("\n")
    if len(lines) >= 3 and lines[0] == "{" and lines[-2:] == ["}", ""]:
        out: dict[str, Any] = {}
        try:
            for line in lines[1:-2]:
                key, _, value = line.partition(": ")
                name = json.loads(key)
                if name in keys:
                    out[name] = json.loads(value.removesuffix(","))
            return out
        except ValueError:
            pass  # not one entry a line after all: parsed whole
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return {k: v for k, v in data.items() if k in keys} if isinstance(data, dict) else None


def fresh_manifest(folder: Path) -> dict[str, Any]:
    """An event's manifest read anew, to change and write back (:func:`manifest_text`)."""
    try:
        data = json.loads(manifest_path(folder).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


@lru_cache(maxsize=8)
def _parsed(file: str, ino: int, size: int, mtime_ns: int) -> dict[str, Any]:
    try:
        data = json.loads(Path(file).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def manifest_text(manifest: dict[str, Any]) -> str:
    """A manifest as it is written: JSON, each top-level key on a line of its own, its value
    without spaces (a series over 334 events: 41.6 MB indented, 16.5 MB so; written and read
    several times a run)."""
    return "{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v, separators=(',', ':'))}"
                               for k, v in manifest.items()) + "\n}\n"


def manifest_table(manifest: dict[str, Any], key: str) -> dict[str, Any]:
    """One of the manifest's tables (``mail``, ``timings``, :data:`PUBLICATION`,
    :data:`CACHE`, :data:`REBUILD` …), empty when it has none."""
    value = manifest.get(key)
    return value if isinstance(value, dict) else {}
