"""The Swiss event flow (National Junior): read → run the rulebook (``run_swiss``) → publish
(pages, PDFs, bulletin, TRF export, outbox, manifest)."""


import datetime as dt
from dataclasses import replace

from prefect import task
from prefect.cache_policies import NO_CACHE
from prefect.utilities.annotations import quote

from flows.io import csv_text
from flows.kinds import norms as title_norms
from flows.kinds.base import Build, Parallel
from flows.kinds.swiss import ratings as swiss_ratings
from flows.kinds.swiss import site
from flows.kinds.swiss.common import player_rel
from flows.kinds.swiss.games import bulletin_sections, publish_games, publish_public_games
from flows.kinds.swiss.letters import swiss_letters
from flows.kinds.swiss.parts import SwissPart, swiss_parts
from flows.mail.letters import Letter, without_addresses
from flows.mail.messages import bulletin_letters
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
from transforms.core.ingest import RawFile
from transforms.fide.norms import NormsConfig
from transforms.fide.rating_report import RatingReportRules
from transforms.fide.trf import write_trf
from transforms.kinds import earlier_results
from transforms.round_robin.config import RoundRobinConfig
from transforms.swiss.config import SwissConfig
from transforms.swiss.event import RULE_STEPS, SwissRun, audit_rounds, prepare


def assemble(cfg: EventConfig, raw: dict[str, RawFile], as_of: dt.date, build: Build
             ) -> tuple[Publication, list[Letter]]:
    """Everything of the event that is computed from its inputs, in memory (nothing written,
    nothing sent): the rulebook's run (validate, standings, audit, pairing), every page and
    file of its site (their PDFs start rendering as their HTML is made) and its letters."""
    assert cfg.table(SwissConfig) is not None or cfg.table(RoundRobinConfig) is not None
    step = build.step
    pub = build.publication(cfg, as_of, keep=True)
    pub.reuse.cache["program"] = build.program  # what made the groups of pages and the pairings
    with step("validate"):
        earlier = earlier_results(build.sources, as_of)  # the events its seed routes name
        run = validate(cfg, quote(raw), as_of, earlier=quote(earlier))
    if not run.blocked:
        run.known_pairings = dict(build.known_pairings)
        for name, rule in RULE_TASKS:
            with step(name) as info:
                if name != "audit":
                    rule(quote(run))
                    continue
                audit_task(quote(run), quote(build.parallel))
                audited = sum(c.done for c in run.categories)
                info["detail"] = (f"{run.reused} of {plural(audited, 'round')} known from the last "
                                  f"run, {audited - run.reused} paired again")
        pub.reuse.cache["pairings"] = {"program": build.program, "rounds": run.pairings}
    with step("pages") as info:
        letters = pages_task(quote(pub), cfg, quote(run), as_of, swiss_parts(build.parts))
        info["detail"] = pub.groups_summary()
    return pub, letters


validate = task(prepare, name="validate", cache_policy=NO_CACHE)
"""The rulebook's validation of the event's files (:func:`transforms.swiss.event.prepare`) as a
task of the event's flow."""


@task(name="audit", cache_policy=NO_CACHE)
def audit_task(run: SwissRun, parallel: Parallel) -> None:
    """FIDE C.04.3 — the rulebook's audit (:func:`transforms.swiss.event.audit_rounds`) with
    the rounds to pair again paired in parallel (``parallel``: the run's worker processes, or
    a Dask worker's renderer and the worker, :attr:`flows.kinds.base.Build.parallel`): they are independent of each
    other."""
    audit_rounds(run, parallel)


RULE_TASKS = tuple((name, audit_task if name == "audit" else task(rule, name=name, cache_policy=NO_CACHE))
                   for name, rule in RULE_STEPS)
"""The rulebook's steps after validation (:data:`transforms.swiss.event.RULE_STEPS`: standings,
ratings, audit, pairing, prizes, exports), each a task of the event's flow, in the rulebook's order
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
    pub.outcome.state = shown_state(run)
    for part in parts:  # office pages (e.g. entries): not in the bulletin the public reads
        part.office_pages(pub, run)
    if run.blocked:
        pub.outcome.notes.append(run.blocked)
        site.publish_player_lists(pub, run)
        bulletin.append(Section("Standings and pairings", intro=[
            "The standings and pairings will be published as soon as the office has checked the "
            "latest results."]))
    else:
        for c in run.categories:
            if c.public_trf is not None:  # (the rulebook's exports step: no birth date)
                pub.files[f"event-{file_part(c.cat.id)}.trf"] = write_trf(c.public_trf)
        fide_rating_reports(pub, run)
        swiss_ratings.rating_change_files(pub, run)  # office/<list>/rating-change-<category>.csv
        norms_cfg = cfg.table(NormsConfig)
        if norms_cfg is not None:  # a title tournament: norms.html, office/norms/
            groups = norm_groups(run)
            title_norms.office_files(pub, norms_cfg, cfg.table(RatingReportRules), cfg.event, groups)
            title_norms.norms_page(pub, norms_cfg, groups)
        bulletin += site.publish_results(pub, run, highlights, parts)
        bulletin += bulletin_sections(run)  # [games] bulletin: the chosen games, with diagrams
        for c in run.categories:
            for d in c.audit:
                pub.outcome.notes.append(f"pairing audit {d['category']} round {d['round']}: {d['difference']}")
    publish_validation(pub, cfg, run.findings, as_of)
    publish_games(pub, run)  # office/games.{csv,html}
    publish_bulletin(pub, bulletin, as_of)
    if not run.blocked:
        # the rounds' and the players' pages after the bulletin: its PDF, the longest to
        # render, renders while they are built (issue 26)
        site.publish_rounds(pub, run)
        site.publish_players(pub, run)
        publish_public_games(pub, run)  # games/: a page per game, the PGN downloads
    site.publish_home(pub, run, highlights, as_of, parts)
    letters = bulletin_letters([(r.name, r.email) for r in cfg.publish.recipients],
                               event_name=cfg.event.name,
                               lead=f"Here is the bulletin of the {cfg.event.name} as of {as_of:%d %B %Y}.",
                               highlights=highlights)
    personal, skipped = swiss_letters(run, as_of, parts)
    pub.outcome.notes += [without_addresses(f"no letter to {who}: {why}") for who, why in skipped]
    letters += personal
    return bulletin, highlights, letters


def norm_groups(run: SwissRun) -> list[title_norms.NormGroup]:
    """FIDE B.01 — each category's norms (``CategoryRun.norms``) for the norms pages."""
    out = []
    for c in run.categories:
        if c.norms is not None:
            names = dict(zip(c.players["sno"].to_list(), c.players["name"].to_list()))
            out.append(title_norms.NormGroup(c.cat.id, c.cat.name, c.norms, names,
                                             lambda sno, cid=c.cat.id: player_rel(cid, sno)))
    return out


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
    """The FIDE rating report of every category the rulebook reported (its exports step:
    ``CategoryRun.rating_report``) as ``fide/rating-report-<category>.trf``, and FIDE's check
    of it as ``fide/rating-report-<category>-check.csv``, each finding naming that file (the
    counts go to the manifest's notes); for an event longer than 30 days, each rating period's
    as ``fide/rating-report-<category>-<yyyy-mm>.trf`` (``CategoryRun.period_reports``)."""
    for c in run.categories:
        for month, part in c.period_reports:  # an event longer than 30 days: by rating period
            rel = f"{OFFICE}fide/rating-report-{file_part(c.cat.id)}-{month:%Y-%m}.trf"
            found = [replace(f, file=rel) for f in part.findings]
            pub.files[rel] = part.text
            pub.files[rel.removesuffix(".trf") + "-check.csv"] = csv_text(findings_frame(found))
            pub.outcome.notes.append(
                f"FIDE rating report {c.cat.id}, {month:%B %Y} ({part.format}): "
                f"{plural(part.errors, 'error')}, {plural(part.warnings, 'warning')} for FIDE")
        report = c.rating_report
        if report is None:
            continue
        rel = f"{OFFICE}fide/rating-report-{file_part(c.cat.id)}.trf"
        found = [replace(f, file=rel) for f in report.findings]
        pub.files[rel] = report.text
        pub.files[f"{OFFICE}fide/rating-report-{file_part(c.cat.id)}-check.csv"] = csv_text(findings_frame(found))
        pub.outcome.notes.append(f"FIDE rating report {c.cat.id} ({report.format}): {plural(report.errors, 'error')}, "
                         f"{plural(report.warnings, 'warning')} for FIDE (fide/rating-report-"
                         f"{file_part(c.cat.id)}-check.csv)")
