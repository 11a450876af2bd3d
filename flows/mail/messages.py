"""Email messages: one MIME message per letter (plain text and HTML, attachments), written to
the outbox as .eml (the embedded default); delivery over SMTP is flows/mail/outbox.py."""

from __future__ import annotations

import contextlib
import datetime as dt
import difflib
import hashlib
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.headerregistry import BaseHeader, HeaderRegistry
from email.message import EmailMessage
from email.utils import formataddr, parseaddr

from flows.mail.letters import Block, Letter, html_body, text_body
from flows.mail.outbox import content_digest, sent_version
from flows.site.names import file_part


class KeptHeaderClasses(HeaderRegistry):
    """The email library's header registry that makes the class of each header name once:
    the standard one makes a new class for every header of every message (``type(...)`` in
    ``__getitem__``), a third of the time of composing a letter (3,644 letters of a
    correspondence event: 8.9 s, measured with py-spy). The same classes, the same bytes."""

    def __init__(self) -> None:
        super().__init__()
        self._made: dict[str, type[BaseHeader]] = {}

    def __getitem__(self, name: str) -> type[BaseHeader]:
        made = self._made.get(name.lower())
        if made is None:
            made = self._made[name.lower()] = super().__getitem__(name)
        return made


POLICY = policy.default.clone(header_factory=KeptHeaderClasses())
"""The policy the letters are composed with: the email library's default (RFC 5322 and its
successors, UTF-8 headers encoded) with :class:`KeptHeaderClasses`."""


def build_message(*, sender: str, to_name: str, to_email: str, subject: str, html: str,
                  text: str, attachments: Iterable[tuple[str, bytes]], date: str,
                  domain: str = "", key: str = "", in_reply_to: str = "",
                  references: str = "") -> EmailMessage:
    """:func:`build_message_digest` without the digest."""
    return build_message_digest(sender=sender, to_name=to_name, to_email=to_email, subject=subject,
                                html=html, text=text, attachments=attachments, date=date,
                                domain=domain, key=key, in_reply_to=in_reply_to,
                                references=references)[0]


def build_message_digest(*, sender: str, to_name: str, to_email: str, subject: str, html: str,
                         text: str, attachments: Iterable[tuple[str, bytes]], date: str,
                         domain: str = "", key: str = "", in_reply_to: str = "",
                         references: str = "") -> tuple[EmailMessage, str]:
    """A multipart message; ``date`` is given (no clock here) so reruns are byte-identical
    except where the event data changed (the Date of sending replaces it when the message goes:
    :func:`flows.mail.outbox.dated`). Its Message-ID is made from ``key`` and what the
    message says (:func:`flows.mail.outbox.content_digest`): the same letter keeps its
    Message-ID from run to run (a client that sees it twice shows it once), a changed one —
    a correction — gets a new one. ``in_reply_to`` / ``references``: the Message-IDs of the
    letter a correction corrects (RFC 5322 3.6.4), so that it is shown with it.

    Decision: a header value (sender, name, address, subject) holding a line break or any
    other control character (CR, LF, NUL, tab, U+0085, U+2028, U+2029) is refused with
    ValueError — whatever the email library would let through (it passes NUL and the Unicode
    line separators in a name) — so the letter is not made and the run notes it; nothing
    from the inputs can add a header."""
    for what, value in (("sender", sender), ("name", to_name), ("address", to_email),
                        ("subject", subject)):
        bad = [ch for ch in value if unicodedata.category(ch) in ("Cc", "Zl", "Zp")]
        if bad:
            raise ValueError(f"{what} {value!r} holds a line break or control character "
                             f"({', '.join(sorted({f'U+{ord(c):04X}' for c in bad}))})")
    msg = EmailMessage(policy=POLICY)
    msg["From"] = sender
    msg["To"] = formataddr((to_name, to_email))
    msg["Subject"] = subject
    msg["Date"] = date
    msg["Message-ID"] = "<pending>"  # set below, from what the message says
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = references or in_reply_to
    msg.set_content(text)
    msg.add_alternative(html, subtype="html")
    for filename, data in attachments:
        msg.add_attachment(data, maintype="application", subtype="pdf", filename=filename)
    # Fixed MIME boundaries (the library draws random ones) keep reruns byte-identical.
    boundary = hashlib.sha256(f"{key}\n{to_email}\n{subject}".encode()).hexdigest()[:24]
    for i, part in enumerate(p for p in msg.walk() if p.is_multipart()):
        part.set_boundary(f"=_chessfed_{boundary}_{i}")
    content = content_digest(msg)  # the Message-ID is not part of it
    digest = hashlib.sha256(f"{key}\n{content}".encode()).hexdigest()[:24]
    msg.replace_header("Message-ID", f"<{digest}@{domain or sender_domain(sender)}>")
    return msg, content


def sender_domain(sender: str) -> str:
    """The domain of the sender's address (Message-IDs are made in it, RFC 5322 3.6.4), else
    ``chessfed.local``."""
    address = parseaddr(sender)[1]
    domain = address.rpartition("@")[2] if "@" in address else ""
    return domain if domain and all(c.isalnum() or c in ".-" for c in domain) else "chessfed.local"


@dataclass(frozen=True)
class Correction:
    """What makes a message a correction of one its recipient already has: the Message-ID it
    corrects (with that one's own References), when that one was sent, and what changed (the
    first line of the new message)."""

    message_id: str
    references: str = ""
    sent: str = ""
    """When the corrected letter went (ISO datetime, from the ledger)."""
    changes: tuple[str, ...] = ()
    """What changed, each "'old line' is now 'new line'" or the like
    (:func:`what_changed`)."""

    def notice(self) -> str:
        """The first line of the correction: what it replaces and what changed."""
        when = ""
        with contextlib.suppress(ValueError):
            when = f" of {dt.datetime.fromisoformat(self.sent):%d %B %Y}".replace(" 0", " ")
        changed = "; ".join(self.changes) if self.changes else "its details"
        return f"Correction — this letter replaces our letter{when} on the same subject. What changed: {changed}."

    def chain(self) -> str:
        """The References of the correction: the corrected letter's own, then its Message-ID."""
        return " ".join(x for x in (self.references, self.message_id) if x)


CORRECTION_SUBJECT = "Correction: "
"""Put before a correction's subject (after the event's ``subject_prefix``)."""


def compose(letter: Letter, *, sender: str, subject_prefix: str, site_url: str, signature: str,
            date: str, attachments: dict[str, bytes], domain: str = "",
            correction: Correction | None = None) -> EmailMessage:
    """The message of ``letter`` (plain text and HTML, its attachments read from
    ``attachments`` by path); headers come only from validated values (an address or a name
    with a line break raises ValueError, the email library's header check). A ``correction``
    (the recipient has an earlier version of this letter) is said in the subject and in the
    message's first line, and refers to the letter it corrects (In-Reply-To, References)."""
    return compose_digest(letter, sender=sender, subject_prefix=subject_prefix, site_url=site_url,
                          signature=signature, date=date, attachments=attachments, domain=domain,
                          correction=correction)[0]


def compose_digest(letter: Letter, *, sender: str, subject_prefix: str, site_url: str, signature: str,
                   date: str, attachments: dict[str, bytes], domain: str = "",
                   correction: Correction | None = None) -> tuple[EmailMessage, str]:
    """:func:`compose`, with the message's :func:`flows.mail.outbox.content_digest` (computed
    once: a run of 3,700 letters spent 3 s computing each twice)."""
    subject = f"{subject_prefix}{CORRECTION_SUBJECT if correction else ''}{letter.subject}"
    notice = correction.notice() if correction else ""
    files = [(path.rsplit("/", 1)[-1], attachments[path]) for path in letter.attachments
             if path in attachments]
    return build_message_digest(sender=sender, to_name=letter.to_name, to_email=letter.to_email,
                                subject=subject,
                                html=html_body(letter, site_url=site_url, signature=signature,
                                               subject=subject, notice=notice),
                                text=text_body(letter, site_url=site_url, signature=signature,
                                               notice=notice),
                                attachments=files, date=date, domain=domain, key=letter.key,
                                in_reply_to=correction.message_id if correction else "",
                                references=correction.chain() if correction else "")


def correction_for(row: dict[str, str] | None, digest: str, msg: EmailMessage,
                   sent_copy: bytes | None) -> Correction | None:
    """DESIGN.md "Publishing on a bad day" (a correction is a new message that says so) — the
    :class:`Correction` a message ``msg`` (content ``digest``) must carry when its recipient
    already got another version of the letter (its ledger ``row``: :func:`sent_version`), None
    when nothing went yet or the same went. ``sent_copy``: the version sent, as it went
    (``outbox/sent/<key>.eml``), to say what changed."""
    sent_digest, sent_id, sent_time, refs = sent_version(row)
    if not sent_digest or sent_digest == digest:
        return None
    old = plain_text(sent_copy) if sent_copy else ""
    return Correction(sent_id, refs, sent_time, what_changed(old, plain_text(msg.as_bytes())))


def parsed(data: bytes) -> EmailMessage:
    """A message from its bytes (an .eml file)."""
    msg = message_from_bytes(data, policy=policy.default)
    assert isinstance(msg, EmailMessage)  # (the default policy's message class)
    return msg


def plain_text(data: bytes) -> str:
    """The plain-text part of a message as bytes (an .eml file), "" if it has none."""
    msg = message_from_bytes(data, policy=policy.default)
    body = msg.get_body(("plain",)) if isinstance(msg, EmailMessage) else None
    return body.get_content().replace("\r\n", "\n") if body is not None else ""


def body_lines(text: str) -> list[str]:
    """The lines of a letter's text that say something: after the greeting ("Dear …,"), without
    blank lines and heading rules; a correction's first line is before the greeting and so
    left out."""
    lines = text.splitlines()
    start = next((i + 1 for i, line in enumerate(lines) if line.startswith("Dear ")), 0)
    return [line.strip() for line in lines[start:]
            if line.strip() and not set(line.strip()) <= {"-"}]


def what_changed(old_text: str, new_text: str, most: int = 3, width: int = 90) -> tuple[str, ...]:
    """DESIGN.md "Publishing on a bad day" (a correction says what changed) — the lines of the
    letter's text that differ between the version sent (``old_text``) and this one, at most
    ``most`` of them, each "'old' is now 'new'", "new: 'line'" or "no longer: 'line'" (long
    lines shortened to ``width``); and "and N more" when there are more."""
    def cut(line: str) -> str:
        return line if len(line) <= width else line[: width - 1] + "…"

    old, new = body_lines(old_text), body_lines(new_text)
    out: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        a, b = old[i1:i2], new[j1:j2]
        for k in range(max(len(a), len(b))):
            if k < len(a) and k < len(b):
                out.append(f"'{cut(a[k])}' is now '{cut(b[k])}'")
            elif k < len(b):
                out.append(f"new: '{cut(b[k])}'")
            else:
                out.append(f"no longer: '{cut(a[k])}'")
    if len(out) > most:
        out = out[:most] + [f"and {len(out) - most} more"]
    return tuple(out)


def bulletin_letters(recipients: Iterable[tuple[str, str]], *, event_name: str, lead: str,
                     highlights: list[str]) -> list[Letter]:
    """The bulletin to each listed recipient (``[publish] recipients``): the highlights, the
    bulletin PDF attached, the event home linked."""
    return [Letter(key=f"bulletin-{file_part(email, lower=True)}", to_name=name, to_email=email,
                   subject=f"{event_name} — bulletin", lead=lead,
                   blocks=(Block(lines=tuple(f"• {h}" for h in highlights)),) if highlights else (),
                   links=(("The event's pages", "index.html"),), attachments=("bulletin.pdf",),
                   kind="bulletin")
            for name, email in recipients]

