"""FIDE B.01 title norms on the pages, letters and office files of every kind whose events
may be title tournaments — a Swiss, a round robin, a team Swiss, a league (presentation only:
every figure is the rulebook's :class:`transforms.fide.norms.NormReport`, one per category or
group; each kind gives them as :class:`NormGroup`).

- ``norms.html``: per category, the norms made (players linked), the players still in reach
  before the next round with what each result of their next game gives, and the event's facts
  B.01 asks (the host federation, the exemption, the rounds a day);
- the player's page: each norm made with every requirement and the games it counts; before
  the last round, what the remaining rounds must give;
- the player's letter: the same in a few lines;
- ``office/norms/``: ``norms-<category>.csv`` (``chessfed norms``'s columns) and, per norm made,
  the norm report FIDE asks for (the content of form IT1) as a page and a PDF, its signature
  fields left for the chief arbiter and the host federation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import polars as pl

from flows.io import csv_text
from flows.mail.letters import Block
from flows.site.names import file_part
from flows.site.pages import OFFICE, Publication
from flows.site.present import Col, Row, Section, Table, fmt
from transforms.fide.norms import (
    Evaluation,
    Forecast,
    NormReport,
    NormsConfig,
    points_text,
)
from transforms.fide.rating_report import RatingReportRules

NORMS = "norms.html"
"""The norms page, at the event folder's top: a page's place inside the folder is its link."""
TYPE_WORDS = {"open": "", "national-championship": "a national championship (B.01 1.4.3a)",
              "national-team-championship": "a national team championship (B.01 1.4.3b)",
              "zonal": "a zonal or sub-zonal tournament (B.01 1.4.3c)",
              "international-team-championship":
                  "a World or Continental Team or Club Championship (B.01 1.4.1b)"}


@dataclass(frozen=True)
class NormGroup:
    """One category's or group's norms, as a kind gives them to these pages."""

    anchor: str
    """Its id (the section's anchor on norms.html, the file names in office/norms/)."""
    name: str
    report: NormReport
    names: dict[int, str]
    """Start number (a team event: the player's number) -> name."""
    player_rel: Callable[[int], str]
    """Start number -> the player's page, inside the event folder."""


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], *, numeric: Sequence[int] = (),
           links: dict[int, Sequence[str]] | None = None, caption: str = "",
           empty: str = "None yet.") -> Table:
    cols = [Col(h, "num" if i in numeric else "") for i, h in enumerate(headers)]
    out = []
    for j, r in enumerate(rows):
        hrefs = [links[i][j] if links and i in links else "" for i in range(len(r))]
        out.append(Row(cells=list(r), links=hrefs if any(hrefs) else []))
    return Table(cols, out, caption=caption, empty=empty)


def _made_line(e: Evaluation) -> str:
    rounds = sorted(g.round for g in e.games)
    span = f"rounds {rounds[0]}-{rounds[-1]}" if rounds else ""
    left = ", ".join(f"round {r} ({art})" for r, art in e.ignored)
    return (f"{e.title} norm: {points_text(e.halves)} from {len(e.games)} games ({span}"
            + (f"; not counted: {left}" if left else "") + f"), opponents' average {e.ra}, "
            f"performance {e.rp}; it counts as {e.counts_as} games"
            + (" (B.01 1.4.1c: once in a title application)" if e.one_four_one_c else "")
            + ("" if e.foreign_met else
               f"; made under the exemption {e.exemption.article if e.exemption else ''}: the "
               "application needs one norm that meets the foreigner rules (1.4.3e)") + ".")


def _result_word(halves: int) -> str:
    return {2: "a win", 1: "a draw or a win", 0: "any result"}[halves]


def forecast_lines(f: Forecast, names: dict[int, str], next_round: int) -> list[str]:
    """What one forecast says, in sentences."""
    out = []
    if f.next_results:
        made = [r for r in f.next_results if r.achieved]
        opp = names.get(f.next_opponent or 0, f"start number {f.next_opponent}")
        if made:
            least = min(made, key=lambda r: r.halves)
            out.append(f"{f.title} norm: {_result_word(least.halves)} in round {next_round} "
                       f"against {opp} makes it.")
        else:
            out.append(f"{f.title} norm: no result in round {next_round} against {opp} makes it "
                       "yet.")
    by_games: dict[int, list] = {}
    for s in f.scores:
        if s.average is not None:
            by_games.setdefault(s.games, []).append(s)
    for k, options in sorted(by_games.items()):
        least = min(options, key=lambda s: s.halves)
        rounds = "the next round" if k == 1 else f"the next {k} rounds"
        who = ("the opponents after round "
               f"{next_round} averaging" if least.known else "opponents averaging")
        out.append(f"{f.title} norm: {points_text(least.halves)} from {rounds} against {who} at "
                   f"least {least.average}"
                   + (f" (or {points_text(best.halves)} against at least {best.average})"
                      if (best := max(options, key=lambda s: s.halves)) is not least else "")
                   + ".")
    if f.needs:
        out.append(f"{f.title} norm still needs: {'; '.join(f.needs)}.")
    return out


# ----------------------------------------------------------------------------------- the page


def norms_page(pub: Publication, cfg: NormsConfig, groups: Sequence[NormGroup]) -> None:
    """``norms.html``: the norms made, and who is still in reach of one, per category or
    group (nothing without one)."""
    if not groups:
        return
    secs = []
    for grp in groups:
        rep, names = grp.report, grp.names
        made = rep.achieved()
        rows = [[a.name, a.federation or "—", a.title or "—", e.title, str(len(e.games)),
                 str(e.counts_as), points_text(e.halves), fmt(e.ra), fmt(e.rp),
                 ", ".join(f"{r} ({art})" for r, art in e.ignored) or "—"]
                for a, e in made]
        hrefs = [grp.player_rel(a.sno) for a, _ in made]
        tables = [_table(["Player", "Fed", "Title", "Norm", "Games", "Counts as", "Score", "Ra",
                          "Rp", "Rounds not counted"], rows, numeric=(4, 5, 7, 8),
                         links={0: hrefs}, caption=f"Norms made after round {rep.through}.",
                         empty="No norm has been made yet.")]
        if rep.forecasts:
            ahead = []
            links = []
            for sno, fs in sorted(rep.forecasts.items()):
                for f in fs:
                    ahead.append([names.get(sno, str(sno)), f.title,
                                  " ".join(forecast_lines(f, names, rep.through + 1))])
                    links.append(grp.player_rel(sno))
            tables.append(_table(["Player", "Norm", "What the remaining rounds must give"], ahead,
                                 links={0: links},
                                 caption=f"Still in reach before round {rep.through + 1}."))
        secs.append(Section(f"{grp.name} — title norms", anchor=grp.anchor, tables=tables,
                            intro=event_lines(rep)))
    pub.page(NORMS, title="Title norms",
             subtitle=("Norms for the titles of GM, IM, WGM and WIM under the FIDE Title "
                       f"Regulations (B.01, {groups[0].report.rules.name.removeprefix('FIDE Title Regulations ')}), "
                       "as chessfed evaluates them from the results so far; FIDE's Qualification "
                       "Commission confirms a norm when the title is applied for. Each player's "
                       "page shows every requirement with its numbers."), sections=secs, pdf=False)


def event_lines(rep: NormReport) -> list[str]:
    """The event's facts B.01 asks of a title tournament, in sentences."""
    ev = rep.event
    out = []
    kind = TYPE_WORDS.get(ev.event_type.value, "")
    out.append(f"{'Round robin' if ev.predetermined else 'Swiss'} of {ev.rounds} rounds"
               + (f", {kind}" if kind else "")
               + (f"; host federation {ev.host}" if ev.host else "; host federation not given")
               + ".")
    f = rep.swiss_field
    if f is not None:
        n, feds, titled = rep.rules.big_swiss
        met = f.players >= n and f.federations >= feds and f.titled >= titled
        out.append(f"Swiss exemption (1.4.3d): {f.players} rated players not from {ev.host}, of "
                   f"{f.federations} federations, {f.titled} of them GM, IM, WGM or WIM (needed "
                   f"{n}, {feds}, {titled}): " + ("every player is exempt from 1.4.3 and 1.4.4."
                                                 if met else "not exempt."))
    s = rep.schedule
    if s.most:
        out.append(f"Rounds a day (1.1.3): at most {s.most} (on {s.busiest:%d %B %Y}); "
                   f"{s.single_days} days with one round (1.1.3a).")
    else:
        out.append("Rounds a day (1.1.3): not checked, the event's round dates are not given.")
    return out


# ------------------------------------------------------------------------------ player's page


def _requirement_table(e: Evaluation) -> Table:
    return _table(["Article", "Requirement", "Number", "Needed", "Met"],
                  [[r.article, r.what, r.value, r.needed, "yes" if r.met else "no"]
                   for r in e.requirements])


def _games_table(e: Evaluation, names: dict[int, str]) -> Table:
    rows = []
    for g in sorted(e.games, key=lambda g: g.round):
        rating = str(g.rating) if g.rating else "unrated (1400, 1.4.6d)"
        if g.round == e.raised:
            rating += " — raised to the floor (1.4.6c)"
        rows.append([str(g.round), names.get(g.opponent or 0, "—"), g.title or "—",
                     g.federation or "—", rating,
                     "½" if g.score == 1 else str((g.score or 0) // 2)])
    return _table(["Rd", "Opponent", "Title", "Fed", "Rating", "Score"], rows, numeric=(0,))


def player_sections(rep: NormReport | None, sno: int, names: dict[int, str]) -> list[Section]:
    """FIDE B.01 — the player's norms made (every requirement, the games counted) and, before
    the last round, what the remaining rounds must give."""
    if rep is None:
        return []
    out = []
    mine = rep.of(sno)
    for e in mine.achieved if mine is not None else ():
        out.append(Section(f"{e.title} norm (FIDE B.01)", intro=[_made_line(e)],
                           tables=[_requirement_table(e), _games_table(e, names)]))
    for f in rep.forecasts.get(sno, ()):
        out.append(Section(f"{f.title} norm: before round {rep.through + 1}",
                           intro=forecast_lines(f, names, rep.through + 1),
                           notes=["Averages are of the opponents' ratings on the list in force "
                                  "at the start (B.01 1.4.6), the lowest raised to the floor "
                                  "where it is below it; a Swiss may leave out the games after "
                                  "the norm is made (1.4.1e)."]))
    return out


def norm_rows(rep: NormReport | None) -> pl.DataFrame | None:
    """The norm figures as rows (for the player pages' keys)."""
    return None if rep is None else rep.table().with_columns(
        pl.lit(repr(sorted((s, repr(f)) for s, f in rep.forecasts.items()))).alias("_f"))


def player_fact(rep: NormReport | None, sno: int) -> list[tuple[str, str]]:
    """The line at the top of the player's page: the norms made, or in reach."""
    mine = rep.of(sno) if rep is not None else None
    made = [e.title for e in mine.achieved] if mine is not None else []
    if made:
        return [("Title norms", ", ".join(f"{t} norm made" for t in made))]
    if rep is not None and sno in rep.forecasts:
        return [("Title norms", ", ".join(f"{f.title} norm in reach" for f in rep.forecasts[sno]))]
    return []


def letter_block(rep: NormReport | None, sno: int, names: dict[int, str]) -> Block | None:
    """The player's letter: the norms made, and what the next rounds must give."""
    if rep is None:
        return None
    mine = rep.of(sno)
    lines = [_made_line(e) for e in (mine.achieved if mine is not None else ())]
    for f in rep.forecasts.get(sno, ()):
        lines += forecast_lines(f, names, rep.through + 1)
    if mine is not None and mine.achieved:
        lines.append("The chief arbiter signs the norm report; the office sends it to FIDE and "
                     "to your federation (B.01 1.8).")
    return Block("Title norms", tuple(lines)) if lines else None


# ---------------------------------------------------------------------------- the office files


def office_files(pub: Publication, cfg: NormsConfig, fide: RatingReportRules | None, event,
                 groups: Sequence[NormGroup]) -> None:
    """``office/norms/norms-<group>.csv`` and every norm report (page and PDF); ``event``: the
    event's ``[event]`` (name, venue, dates)."""
    for grp in groups:
        gid = file_part(grp.anchor)
        pub.files[f"{OFFICE}norms/norms-{gid}.csv"] = csv_text(grp.report.table())
        for a, e in grp.report.achieved():
            rel = f"{OFFICE}norms/norm-report-{gid}-{a.sno}-{e.title.lower()}.html"
            pub.page(rel, title=f"Certificate of title result — {e.title} norm",
                     subtitle="FIDE Title Regulations (B.01), form IT1: the content FIDE asks "
                              "for. Not valid until signed below and confirmed by the FIDE "
                              "Qualification Commission.",
                     sections=norm_report(event, grp, a, e, cfg, fide))


def norm_report(event, grp: NormGroup, a, e: Evaluation, cfg: NormsConfig,
                fide: RatingReportRules | None) -> list[Section]:
    """FIDE B.01 1.8, form IT1 — the norm report of one norm: the player, the event, the
    opponent mix, every game, the requirements, the scores and the signatures."""
    rep, names = grp.report, grp.names
    ev = rep.event
    games = list(e.games)
    feds = {g.federation for g in games if g.federation and g.federation != a.federation}
    titles = {t: sum(1 for g in games if g.title == t) for t in ("GM", "IM", "WGM", "WIM", "FM", "WFM")}
    rated = sum(1 for g in games if g.rating)
    arbiter = cfg.chief_arbiter or (fide.chief_arbiter if fide is not None else "") or "—"
    rate = cfg.rate_of_play or (fide.time_control if fide is not None else "") or "—"
    rounds = sorted(g.round for g in games)
    player = [["Title result", e.title], ["Name", a.name], ["FIDE id", a.fide_id or "—"],
              ["Federation", a.federation or "—"], ["Title held", a.title or "—"],
              ["Rating", fmt(a.rating) or "unrated"]]
    facts = [["Event", event.name + (f" ({event.code})" if event.code else "")],
             ["Venue", event.venue], ["Host federation", ev.host or "—"],
             ["Start", f"{event.start:%d %B %Y}"], ["End", f"{event.end:%d %B %Y}"],
             ["Category", grp.name], ["System", "Round robin" if ev.predetermined else "Swiss"],
             ["Rounds", str(ev.rounds)], ["Players", str(len(names))],
             ["Chief arbiter", arbiter], ["Rate of play", rate],
             ["Games counted", f"{len(games)} (rounds {rounds[0]}-{rounds[-1]})" if rounds else "0"]]
    mix = [["Federations other than the player's", str(len(feds))],
           ["Opponents not of the player's federation",
            str(sum(1 for g in games if g.federation != a.federation))],
           ["Rated opponents", str(rated)],
           ["Opponents of the host federation", str(sum(1 for g in games if ev.host and g.federation == ev.host))],
           ["Titled opponents", str(sum(titles.values()))],
           *[[f"  {t}", str(n)] for t, n in titles.items()]]
    if e.exemption is not None:
        mix.append(["Exemption", f"{e.exemption.article}: {e.exemption.reason}"])
    f = rep.swiss_field
    if f is not None and e.exemption is not None and e.exemption.article == "1.4.3d":
        mix += [["1.4.3d: federations", str(f.federations)],
                ["1.4.3d: rated players not of the host federation", str(f.players)],
                ["1.4.3d: of them GM, IM, WGM or WIM", str(f.titled)]]
    score = [["Rating average (1.4.6, 1.4.7)", fmt(e.ra)],
             ["Score required", points_text(e.required) if e.required is not None else "—"],
             ["Score achieved", points_text(e.halves)],
             ["Exceeding the norm by", points_text(e.halves - e.required) + " points"
              if e.required is not None else "—"],
             ["Performance (1.4.8)", fmt(e.rp)], ["Counts as (1.4.1d)", f"{e.counts_as} games"],
             ["Foreigner rules met without an exemption (1.4.3e)", "yes" if e.foreign_met else "no"]]
    if e.ignored:
        score.append(["Rounds not counted", ", ".join(f"{r} ({art})" for r, art in e.ignored)])
    sign = [["Chief arbiter", arbiter, "", ""],
            ["Host federation (official)", ev.host or "", "", ""]]
    two = ["", ""]
    return [
        Section("Player", tables=[_table(two, player)]),
        Section("Event", tables=[_table(two, facts)]),
        Section("Opponents", tables=[_table(two, mix), _games_table(e, names)]),
        Section("Requirements", tables=[_requirement_table(e)]),
        Section("Result", tables=[_table(two, score)]),
        Section("Signatures", tables=[_table(["", "Name", "Signature", "Date"], sign)],
                notes=["The organiser sends this certificate to the player, the organising "
                       "federation, the player's federation and the FIDE Office (B.01 1.8); "
                       "the games in PGN go with it (1.9)."]),
    ]
