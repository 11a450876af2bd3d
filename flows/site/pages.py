"""What every event's site shares: the publication being assembled, the page context, the
validation report and the list of links on an event's home page (presentation only)."""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, is_dataclass, replace
from decimal import Decimal
from enum import Enum
from pathlib import Path
from typing import Any

import polars as pl
import segno

from flows.io import Content, OnDisk, as_bytes, csv_text
from flows.site import paging, render
from flows.site.names import file_part
from flows.site.present import Section, Table, printed_sections, table_from_frame
from flows.site.render import plural
from transforms.core.config import EventConfig
from transforms.core.errors import Finding, Severity

OFFICE = "office/"
"""Where an event's office material goes (ledgers, entry decisions, the validation report, the
director's review, membership flags: anything with an email address or a birth date). No
public page links there; ``office/index.html`` lists it."""


PUBLISHED_INPUTS = f"{OFFICE}published-inputs/"
"""Where a run keeps the inputs its public pages were built from (:mod:`flows.pipeline.last_good`); not
listed on the office home (the held page points there)."""


def nav_context(rel: str, *, prev: str | None = None, next: str | None = None) -> dict[str, Any]:
    """The links every page carries, relative to the page at ``rel`` (inside the event's
    folder): the run's index, the event's home (the office's home for office pages), the
    previous and next page of a series (``prev``/``next`` are paths inside the event folder)."""
    up = "../" * rel.count("/")
    office = rel.startswith(OFFICE)
    return {"site_index": f"{up}../index.html", "home": f"{up}index.html",
            "office_home": f"{up}{OFFICE}index.html" if office else "",
            "prev": f"{up}{prev}" if prev else "", "next": f"{up}{next}" if next else "",
            "up": up}


def pdf_base(site_url: str, rel: str) -> str:
    """The address a PDF's relative links resolve against: the PDF's own address on the
    published site (``[publish] site_url`` joined with its path in the event's folder), so
    that a link clicked in a mailed or downloaded PDF opens the published page; without
    ``site_url``, none (the links stay relative and work where the PDF sits in the site).

    Decision: never the folder the PDF was built in — a ``file://`` link to the build
    machine leads nowhere for a reader, and it made the PDF's bytes depend on where the
    project is checked out."""
    if not site_url:
        return ""
    return (site_url if site_url.endswith("/") else site_url + "/") + rel


PARTIAL_NOTICE = ("Some of this event's pages are not published yet: the latest inputs are being "
                  "checked by the office, and the pages will follow as soon as they are.")
"""The notice on the web pages of a first publication that could not publish everything."""


PAGED = frozenset({"report.html", "bulletin.html"})
"""The templates that show a page list: their pages are published in parts when long
(:func:`flows.site.paging.split`)."""


PRINTED: dict[str, Any] = {"site_index": "", "home": "", "office_home": "", "prev": "",
                           "next": "", "printed": True}
"""What the printed version of a page is rendered with instead of the navigation: no links
to other pages (paper has none), and ``printed`` (the base template then leaves out the run
date, which changes from run to run while the page's content does not)."""


@dataclass
class Outcome:
    """What one run of an event came to, for the office and the manifest (not for the pages)."""

    state: str = ""
    """What the public pages show, in the public's words ("the standings after round 10 and
    the pairings of round 11"): what a later run that must hold them back says they are."""
    withheld: list[str] = field(default_factory=list)
    """What could not be published from this run's inputs and why, in the office's words
    (e.g. results.csv has errors: standings and pairings wait); empty when everything was."""
    findings: list[Finding] = field(default_factory=list)
    """The run's validation findings (:func:`publish_validation`)."""
    publication: dict[str, Any] = field(default_factory=dict)
    """What the public pages show, for the manifest (:func:`flows.pipeline.last_good.record`)."""
    notes: list[str] = field(default_factory=list)
    """Warnings and director decisions recorded in the manifest."""


@dataclass
class Reuse:
    """What a run takes from the last one instead of building it again, and keeps for the next
    (issue 26): groups of pages with their files and PDFs, the audit's pairings."""

    kept_groups: dict[str, dict[str, Any]] = field(default_factory=dict)
    """The groups of pages the last run published (:meth:`Publication.group`), by name, as its
    manifest's ``cache`` recorded them (:func:`flows.pipeline.outputs.kept_groups`: only where
    this program made them; ``pdfs_as_rendered`` False: a PDF of it is not as rendered, it is
    built). Those this run does not publish are removed (:meth:`Publication.stale_group_files`)."""
    rebuilt: dict[str, int] = field(default_factory=dict)
    """Why the groups built this run were not taken from the last one
    (:meth:`Publication.take`): "new" (the last run did not publish it, or was made by another
    program), "changed" (what it is made of), "files changed on disk" -> how many."""
    checksums: dict[str, tuple[Content, str, int]] = field(default_factory=dict)
    """Files whose checksum is known: path -> (the content it is of, its sha256, its bytes);
    valid while ``files[path]`` is that same object (:func:`flows.pipeline.outputs.checksum`).
    The files taken from the last run come with the checksums they were verified against, the
    files of a group built this run with those recorded for it (:meth:`Publication.recording`)."""
    taken_files: set[str] = field(default_factory=set)
    """The files taken from the last run as they are on disk: not compared with the disk again
    when the outputs are written."""
    checksum_of: Callable[[Path], tuple[str, int]] | None = None
    """The sha256 and size of a file on disk as the run knows them (the pipeline's checksums
    kept by each file's inode, size and time: :class:`flows.pipeline.digests.Digests`): a kept
    group's files are verified with it and taken as :class:`flows.io.OnDisk`, not read. None:
    each is read and hashed, its content taken."""
    kept_pdfs: dict[str, str] = field(default_factory=dict)
    """The PDFs of groups taken from the last run (path -> sha256 of the HTML they were
    rendered from): not rendered again; their files stay as they are."""
    cache: dict[str, Any] = field(default_factory=dict)
    """What the next run may take instead of computing it again, for the manifest's ``cache``
    (the groups of pages, the audit's pairings by their key:
    :func:`flows.pipeline.outputs.known_pairings`)."""


@dataclass
class Publication:
    """Everything one run publishes for an event, collected before it is written: its pages and
    files (with their navigation and titles, and the PDFs to render), what the run came to
    (:class:`Outcome`) and what it takes from the last run and keeps for the next
    (:class:`Reuse`)."""

    out_dir: Path
    ctx: dict[str, Any] = field(default_factory=dict)
    """The event context every page shows (:func:`event_context`)."""
    files: dict[str, Content] = field(default_factory=dict)
    """Relative path -> content (CSV, HTML, TRF, JSON; a file taken from the last run:
    :class:`flows.io.OnDisk`)."""
    pdfs: dict[str, str] = field(default_factory=dict)
    """Relative path of a PDF -> the HTML it is rendered from."""
    titles: dict[str, str] = field(default_factory=dict)
    """Relative path of each page -> its title (for the home pages' lists)."""
    timings: dict[str, float] = field(default_factory=dict)
    """The event's step timings (:class:`flows.pipeline.progress.Steps`) and counts."""
    on_pdf: Callable[[str, str], None] | None = None
    """Told of every PDF as soon as its HTML is made (path, HTML): the flow starts rendering it
    while the other pages are built (``flows.pipeline.workers.EarlyPDFs``)."""
    later_parts: dict[str, None] = field(default_factory=dict)
    """The parts after the first of the pages published in parts (:mod:`flows.site.paging`):
    reached from their page's list of parts, not listed on the home pages. (A set kept in
    the order of its additions, as :attr:`paged`: what a group adds is read from its end.)"""
    paged: dict[str, None] = field(default_factory=dict)
    """The pages that may be published in parts (:data:`PAGED`), split this run or not: what
    parts of them an earlier run left are removed (:func:`flows.site.paging.stale_parts`).
    (In the order they were added: a group's additions are read from its end, not found by
    copying the whole set for every group — 15,419 member pages made that quadratic.)"""
    outcome: Outcome = field(default_factory=Outcome)
    """What the run came to (its notes, what it held back and why, its findings)."""
    reuse: Reuse = field(default_factory=Reuse)
    """What the run takes from the last one and keeps for the next."""

    def withhold(self, reason: str) -> None:
        """Record that ``reason`` keeps something of this run's inputs from the public; the
        pages made from now on say that some pages wait (:data:`PARTIAL_NOTICE`; a run with an
        earlier good publication shows that one instead: :mod:`flows.pipeline.last_good`)."""
        self.outcome.withheld.append(reason)
        self.ctx["notice"] = PARTIAL_NOTICE

    def group(self, name: str, key: str, build: Callable[[], None]) -> bool:
        """Publish a group of pages (e.g. one round's pairings and standings): ``build()``
        publishes them through this publication, unless the last run published the group
        ``name`` from the same ``key`` — a digest of everything its pages are made of
        (:func:`fingerprint`) — and its files are still byte for byte as that run wrote them:
        then those are taken as they are (their PDFs too, not rendered again: :meth:`take`).
        Either way the group is recorded for the next run (``cache["groups"]``). Returns True
        when taken.

        Decision (issue 26): what a key must hold is the caller's to say; a key that misses
        something its pages show would keep a stale page, so every group's caller digests the
        whole state its pages read (the round's frames, the event's configuration and the page
        context), and tests/flows/test_kept_groups.py holds a rerun to a clean build of every page."""
        if self.take(name, key):
            return True
        with self.recording(name, key):
            build()
        return False

    def take(self, name: str, key: str) -> bool:
        """The group ``name`` as the last run published it, if it did from the same ``key``
        and its files are unchanged on disk (see :meth:`group`); False: nothing taken, the
        caller builds it (under :meth:`recording`)."""
        last = self.reuse.kept_groups.get(name)
        taken = (bool(key) and last is not None and last.get("key") == key
                 and last.get("pdfs_as_rendered", True) and self._take(last))
        if not taken:  # why it is built (the run's progress says it: groups_summary)
            why = ("no key" if not key else "new" if last is None
                   else "changed" if last.get("key") != key else "files changed on disk")
            self.reuse.rebuilt[why] = self.reuse.rebuilt.get(why, 0) + 1
        # for the manifest's timings: by the kind the name starts with ("round-05": rounds)
        count = f"{'kept' if taken else 'built'}_{name.split('-', 1)[0]}s"
        self.timings[count] = self.timings.get(count, 0) + 1
        if taken:
            self.reuse.cache.setdefault("groups", {})[name] = {
                k: v for k, v in last.items() if k != "pdfs_as_rendered"}
        return taken

    def stale_group_files(self, produced: set[str]) -> list[str]:
        """The files of the last run's groups that this run does not publish (the page of a
        player no longer in players.csv, the standings of a round whose results were taken
        back): removed from the outputs, as a clean build would not have them (``produced``:
        this run's PDFs; its other files are ``files``)."""
        return sorted({rel for g in self.reuse.kept_groups.values()
                       for rel in (*g.get("files", {}), *g.get("pdfs", {}))
                       if rel not in self.files and rel not in produced})

    @contextmanager
    def recording(self, name: str, key: str) -> Iterator[None]:
        """Record what the block publishes as the group ``name`` made from ``key``, for the
        next run's :meth:`take`: the files, PDFs and titles it adds (a group adds paths of its
        own; it does not publish a path again)."""
        n_files, n_pdfs, n_titles = len(self.files), len(self.pdfs), len(self.titles)
        n_later, n_paged = len(self.later_parts), len(self.paged)
        yield
        files = _added(self.files, n_files)
        for rel in files:  # hashed once: the manifest's checksum takes it from here
            raw = as_bytes(self.files[rel])
            self.reuse.checksums[rel] = (self.files[rel], hashlib.sha256(raw).hexdigest(), len(raw))
        self.reuse.cache.setdefault("groups", {})[name] = {
            "key": key,
            "files": {rel: [self.reuse.checksums[rel][1], isinstance(self.files[rel], str)]
                      for rel in files},
            "pdfs": {rel: render.digest(self.pdfs[rel]) for rel in _added(self.pdfs, n_pdfs)},
            "titles": {rel: self.titles[rel] for rel in _added(self.titles, n_titles)},
            "later_parts": _added(self.later_parts, n_later),
            "paged": _added(self.paged, n_paged)}

    def groups_summary(self) -> str:
        """What this run took from the last one and what it built again, and why ("" when it
        has no groups): "kept 8 of 9 groups of round pages, 2,765 of 3,000 of player pages;
        built: 236 changed"."""
        kinds = sorted({k.split("_", 1)[1] for k in self.timings
                        if k.startswith(("kept_", "built_"))})
        if not kinds:
            return ""
        parts = [f"{self.timings.get(f'kept_{k}', 0):,} of "
                 f"{self.timings.get(f'kept_{k}', 0) + self.timings.get(f'built_{k}', 0):,} "
                 f"{k.removesuffix('s')} groups" for k in kinds]
        built = ", ".join(f"{n:,} {why}" for why, n in sorted(self.reuse.rebuilt.items()))
        return "kept from the last run " + ", ".join(parts) + (f"; built: {built}" if built else "")

    def _take(self, record: dict[str, Any]) -> bool:
        """The files of a group the last run wrote (``record``: :meth:`group`), if each is
        still on disk with the checksum recorded; False (nothing taken) otherwise."""
        taken: dict[str, Content] = {}
        sizes: dict[str, int] = {}
        known = self.reuse.checksum_of
        for rel, (sha, text) in record["files"].items():
            path = self.out_dir / rel
            data: Content
            try:
                if known is not None:
                    digest, sizes[rel] = known(path)
                    data = OnDisk(path, text)
                else:
                    raw = path.read_bytes()
                    digest, sizes[rel] = hashlib.sha256(raw).hexdigest(), len(raw)
                    data = raw.decode("utf-8") if text else raw
            except OSError:
                return False
            if digest != sha:
                return False
            taken[rel] = data
        self.files.update(taken)
        self.reuse.taken_files.update(taken)
        self.reuse.checksums.update((rel, (data, record["files"][rel][0], sizes[rel]))
                              for rel, data in taken.items())
        self.reuse.kept_pdfs.update(record["pdfs"])
        self.titles.update(record["titles"])
        self.later_parts.update(dict.fromkeys(record["later_parts"]))
        self.paged.update(dict.fromkeys(record["paged"]))
        return True

    def _parts(self, template: str, parts: list[paging.Part], prev: str | None, next: str | None,
               context: dict[str, Any]) -> str:
        """Publish a long page as its parts (:mod:`flows.site.paging`): each with the page
        list, its jumps to the part holding their section; returns the first part's HTML."""
        out = ""
        for k, part in enumerate(parts):
            jumps = [{**j, "href": paging.anchor_part(parts, part, j["href"])}
                     for j in context.get("jumps", [])]
            html = render.render_page(template, **{
                **self.ctx, **nav_context(part.rel, prev=prev, next=next), **context,
                "sections": part.sections, "parts": part.groups, "jumps": jumps,
                "part_of": f"Part {k + 1} of {len(parts)}"})
            self.files[part.rel] = html
            if k:
                self.later_parts[part.rel] = None
                self.titles[part.rel] = f"{context.get('title', '')} (part {k + 1} of {len(parts)})"
            out = out or html
        return out

    def add_pdf(self, rel: str, html: str) -> None:
        """Publish the PDF ``rel`` rendered from ``html``, its links made for where the PDF is
        read (:func:`pdf_base`)."""
        html = render.with_base(html, pdf_base(self.ctx.get("site_url", ""), rel))
        self.pdfs[rel] = html
        if self.on_pdf is not None:
            self.on_pdf(rel, html)

    def page(self, rel: str, template: str = "report.html", *, pdf: bool | dict[str, Any] = True,
             prev: str | None = None, next: str | None = None, **context: Any) -> str:
        """Render and publish the page ``rel`` and, unless ``pdf`` is False, its PDF (``pdf``
        given as a dict: the context that differs for a leaner printed document).

        Decision: the printed version is rendered without the navigation and without the run
        date (:data:`PRINTED`), so that a round's PDF does not change when the next round adds
        a "Next" link or a later run has another date: its HTML, and so its ``html_sha256`` in
        the manifest, stays the same and ``render_pdfs`` does not render it again. Its big
        tables are set as text (:func:`flows.site.present.printed_sections`)."""
        nav = nav_context(rel, prev=prev, next=next)
        parts = [paging.Part(rel, [])]
        if template in PAGED and context.get("sections"):
            self.paged[rel] = None
            parts = paging.split(rel, context["sections"])
        if len(parts) == 1:
            html = render.render_page(template, **{**self.ctx, **nav, **context})
            self.files[rel] = html
        else:
            html = self._parts(template, parts, prev, next, context)
        self.titles[rel] = context.get("title", "")
        if pdf:
            lean = pdf if isinstance(pdf, dict) else {}
            printed = {**self.ctx, **nav, **PRINTED, **context, **lean}
            if printed.get("sections"):
                printed["sections"] = printed_sections(printed["sections"])
            self.add_pdf(rel.removesuffix(".html") + ".pdf", render.render_page(template, **printed))
        return html


def _added(d: dict[str, Any], before: int) -> list[str]:
    """The keys added to ``d`` since it held ``before`` (dicts keep their order: read from
    the end, without walking the thousands before)."""
    return sorted(itertools.islice(reversed(d), len(d) - before))


VALUE_TYPES = (str, bytes, int, float, complex, bool, type(None), Decimal, dt.date, dt.time,
               dt.timedelta, Enum, Path)
"""What :func:`fingerprint` digests by its ``repr``: types whose ``repr`` is their whole value
(and polars' data types, and Enum and polars data type classes)."""


def group_key(pub: Publication, *parts: Any) -> str:
    """:func:`fingerprint` of ``parts`` as a group's key; "" (the group is built, never
    taken) when a part is not a value it can digest — noted in the manifest, so that a
    configuration holding such a value costs a rebuild, never a stale page nor a failed run."""
    try:
        return fingerprint(*parts)
    except TypeError as e:
        note = f"pages built without a key: {e}"
        if note not in pub.outcome.notes:
            pub.outcome.notes.append(note)
        return ""


def fingerprint(*parts: Any) -> str:
    """A digest of ``parts`` for :meth:`Publication.group`'s key: polars frames and series by
    their content (Arrow IPC bytes, schema included), dataclasses by their type and fields,
    mappings, sequences and sets by their length and items (sets sorted: a set's ``repr``
    follows string hashing, which differs from one process to the next; named tuples by their
    type too), values (:data:`VALUE_TYPES`) by their ``repr``. Anything else is refused
    (TypeError): its ``repr`` may name a memory address (it would differ at every run) or
    leave out what the page shows (a long array's)."""
    h = hashlib.sha256()

    def put(x: Any) -> None:
        if isinstance(x, pl.Series):
            x = x.to_frame()
        if isinstance(x, pl.DataFrame):
            buf = io.BytesIO()
            x.rechunk().write_ipc(buf, compression="uncompressed")
            h.update(b"F" + hashlib.sha256(buf.getvalue()).digest())
        elif is_dataclass(x) and not isinstance(x, type):
            h.update(f"D{type(x).__module__}.{type(x).__qualname__}(".encode())
            for f in fields(x):
                h.update(f.name.encode() + b"=")
                put(getattr(x, f.name))
            h.update(b")")
        elif isinstance(x, Mapping):
            h.update(f"{{{len(x)}:".encode())
            for k, v in x.items():
                put(k)
                put(v)
            h.update(b"}")
        elif isinstance(x, (list, tuple)):
            kind = type(x).__qualname__ if hasattr(x, "_fields") else ""
            h.update(f"[{kind}{len(x)}:".encode())
            for v in x:
                put(v)
            h.update(b"]")
        elif isinstance(x, AbstractSet):
            h.update(f"S{len(x)}:".encode())
            for v in sorted(x, key=repr):
                put(v)
            h.update(b"S")
        elif (isinstance(x, (*VALUE_TYPES, pl.DataType))
              or (isinstance(x, type) and issubclass(x, (Enum, pl.DataType)))):
            h.update(b"R" + repr(x).encode() + b"\0")
        else:
            raise TypeError(f"fingerprint: a {type(x).__qualname__} is not a value it can digest: "
                            f"{repr(x)[:80]}")

    for p in parts:
        put(p)
    return h.hexdigest()


def season_rel(event: str, section: str, number: int | str) -> str:
    """Where a series publishes the way from an event's player to their page in the series:
    ``players/<event folder>/<section>/<start number>.html`` inside the series' folder (an
    event's player pages link it, knowing nothing of how the series recognised the player)."""
    return f"players/{file_part(event)}/{file_part(section)}/{file_part(str(number))}.html"


def findings_frame(findings: list[Finding]) -> pl.DataFrame:
    schema = {"file": pl.String, "line": pl.Int64, "column": pl.String, "value": pl.String,
              "severity": pl.String, "reason": pl.String}
    rows = [f.as_row() for f in findings]
    return pl.DataFrame(rows, schema=schema, orient="row").sort(
        ["file", "line"], nulls_last=False, maintain_order=True)


def event_context(cfg: EventConfig, as_of: dt.date) -> dict[str, Any]:
    e = cfg.event
    dates = f"{e.start:%d %b %Y}" if e.start == e.end else f"{e.start:%d %b %Y} – {e.end:%d %b %Y}"
    return {"event": {"name": e.name, "venue": e.venue, "dates": dates, "code": e.code},
            "as_of": as_of.isoformat(), "site_url": cfg.publish.site_url}


def publish_validation(pub: Publication, cfg: EventConfig | None, findings: list[Finding],
                       as_of: dt.date) -> pl.DataFrame:
    frame = findings_frame(findings)
    pub.outcome.findings = list(findings)
    pub.files[f"{OFFICE}validation.csv"] = csv_text(frame)
    n_err = frame.filter(pl.col("severity") == "error").height
    n_warn = frame.height - n_err
    section = Section(
        "Findings",
        intro=[f"{plural(n_err, 'error')} and {plural(n_warn, 'warning')}. Errors set the row aside and stop the "
               "steps that depend on that file; warnings are for a person to look at."],
        tables=[table_from_frame(frame.with_columns(
            pl.when(pl.col("severity") == "error").then(pl.lit("error")).otherwise(pl.lit("flag")).alias("_css")),
            [("file", "File"), ("line", "Line"), ("column", "Column"), ("value", "Value"),
             ("severity", "Severity"), ("reason", "Reason")], numeric=["line"], row_css="_css",
            empty="No findings: every input row was accepted.")])
    pub.page(f"{OFFICE}validation.html", title="Validation report", subtitle="",
             sections=[section], pdf=False)
    return frame


@dataclass
class LinkGroup:
    """A heading and its links on an event's home page (e.g. one category's current pages)."""

    heading: str
    links: list[dict[str, str]]
    """``href`` (relative to the home), ``label`` and optionally ``note`` (shown after it)."""
    intro: str = ""
    anchor: str = ""


def link_list(pub: Publication, *, office: bool = False,
              unlisted: tuple[str, ...] = ()) -> list[dict[str, str]]:
    """The pages and files of the event's public site (``office``: of its office folder), as
    links relative to the folder's home, titled where they are pages. The public list never
    holds an office path; paths starting with one of ``unlisted`` are left out (pages reached
    from another page, such as every player's page from the player lists)."""
    home = f"{OFFICE}index.html" if office else "index.html"
    rels = sorted({*pub.files, *pub.pdfs, *pub.reuse.kept_pdfs} - {home})
    out = []
    for r in rels:
        if (r.startswith("outbox/") or r.startswith(OFFICE) != office or r.startswith(unlisted)
                or r in pub.later_parts
                or r.rsplit("/", 1)[-1].startswith(".") or r.startswith(PUBLISHED_INPUTS)):
            continue
        href = r.removeprefix(OFFICE) if office else r
        out.append({"href": href, "label": pub.titles.get(r) or r})
    return out


def publish_bulletin(pub: Publication, sections: list[Section], as_of: dt.date) -> None:
    """The bulletin PDF (and its HTML): every section the event's pages chose for it and,
    when ``[publish] site_url`` is set, the address of the event's home page in text and as
    a QR code (:func:`qr_code`), so that a printed or mailed bulletin leads to the site."""
    url = pub.ctx.get("site_url", "")
    pub.page("bulletin.html", "bulletin.html", title="Bulletin",
             subtitle=f"As of {as_of:%d %B %Y}.", sections=web_bulletin(sections), site_url=url,
             qr=qr_code(url) if url else "", pdf={"sections": printed_bulletin(sections)})


PRINTED_APART_ROWS = 400
"""The most rows the printed bulletin gives a table that a PDF of its own prints whole (the
standings, the crosstable); of a longer one it prints the first :data:`PRINTED_TOP_ROWS`
(:func:`printed_bulletin`)."""
PRINTED_TOP_ROWS = 50
"""The rows (about a printed page) the bulletin prints of a table printed apart."""


def printed_bulletin(sections: list[Section]) -> list[Section]:
    """The bulletin's sections as its PDF prints them: every one whole, except a table that
    has a PDF of its own (the section's ``printed_apart``) and more than
    :data:`PRINTED_APART_ROWS` rows: of that one the bulletin prints the first
    :data:`PRINTED_TOP_ROWS` and names the PDF that holds it whole.

    Decision (issue 26): up to 400 players the printed bulletin carries the whole standings and
    crosstable, as before; a larger event's bulletin carries their leading rows, and
    ``standings/round-NN.pdf`` and ``crosstable.pdf`` every row. At 3,000 players the bulletin
    was 94 pages — the two tables again — rendered at every changed result and attached to
    every bulletin letter; it is now 4."""
    out = []
    for s in sections:
        rows = max((len(t.rows) for t in s.tables if isinstance(t, Table)), default=0)
        if not s.printed_apart or rows <= PRINTED_APART_ROWS:
            out.append(s)
            continue
        tables = [replace(t, rows=t.rows[:PRINTED_TOP_ROWS])
                  if isinstance(t, Table) and len(t.rows) > PRINTED_TOP_ROWS else t for t in s.tables]
        out.append(replace(s, tables=tables, link=None, notes=[
            f"The first {PRINTED_TOP_ROWS} of {rows:,} rows: the whole table is printed in "
            f"{s.printed_apart}, published with this bulletin.", *s.notes]))
    return out


BULLETIN_ROWS = 20
"""The rows a long bulletin's web form shows of a table that has a page of its own."""


def web_bulletin(sections: list[Section]) -> list[Section]:
    """The bulletin's sections as its web page shows them: as printed while they weigh at
    most a page (:data:`flows.site.paging.PAGE_BYTES`); beyond, each table that has a page of
    its own (the section's ``source``: the standings, the crosstable, a starting list) shows
    its first :data:`BULLETIN_ROWS` rows and links that page — a phone is not sent the whole
    event twice. The PDF keeps every row up to :data:`PRINTED_APART_ROWS` (:func:`printed_bulletin`)."""
    if paging.page_bytes(sections) <= paging.PAGE_BYTES:
        return sections
    out = []
    for s in sections:
        long = [len(t.rows) for t in s.tables if isinstance(t, Table) and len(t.rows) > BULLETIN_ROWS]
        if not s.source or not long:
            out.append(s)
            continue
        tables = [replace(t, rows=t.rows[:BULLETIN_ROWS])
                  if isinstance(t, Table) and len(t.rows) > BULLETIN_ROWS else t for t in s.tables]
        out.append(replace(s, tables=tables, link={
            "href": s.source, "label": f"The first {BULLETIN_ROWS} of {max(long):,} rows: the whole "
                                       "table is on its own page →"}))
    return out


QR_SCALE = 8
"""Pixels per QR module in the bulletin's image (sharp at any printed size: the stylesheet
scales it without smoothing)."""
QR_BORDER = 4
"""The quiet zone around the code, in modules (ISO/IEC 18004 asks for 4)."""


def qr_code(url: str) -> str:
    """The QR code (a regular QR code, never a Micro QR) that opens ``url``, as a PNG data
    URI: black modules on white, :data:`QR_SCALE` pixels a module, a :data:`QR_BORDER`-module
    quiet zone. A PNG, not an SVG, so that the PDF carries the code as one image whose
    pixels can be read back and compared (tests/test_bulletin_qr.py)."""
    return segno.make_qr(url).png_data_uri(scale=QR_SCALE, border=QR_BORDER, dark="#000",
                                           light="#fff")


def publish_homes(pub: Publication, *, facts: list[tuple[str, str]], highlights: list[str],
                  findings: list[Finding], as_of: dt.date, groups: Sequence[LinkGroup] = (),
                  unlisted: tuple[str, ...] = (), sections: Sequence[Section] = (),
                  links: list[dict[str, str]] | None = None,
                  links_heading: str = "Pages and files") -> None:
    """The event's home page (what players and parents read; no office link) and the office's
    home (``office/index.html``: the validation counts and every office page).

    With ``groups`` the home opens with the latest news and the groups (e.g. each category's
    current pairings, standings and player list), then the event's facts, then every other
    page and file (leaving out those under ``unlisted``, and those the groups link).
    Without groups: ``sections`` are the event's guide, shown on its home before the list of
    links; ``links`` is that list (default: every public page and file, :func:`link_list`)
    under ``links_heading``."""
    published = f"Published {as_of:%d %B %Y}."
    publish_office_home(pub, findings, as_of)
    if links is None:
        links = link_list(pub, unlisted=unlisted)
    shown = {link["href"].partition("#")[0] for g in groups for link in g.links}
    rest = [link for link in links if link["href"] not in shown]
    pub.page("index.html", "index.html", pdf=False, title=pub.ctx["event"]["name"],
             subtitle=published, facts=facts, highlights=highlights, errors=None, warnings=None,
             links=rest, groups=list(groups), sections=list(sections),
             links_heading=links_heading)


def publish_office_home(pub: Publication, findings: list[Finding], as_of: dt.date,
                        notice: str = "") -> None:
    """The office's home (``office/index.html``): the validation counts and every office page;
    ``notice``: what the office must see first (e.g. what a run held back), on top."""
    n_err = sum(f.severity is Severity.ERROR for f in findings)
    if MAIL_PAGE not in pub.files:  # rendered again with the delivery's outcome (flows/pipeline/tasks.py)
        publish_mail_page(pub, by_kind={}, ledger=[], undelivered=[], how="")
    pub.page(f"{OFFICE}index.html", "index.html", pdf=False, title="Office",
             subtitle=f"Published {as_of:%d %B %Y}. For the organisers and arbiters: not linked "
             "from the public pages.", facts=[], highlights=[], errors=n_err,
             warnings=len(findings) - n_err, links=link_list(pub, office=True), sections=[],
             links_heading="Pages and files", notice=notice)


MAIL_PAGE = f"{OFFICE}mail.html"
LEDGER_COLUMNS = [("key", "Message"), ("recipient", "To"), ("subject", "Subject"),
                  ("status", "Status"), ("attempts", "Attempts"), ("reply", "Server's answer"),
                  ("time", "Time")]


UNMADE_COLUMNS = [("key", "Message"), ("kind", "Kind"), ("recipient", "To"), ("reason", "Why")]


def publish_mail_page(pub: Publication, *, by_kind: dict[str, int], ledger: list[dict[str, str]],
                      undelivered: list[dict[str, str]], how: str,
                      unmade: list[dict[str, str]] = ()) -> None:
    """The office's mail page (``office/mail.html``): the messages of this run by kind, how
    they went (``how``: outbox only, dry run, or the SMTP server), the letters this run could
    not make (``unmade``: key, kind, recipient, reason) and every message the office must look
    at (failed for good, pending, fate unknown), from the delivery ledger. It says "every
    message went out" only when no letter is in either list."""
    counts: dict[str, int] = {}
    for row in ledger:
        counts[row["status"]] = counts.get(row["status"], 0) + 1
    kinds = pl.DataFrame({"kind": list(by_kind), "n": list(by_kind.values())},
                         schema={"kind": pl.String, "n": pl.Int64})
    status = pl.DataFrame({"status": list(counts), "n": list(counts.values())},
                          schema={"status": pl.String, "n": pl.Int64})
    rows = pl.DataFrame(undelivered, schema={c: pl.String for c, _ in LEDGER_COLUMNS})
    not_made = pl.DataFrame(list(unmade), schema={c: pl.String for c, _ in UNMADE_COLUMNS})
    pub.page(MAIL_PAGE, title="Mail", subtitle=how, pdf=False, sections=[
        *([Section(f"Not made: {render.plural(len(unmade), 'letter')}", intro=[
            "This run meant to send these letters and could not make them: a value that "
            "reaches the message's headers (a name, an address, the subject) holds a line "
            "break or control character. Correct it in the input file (or event.toml); the "
            "next run makes and sends the letter."],
            tables=[table_from_frame(not_made, UNMADE_COLUMNS)])] if unmade else []),
        Section("This run's messages", intro=[
            "One message per recipient, each also kept as outbox/<message>.eml. A message is "
            "sent again only when what it says changed."],
            tables=[table_from_frame(kinds, [("kind", "Kind"), ("n", "Messages")], numeric=["n"],
                                     empty="No messages.")]),
        Section("Delivery ledger (outbox/ledger.csv)", tables=[table_from_frame(
            status, [("status", "Status"), ("n", "Messages")], numeric=["n"],
            empty="Nothing sent through SMTP yet.")]),
        Section("To look at", intro=[
            "Pending: not delivered yet — the server could not be reached, refused the session "
            "(authentication, TLS: check CHESSFED_SMTP_USER and CHESSFED_SMTP_PASSWORD) or answered "
            "'try later'; the next run sends it, or `chessfed mail --retry` now. Failed: the "
            "server said the recipient's address cannot take mail (5xx to the recipient): correct "
            "the address in the input file (the letter then goes to the new one), or run "
            "`chessfed mail --retry` once the mailbox works. Superseded: a later letter about the "
            "same thing replaced it before it could go. Unknown: a run was stopped (or the "
            "connection lost) while the server had the message; it is not sent again (it may "
            "have arrived): ask the recipient, then `chessfed mail --delivered KEY` (it arrived) "
            "or `chessfed mail --resend KEY` (it did not: the next run sends it)."],
            tables=[table_from_frame(rows, LEDGER_COLUMNS, empty=(
                "Nothing in the ledger to look at; the letters not made are listed above."
                if unmade else "Nothing: every message went out."))]),
    ])
