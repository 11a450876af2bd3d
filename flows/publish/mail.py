"""Email bulletins: one MIME message per recipient (HTML body, PDF attached), written to the
outbox as .eml (the embedded default) or sent through SMTP when the event configures it."""

from __future__ import annotations

import datetime as dt
import hashlib
import smtplib
from collections.abc import Iterable
from email.message import EmailMessage
from email.utils import formataddr
from typing import Any

from flows.publish import render
from transforms.core.config import EventConfig


def build_message(*, sender: str, to_name: str, to_email: str, subject: str, html: str,
                  text: str, attachments: Iterable[tuple[str, bytes]], date: str,
                  domain: str = "chessfed.local") -> EmailMessage:
    """A multipart message; ``date`` is given (no clock here) so reruns are byte-identical
    except where the event data changed."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = formataddr((to_name, to_email))
    msg["Subject"] = subject
    msg["Date"] = date
    digest = hashlib.sha256(f"{to_email}\n{subject}\n{date}".encode()).hexdigest()[:24]
    msg["Message-ID"] = f"<{digest}@{domain}>"
    msg.set_content(text)
    msg.add_alternative(html, subtype="html")
    for filename, data in attachments:
        msg.add_attachment(data, maintype="application", subtype="pdf", filename=filename)
    # Fixed MIME boundaries (the library draws random ones) keep reruns byte-identical.
    for i, part in enumerate(p for p in msg.walk() if p.is_multipart()):
        part.set_boundary(f"=_chessfed_{digest}_{i}")
    return msg


def send_smtp(host: str, port: int, messages: list[EmailMessage], *, timeout: float = 30) -> int:
    """Send the messages over one SMTP connection; returns how many were accepted."""
    with smtplib.SMTP(host, port, timeout=timeout) as smtp:
        for m in messages:
            smtp.send_message(m)
    return len(messages)


def outbox(cfg: EventConfig, recipients: list[tuple[str, str]], *, subject: str, lead: str,
           highlights: list[str], as_of: dt.date) -> list[tuple[str, dict[str, Any]]]:
    """One message per recipient, as (relative .eml path, build_message arguments); the
    bulletin PDF is attached when it has been rendered."""
    specs = []
    date = dt.datetime.combine(as_of, dt.time(18, 0)).strftime("%a, %d %b %Y %H:%M:%S +0000")
    for name, email in recipients:
        html = render.render_page("email.html", subject=subject, recipient=name, lead=lead,
                                  highlights=highlights,
                                  signature=f"{cfg.event.organiser} — {cfg.event.contact}")
        text = "\n".join([f"Dear {name},", "", lead, "", *[f"- {h}" for h in highlights], "",
                          "The full bulletin is attached as a PDF.", "", cfg.event.organiser])
        safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in email)
        specs.append((f"outbox/{safe}.eml", dict(
            sender=cfg.publish.sender, to_name=name, to_email=email,
            subject=f"{cfg.publish.subject_prefix}{subject}", html=html, text=text, date=date)))
    return specs
