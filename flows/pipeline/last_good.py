"""The last good publication (DESIGN.md "Publishing on a bad day"): when an event's inputs turn
bad, its public pages stay as the last good run left them, marked for what they are, and the
office is told exactly what was held back and why.

How: every run whose inputs could be published whole keeps a copy of those inputs with its
outputs (``office/published-inputs/``: event.toml and the CSV files the event reads) and says
in its manifest what its public pages show (``publication``: status ``current``, run date,
``state`` in the public's words). A later run that cannot publish something its inputs hold
(``Publication.withheld``: results.csv with errors, players.csv unreadable, event.toml that
cannot be loaded …) builds the public pages again from that copy, as of its date, each web
page with a notice saying what it shows ("These pages show the standings after round 10 …;
newer results are being checked"), and takes the office's pages from the run's own inputs
(the validation report names every bad row), with ``office/held.html`` saying what is held
back and why. Its manifest's ``publication`` says ``held`` (with the date the hold began and
the reasons); no letter built from the held inputs goes out but the office's, and the office
gets a letter saying what is held back. Once the inputs are good again the next run publishes
them and the copy follows.

A first run whose inputs are bad has no good copy: it publishes what can be published (the
entries and player lists of a Swiss event whose results have errors), says on its pages what
waits, and records ``partial``; its bulletin is not mailed.

The rebuilt pages are the same as those published before (the same inputs, date and code),
but for the notice on the web pages: the PDFs carry no notice, so they are not rendered
again."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flows.io import is_pgn_name
from flows.mail.letters import Block, Letter, address_problem
from flows.pipeline.manifest import PUBLICATION, read_manifest
from flows.site.names import file_part
from flows.site.pages import OFFICE, PUBLISHED_INPUTS, Publication, publish_office_home
from flows.site.present import Section
from transforms.core.pgn import GAMES

INPUTS = PUBLISHED_INPUTS
"""Where a run keeps the inputs its public pages were built from (inside the event's outputs,
so that they switch with them)."""
KEPT = ".txt"
"""Put after the name of each kept copy (``players.csv.txt``). Decision (Step 18, every file a
run writes safe to open): the copies are the input files byte for byte — what a later run reads
back must be exactly what the good run read — so a cell of theirs is not marked as the CSV
outputs' are (``flows.io.csv_text``); named ``.txt`` they open in a text editor, not in a
spreadsheet that would take a cell such as ``=HYPERLINK(…)`` for a formula. Copies kept by an
earlier version, without the suffix, are still read."""
KEY = PUBLICATION
"""The manifest's entry saying what the public pages show (:func:`record`)."""
HELD_PAGE = f"{OFFICE}held.html"
OFFICE_KINDS = ("office", "director-review", "office-held")
"""The letters that go to the office: the only ones a held run sends."""


@dataclass(frozen=True)
class LastGood:
    """The last good publication of an event, as its outputs hold it."""

    folder: Path
    """The copy of the inputs it was built from (``office/published-inputs/`` of the outputs)."""
    as_of: dt.date
    """Its run date."""
    state: str
    """What its public pages show, in the public's words."""
    since: str
    """The run date on which a hold began (ISO), "" when the pages were not held."""
    files: dict[str, bytes]
    """The copy's files by their path in the outputs (carried from run to run)."""
    suffix: str = KEPT
    """What the copies' names carry after the input's name (:data:`KEPT`; "" for copies kept
    by an earlier version)."""


def snapshot(event_dir: Path, names: list[str]) -> dict[str, bytes]:
    """The inputs of a good run, to keep with its outputs: event.toml, every file of ``names``
    the event folder has and its games (``games/*.pgn``: the game pages are rebuilt from them
    while a later run is held), by path in the outputs."""
    kept = {f"{INPUTS}{n}{KEPT}": (event_dir / n).read_bytes()
            for n in ["event.toml", *names] if (event_dir / n).is_file()}
    games = event_dir / GAMES.rstrip("/")
    if games.is_dir():
        kept.update({f"{INPUTS}{GAMES}{file_part(p.name)}{KEPT}": p.read_bytes()
                     for p in sorted(games.iterdir()) if p.is_file() and is_pgn_name(p.name)})  # (a name from input)
    return kept


def find(out_dir: Path) -> LastGood | None:
    """The event's last good publication, or None when its outputs have none (never
    published, published only in part, or published before copies were kept)."""
    info = read_manifest(out_dir).get(KEY)
    folder = Path(out_dir) / INPUTS
    suffix = KEPT if (folder / f"event.toml{KEPT}").is_file() else ""
    if not isinstance(info, dict) or info.get("status") not in ("current", "held") \
            or not (folder / f"event.toml{suffix}").is_file():
        return None
    try:
        as_of = dt.date.fromisoformat(str(info.get("as_of")))
    except ValueError:
        return None
    files = {f"{INPUTS}{p.relative_to(folder).as_posix()}": p.read_bytes()
             for p in sorted(folder.rglob("*")) if p.is_file()}
    return LastGood(folder, as_of, str(info.get("state", "")),
                    str(info.get("since", "")) if info.get("status") == "held" else "", files,
                    suffix)


def held_notice(last: LastGood) -> str:
    """The notice on every public web page of a held event: what the pages show, and that
    what is newer is being checked (no reason: that is the office's)."""
    shown = f"the {last.state}" if last.state else "the event"
    return (f"These pages show {shown} as published on {day(last.as_of)}. Newer results are "
            "being checked by the office; these pages will be updated as soon as they are.")


def day(d: dt.date) -> str:
    return f"{d.day} {d:%B %Y}"


def hold(good: Publication, current: Publication | None, last: LastGood, withheld: list[str],
         as_of: dt.date, findings: list[Any]) -> Publication:
    """The publication of a held run: the public files of ``good`` (rebuilt from the last good
    inputs), the office's files of ``current`` (this run's inputs: its validation report, its
    entry decisions), the copy of the last good inputs, and the office's page of what is held
    back (:data:`HELD_PAGE`), linked first from the office home."""
    pub = good
    for rel in [r for r in pub.files if r.startswith(OFFICE)]:
        del pub.files[rel]
    for rel in [r for r in pub.pdfs if r.startswith(OFFICE)]:
        del pub.pdfs[rel]
    if current is not None:
        pub.files.update({r: v for r, v in current.files.items() if r.startswith(OFFICE)})
        pub.pdfs.update({r: v for r, v in current.pdfs.items() if r.startswith(OFFICE)})
        pub.titles.update({r: t for r, t in current.titles.items() if r.startswith(OFFICE)})
    pub.files.update(last.files)
    pub.outcome.notes = [*(current.outcome.notes if current else []), *(f"held back: {w}" for w in withheld),
                 f"public pages held at the publication of {last.as_of.isoformat()} ({last.state})"]
    pub.outcome.withheld = list(withheld)
    pub.outcome.state = last.state
    held_page(pub, withheld, as_of, shown=last, findings=findings)
    return pub


def held_page(pub: Publication, withheld: list[str], as_of: dt.date,
              shown: LastGood | None, findings: list[Any] = ()) -> None:
    """The office's page of what this run held back and why (:data:`HELD_PAGE`), and the
    office home again with it first."""
    if shown is not None:
        what = [f"The public pages stay as they were published on {day(shown.as_of)}: "
                f"{shown.state or 'the event'}. Each web page says so to its readers (without the "
                "reason), the PDFs are those of that day, no player, member or association letter "
                "goes out, and the bulletin is not mailed.",
                "The inputs those pages were built from are kept in published-inputs/ "
                "(this office folder)."]
    else:
        what = ["Nothing was published before, so this run published what it could; the pages "
                "that wait say so to their readers. The bulletin is not mailed."]
    sections = [Section("What is held back, and why", intro=list(withheld)),
                Section("What the public sees", intro=what),
                Section("What to do", intro=[
                    "Correct the rows the validation report lists (validation.html) in the event's "
                    "input files and run again: the next run publishes the corrected inputs, and "
                    "the letters that were held go out then."])]
    pub.page(HELD_PAGE, title="Held back", subtitle=f"Run of {day(as_of)}.", sections=sections,
             pdf=False, notice="")
    publish_office_home(pub, list(findings), as_of, notice=(
        "Held back: " + " ".join(withheld) + " See “Held back” (held.html) below."))


def letters(cfg: Any, withheld: list[str], findings: list[Any], as_of: dt.date,
            shown: LastGood | None) -> list[Letter]:
    """DESIGN.md "Publishing on a bad day" (the office is told exactly what was held back and
    why) — a letter to every office recipient (``role = "office"``) of a run that held
    something back: the reasons, the input errors (the first 30), what the public sees. Its key
    names the state the public pages show, so it goes once per hold (again, as a correction,
    only when the reasons change)."""
    from transforms.core.errors import Severity

    errors = [f for f in findings if f.severity is Severity.ERROR]
    rows = (("File", "Line", "Column", "Value", "Reason"),) + tuple(
        (f.file, str(f.line or ""), f.column or "", (f.value or "")[:40], f.reason)
        for f in errors[:30])
    if shown is not None:
        public = (f"The public pages stay as published on {day(shown.as_of)} "
                  f"({shown.state or 'the event'}); no other letter goes out until the inputs are "
                  "corrected.")
        tag = shown.as_of.strftime("%Y%m%d")
    else:
        public = ("Nothing was published before: the pages that could be built are published, the "
                  "others say they wait.")
        tag = "first"
    out = []
    for rcp in cfg.publish.recipients:
        if rcp.role != "office" or address_problem(rcp.email):
            continue
        blocks = [Block("Held back", lines=tuple(withheld)), Block("What the public sees", lines=(public,))]
        if errors:
            blocks.append(Block(f"Input errors ({len(errors)})",
                                lines=(() if len(errors) <= 30 else (f"The first 30 of {len(errors)}:",)),
                                table=rows))
        out.append(Letter(
            key=f"office-{file_part(rcp.email, lower=True)}-held-{tag}", to_name=rcp.name,
            to_email=rcp.email, subject="Held back: the latest inputs cannot be published",
            lead=f"The latest inputs of the {cfg.event.name} cannot be published as they are "
                 "(what and why below); correct them and run again.",
            blocks=tuple(blocks),
            links=(("What is held back", HELD_PAGE), ("Validation report", f"{OFFICE}validation.html")),
            kind="office-held"))
    return out


def record(status: str, as_of: dt.date, state: str, withheld: list[str] = (),
           since: str = "") -> dict[str, Any]:
    """The manifest's :data:`KEY` entry: ``current`` (the pages show this run's inputs),
    ``held`` (they show the last good publication of ``as_of``, since the run of ``since``),
    ``partial`` (a first publication without what ``withheld`` names)."""
    out: dict[str, Any] = {"status": status, "as_of": as_of.isoformat(), "state": state}
    if withheld:
        out["withheld"] = list(withheld)
    if since:
        out["since"] = since
    return out
