"""The team kinds' build of an event: read → the rulebook (:mod:`transforms.team.event`:
validate, standings) → every page and letter, in memory."""

from __future__ import annotations

import datetime as dt

from prefect import task
from prefect.cache_policies import NO_CACHE
from prefect.utilities.annotations import quote

from flows.kinds.base import Build
from flows.kinds.team.games import (
    bulletin_sections,
    game_links,
    publish_games,
    publish_public_games,
)
from flows.kinds.team.letters import team_letters
from flows.kinds.team.pages import home_groups, publish_site
from flows.mail.letters import Letter, without_addresses
from flows.mail.messages import bulletin_letters
from flows.site.names import file_part
from flows.site.pages import (
    OFFICE,
    Publication,
    publish_bulletin,
    publish_homes,
    publish_validation,
)
from transforms.core.config import EventConfig
from transforms.core.ingest import RawFile
from transforms.team.event import RULE_STEPS, TeamRun, prepare


def assemble(cfg: EventConfig, raw: dict[str, RawFile], as_of: dt.date, build: Build
             ) -> tuple[Publication, list[Letter]]:
    """Everything of the event that is computed from its inputs, in memory (nothing written,
    nothing sent): the rulebook's run (validate, standings), every page and its letters."""
    step = build.step
    pub = build.publication(cfg, as_of)
    with step("validate"):
        run = validate(cfg, quote(raw), as_of, quote(build.sources))
    if not run.blocked:
        for name, rule in RULE_TASKS:
            with step(name):
                rule(quote(run))
    with step("pages"):
        letters = pages_task(quote(pub), cfg, quote(run), as_of)
    return pub, letters


validate = task(prepare, name="validate", cache_policy=NO_CACHE)
"""The rulebook's validation of the event's files (:func:`transforms.team.event.prepare`)."""

RULE_TASKS = tuple((name, task(rule, name=name, cache_policy=NO_CACHE)) for name, rule in RULE_STEPS)
"""The rulebook's steps after validation (:data:`transforms.team.event.RULE_STEPS`), each a
task of the event's flow."""


@task(name="pages", cache_policy=NO_CACHE)
def pages_task(pub: Publication, cfg: EventConfig, run: TeamRun, as_of: dt.date) -> list[Letter]:
    """:func:`publish` as the flow's step that builds every page, file and letter."""
    return publish(pub, cfg, run, as_of)


def publish(pub: Publication, cfg: EventConfig, run: TeamRun, as_of: dt.date) -> list[Letter]:
    """Every page of the event's site and its letters, assembled in ``pub`` (no I/O)."""
    if run.blocked:
        pub.withhold(run.blocked)
        pub.outcome.notes.append(run.blocked)
    pub.outcome.state = shown_state(run)
    bulletin = [] if run.blocked else publish_site(pub, run, game_links(run))
    bulletin += bulletin_sections(run)  # [games] bulletin: the chosen games, with diagrams
    for g in run.groups:
        if g.report:
            pub.files[f"{OFFICE}fide/team-report-{file_part(g.id)}.trf"] = g.report
        for month, text in g.period_reports:  # rounds over more than 30 days: by rating period
            pub.files[f"{OFFICE}fide/team-report-{file_part(g.id)}-{month:%Y-%m}.trf"] = text
    publish_validation(pub, cfg, run.findings, as_of)
    publish_games(pub, run)  # office/games.{csv,html}
    publish_bulletin(pub, bulletin, as_of)
    publish_public_games(pub, run)  # games/: a page per game, the PGN downloads
    highlights = [(f"{g.name}: " if g.name != cfg.event.name else "")
                  + f"{g.done} of {g.rounds} rounds complete" for g in run.groups]
    publish_homes(pub, facts=[("Organiser", cfg.event.organiser), ("Contact", cfg.event.contact)],
                  highlights=highlights, findings=run.findings, as_of=as_of,
                  groups=[] if run.blocked else home_groups(run))
    letters = bulletin_letters([(r.name, r.email) for r in cfg.publish.recipients],
                               event_name=cfg.event.name,
                               lead=f"Here is the bulletin of the {cfg.event.name} as of {as_of:%d %B %Y}.",
                               highlights=highlights)
    personal, skipped = team_letters(run)
    pub.outcome.notes += [without_addresses(f"no letter to {who}: {why}") for who, why in skipped]
    return letters + personal


def shown_state(run: TeamRun) -> str:
    """What the event's public pages show, in the public's words."""
    if run.blocked:
        return "teams and fixtures"
    done = sorted({g.done for g in run.groups})
    return f"standings after round {done[0]}" if len(done) == 1 and done[0] else "teams and fixtures"
