"""The series' build: the events it names, read by their own kinds' rulebooks → the series'
rulebook (:mod:`transforms.series.event`: identity, points, standings, prizes) → every page and
letter, in memory."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from prefect import task
from prefect.cache_policies import NO_CACHE
from prefect.utilities.annotations import quote

from flows.kinds.base import Build, Parallel
from flows.kinds.series.letters import series_letters
from flows.kinds.series.pages import home_groups, publish_site
from flows.mail.letters import Letter, without_addresses
from flows.mail.messages import bulletin_letters
from flows.site.pages import Publication, publish_bulletin, publish_homes, publish_validation
from transforms.core.config import EventConfig
from transforms.core.ingest import RawFile
from transforms.core.results import EventResult, Source, result_from_record, result_record
from transforms.kinds import event_result
from transforms.series.event import RULE_STEPS, SeriesRun, prepare


def assemble(cfg: EventConfig, raw: dict[str, RawFile], as_of: dt.date, build: Build
             ) -> tuple[Publication, list[Letter]]:
    """Everything of the series that is computed from its events, in memory (nothing written,
    nothing sent): the rulebook's run, every page and its letters."""
    step = build.step
    pub = build.publication(cfg, as_of, keep=True)  # the member pages are groups (pages.py)
    pub.reuse.cache["program"] = build.program  # what made those groups
    with step("validate") as info:
        reader = KnownResults(build.known_results, as_of)
        ahead = reader.read_ahead(build.sources, as_of, build.parallel)
        run = validate(cfg, quote(build.sources), as_of, quote(dict(build.season)), quote(reader))
        pub.reuse.cache["results"] = {"program": build.program, "events": reader.records}
        info["detail"] = (f"{run.held} of {len(run.events)} events counted; "
                          f"{reader.taken} read as the last run did, {ahead} side by side")
    if not run.blocked:
        for name, rule in RULE_TASKS:
            with step(name):
                rule(quote(run))
    with step("pages") as info:
        letters = pages_task(quote(pub), cfg, quote(run), as_of)
        info["detail"] = pub.groups_summary()
    return pub, letters


class KnownResults:
    """Reads a series' event (:func:`transforms.kinds.event_result`), or takes its results from
    the last run when they were computed from the same files (``Source.digest``) on the same
    run date, or as :meth:`read_ahead` read them; keeps every result read for the next run
    (``records``)."""

    def __init__(self, known: Mapping[str, Any], as_of: dt.date) -> None:
        self.known, self.as_of = known, as_of
        self.records: dict[str, Any] = {}
        self.taken = 0
        self.ahead: dict[tuple[str, str], EventResult] = {}

    def _last(self, source: Source, as_of: dt.date) -> dict[str, Any] | None:
        last = self.known.get(source.name)
        if (source.digest and isinstance(last, dict) and last.get("digest") == source.digest
                and last.get("as_of") == as_of.isoformat()):
            return last
        return None

    def read_ahead(self, sources: Sequence[Source], as_of: dt.date, parallel: Parallel) -> int:
        """Read the events the last run does not give, side by side (``parallel``: the run's
        renderers, :attr:`flows.kinds.base.Build.parallel`), before the series' rulebook asks
        for them one by one; how many were read. One that cannot be read is read again when
        asked, which says why. (A full-size season's first build: its series read 34 Swiss
        events of 100-900 players, standings and tie-breaks, 14-16 s in one process.)"""
        todo = [s for s in sources if not s.missing and not s.error and self._last(s, as_of) is None]
        if len(todo) < 2:
            return 0
        results = parallel(_result_or_none, [(s, as_of) for s in todo])
        for s, result in zip(todo, results):
            if result is not None:
                self.ahead[(s.name, s.digest)] = result
        return len(self.ahead)

    def __call__(self, source: Source, as_of: dt.date) -> EventResult:
        last = self._last(source, as_of)
        ahead = self.ahead.pop((source.name, source.digest), None)
        if last is not None:
            result = with_addresses(result_from_record(last["result"]), source)
            self.taken += 1
        elif ahead is not None:
            result = ahead
        else:
            result = event_result(source, as_of)
        if source.digest:
            self.records[source.name] = {"digest": source.digest, "as_of": as_of.isoformat(),
                                         "result": result_record(result)}
        return result


def _result_or_none(item: tuple[Source, dt.date]) -> EventResult | None:
    """:func:`transforms.kinds.event_result` in a renderer process: None where the event's
    results cannot be read (its reason is given when the series reads it itself)."""
    try:
        return event_result(*item)
    except ValueError:
        return None


def with_addresses(result: EventResult, source: Source) -> EventResult:
    """A result taken from the last run with its players' addresses from the event's
    players.csv again (by line: the cache keeps none)."""
    players = source.raw.get("players.csv")
    if not isinstance(players, tuple) or "email" not in players[0].columns:
        return result
    email = {r["line"]: r["email"] or "" for r in players[0].select("line", "email").iter_rows(named=True)}
    return replace(result, finishes=tuple(replace(f, email=email.get(f.line, ""))
                                          for f in result.finishes))


@task(name="validate", cache_policy=NO_CACHE)
def validate(cfg: EventConfig, sources: tuple, as_of: dt.date, season: dict[str, RawFile],
             read: KnownResults) -> SeriesRun:
    """The rulebook's reading of the series' events (:func:`transforms.series.event.prepare`,
    each event by its own kind: :func:`transforms.kinds.event_result`, or as the last run read
    it: :class:`KnownResults`) and of the season's member registry."""
    return prepare(cfg, sources, as_of, read, season)


RULE_TASKS = tuple((name, task(rule, name=name, cache_policy=NO_CACHE)) for name, rule in RULE_STEPS)
"""The rulebook's steps after reading the events (:data:`transforms.series.event.RULE_STEPS`),
each a task of the series' flow."""


@task(name="pages", cache_policy=NO_CACHE)
def pages_task(pub: Publication, cfg: EventConfig, run: SeriesRun, as_of: dt.date) -> list[Letter]:
    """:func:`publish` as the flow's step that builds every page, file and letter."""
    return publish(pub, cfg, run, as_of)


def publish(pub: Publication, cfg: EventConfig, run: SeriesRun, as_of: dt.date) -> list[Letter]:
    """Every page of the series' site and its letters, assembled in ``pub`` (no I/O)."""
    if run.blocked:
        pub.withhold(run.blocked)
        pub.outcome.notes.append(run.blocked)
    pub.outcome.state = shown_state(run)
    bulletin = [] if run.blocked else publish_site(pub, run)
    publish_validation(pub, cfg, run.findings, as_of)
    publish_bulletin(pub, bulletin, as_of)
    highlights = [shown_state(run)[0].upper() + shown_state(run)[1:] + "."]
    publish_homes(pub, facts=[("Organiser", cfg.event.organiser), ("Contact", cfg.event.contact)],
                  highlights=highlights, findings=run.findings, as_of=as_of,
                  groups=[] if run.blocked else home_groups(run),
                  unlisted=("members/", "players/"))
    letters = bulletin_letters([(r.name, r.email) for r in cfg.publish.recipients],
                               event_name=cfg.event.name,
                               lead=f"Here is the bulletin of the {cfg.event.name} as of {as_of:%d %B %Y}.",
                               highlights=highlights)
    personal, skipped = series_letters(run)
    pub.outcome.notes += [without_addresses(f"no letter to {who}: {why}") for who, why in skipped]
    return letters + personal


def shown_state(run: SeriesRun) -> str:
    """What the series' public pages show, in the public's words."""
    if run.blocked or not run.held:
        return "the events of the series"
    return f"standings after {run.held} of {len(run.events)} events"
