"""Delivery (DESIGN.md "Publishing": email bulletins): every message is written to the outbox
(``outbox/<key>.eml``, the embedded default) and, when ``[publish] smtp_host`` is set, sent
over SMTP (STARTTLS or implicit TLS, AUTH from the environment) after everything else is
published, recorded in the delivery ledger ``outbox/ledger.csv``.

The ledger is what makes a rerun safe: a message is sent when its key is new or its content
changed since it was sent, never again otherwise. Its row is written (atomically) before a
message goes out (``sending``) and after the server's answer (``sent``, ``failed`` for a 5xx
answer, ``pending`` for a transient failure: a 4xx answer, connection refused or lost, a
timeout). Decision: a row still ``sending`` when a run starts belongs to a run that was killed
while that message was with the server; whether the server took it cannot be known, so it is
not sent again (never twice) but marked ``unknown`` and listed for the office with the
failures. The credentials come only from ``CHESSFED_SMTP_USER`` and ``CHESSFED_SMTP_PASSWORD``
and are written nowhere.
"""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import hashlib
import io
import smtplib
import ssl
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import parseaddr
from pathlib import Path
from typing import TYPE_CHECKING

from flows.io import atomic_write

if TYPE_CHECKING:  # annotations only: the unchanged-event check imports this module without
    from transforms.core.config import PublishConfig  # loading the rulebook (polars)

LEDGER = "outbox/ledger.csv"
FIELDS = ("key", "recipient", "subject", "content_sha256", "status", "attempts", "reply", "time")
USER_ENV, PASSWORD_ENV = "CHESSFED_SMTP_USER", "CHESSFED_SMTP_PASSWORD"
LOOPBACK = ("localhost", "127.0.0.1", "::1")
"""Servers on this machine: their certificate is not checked unless asked (``smtp_verify``)."""
DONE = ("sent", "failed", "unknown")
"""Statuses after which the same content is never sent again."""


def content_digest(msg: EmailMessage) -> str:
    """What a message says, to whom and from whom — every header but ``Date`` and
    ``Message-ID`` (which follow the run) and every part's content: equal digests mean the
    recipient would read the same message."""
    h = hashlib.sha256()
    for part in msg.walk():
        for name, value in part.items():
            if name.lower() not in ("date", "message-id") and not (
                    name.lower() == "content-type" and part.is_multipart()):
                h.update(f"{name}: {value}\n".encode())
        if not part.is_multipart():
            h.update(part.get_payload(decode=True) or b"")
        h.update(b"\0")
    return h.hexdigest()


@dataclass
class Outgoing:
    """One message ready to go: its ledger key, recipient address, subject, digest, bytes."""

    key: str
    recipient: str
    subject: str
    digest: str
    data: bytes

    @classmethod
    def of(cls, key: str, msg: EmailMessage) -> Outgoing:
        # SMTP wants CRLF line ends (smtplib sends bytes as they are)
        return cls(key, parseaddr(str(msg["To"]))[1], str(msg["Subject"]), content_digest(msg),
                   msg.as_bytes(policy=msg.policy.clone(linesep="\r\n")))


def read_ledger(path: Path) -> dict[str, dict[str, str]]:
    """The ledger's rows by key (none if there is no ledger yet)."""
    if not path.exists():
        return {}
    with open(path, newline="", encoding="utf-8") as fh:
        return {r["key"]: {k: r.get(k, "") or "" for k in FIELDS} for r in csv.DictReader(fh)}


def write_ledger(path: Path, rows: Mapping[str, Mapping[str, str]]) -> None:
    """The whole ledger, atomically (temporary file + rename), rows by key."""
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\n")
    w.writeheader()
    for key in sorted(rows):
        w.writerow({k: rows[key].get(k, "") for k in FIELDS})
    atomic_write(path, out.getvalue().encode("utf-8"))


def to_send(ledger: Mapping[str, Mapping[str, str]], outgoing: list[Outgoing]) -> list[Outgoing]:
    """The messages a run sends: new keys, content changed since the ledger's row, and
    ``pending`` ones (a transient failure earlier); never one already sent, failed for good
    or of unknown fate with this content."""
    return [o for o in outgoing if not done(ledger, o.key, o.digest)]


def done(ledger: Mapping[str, Mapping[str, str]], key: str, digest: str) -> bool:
    """Whether the message ``key`` with content ``digest`` needs no sending: the ledger has it
    sent, failed for good or of unknown fate with this content (:data:`DONE`)."""
    row = ledger.get(key)
    return bool(row) and row["content_sha256"] == digest and row["status"] in DONE


class Transient(Exception):
    """A failure worth retrying: a 4xx answer, a refused or lost connection, a timeout."""


class Permanent(Exception):
    """A 5xx answer to this message: not retried; recorded and listed for the office."""


@dataclass
class Delivery:
    """What a run's delivery did: counts and the ledger rows it wrote."""

    sent: int = 0
    failed: int = 0
    pending: int = 0
    skipped: int = 0
    """Messages already sent (or failed for good) with this content: not sent again."""
    unknown: int = 0
    notes: list[str] = field(default_factory=list)


def tls_context(cfg: PublishConfig, event_dir: Path) -> ssl.SSLContext:
    """The TLS context of ``smtp_starttls`` / ``smtp_tls``: the system's authorities, or
    ``smtp_ca_file``. Decision: without ``smtp_verify`` the certificate is checked unless the
    server is on this machine (:data:`LOOPBACK`) and no ``smtp_ca_file`` is given."""
    ca = cfg.smtp_ca_file
    if ca and not Path(ca).is_absolute():
        ca = str(event_dir / ca)
    ctx = ssl.create_default_context(cafile=ca or None)
    verify = cfg.smtp_verify if cfg.smtp_verify is not None else (
        bool(ca) or cfg.smtp_host.lower() not in LOOPBACK)
    if not verify:
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
    return ctx


def connect(cfg: PublishConfig, event_dir: Path, env: Mapping[str, str]) -> smtplib.SMTP:
    """An SMTP session ready to send: TLS as configured, then AUTH when the environment gives
    a user. Raises :class:`Transient` when the server cannot be reached or answers 4xx, and
    :class:`Permanent` when it refuses (5xx: e.g. wrong credentials, AUTH required)."""
    try:
        if cfg.smtp_tls:
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(cfg.smtp_host, cfg.smtp_port, timeout=cfg.smtp_timeout,
                                                  context=tls_context(cfg, event_dir))
        else:
            smtp = smtplib.SMTP(cfg.smtp_host, cfg.smtp_port, timeout=cfg.smtp_timeout)
        smtp.ehlo()
        if cfg.smtp_starttls:
            smtp.starttls(context=tls_context(cfg, event_dir))
            smtp.ehlo()
        user = env.get(USER_ENV, "")
        if user:
            smtp.login(user, env.get(PASSWORD_ENV, ""))
        return smtp
    except smtplib.SMTPResponseException as e:
        raise (Permanent if e.smtp_code >= 500 else Transient)(
            f"{e.smtp_code} {_text(e.smtp_error)}") from None
    except (OSError, smtplib.SMTPException) as e:  # refused, timeout, TLS, disconnect
        raise Transient(f"{type(e).__name__}: {e}") from None


def send_one(smtp: smtplib.SMTP, sender: str, o: Outgoing) -> str:
    """One message in one transaction (MAIL, RCPT, DATA), each answer checked; returns the
    server's final answer."""
    try:
        for code, reply in (smtp.mail(sender), smtp.rcpt(o.recipient)):
            if code >= 400:
                raise _refusal(smtp, code, reply)
        code, reply = smtp.data(o.data)
        if code >= 400:
            raise _refusal(smtp, code, reply)
        return f"{code} {_text(reply)}"
    except smtplib.SMTPResponseException as e:  # e.g. DATA refused before the content
        raise _refusal(smtp, e.smtp_code, e.smtp_error) from None
    except (OSError, smtplib.SMTPServerDisconnected) as e:
        raise Transient(f"{type(e).__name__}: {e}") from None


def _refusal(smtp: smtplib.SMTP, code: int, reply: bytes | str) -> Exception:
    with contextlib.suppress(OSError, smtplib.SMTPException):
        smtp.rset()
    return (Permanent if code >= 500 else Transient)(f"{code} {_text(reply)}")


def _text(reply: bytes | str) -> str:
    text = reply.decode("utf-8", "replace") if isinstance(reply, bytes) else str(reply)
    return " ".join(text.split())


def deliver(out_dir: Path, event_dir: Path, cfg: PublishConfig, outgoing: list[Outgoing], *,
            env: Mapping[str, str], now: Callable[[], dt.datetime] | None = None,
            sleep: Callable[[float], None] = time.sleep) -> Delivery:
    """Send what the ledger says is still to send, one connection at a time, retrying
    transient failures ``smtp_retries`` times with doubling waits, at most
    ``smtp_rate_per_minute`` messages a minute; every state change is in the ledger first."""
    now = now or (lambda: dt.datetime.now(dt.UTC).replace(microsecond=0))
    path = out_dir / LEDGER
    ledger = read_ledger(path)
    report = Delivery()
    for row in ledger.values():
        if row["status"] == "sending":
            row["status"], row["reply"] = "unknown", "the run sending it was interrupted"
            report.unknown += 1
    if report.unknown:
        write_ledger(path, ledger)
    todo = to_send(ledger, outgoing)
    report.skipped = len(outgoing) - len(todo)
    sender = parseaddr(cfg.sender)[1] or cfg.sender
    gap = 60.0 / cfg.smtp_rate_per_minute if cfg.smtp_rate_per_minute else 0.0
    smtp: smtplib.SMTP | None = None
    last = 0.0

    def record(o: Outgoing, status: str, reply: str, *, attempt: bool = True) -> None:
        row = ledger.get(o.key, {})
        same = row.get("content_sha256") == o.digest
        attempts = (int(row.get("attempts") or 0) if same else 0) + (1 if attempt else 0)
        ledger[o.key] = {"key": o.key, "recipient": o.recipient, "subject": o.subject,
                         "content_sha256": o.digest, "status": status, "attempts": str(attempts),
                         "reply": reply, "time": now().isoformat()}
        write_ledger(path, ledger)

    try:
        for i, o in enumerate(todo):
            wait = cfg.smtp_retry_seconds
            unreachable = False
            for attempt in range(1, cfg.smtp_retries + 1):
                try:
                    unreachable = smtp is None
                    if smtp is None:
                        smtp = connect(cfg, event_dir, env)
                    unreachable = False
                    if gap:
                        sleep(max(0.0, last + gap - time.monotonic()))
                    record(o, "sending", "", attempt=False)
                    last = time.monotonic()
                    reply = send_one(smtp, sender, o)
                except Transient as e:
                    record(o, "pending", str(e))
                    if smtp is not None and not _alive(smtp):
                        smtp = None
                    if attempt < cfg.smtp_retries:
                        sleep(wait)
                        wait *= 2
                    continue
                except Permanent as e:
                    record(o, "failed", str(e))
                    report.failed += 1
                    unreachable = smtp is None  # the server refused the session itself
                    break
                record(o, "sent", reply)
                report.sent += 1
                break
            else:
                report.pending += 1
            if unreachable:
                # The server cannot be reached (or refuses every session): the rest wait for
                # the next run instead of each waiting out its retries.
                reason = ledger[o.key]["reply"]
                for rest in todo[i + 1:]:
                    if rest.key not in ledger or ledger[rest.key]["content_sha256"] != rest.digest \
                            or ledger[rest.key]["status"] != "pending":
                        record(rest, "pending", f"not attempted: {reason}", attempt=False)
                    report.pending += 1
                report.notes.append(f"SMTP server {cfg.smtp_host}:{cfg.smtp_port} not usable: {reason}")
                break
    finally:
        if smtp is not None:
            with contextlib.suppress(OSError, smtplib.SMTPException):
                smtp.quit()
    return report


def _alive(smtp: smtplib.SMTP) -> bool:
    try:
        return smtp.noop()[0] == 250
    except (OSError, smtplib.SMTPException):
        return False


def undelivered(ledger: Mapping[str, Mapping[str, str]]) -> list[Mapping[str, str]]:
    """The ledger's rows the office must look at: failed for good, pending, of unknown fate."""
    return [r for _, r in sorted(ledger.items()) if r["status"] in ("failed", "pending", "unknown")]
