"""Letters that did not go, sent later without building the event again (DESIGN.md "Publishing on
a bad day": a letter is marked failed only by a permanent answer about its recipient; everything
else stays pending and goes out exactly once later).

Used by ``chessfed mail`` (list the letters not delivered; ``--retry``: send the pending ones now
and the failed ones again) and by ``chessfed run`` when an event is unchanged but for letters
still to send: the messages are those the outbox keeps (``outbox/<key>.eml``, as the run that
made them wrote them), the ledger says which to send, and afterwards the office's mail page,
the manifest's mail report and its rebuild key follow the ledger, so that the next run finds the
event unchanged."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from typing import Any

from flows import io
from flows.mail import outbox
from flows.pipeline import last_good, unchanged
from flows.pipeline.manifest import (
    FILE,
    fresh_manifest,
    manifest_path,
    manifest_table,
    manifest_text,
    read_manifest,
)
from flows.site.pages import MAIL_PAGE


def event_config(folder: Path, out_dir: Path) -> Any:
    """The event's configuration for sending: its event.toml, else (it cannot be used) the
    one of its last good publication; None when neither can be read."""
    from flows.pipeline.tasks import check_config
    from transforms.core.errors import ConfigError

    try:
        return check_config(folder)
    except ConfigError:
        last = last_good.find(out_dir)
        if last is None:
            return None
        try:
            return check_config(last.folder, last.suffix)
        except ConfigError:
            return None


def waiting(out_dir: Path) -> list[dict[str, str]]:
    """The ledger's letters not delivered: pending, failed, of unknown fate, superseded."""
    return outbox.undelivered(outbox.read_ledger(Path(out_dir) / outbox.LEDGER))


def not_made(out_dir: Path) -> list[dict[str, str]]:
    """The letters the event's last run meant to send and could not make (its manifest's
    mail report: key, kind, reason)."""
    rows = manifest_table(read_manifest(Path(out_dir)), "mail").get("not_made_letters")
    return [r for r in rows if isinstance(r, dict)] if isinstance(rows, list) else []


def resolve(folder: Path, out_dir: Path, key: str, status: str) -> str:
    """The office's word on a letter of unknown fate (:func:`flows.mail.outbox.resolve`), then
    the mail page and manifest brought up to date (:func:`after_mail`); "" when done, else
    why not. The caller holds the event's lock."""
    why = outbox.resolve(Path(out_dir), key, status,
                         dt.datetime.now(dt.UTC).replace(microsecond=0))
    if why:
        return why
    cfg = event_config(folder, out_dir)
    if cfg is not None and manifest_path(Path(out_dir)).exists():
        after_mail(Path(out_dir), cfg, outbox.Delivery())
    return ""


def send_stored(folder: Path, out_dir: Path, cfg: Any, *, again: tuple[str, ...] = (),
                env: Any = None) -> outbox.Delivery:
    """Send the event's pending letters as its outbox keeps them (and those of the statuses
    ``again``, e.g. ``failed``), then bring its mail page and manifest up to date
    (:func:`after_mail`). The caller holds the event's lock."""
    d = outbox.deliver(Path(out_dir), Path(folder), cfg.publish, [],
                       env=os.environ if env is None else env, stored=True, again=again)
    after_mail(Path(out_dir), cfg, d)
    return d


def after_mail(out_dir: Path, cfg: Any, d: outbox.Delivery) -> None:
    """The office's mail page again from the ledger, the manifest's mail report (what is still
    pending or failed, and why) and its rebuild key's ledger checksum, so that a run finds the
    event unchanged when nothing else changed."""
    from flows.pipeline.mailing import mail_how
    from flows.pipeline.outputs import write_files
    from flows.site.pages import Publication, event_context, publish_mail_page

    manifest = fresh_manifest(out_dir)
    ledger = outbox.read_ledger(out_dir / outbox.LEDGER)
    mail = dict(manifest.get("mail") or {})
    counts = {s: sum(r["status"] == s for r in ledger.values())
              for s in ("pending", "failed", "unknown")}
    mail.update(counts)
    mail["sent_later"] = int(mail.get("sent_later") or 0) + d.sent
    mail["reason"] = (d.reason or mail.get("reason", "")) if counts["pending"] else ""
    try:
        as_of = dt.date.fromisoformat(manifest.get("as_of", ""))
    except ValueError:
        as_of = dt.date.today()
    pub = Publication(out_dir, ctx=event_context(cfg, as_of))
    publish_mail_page(pub, by_kind=mail.get("by_kind", {}), ledger=list(ledger.values()),
                      undelivered=outbox.undelivered(ledger), how=mail_how(cfg, True))
    write_files(out_dir, {MAIL_PAGE: pub.files[MAIL_PAGE]})
    manifest["mail"] = mail
    for o in manifest.get("outputs", []):
        if o.get("path") == MAIL_PAGE and (out_dir / MAIL_PAGE).exists():
            o["sha256"] = io.sha256(out_dir / MAIL_PAGE)
            o["bytes"] = (out_dir / MAIL_PAGE).stat().st_size
    key = manifest.get(unchanged.KEY)
    if isinstance(key, dict):
        path = out_dir / outbox.LEDGER
        key["ledger"] = io.sha256(path) if path.exists() else None
    write_files(out_dir, {FILE: manifest_text(manifest)})
