"""Personal messages (DESIGN.md "Publishing": email bulletins; Golden Knights rule 10: "late
reports, assignments, forfeits, and other important information will be announced by email
whenever possible"): what one message says to one recipient, written once and turned into
its plain-text and HTML bodies here (presentation only: every number comes from the
rulebook's results).

A :class:`Letter` is content, not transport: its ``key`` names it in the outbox
(``outbox/<key>.eml``) and in the delivery ledger (``outbox/ledger.csv``), so a letter about
the same thing keeps its key from run to run and is sent again only when what it says changes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from flows.site import render
from transforms.core.model import EMAIL_ADDRESS

KEY = re.compile(r"[a-z0-9][a-z0-9._~-]{0,239}")
"""A letter's key: lower-case letters, digits, ``.``, ``_``, ``~`` and ``-`` (it is a file name,
``outbox/<key>.eml``; the parts that come from the inputs are made by
:func:`flows.site.names.file_part` with ``lower=True``)."""


@dataclass(frozen=True)
class Block:
    """One part of a letter: a heading, paragraphs, and optionally a small table (its first
    row is the header)."""

    heading: str = ""
    lines: tuple[str, ...] = ()
    table: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class Letter:
    """One message to one recipient about one thing (a round, a section assignment, a
    ruling, an award ...)."""

    key: str
    """Stable from run to run for the same subject matter, e.g. ``player-open-17-round-05``,
    ``member-12000009-GK19-0001-semifinal-assignment`` lower-cased; unique within the event."""
    to_name: str
    to_email: str
    subject: str
    """Without the event's ``[publish] subject_prefix`` (added when the message is built)."""
    lead: str
    """The first paragraph after the greeting: what the message is about, in one sentence."""
    blocks: tuple[Block, ...] = ()
    links: tuple[tuple[str, str], ...] = ()
    """(label, path relative to the event's home, e.g. ``players/open/17.html``): shown as
    links to the site when ``[publish] site_url`` is set, left out otherwise."""
    attachments: tuple[str, ...] = ()
    """Published files to attach, by path in the event's output folder (``bulletin.pdf``,
    ``certificates/GK19-0001.pdf``)."""
    kind: str = ""
    """What kind of letter it is (``player-round``, ``association-round``, ``office``,
    ``member-assignment`` ...): counted in the manifest and the office's mail page."""
    meta: dict[str, str] = field(default_factory=dict, compare=False)
    """Free notes for tests and the office page (not part of the message)."""

    def __post_init__(self) -> None:
        if not KEY.fullmatch(self.key):
            raise ValueError(f"letter key {self.key!r} must match {KEY.pattern}")


def site_links(letter: Letter, site_url: str) -> list[tuple[str, str]]:
    """The letter's links as absolute addresses on the published site (none without
    ``site_url``)."""
    if not site_url:
        return []
    base = site_url if site_url.endswith("/") else site_url + "/"
    return [(label, base + rel) for label, rel in letter.links]


def salutation_name(name: str) -> str:
    """DESIGN.md "Publishing" (messages) — the name a letter greets: a name written as lists
    print it, "Surname, Given" (one comma), is greeted "Given Surname" ("Dear Meera Mishra");
    any other name as it is written (an association, "Chief Arbiter", a name without a comma).
    The lists and the To header keep the name as written."""
    surname, comma, given = name.partition(",")
    if comma and "," not in given and surname.strip() and given.strip():
        return f"{given.strip()} {surname.strip()}"
    return name.strip()


def text_body(letter: Letter, *, site_url: str, signature: str, notice: str = "") -> str:
    """The plain-text body: ``notice`` (a correction's first line: what changed), greeting,
    lead, each block (a table as aligned columns), links, signature."""
    out = [notice, ""] if notice else []
    out += [f"Dear {salutation_name(letter.to_name)},", "", letter.lead]
    for b in letter.blocks:
        out.append("")
        if b.heading:
            out += [b.heading, "-" * len(b.heading)]
        out += list(b.lines)
        if b.table:
            widths = [max(len(row[i]) if i < len(row) else 0 for row in b.table)
                      for i in range(max(len(r) for r in b.table))]
            if b.lines:
                out.append("")
            for row in b.table:
                out.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    links = site_links(letter, site_url)
    if links:
        out += ["", *[f"{label}: {url}" for label, url in links]]
    if letter.attachments:
        out += ["", "Attached: " + ", ".join(a.rsplit("/", 1)[-1] for a in letter.attachments) + "."]
    out += ["", signature]
    return "\n".join(out) + "\n"


def html_body(letter: Letter, *, site_url: str, signature: str, subject: str,
              notice: str = "") -> str:
    """The HTML body (templates/email.html: the same parts as :func:`text_body`)."""
    return render.render_page("email.html", subject=subject,
                              recipient=salutation_name(letter.to_name), notice=notice,
                              lead=letter.lead, blocks=letter.blocks,
                              links=site_links(letter, site_url),
                              attachments=[a.rsplit("/", 1)[-1] for a in letter.attachments],
                              signature=signature)


def without_addresses(text: str) -> str:
    """DESIGN.md "Publishing on a bad day" (no email address in a public file) — a note for the
    event's manifest with every quoted value (``'…'``: an address or name as the inputs wrote
    it) and every address-like word replaced by "…"; the validation report (office) has the
    cell itself."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", text)
    return re.sub(r"\S+@\S+", "…", text)


FORBIDDEN_IN_ADDRESS = set('<>,;"()[]\\')


def address_problem(address: str | None) -> str:
    """Why ``address`` cannot take a letter ("" when it can): empty, whitespace or a line
    break, a character that would split or quote a header, not exactly one ``@``, nothing
    before it, no dot inside the domain. A simple check, not RFC 5322: it keeps out what is
    surely wrong in an office's spreadsheet."""
    if address is None or address == "":
        return "no email address"
    if any(ch.isspace() for ch in address):
        return f"email {address!r} holds a space or line break"
    if FORBIDDEN_IN_ADDRESS & set(address):
        return f"email {address!r} holds one of {''.join(sorted(FORBIDDEN_IN_ADDRESS))}"
    if address.count("@") != 1:
        return f"email {address!r} must hold exactly one '@'"
    local, domain = address.split("@")
    if not local:
        return f"email {address!r} has nothing before the '@'"
    if "." not in domain.strip(".") or domain.startswith(".") or domain.endswith(".") or ".." in domain:
        return f"email {address!r} has no domain such as 'example.org' after the '@'"
    if not re.fullmatch(EMAIL_ADDRESS, address):  # what the inputs' email cells must hold
        return f"email {address!r} is not one address local@domain.tld"
    return ""
