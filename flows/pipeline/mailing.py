"""An event's letters as its run sends them (DESIGN.md "Publishing": one message per
recipient, sent once): each letter made a message in the outbox (a correction where its
recipient has another version; a letter that cannot be made counted, never dropped), then
delivered through SMTP when configured, and the office's mail page from the delivery ledger."""


from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flows.mail import messages as mail
from flows.mail import outbox
from flows.mail.letters import Letter, without_addresses
from flows.pipeline.outputs import write_files
from flows.site import pages, render
from flows.site.pages import Publication
from transforms.core.config import EventConfig


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
            msg, digest = mail.compose_digest(letter, **kw)
            row = ledger.get(letter.key)
            copy = pub.out_dir / f"{outbox.SENT}{letter.key}.eml"
            if not copy.exists() and row and row["status"] == "sent":
                copy = pub.out_dir / f"outbox/{letter.key}.eml"  # a ledger of before outbox/sent/
            correction = mail.correction_for(row, digest, msg,
                                             copy.read_bytes() if copy.exists() else None)
            if correction is not None:
                msg = mail.compose(letter, **kw, correction=correction)
        except ValueError as e:  # a header the email library refuses (e.g. a line break)
            pub.outcome.notes.append(without_addresses(f"mail: no message {letter.key}: {e}"))
            unmade.append(Unmade(letter.key, letter.kind, letter.to_email, str(e)))
            continue
        received = outbox.received_copy(pub.out_dir, row, digest, str(msg["Message-ID"]))
        if received is not None:  # as it went: its Date, Message-ID and a correction's marks
            pub.files[f"outbox/{letter.key}.eml"] = data = received
            msg = mail.parsed(received)
        else:
            pub.files[f"outbox/{letter.key}.eml"] = data = msg.as_bytes()
        out.append(outbox.Outgoing.of(letter.key, msg, digest, data))
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


def by_kind(letters: list[Letter]) -> dict[str, int]:
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
    report: dict[str, Any] = {"messages": len(letters), "by_kind": by_kind(letters),
                              **unmade_report(list(unmade))}
    if cfg is None:
        return report
    ledger_path = pub.out_dir / outbox.LEDGER
    try:
        if cfg.publish.smtp_host and send_mail:
            held = pub.outcome.publication.get("status") == "held"
            d = outbox.deliver(pub.out_dir, event_dir, cfg.publish, outgoing, env=os.environ,
                               stored=held, supersede=not held)
            report |= {"sent": d.sent, "failed": d.failed, "pending": d.pending,
                       "not_sent_again": d.skipped, "superseded": d.superseded,
                       "reason": d.reason}
            pub.outcome.notes.append(f"mail: {d.sent} sent, {d.skipped} already sent, {d.failed} failed, "
                             f"{d.pending} pending through {cfg.publish.smtp_host}:{cfg.publish.smtp_port}")
            pub.outcome.notes.extend(f"mail: {n}" for n in d.notes)
        elif cfg.publish.smtp_host:
            todo = outbox.to_send(outbox.read_ledger(ledger_path), outgoing)
            report |= {"dry_run": True, "would_send": len(todo)}
            pub.outcome.notes.append(f"mail: dry run, {render.plural(len(todo), 'message')} would be sent")
    except Exception as e:  # noqa: BLE001 - mail never blocks publishing; the office is told
        report["error"] = f"{type(e).__name__}: {e}"
        pub.outcome.notes.append(f"mail: delivery stopped: {type(e).__name__}: {e}")
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
