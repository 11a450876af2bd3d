"""An event whose last build still stands is not built again: a rerun with no change reports
it "unchanged" instead of rebuilding its pages, PDFs, letters and messages (issue 13: a rerun
with no change in seconds).

The last complete run of an event leaves its **rebuild key** in its ``manifest.json``
(:data:`KEY`, written only with the final manifest, after the mail: a run killed before that
leaves none, so the next run builds again). An event is unchanged when all of these hold
(:func:`stale` returns the first that does not, as the reason to build):

- the key is there and names the same **program**: every source file of ``flows/`` and
  ``transforms/``, every template, and the versions of Python and of the libraries the
  manifest lists (:func:`program_fingerprint`): an upgrade or an edited template builds again;
- the same **inputs**: every file of the event folder, by name and content (a file added,
  changed or removed builds again, not only the files the event reads);
- the same **run date** (``--as-of``, else event.toml's ``as_of``, else today: an event
  without a date builds again the next day) and the same **mail mode** (``--dry-run-mail``);
- every **published file** the manifest lists is there with the checksum it lists (a file
  deleted or edited by hand builds again);
- the **delivery ledger** is as the last run left it, and **no mail is due**: where messages go
  through SMTP, every message of the last run is in the ledger as sent, failed for good or of
  unknown fate with its content (:func:`flows.mail.outbox.done`, the rule the delivery
  itself uses); a pending message (a transient failure) builds and sends again.

A file is read again only when it may have changed since the last check read it (its inode,
size and time: :mod:`flows.pipeline.digests`), so that checking a season of 500 unchanged
events costs seconds. Reading this needs neither Prefect nor the rulebook: ``chessfed run`` checks before it starts
Prefect's server, and does not start it when every event is unchanged."""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import os
import platform
import time
import tomllib
from collections.abc import Iterator
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from flows.mail import outbox
from flows.pipeline.counted_in import series_naming
from flows.pipeline.digests import Digests
from flows.pipeline.manifest import REBUILD, manifest_entries, read_manifest
from flows.site import render

KEY = REBUILD
"""The manifest's entry holding the rebuild key of its run."""

PROJECT = Path(__file__).resolve().parents[2]
PROGRAM = (PROJECT / "flows", PROJECT / "transforms", render.TEMPLATES)
"""What the program is made of, besides its libraries: its code and its templates."""
LIBRARIES = ("chessfed", "prefect", "polars", "jinja2", "weasyprint", "pydyf", "segno")
"""The libraries whose version is part of the program (what the pages and PDFs are made with)."""

_PROGRAM_FILES = Digests()
"""The checksums of the program's files this process has read (a check reads again only a
file changed since: :mod:`flows.pipeline.digests`)."""

SKIPPED: dict[str, float] = {}
"""The events this process found unchanged in its last run (event folder -> seconds the
check took), for the run's ``run.json``."""


def _version(pkg: str) -> str:
    try:
        return version(pkg)
    except PackageNotFoundError:
        return "not installed"


_FIXED: list[str] = []
"""The program's fingerprint while :func:`program_fixed` holds it."""


@contextlib.contextmanager
def program_fixed() -> Iterator[str]:
    """The program's fingerprint taken once for the block (a check of 500 events lists the
    program's files once, not 500 times: 15 ms each)."""
    _FIXED.append(program_fingerprint())
    try:
        yield _FIXED[-1]
    finally:
        _FIXED.pop()


def program_fingerprint(roots: tuple[Path, ...] | None = None) -> str:
    """The program that builds the outputs: the checksum of every file under ``roots``
    (default :data:`PROGRAM`: code and templates, bytecode caches left out) with its path, and
    of the versions of Python and of :data:`LIBRARIES` (computed at every check: the files
    listed again, a file read again only when changed since this process read it; inside
    :func:`program_fixed`, the one it took)."""
    if _FIXED and roots is None:
        return _FIXED[-1]
    h = hashlib.sha256()
    for root in roots or PROGRAM:
        for p in sorted(root.rglob("*")):
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc":
                h.update(f"{p.relative_to(root.parent).as_posix()}\0".encode())
                h.update(bytes.fromhex(_PROGRAM_FILES.hexdigest(p)))
    for pkg in LIBRARIES:
        h.update(f"{pkg}={_version(pkg)}\0".encode())
    h.update(f"python={platform.python_version()}".encode())
    return h.hexdigest()


def inputs_fingerprint(event_dir: Path, digests: Digests | None = None) -> str:
    """Every file of the event folder (and of folders inside it, not following links to
    folders), by path and content; of every other event folder it reads (a series' events:
    :func:`source_folders`); the events beside it that count it (a series naming it: its
    players' pages link them); and the season's rating list it takes (:func:`season_list_stamp`).
    ``digests``: the checksums kept from the last check (a file read only when changed since)."""
    digests = digests or Digests()
    h = hashlib.sha256()
    for name, folder in [("", Path(event_dir)), *source_folders(Path(event_dir))]:
        files = [folder] if folder.is_file() else []
        for at, dirs, names in os.walk(folder):
            dirs.sort()
            files += [Path(at) / n for n in names]
        for p in sorted(files):
            if p.is_file():
                h.update(f"{name}{p.relative_to(folder.parent if p == folder else folder).as_posix()}\0".encode())
                h.update(bytes.fromhex(digests.hexdigest(p)))  # read in pieces: no memory
    h.update(repr(series_naming(Path(event_dir))).encode())
    h.update(season_list_stamp(Path(event_dir)).encode())
    return h.hexdigest()


def season_list_stamp(event_dir: Path) -> str:
    """The season's rating list the event takes (:func:`flows.pipeline.season_lists.stamp`):
    its name, size and time; "" when none or event.toml cannot be used."""
    from flows.io import load_event_config
    from flows.pipeline.season_lists import stamp
    from transforms.core.errors import ConfigError

    try:
        return stamp(event_dir, load_event_config(event_dir))
    except ConfigError:
        return ""


def source_folders(event_dir: Path) -> list[tuple[str, Path]]:
    """The sibling event folders the event reads (``../<name>/``, by that prefix), as its
    event.toml names them (:attr:`transforms.kinds.KindSpec.sources`; a TRF file inside the
    folder, a crosstable, is one of its own files), and the season's member registry beside them
    (for a series, and for an event whose players it checks and fills:
    :mod:`flows.pipeline.season_members`); none when event.toml cannot be used."""
    from flows.io import load_event_config
    from flows.pipeline.season_lists import PLAYER_FILES
    from transforms.core.errors import ConfigError
    from transforms.core.results import is_file
    from transforms.kinds import event_sources, kind_of

    try:
        cfg = load_event_config(event_dir)
    except ConfigError:
        return []
    names = event_sources(cfg)
    reads_registry = (kind_of(cfg).sources is not None  # a series; an event's players file
                      or any(f in cfg.files for f in PLAYER_FILES))
    season = [("../", event_dir.parent / n) for n in ("members.csv",)
              if (event_dir.parent / n).is_file() and reads_registry]
    return season + [(f"../{n}/", event_dir.parent / n) for n in names  # tasks.SEASON_FILES
                     if not is_file(n) and (event_dir.parent / n).is_dir()]


def decide_run_date(as_of: dt.date | None, event_as_of: dt.date | None,
                    today: dt.date | None = None) -> dt.date:
    """The date a run is as of (``[event] as_of`` in inputs/README.md), decided here only: the
    one asked for (``--as-of``), else the event's ``as_of``, else today."""
    return as_of or event_as_of or today or dt.date.today()


def run_date(event_dir: Path, as_of: dt.date | None, today: dt.date | None = None) -> dt.date | None:
    """The date a run of the event is as of, as the event flows take it
    (:func:`decide_run_date`), read from the folder's event.toml without loading it. None when
    event.toml cannot be read (the event then builds, and its flow reports why)."""
    if as_of is not None:
        return as_of
    try:
        data = tomllib.loads((Path(event_dir) / "event.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    value = data.get("event", {}).get("as_of") if isinstance(data.get("event"), dict) else None
    if value is None:
        return decide_run_date(None, None, today)
    return value if type(value) is dt.date else None


def rebuild_key(inputs: str, as_of: dt.date, send_mail: bool, sends: bool) -> dict[str, Any]:
    """The key a run leaves in its manifest. ``inputs``: the event folder's
    :func:`inputs_fingerprint` taken when the run starts, before it reads them (a file changed
    while the run reads makes the next run build again); ``sends``: whether this run's messages
    go through SMTP (``[publish] smtp_host`` and not a dry run)."""
    return {"program": program_fingerprint(), "inputs": inputs, "as_of": as_of.isoformat(),
            "send_mail": bool(send_mail), "sends": bool(sends)}


def completed_key(key: dict[str, Any], out_dir: Path, messages: dict[str, str]) -> dict[str, Any]:
    """The key once the run has sent its mail: with the delivery ledger's checksum and every
    message of the run (key -> content digest)."""
    ledger = Path(out_dir) / outbox.LEDGER
    return {**key, "ledger": _sha256(ledger) if ledger.exists() else None,
            "messages": dict(sorted(messages.items()))}


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def stale(event_dir: Path, out_dir: Path, as_of: dt.date | None, send_mail: bool,
          today: dt.date | None = None, mail: bool = True) -> str | None:
    """Why the event must be built (a sentence for the office), or None when its published
    outputs are those this run would build (the module's docstring lists what is checked;
    ``mail=False``: all but the mail still to send, which :mod:`flows.pipeline.stored_letters` can send
    without building)."""
    digests = Digests.of_event(out_dir)
    reason = _stale(event_dir, out_dir, as_of, send_mail, today, mail, digests)
    digests.save()
    return reason


def _stale(event_dir: Path, out_dir: Path, as_of: dt.date | None, send_mail: bool,
           today: dt.date | None, mail: bool, digests: Digests) -> str | None:
    manifest = manifest_entries(out_dir, (KEY, "outputs"))  # (only these entries parsed)
    if manifest is None:
        return "not published yet"
    key = manifest.get(KEY)
    if not isinstance(key, dict):
        return "the last run did not finish"
    date = run_date(event_dir, as_of, today)
    if date is None:
        return "event.toml cannot be read"
    if key.get("program") != program_fingerprint():
        return "the program changed"
    if key.get("inputs") != inputs_fingerprint(event_dir, digests):
        return "the inputs changed"
    if key.get("as_of") != date.isoformat():
        return f"the run date changed ({key.get('as_of')} -> {date.isoformat()})"
    if key.get("send_mail") != bool(send_mail):
        return "the mail mode changed"
    base = os.path.abspath(out_dir)  # (strings: 100,000 outputs are checked in about a second)
    for o in manifest.get("outputs", []):
        try:
            same = bool(o.get("sha256")) and digests.hexdigest(
                os.path.join(base, o.get("path", ""))) == o["sha256"]
        except OSError:  # missing, or not a file
            same = False
        if not same:
            return f"{o.get('path')} is missing or changed"
    ledger_path = Path(out_dir) / outbox.LEDGER
    if key.get("ledger") != (digests.hexdigest(ledger_path) if ledger_path.exists() else None):
        return "the delivery ledger changed"
    due = mail_due(out_dir, key) if mail else 0
    if due:
        return f"{render.plural(due, 'message')} still to send"
    return None


def mail_due(out_dir: Path, key: dict[str, Any] | None = None) -> int:
    """How many messages of the event's last complete run are still to send (where its
    messages go through SMTP): those the ledger does not have as sent, failed for good or of
    unknown fate with their content (:func:`flows.mail.outbox.done`, the rule the delivery
    itself uses)."""
    if key is None:
        key = read_manifest(out_dir).get(KEY)
    if not isinstance(key, dict) or not key.get("sends"):
        return 0
    ledger = outbox.read_ledger(Path(out_dir) / outbox.LEDGER)
    return sum(not outbox.done(ledger, k, d) and ledger.get(k, {}).get("status") != "superseded"
               for k, d in key.get("messages", {}).items())


def check(event_dir: Path, out_dir: Path, as_of: dt.date | None, send_mail: bool,
          mail: bool = True) -> str | None:
    """:func:`stale`, recording an unchanged event in :data:`SKIPPED` with the check's time."""
    t = time.perf_counter()
    reason = stale(event_dir, out_dir, as_of, send_mail, mail=mail)
    if reason is None:
        SKIPPED[Path(out_dir).name] = round(time.perf_counter() - t, 3)
    return reason
