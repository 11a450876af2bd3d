"""The Swiss event flow (National Junior): read → run the rulebook (``run_swiss``) → publish
(pages, PDFs, bulletin, TRF export, outbox, manifest)."""


import datetime as dt
from dataclasses import replace

from prefect import task
from prefect.cache_policies import NO_CACHE
from prefect.utilities.annotations import quote

from flows.io import csv_text
from flows.kinds.base import Build
from flows.kinds.swiss import ratings as swiss_ratings
from flows.kinds.swiss import site
from flows.kinds.swiss.letters import swiss_letters
from flows.kinds.swiss.parts import SwissPart, swiss_parts
from flows.mail.letters import Letter, without_addresses
from flows.mail.messages import bulletin_letters
from flows.site import render
from flows.site.names import file_part
from flows.site.pages import (
    OFFICE,
    Publication,
    findings_frame,
    publish_bulletin,
    publish_validation,
)
from flows.site.present import Section
from flows.site.render import plural
from transforms.core.config import EventConfig
from transforms.core.errors import Severity
from transforms.core.ingest import RawFile
from transforms.fide.rating_report import (
    RatingReportRules,
    check_rating_report,
    rating_report,
    report_header,
)
from transforms.fide.trf import Tournament, TrfFormat, parse_trf, write_trf
from transforms.round_robin.config import RoundRobinConfig
from transforms.swiss.config import SwissConfig
from transforms.swiss.event import RULE_STEPS, SwissRun, audit_rounds, engine_input, prepare
from transforms.swiss.rounds import RoundSetup, trf_players


def assemble(cfg: EventConfig, raw: dict[str, RawFile], as_of: dt.date, build: Build
             ) -> tuple[Publication, list[Letter]]:
    """Everything of the event that is computed from its inputs, in memory (nothing written,
    nothing sent): the rulebook's run (validate, standings, audit, pairing), every page and
    file of its site (their PDFs start rendering as their HTML is made) and its letters."""
    assert cfg.table(SwissConfig) is not None or cfg.table(RoundRobinConfig) is not None
    step, renderer = build.step, build.renderer
    pub = build.publication(cfg, as_of, keep=True)
    pub.cache["program"] = build.program  # what made the groups of pages and the pairings
    with step("validate"):
        run = validate(cfg, quote(raw), as_of)
    if not run.blocked:
        run.known_pairings = dict(build.known_pairings)
        for name, rule in RULE_TASKS:
            with step(name) as info:
                if name != "audit":
                    rule(quote(run))
                    continue
                audit_task(quote(run), renderer)
                audited = sum(c.done for c in run.categories)
                info["detail"] = (f"{run.reused} of {plural(audited, 'round')} known from the last "
                                  f"run, {audited - run.reused} paired again")
        pub.cache["pairings"] = {"program": build.program, "rounds": run.pairings}
    with step("pages") as info:
        letters = pages_task(quote(pub), cfg, quote(run), as_of, swiss_parts(build.parts))
        info["detail"] = pub.groups_summary()
    return pub, letters


validate = task(prepare, name="validate", cache_policy=NO_CACHE)
"""The rulebook's validation of the event's files (:func:`transforms.swiss.event.prepare`) as a
task of the event's flow."""


@task(name="audit", cache_policy=NO_CACHE)
def audit_task(run: SwissRun, renderer: str = "local") -> None:
    """FIDE C.04.3 — the rulebook's audit (:func:`transforms.swiss.event.audit_rounds`) with
    the rounds to pair again paired in parallel (the run's worker processes, or the Dask
    cluster: ``renderer``): they are independent of each other."""
    audit_rounds(run, lambda fn, jobs: render.parallel_map(fn, list(jobs), renderer))


RULE_TASKS = tuple((name, audit_task if name == "audit" else task(rule, name=name, cache_policy=NO_CACHE))
                   for name, rule in RULE_STEPS)
"""The rulebook's steps after validation (:data:`transforms.swiss.event.RULE_STEPS`: standings,
ratings, audit, pairing, prizes), each a task of the event's flow, in the rulebook's order
(the audit's with its rounds paired in parallel: :func:`audit_task`)."""


@task(name="pages", cache_policy=NO_CACHE)
def pages_task(pub: Publication, cfg: EventConfig, run: SwissRun, as_of: dt.date,
               parts: tuple[SwissPart, ...] = ()) -> list[Letter]:
    """:func:`publish_site` as the flow's step that builds every page, file and letter."""
    return publish_site(pub, cfg, run, as_of, parts)[2]


def publish_site(pub: Publication, cfg: EventConfig, run: SwissRun, as_of: dt.date,
                 parts: tuple[SwissPart, ...] = ()) -> tuple[list[Section], list[str], list[Letter]]:
    """Every page of the event's site and its letters, assembled in ``pub`` (no I/O: the flow
    writes it), with what the event's rules parts add (``parts``)."""
    bulletin, highlights = [], []
    if run.blocked:
        pub.withhold(run.blocked)  # before any page: they say what waits
    pub.state = shown_state(run)
    for part in parts:  # office pages (e.g. entries): not in the bulletin the public reads
        part.office_pages(pub, run)
    if run.blocked:
        pub.notes.append(run.blocked)
        site.publish_player_lists(pub, run)
        bulletin.append(Section("Standings and pairings", intro=[
            "The standings and pairings will be published as soon as the office has checked the "
            "latest results."]))
    else:
        for c in run.categories:
            if c.done:
                pub.files[f"event-{file_part(c.cat.id)}.trf"] = write_trf(public_trf(as_played(
                    run, engine_input(run, c, c.done + 1, RoundSetup({}, frozenset())))))
        fide_rating_reports(pub, run)
        swiss_ratings.rating_change_files(pub, run)  # office/<list>/rating-change-<category>.csv
        bulletin += site.publish_results(pub, run, highlights, parts)
        for c in run.categories:
            for d in c.audit:
                pub.notes.append(f"pairing audit {d['category']} round {d['round']}: {d['difference']}")
    publish_validation(pub, cfg, run.findings, as_of)
    publish_bulletin(pub, bulletin, as_of)
    if not run.blocked:
        # the rounds' and the players' pages after the bulletin: its PDF, the longest to
        # render, renders while they are built (issue 26)
        site.publish_rounds(pub, run)
        site.publish_players(pub, run)
    site.publish_home(pub, run, highlights, as_of, parts)
    letters = bulletin_letters([(r.name, r.email) for r in cfg.publish.recipients],
                               event_name=cfg.event.name,
                               lead=f"Here is the bulletin of the {cfg.event.name} as of {as_of:%d %B %Y}.",
                               highlights=highlights)
    personal, skipped = swiss_letters(run, as_of, parts)
    pub.notes += [without_addresses(f"no letter to {who}: {why}") for who, why in skipped]
    letters += personal
    return bulletin, highlights, letters


def as_played(run: SwissRun, t: Tournament) -> Tournament:
    """FIDE C.04 Annex 2 (``092``, TRF-2026 ``192``) — the tournament type a TRF of the event
    names: a round robin's (``FIDE_ROUNDROBIN``, ``FIDE_DOUBLEROUNDROBIN``: FIDE's codes for
    the Berger tables) instead of the Dutch edition; a Swiss's stays as it is."""
    rr = run.cfg.table(RoundRobinConfig)
    if rr is None:
        return t
    code = "FIDE_DOUBLEROUNDROBIN" if rr.cycles == 2 else "FIDE_ROUNDROBIN"
    kind = "Double round robin" if rr.cycles == 2 else "Round robin"
    header = replace(t.header, type=t.header.type or f"Individual: {kind} (FIDE Berger tables)",
                     encoded_type=code if t.format is TrfFormat.TRF_2026 else "")
    return replace(t, edition=None, header=header)


def public_trf(t: Tournament) -> Tournament:
    """DESIGN.md "Publishing on a bad day" (public files carry no birth date) — the TRF the
    public site offers for download: every ``001`` record's birth date left blank (columns
    70-79, which TRF allows empty). Decision: blank, not the year — the players of a junior
    event are minors, and nothing a program reading the file pairs or ranks with needs it. The
    office's FIDE rating report (``office/fide/``) keeps the full date FIDE asks for."""
    return replace(t, players=tuple(replace(p, birth="") for p in t.players))


def shown_state(run: SwissRun) -> str:
    """What the event's public pages show, in the public's words: the standings after the last
    complete round and the pairings of the next, per category when they differ ("the
    standings after round 10 and the pairings of round 11")."""
    if run.blocked:
        return "entries and player lists"

    def of(c) -> str:
        shown = [f"standings after round {c.done}"] if c.done else []
        if c.pairing is not None:
            shown.append(f"pairings of round {c.pairing.round}")
        return " and the ".join(shown) or "player lists"

    states = [(c.cat.name, of(c)) for c in run.categories]
    if len({s for _, s in states}) <= 1:
        return states[0][1] if states else "event"
    return "; ".join(f"{name}: {s}" for name, s in states)


def fide_rating_reports(pub: Publication, run: SwissRun) -> None:
    """The FIDE rating report of every rated category whose last round is complete
    (``fide/rating-report-<category>.trf``), read back and checked as FIDE would
    (``fide/rating-report-<category>-check.csv``; the counts go to the manifest's notes)."""
    rules, s, e = run.cfg.table(RatingReportRules), run.cfg.table(SwissConfig), run.cfg.event
    if rules is None or s is None:
        return
    for c in run.categories:
        if (rules.categories and c.cat.id not in rules.categories) or c.done < c.rounds:
            continue
        players = trf_players(c.players)
        t = rating_report(
            players, c.card, c.rankings[c.done], name=f"{e.name} — {c.cat.name}",
            header=report_header(rules, start=e.start, end=e.end, players=players,
                                 tiebreaks=s.tiebreaks),
            total_rounds=c.rounds, edition=s.dutch_edition, initial_colour=s.initial_colour.colour,
            format=rules.format, tournament_code=rules.tournament_codes.get(c.cat.id, ""))
        t = as_played(run, t)
        rel = f"{OFFICE}fide/rating-report-{file_part(c.cat.id)}.trf"
        text = write_trf(t)
        found = check_rating_report(parse_trf(text, source=rel), source=rel)
        pub.files[rel] = text
        pub.files[f"{OFFICE}fide/rating-report-{file_part(c.cat.id)}-check.csv"] = csv_text(findings_frame(found))
        errors = sum(f.severity is Severity.ERROR for f in found)
        pub.notes.append(f"FIDE rating report {c.cat.id} ({rules.format}): {plural(errors, 'error')}, "
                         f"{plural(len(found) - errors, 'warning')} for FIDE (fide/rating-report-"
                         f"{file_part(c.cat.id)}-check.csv)")
