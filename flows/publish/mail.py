"""Email messages: one MIME message per letter (plain text and HTML, attachments), written to
the outbox as .eml (the embedded default); delivery over SMTP is flows/publish/outbox.py."""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterable
from email.message import EmailMessage
from email.utils import formataddr

from flows.publish.letters import Block, Letter, html_body, text_body
from flows.publish.names import file_part


def build_message(*, sender: str, to_name: str, to_email: str, subject: str, html: str,
                  text: str, attachments: Iterable[tuple[str, bytes]], date: str,
                  domain: str = "chessfed.local", key: str = "") -> EmailMessage:
    """A multipart message; ``date`` is given (no clock here) so reruns are byte-identical
    except where the event data changed.

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
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = formataddr((to_name, to_email))
    msg["Subject"] = subject
    msg["Date"] = date
    digest = hashlib.sha256(f"{key}\n{to_email}\n{subject}\n{date}".encode()).hexdigest()[:24]
    msg["Message-ID"] = f"<{digest}@{domain}>"
    msg.set_content(text)
    msg.add_alternative(html, subtype="html")
    for filename, data in attachments:
        msg.add_attachment(data, maintype="application", subtype="pdf", filename=filename)
    # Fixed MIME boundaries (the library draws random ones) keep reruns byte-identical.
    for i, part in enumerate(p for p in msg.walk() if p.is_multipart()):
        part.set_boundary(f"=_chessfed_{digest}_{i}")
    return msg


def compose(letter: Letter, *, sender: str, subject_prefix: str, site_url: str, signature: str,
            date: str, attachments: dict[str, bytes], domain: str = "chessfed.local") -> EmailMessage:
    """The message of ``letter`` (plain text and HTML, its attachments read from
    ``attachments`` by path); headers come only from validated values (an address or a name
    with a line break raises ValueError, the email library's header check)."""
    subject = f"{subject_prefix}{letter.subject}"
    files = [(path.rsplit("/", 1)[-1], attachments[path]) for path in letter.attachments
             if path in attachments]
    return build_message(sender=sender, to_name=letter.to_name, to_email=letter.to_email,
                         subject=subject,
                         html=html_body(letter, site_url=site_url, signature=signature, subject=subject),
                         text=text_body(letter, site_url=site_url, signature=signature),
                         attachments=files, date=date, domain=domain, key=letter.key)


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

