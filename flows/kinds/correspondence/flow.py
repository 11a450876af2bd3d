"""The correspondence event flow (Golden Knights): read → validate → the rulebook
(``run_golden_knights``: entries, sections, results and rulings, qualifiers, weighted points,
prizes, awards) → publish."""


import datetime as dt

import polars as pl
from prefect import task
from prefect.cache_policies import NO_CACHE
from prefect.utilities.annotations import quote

from flows.kinds.base import Build
from flows.kinds.correspondence.letters import gk_letters
from flows.kinds.correspondence.sections import stage_play
from flows.kinds.correspondence.site import home_links, publish_event
from flows.mail.letters import Letter, without_addresses
from flows.mail.messages import bulletin_letters
from flows.site.pages import (
    Publication,
    publish_bulletin,
    publish_homes,
    publish_validation,
)
from flows.site.present import Section
from flows.site.render import plural
from transforms.core.config import EventConfig
from transforms.core.errors import Finding
from transforms.core.ingest import RawFile, limit_said, unusable, validate_files
from transforms.core.pgn import GAMES
from transforms.core.steps import StepTimer, no_step
from transforms.golden_knights.event import READ_BACK, GKResult, compute, read_back  # noqa: F401
from transforms.golden_knights.rules import GKRules
from transforms.golden_knights.schemas import REQUIRED as GK_REQUIRED
from transforms.golden_knights.schemas import SCHEMAS as GK_SCHEMAS


def rulebook(cfg: EventConfig, raw: dict[str, RawFile], as_of: dt.date, step: StepTimer = no_step
             ) -> tuple[dict[str, pl.DataFrame], list[Finding], GKResult | None]:
    """The event's input files validated and typed, the findings, and the rulebook's run on
    them (None when members.csv or entries.csv cannot be read at all: see
    :func:`publish_site`)."""
    with step("validate"):
        typed, findings = validate_files(read_back(raw), dict(cfg.files) or GK_SCHEMAS,
                                         cfg.required_files or GK_REQUIRED)
    res = None
    if not unusable(findings, "members.csv", "entries.csv"):
        with step("rules"):
            res = compute(cfg, typed, as_of, raw.get(GAMES))
    return typed, findings, res


def shown_state(res: GKResult) -> str:
    """What the event's public pages show, in the public's words: the results of the stage
    being played ("results of the semifinal stage: 5 of 8 sections complete")."""
    play = stage_play(res)
    if not play:
        return "entries"
    sp = play[-1]
    return (f"results of the {sp.stage} stage ({sp.complete} of {plural(sp.sections, 'section')} "
            "complete)")


def publish_site(pub: Publication, cfg: EventConfig, typed: dict[str, pl.DataFrame],
                 findings: list[Finding], as_of: dt.date, step: StepTimer = no_step,
                 res: GKResult | None = None, pgn: RawFile | None = None
                 ) -> tuple[list[str], GKResult | None]:
    """The rulebook's run (``res``, when the caller has it already; else on ``typed`` and the
    PGN files ``pgn``) and every page of the
    event's site, assembled in ``pub`` (no I/O: the flow writes it); returns the highlights of
    the messages and the rulebook's run (None when members.csv or entries.csv cannot be read
    at all).

    Decision: rows of members.csv or entries.csv with errors are set aside and the rest of the
    event is computed without them (their entries are rejected, each with its validation row);
    only a file that cannot be read at all (missing, empty, a required column missing) stops
    everything after it."""
    bulletin: list[Section] = []
    highlights: list[str] = []
    home: list[Section] = []
    findings = list(findings)
    if unusable(findings, "members.csv", "entries.csv"):
        res = None
        msg = limit_said(findings, "members.csv", "entries.csv") or (
            "members.csv or entries.csv cannot be read (see the validation report): nothing else "
            "is computed.")
        pub.withhold(msg)
        pub.outcome.notes.append(msg)
        pub.outcome.state = "event"
        bulletin.append(Section("Results", intro=[
            "The event's results will be published as soon as the office has checked the latest "
            "entries."]))
    else:
        if res is None:
            with step("rules"):
                res = compute(cfg, typed, as_of, pgn)
        findings += res.findings
        pub.outcome.state = shown_state(res)
        with step("pages"):
            bulletin, highlights, home = publish_event(pub, cfg, cfg.table(GKRules), res, as_of,
                                                       members=typed["members.csv"])
    publish_validation(pub, cfg, findings, as_of)
    publish_bulletin(pub, bulletin, as_of)
    publish_homes(pub, facts=[("Organiser", cfg.event.organiser), ("Contact", cfg.event.contact)],
                  highlights=highlights, findings=findings, as_of=as_of, sections=home,
                  links=home_links(pub) if home else None,
                  links_heading="Files (CSV and printable PDF)" if home else "Pages and files")
    return highlights, res


def assemble(cfg: EventConfig, raw: dict[str, RawFile], as_of: dt.date, build: Build
             ) -> tuple[Publication, list[Letter]]:
    """Everything of the event that is computed from its inputs, in memory (nothing written,
    nothing sent): validation, the rulebook's run, every page and file of its site (their PDFs
    start rendering as their HTML is made) and its letters."""
    step = build.step
    pub = build.publication(cfg, as_of)
    with step("validate"):
        typed, findings = validate(quote(read_back(raw)), dict(cfg.files) or GK_SCHEMAS,
                                   cfg.required_files or GK_REQUIRED)
    res = None
    if not unusable(findings, "members.csv", "entries.csv"):
        with step("rules"):
            res = rules_task(cfg, quote(typed), as_of, quote(raw.get(GAMES)))
    with step("pages"):
        highlights, res = pages_task(quote(pub), cfg, quote(typed), quote(findings), as_of, res)
    letters = bulletin_letters([(r.name, r.email) for r in cfg.publish.recipients],
                               event_name=cfg.event.name,
                               lead=f"Here is the bulletin of the {cfg.event.name} as of {as_of:%d %B %Y}.",
                               highlights=highlights)
    if res is not None:
        with step("letters"):
            personal, skipped = letters_task(cfg, quote(res), typed["members.csv"], as_of)
        letters += personal
        for who, why in skipped:
            pub.outcome.notes.append(without_addresses(f"No letter to {who}: {why}."))
    return pub, letters


validate = task(validate_files, name="validate", cache_policy=NO_CACHE)
"""The event's files validated and typed (:func:`transforms.core.ingest.validate_files`) as a task
of the event's flow."""

rules_task = task(compute, name="rules", cache_policy=NO_CACHE)
"""The rulebook's run of the event (:func:`compute`: GK rules 1-12 — entries, sections, results
and rulings, qualifiers, weighted points, prizes, awards) as a task of the event's flow."""

letters_task = task(gk_letters, name="letters", cache_policy=NO_CACHE)
"""The members' letters (:func:`flows.kinds.correspondence.letters.gk_letters`) as a task of the flow."""


@task(name="pages", cache_policy=NO_CACHE)
def pages_task(pub: Publication, cfg: EventConfig, typed: dict[str, pl.DataFrame],
               findings: list[Finding], as_of: dt.date, res: GKResult | None
               ) -> tuple[list[str], GKResult | None]:
    """:func:`publish_site` as the flow's step that builds every page and file."""
    return publish_site(pub, cfg, typed, findings, as_of, res=res)
