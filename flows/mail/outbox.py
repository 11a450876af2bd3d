"""Delivery (DESIGN.md "Publishing": email bulletins): every message is written to the outbox
(``outbox/<key>.eml``, the embedded default) and, when ``[publish] smtp_host`` is set, sent
over SMTP (STARTTLS or implicit TLS, AUTH from the environment) after everything else is
published, recorded in the delivery ledger ``outbox/ledger.csv``.

The ledger is what makes a rerun safe: a message is sent when its key is new or its content
changed since it was sent, never again otherwise. Its row is written (atomically) once the
server has accepted the sender and the recipient and the message is about to be handed over
(``sending``, just before DATA: from then on it may have arrived) and after the server's
answer (``sent``; ``failed`` only for a permanent answer about the recipient; ``pending`` for
everything else: a 4xx answer, a connection refused or lost, a timeout, a session the server
refuses — AUTH, TLS — or content it refuses). A run stopped before DATA leaves the message as
it was (pending, or no row): the next run sends it. A message whose content changed after its
recipient got it is a correction (:class:`flows.mail.messages.Correction`). Decision: a row
still ``sending`` when a run starts belongs to a run that was killed while the server had that
message; whether the server took it cannot be known, so it is not sent again (never twice) but
marked ``unknown``, shown on the console and by the exit status of every run and of ``chessfed
mail`` until the office says what became of it (``chessfed mail --delivered KEY`` or
``--resend KEY``). The credentials come only from ``CHESSFED_SMTP_USER`` and
``CHESSFED_SMTP_PASSWORD`` and are written nowhere.
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
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import format_datetime, parseaddr
from pathlib import Path
from typing import TYPE_CHECKING

from flows.io import atomic_write, neutral_cell, original_cell

if TYPE_CHECKING:  # annotations only: the unchanged-event check imports this module without
    from transforms.core.config import PublishConfig  # loading the rulebook (polars

LEDGER = "outbox/ledger.csv"
SENT = "outbox/sent/"
"""Where each message is kept as it was last sent (``outbox/sent/<key>.eml``, with the Date it
went with): what a later correction is compared with."""
FIELDS = ("key", "recipient", "subject", "content_sha256", "status", "attempts", "reply", "time",
          "message_id", "sent_sha256", "sent_message_id", "sent_time", "references")
"""The ledger's columns. ``content_sha256``/``message_id``: the message of the latest run;
``sent_*``: the version its recipient last received (``references``: that one's References),
which a changed message corrects."""
USER_ENV, PASSWORD_ENV = "CHESSFED_SMTP_USER", "CHESSFED_SMTP_PASSWORD"
LOOPBACK = ("localhost", "127.0.0.1", "::1")
"""Servers on this machine: their certificate is not checked unless asked (``smtp_verify``)."""
DONE = ("sent", "failed", "unknown")
"""Statuses after which the same content is never sent again by a run (``chessfed mail
--retry`` sends ``failed`` ones again when asked)."""
LEFT_OUT = ("date", "message-id", "in-reply-to", "references")
"""Headers that follow the sending, not what the message says."""


def content_digest(msg: EmailMessage) -> str:
    """What a message says, to whom and from whom — every header but those of
    :data:`LEFT_OUT` (which follow the run and the sending) and every part's content: equal
    digests mean the recipient would read the same message."""
    h = hashlib.sha256()
    for part in msg.walk():
        for name, value in part.items():
            if name.lower() not in LEFT_OUT and not (
                    name.lower() == "content-type" and part.is_multipart()):
                h.update(f"{name}: {value}\n".encode())
        if not part.is_multipart():
            h.update(part.get_payload(decode=True) or b"")
        h.update(b"\0")
    return h.hexdigest()


@dataclass
class Outgoing:
    """One message ready to go: its ledger key, recipient address, subject, digest (of the
    letter as it would be without a correction's marks: what the ledger compares), bytes,
    Message-ID and References."""

    key: str
    recipient: str
    subject: str
    digest: str
    data: bytes
    message_id: str = ""
    references: str = ""

    @classmethod
    def of(cls, key: str, msg: EmailMessage, digest: str | None = None,
           written: bytes | None = None) -> Outgoing:
        """The message ready to go; ``written``: its bytes as the outbox has them (line ends
        LF), from which the CRLF the SMTP server wants (smtplib sends bytes as they are) is made
        without writing the message again when they hold no CR of their own."""
        if written is not None and b"\r" not in written:
            data = written.replace(b"\n", b"\r\n")
        else:
            data = msg.as_bytes(policy=msg.policy.clone(linesep="\r\n"))
        return cls(key, parseaddr(str(msg["To"]))[1], str(msg["Subject"]),
                   digest or content_digest(msg), data,
                   str(msg["Message-ID"] or ""), str(msg["References"] or ""))


def dated(data: bytes, when: dt.datetime) -> bytes:
    """The message ``data`` with the Date it is sent at (RFC 5322 3.6.1: "the date and time at
    which the creator of the message indicated that the message was complete and ready to
    enter the mail delivery system"), in place of the run's date it was written with."""
    head, sep, body = data.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    stamp = b"Date: " + format_datetime(when).encode()
    lines = [stamp if line.lower().startswith(b"date:") else line for line in lines]
    if stamp not in lines:
        lines.insert(0, stamp)
    return b"\r\n".join(lines) + sep + body


def read_ledger(path: Path) -> dict[str, dict[str, str]]:
    """The ledger's rows by key (none if there is no ledger yet); a column an older ledger does
    not have reads as empty. Each cell as it was given to :func:`write_ledger`
    (:func:`flows.io.original_cell`: without the mark against formulas)."""
    if not path.exists():
        return {}
    with open(path, newline="", encoding="utf-8") as fh:
        rows = [{k: original_cell(r.get(k) or "") for k in FIELDS} for r in csv.DictReader(fh)]
    return {r["key"]: r for r in rows}


def write_ledger(path: Path, rows: Mapping[str, Mapping[str, str]]) -> None:
    """The whole ledger, atomically (temporary file + rename), rows by key; each cell through
    :func:`flows.io.neutral_cell` (a recipient's name or a subject from the inputs opens in a
    spreadsheet as text, never as a formula; :func:`read_ledger` gives back the value). Lines
    end with CRLF (RFC 4180): the csv module quotes a cell holding a character of its line end,
    so a carriage return in a server's reply stays inside its cell."""
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\r\n")
    w.writeheader()
    for key in sorted(rows):
        row = rows[key]
        w.writerow({k: neutral_cell("" if row.get(k) is None else str(row[k])) for k in FIELDS})
    atomic_write(path, out.getvalue().encode("utf-8"))


def to_send(ledger: Mapping[str, Mapping[str, str]], outgoing: list[Outgoing],
            again: tuple[str, ...] = ()) -> list[Outgoing]:
    """The messages a run sends: new keys, content changed since the ledger's row, and
    ``pending`` ones (a transient failure earlier); never one already sent, failed for good
    or of unknown fate with this content — but those whose status is in ``again``
    (``chessfed mail --retry``: ``failed``)."""
    return [o for o in outgoing if not done(ledger, o.key, o.digest)
            or ledger[o.key]["status"] in again]


def done(ledger: Mapping[str, Mapping[str, str]], key: str, digest: str) -> bool:
    """Whether the message ``key`` with content ``digest`` needs no sending: the ledger has it
    sent, failed for good or of unknown fate with this content (:data:`DONE`)."""
    row = ledger.get(key)
    return bool(row) and row["content_sha256"] == digest and row["status"] in DONE


def sent_version(row: Mapping[str, str] | None) -> tuple[str, str, str, str]:
    """(digest, Message-ID, time, References) of the version of a letter its recipient last
    received, from its ledger row ("" each when none went); a ledger written before these
    columns existed gives its ``sent`` row's own digest."""
    if not row:
        return "", "", "", ""
    if row.get("sent_sha256"):
        return row["sent_sha256"], row.get("sent_message_id", ""), row.get("sent_time", ""), \
            row.get("references", "")
    if row.get("status") == "sent":
        return row["content_sha256"], row.get("message_id", ""), row.get("time", ""), ""
    return "", "", "", ""


class Transient(Exception):
    """A failure worth retrying: a 4xx answer, a refused or lost connection, a timeout."""


class SessionRefused(Exception):
    """The server cannot be used for any message now: it refused the session (TLS, AUTH or the
    sender) — a permanent answer about the session, not about a recipient. Every message stays
    pending for the next run."""


class Uncertain(Exception):
    """The connection was lost or timed out while the server had the message (DATA sent, its
    answer never came): it may have been delivered. Decision: not sent again (never twice),
    of unknown fate until the office says (``chessfed mail --delivered`` / ``--resend``)."""


class Permanent(Exception):
    """A permanent answer about this message's recipient (5xx to RCPT, or 5.1.x at DATA: no
    such mailbox, bad domain): the message is failed, not retried, listed for the office."""


class Refused(Exception):
    """A permanent answer to this message's content (5xx at DATA that names no recipient
    problem, e.g. a size or policy limit): it stays pending with the server's answer for the
    office to look at; the other messages go on."""


@dataclass
class Delivery:
    """What a run's delivery did: counts and the ledger rows it wrote."""

    sent: int = 0
    failed: int = 0
    pending: int = 0
    skipped: int = 0
    """Messages already sent (or failed for good) with this content: not sent again."""
    unknown: int = 0
    superseded: int = 0
    """Pending messages a later letter replaced before they could go (not sent)."""
    notes: list[str] = field(default_factory=list)
    reason: str = ""
    """Why messages wait (the server's answer or the connection error), "" when none wait."""


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
    :class:`SessionRefused` when it refuses the session (5xx: e.g. wrong credentials, AUTH or
    TLS required): about the session, never about a recipient, so no message fails for it."""
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
        raise (SessionRefused if e.smtp_code >= 500 else Transient)(
            f"{e.smtp_code} {_text(e.smtp_error)}") from None
    except smtplib.SMTPNotSupportedError as e:  # e.g. AUTH or STARTTLS not offered
        raise SessionRefused(f"{type(e).__name__}: {e}") from None
    except (OSError, smtplib.SMTPException) as e:  # refused, timeout, TLS, disconnect
        raise Transient(f"{type(e).__name__}: {e}") from None


def about_recipient(code: int, reply: str, *, rcpt: bool) -> bool:
    """DESIGN.md "Publishing on a bad day" — whether a 5xx answer is about the recipient (the
    letter is then failed for good): at RCPT any 5xx but those of authentication and policy
    (530, enhanced status 5.7.x: the session is not allowed to send, e.g. AUTH required or
    relaying denied); at DATA only the addressing statuses 5.1.x (bad mailbox, bad domain,
    bad syntax) and 5.2.1 (mailbox disabled) of RFC 3463, which some servers give after the
    content."""
    status = reply.split(" ", 1)[0] if reply[:2] in ("5.", "4.") else ""
    if rcpt:
        return code >= 500 and code != 530 and not status.startswith("5.7.")
    return code >= 500 and (status.startswith("5.1.") or status == "5.2.1")


def send_one(smtp: smtplib.SMTP, sender: str, o: Outgoing, data: bytes | None = None,
             given: Callable[[], None] = lambda: None) -> str:
    """One message in one transaction (MAIL, RCPT, DATA), each answer checked; returns the
    server's final answer. ``data``: the bytes to send (default the message's own); ``given``:
    called once MAIL and RCPT are accepted, just before DATA hands the message over (the
    ledger's ``sending``)."""
    stage = "MAIL"
    try:
        code, reply = smtp.mail(sender)
        if code >= 400:
            raise _refusal(smtp, "MAIL", code, reply)
        stage = "RCPT"
        code, reply = smtp.rcpt(o.recipient)
        if code >= 400:
            raise _refusal(smtp, "RCPT", code, reply)
        stage = "DATA"
        given()
        code, reply = smtp.data(data if data is not None else o.data)
        if code >= 400:
            raise _refusal(smtp, "DATA", code, reply)
        return f"{code} {_text(reply)}"
    except smtplib.SMTPResponseException as e:  # e.g. DATA refused before the content
        raise _refusal(smtp, stage, e.smtp_code, e.smtp_error) from None
    except (OSError, smtplib.SMTPServerDisconnected) as e:
        if stage == "DATA":  # the server may have the message: its answer never came
            raise Uncertain(f"{type(e).__name__} during DATA: {e}") from None
        raise Transient(f"{type(e).__name__}: {e}") from None


def _refusal(smtp: smtplib.SMTP, stage: str, code: int, reply: bytes | str) -> Exception:
    with contextlib.suppress(OSError, smtplib.SMTPException):
        smtp.rset()
    text = f"{code} {_text(reply)}"
    if code < 500:
        return Transient(text)
    if stage == "MAIL":  # the sender refused (e.g. 530 authentication required): every message
        return SessionRefused(text)
    if about_recipient(code, _text(reply), rcpt=stage == "RCPT"):
        return Permanent(text)
    return SessionRefused(text) if stage == "RCPT" else Refused(text)


def _text(reply: bytes | str) -> str:
    text = reply.decode("utf-8", "replace") if isinstance(reply, bytes) else str(reply)
    return " ".join(text.split())


def deliver(out_dir: Path, event_dir: Path, cfg: PublishConfig, outgoing: list[Outgoing], *,
            env: Mapping[str, str], now: Callable[[], dt.datetime] | None = None,
            sleep: Callable[[float], None] = time.sleep, again: tuple[str, ...] = (),
            stored: bool = False, supersede: bool = False) -> Delivery:
    """Send what the ledger says is still to send (and, ``again``, those of these statuses:
    ``chessfed mail --retry``) — ``outgoing``, this run's messages, and with ``stored`` also
    every earlier message the ledger has pending, as the outbox keeps it (a run that holds the
    event's last good publication, ``chessfed mail --retry``); with ``supersede`` a pending
    message this run no longer makes (a later letter about the same thing replaced it) is
    marked ``superseded`` instead — one connection at a time, retrying transient failures
    ``smtp_retries`` times with doubling waits, at most ``smtp_rate_per_minute`` messages a
    minute; every state change is in the ledger first. Each message goes with the Date it is
    sent at and is kept as sent (``outbox/sent/<key>.eml``).

    Decision (no letter lost): only a permanent answer about the recipient (:class:`Permanent`)
    fails a message; a session the server refuses (AUTH, TLS, the sender: 5xx), a server that
    cannot be reached, a 4xx and a refused content leave it pending — the first two stop the
    run's delivery at once (every message left waits, "not attempted") and the next run sends
    them, once."""
    now = now or (lambda: dt.datetime.now(dt.UTC).replace(microsecond=0))
    path = out_dir / LEDGER
    ledger = read_ledger(path)
    report = Delivery()
    for row in ledger.values():
        if row["status"] == "sending":
            row["status"], row["reply"] = "unknown", "the run sending it was interrupted"
            report.unknown += 1
    mine = {o.key for o in outgoing}
    if stored:
        outgoing = outgoing + [o for o in stored_messages(out_dir, ledger, exclude=mine, again=again)]
    elif supersede:
        for key, row in ledger.items():
            if row["status"] == "pending" and key not in mine:
                row["status"], row["reply"] = "superseded", SUPERSEDED
                report.superseded += 1
    if report.unknown or report.superseded:
        write_ledger(path, ledger)
    todo = to_send(ledger, outgoing, again)
    report.skipped = len(outgoing) - len(todo)
    sender = parseaddr(cfg.sender)[1] or cfg.sender
    gap = 60.0 / cfg.smtp_rate_per_minute if cfg.smtp_rate_per_minute else 0.0
    smtp: smtplib.SMTP | None = None
    last = 0.0

    def record(o: Outgoing, status: str, reply: str, *, attempt: bool = True,
               when: dt.datetime | None = None) -> None:
        row = ledger.get(o.key, {})
        same = row.get("content_sha256") == o.digest
        attempts = (int(row.get("attempts") or 0) if same else 0) + (1 if attempt else 0)
        sent = sent_version(row)
        stamp = (when or now()).isoformat()
        ledger[o.key] = {"key": o.key, "recipient": o.recipient, "subject": o.subject,
                         "content_sha256": o.digest, "status": status, "attempts": str(attempts),
                         "reply": reply, "time": stamp, "message_id": o.message_id,
                         "sent_sha256": sent[0], "sent_message_id": sent[1], "sent_time": sent[2],
                         "references": sent[3]}
        if status == "sent":
            ledger[o.key] |= {"sent_sha256": o.digest, "sent_message_id": o.message_id,
                              "sent_time": stamp, "references": o.references}
        write_ledger(path, ledger)

    try:
        for i, o in enumerate(todo):
            wait = cfg.smtp_retry_seconds
            stop = ""
            for attempt in range(1, cfg.smtp_retries + 1):
                try:
                    if smtp is None:
                        smtp = connect(cfg, event_dir, env)
                    if gap:
                        sleep(max(0.0, last + gap - time.monotonic()))
                    last = time.monotonic()
                    when = now()
                    data = dated(o.data, when)
                    reply = send_one(smtp, sender, o, data,
                                     given=lambda o=o: record(o, "sending", "", attempt=False))
                except Transient as e:
                    record(o, "pending", str(e))
                    if smtp is not None and not _alive(smtp):
                        smtp = None
                    if attempt < cfg.smtp_retries:
                        sleep(wait)
                        wait *= 2
                        continue
                    if smtp is None:
                        stop = str(e)  # the server cannot be reached: the rest wait
                    report.pending += 1
                    break
                except SessionRefused as e:
                    record(o, "pending", str(e))
                    report.pending += 1
                    stop = str(e)
                    break
                except Refused as e:
                    record(o, "pending", str(e))
                    report.pending += 1
                    report.reason = report.reason or str(e)
                    break
                except Permanent as e:
                    record(o, "failed", str(e))
                    report.failed += 1
                    break
                except Uncertain as e:
                    record(o, "unknown", str(e))
                    report.unknown += 1
                    if smtp is not None and not _alive(smtp):
                        smtp = None
                    break
                atomic_write(out_dir / f"{SENT}{o.key}.eml", data)
                record(o, "sent", reply, when=when)
                report.sent += 1
                break
            if stop:
                # The server cannot be reached or refuses every session: the rest wait for the
                # next run instead of each waiting out its retries.
                for rest in todo[i + 1:]:
                    row = ledger.get(rest.key)
                    if row is None or row["content_sha256"] != rest.digest or row["status"] != "pending":
                        record(rest, "pending", f"not attempted: {stop}", attempt=False)
                    report.pending += 1
                report.reason = stop
                report.notes.append(f"SMTP server {cfg.smtp_host}:{cfg.smtp_port} not usable: {stop}")
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


SUPERSEDED = "not sent: a later letter about the same thing replaced it before it could go"


def stored_messages(out_dir: Path, ledger: Mapping[str, Mapping[str, str]], *,
                    exclude: set[str] = frozenset(), again: tuple[str, ...] = ()
                    ) -> list[Outgoing]:
    """The messages the ledger has ``pending`` (and of the statuses ``again``), as the outbox
    keeps them (``outbox/<key>.eml``, written by the run that made them), but those of
    ``exclude``; a message whose file is gone or is another version than the ledger's
    (its Message-ID differs) is left out."""
    out = []
    for key, row in sorted(ledger.items()):
        if key in exclude or row["status"] not in ("pending", *again):
            continue
        path = Path(out_dir) / f"outbox/{key}.eml"
        if not path.is_file():
            continue
        msg = message_from_bytes(path.read_bytes(), policy=policy.default)
        assert isinstance(msg, EmailMessage)
        if row.get("message_id") and str(msg["Message-ID"] or "") != row["message_id"]:
            continue
        out.append(Outgoing.of(key, msg, row["content_sha256"]))
    return out


def received_copy(out_dir: Path, row: Mapping[str, str] | None, digest: str,
                  message_id: str) -> bytes | None:
    """The message as its recipient received it (``outbox/sent/<key>.eml``) when the ledger's
    ``row`` says the version sent says what ``digest`` says (:func:`sent_version`) but went
    with another Message-ID than ``message_id`` (the letter made again now): a correction,
    whose marks a rebuild would not make again. None otherwise — the letter made now is then
    the one its recipient has (the same Message-ID; only the Date differs, which
    ``outbox/sent/`` keeps as it went). So the outbox never holds a version nobody received."""
    if not row or row.get("status") != "sent" or sent_version(row)[0] != digest \
            or row.get("sent_message_id") in ("", message_id):
        return None
    path = Path(out_dir) / f"{SENT}{row['key']}.eml"
    if not path.is_file():
        return None
    data = path.read_bytes()
    msg = message_from_bytes(data, policy=policy.default)
    if str(msg["Message-ID"] or "") != row.get("sent_message_id"):
        return None
    return data


def resolve(out_dir: Path, key: str, status: str, now: dt.datetime) -> str:
    """The office's word on a letter of unknown fate (``chessfed mail --delivered`` /
    ``--resend``): ``sent`` (its recipient has it: the ledger records the version it was
    sending as sent, and the outbox's copy of it is kept as the one sent) or ``pending`` (it
    did not arrive: the next run, or ``--retry``, sends it once). Returns "" when done, else
    why not (no such letter, not of unknown fate)."""
    path = Path(out_dir) / LEDGER
    ledger = read_ledger(path)
    row = ledger.get(key)
    if row is None:
        return f"no letter {key!r} in {path}"
    if row["status"] != "unknown":
        return f"letter {key!r} is {row['status']}, not of unknown fate"
    stamp = now.isoformat()
    if status == "sent":
        copy = Path(out_dir) / f"outbox/{key}.eml"
        refs = ""
        if copy.is_file():
            msg = message_from_bytes(copy.read_bytes(), policy=policy.default)
            if str(msg["Message-ID"] or "") == row["message_id"]:
                atomic_write(Path(out_dir) / f"{SENT}{key}.eml", copy.read_bytes())
                refs = str(msg["References"] or "")
        row |= {"status": "sent", "reply": "marked delivered by the office", "time": stamp,
                "sent_sha256": row["content_sha256"], "sent_message_id": row["message_id"],
                "sent_time": row["time"] or stamp, "references": refs}
    else:
        row |= {"status": "pending", "reply": "to send again: marked not delivered by the office",
                "time": stamp}
    write_ledger(path, ledger)
    return ""


def undelivered(ledger: Mapping[str, Mapping[str, str]]) -> list[Mapping[str, str]]:
    """The ledger's rows the office must look at: failed for good, pending, of unknown fate."""
    return [r for _, r in sorted(ledger.items())
            if r["status"] in ("failed", "pending", "unknown", "superseded")]
