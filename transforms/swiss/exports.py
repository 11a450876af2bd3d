"""What a Swiss event's files for other programs hold (FIDE C.04 Annex 2): the TRF the public
site offers for download and each rated category's FIDE rating report with FIDE's check of it.
The rulebook's ``exports`` step (:func:`transforms.swiss.event.export_files`) computes them
into the run (``CategoryRun.public_trf``, ``CategoryRun.rating_report``); the flow only writes
them.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace

import polars as pl

from transforms.core.config import EventConfig
from transforms.core.errors import Finding, Severity
from transforms.fide.rating_list import ratings_in_force
from transforms.fide.rating_report import (
    RatingReportRules,
    check_rating_report,
    period_report,
    rating_periods,
    rating_report,
    report_header,
)
from transforms.fide.trf import Tournament, TrfFormat, parse_trf, write_trf
from transforms.swiss.config import Category, SwissConfig
from transforms.swiss.parts import FixedSchedule
from transforms.swiss.rounds import trf_players


@dataclass(frozen=True)
class RatingReport:
    """One category's FIDE rating report as FIDE receives it, and what FIDE would reject or ask
    about in it (:func:`category_rating_report`)."""

    tournament: Tournament
    """The report (``[fide_report]``'s header, the players, every round, the final ranks)."""
    text: str
    """The report's TRF text, as the office sends it (``office/fide/rating-report-<category>.trf``)."""
    format: TrfFormat
    """The TRF edition it is written in (``[fide_report] format``)."""
    findings: tuple[Finding, ...]
    """FIDE's check of the text read back (:func:`~transforms.fide.rating_report.check_rating_report`),
    with line and column; ``file`` empty: the flow names the file it writes the report to."""

    @property
    def errors(self) -> int:
        """How many of ``findings`` FIDE would reject the report for."""
        return sum(f.severity is Severity.ERROR for f in self.findings)

    @property
    def warnings(self) -> int:
        """How many of ``findings`` FIDE would ask about."""
        return len(self.findings) - self.errors


def as_played(t: Tournament, schedule: FixedSchedule | None) -> Tournament:
    """FIDE C.04 Annex 2 (``092``, TRF-2026 ``192``) — the tournament type a TRF of the event
    names: a round robin's (``FIDE_ROUNDROBIN``, ``FIDE_DOUBLEROUNDROBIN``: FIDE's codes for
    the Berger tables, ``schedule`` the event's :class:`~transforms.swiss.parts.FixedSchedule`)
    instead of the Dutch edition; a Swiss's (``schedule`` None) stays as it is."""
    if schedule is None:
        return t
    code = "FIDE_DOUBLEROUNDROBIN" if schedule.cycles == 2 else "FIDE_ROUNDROBIN"
    kind = "Double round robin" if schedule.cycles == 2 else "Round robin"
    header = replace(t.header, type=t.header.type or f"Individual: {kind} (FIDE Berger tables)",
                     encoded_type=code if t.format is TrfFormat.TRF_2026 else "")
    return replace(t, edition=None, header=header)


def public_trf(t: Tournament) -> Tournament:
    """DESIGN.md "Publishing on a bad day" (public files carry no birth date) — the TRF the
    public site offers for download: every ``001`` record's birth date left blank (columns
    70-79, which TRF allows empty). Decision: blank, not the year — the players of a junior
    event are minors, and nothing a program reading the file pairs or ranks with needs it. The
    office's FIDE rating report (``office/fide/``, :func:`category_rating_report`) keeps the
    full date FIDE asks for."""
    return replace(t, players=tuple(replace(p, birth="") for p in t.players))


def reported(rules: RatingReportRules, cat: Category, *, done: int, rounds: int) -> bool:
    """FIDE Rating Regulations §9.1 — whether a category is reported to FIDE in this run: one
    ``[fide_report] categories`` names (every category when it names none), once its last
    round is complete."""
    return (not rules.categories or cat.id in rules.categories) and done >= rounds


def category_rating_report(cfg: EventConfig, cat: Category, players: pl.DataFrame,
                           card: pl.DataFrame, ranking: pl.DataFrame, *, rounds: int,
                           schedule: FixedSchedule | None = None) -> RatingReport:
    """FIDE Rating Regulations §9.1 and C.04 Annex 2 — a category's FIDE rating report
    (``[fide_report]``: :func:`~transforms.fide.rating_report.rating_report` of its players,
    scorecard and final ``ranking``, the type :func:`as_played`), written as FIDE receives it,
    read back and checked as FIDE would (:func:`~transforms.fide.rating_report.check_rating_report`)."""
    rules, s, e = cfg.require(RatingReportRules), cfg.require(SwissConfig), cfg.event
    people = trf_players(players)
    t = rating_report(
        people, card, ranking, name=f"{e.name} — {cat.name}",
        header=report_header(rules, start=e.start, end=e.end, players=people,
                             tiebreaks=s.tiebreaks),
        total_rounds=rounds, edition=s.dutch_edition, initial_colour=s.initial_colour.colour,
        format=rules.format, tournament_code=rules.tournament_codes.get(cat.id, ""))
    t = as_played(t, schedule)
    text = write_trf(t)
    found = check_rating_report(parse_trf(text, source=f"rating report {cat.id}"))
    return RatingReport(t, text, rules.format, tuple(found))


def period_rating_reports(cfg: EventConfig, cat: Category, players: pl.DataFrame,
                          card: pl.DataFrame, ranking: pl.DataFrame | None, *, rounds: int,
                          done: int,
                          schedule: FixedSchedule | None = None,
                          later: pl.DataFrame | None = None
                          ) -> tuple[tuple[dt.date, RatingReport], ...]:
    """FIDE B.02 (an event longer than 30 days reports its results by rating period, as each
    period's rounds are complete) — for a reported category (``[fide_report] categories``)
    whose rounds span more than 30 days
    (:func:`~transforms.fide.rating_report.rating_periods`), one report per month whose rounds
    are all complete (:func:`~transforms.fide.rating_report.period_report`), each written,
    read back and checked as FIDE would; none for a shorter event (its one report at the end:
    :func:`category_rating_report`)."""
    rules = cfg.require(RatingReportRules)
    periods = rating_periods(rules.round_dates[:rounds])
    if len(periods) <= 1 or not done or ranking is None or (
            rules.categories and cat.id not in rules.categories):
        return ()
    full = category_rating_report(cfg, cat, players, card, ranking, rounds=rounds,
                                  schedule=schedule).tournament
    out = []
    for month, part in periods:
        if max(part) > done:
            break
        t = period_report(full, part, month, rules.round_dates, ratings_in_force(later, players, part[0]))
        text = write_trf(t)
        found = check_rating_report(parse_trf(text, source=f"rating report {cat.id} {month:%Y-%m}"))
        out.append((month, RatingReport(t, text, rules.format, tuple(found))))
    return tuple(out)

