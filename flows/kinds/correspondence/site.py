"""The Golden Knights report set (presentation only: every value is computed by
``transforms.golden_knights``; this module picks columns and labels and states the rules in
the words and numbers of the event's configuration).

What an event publishes (public; the office's material is under ``office/``):

| page | what |
|---|---|
| ``index.html`` | the event home: where play is stage by stage, the results pages, the member list |
| ``stages/<stage>.html`` (+ PDF: every crosstable of the stage) | the stage's sections, games finished |
| ``sections/<stage>-<section>.html`` | crosstable, games finished and in progress, who advances, rulings |
| ``qualifiers.html`` (+ PDF) | rule 3: who advances, on what basis |
| ``standings.html`` (+ PDF) | rule 6: weighted points of every entry |
| ``prizes.html`` (+ PDF) | rules 5, 6: the scaled fund, the prizes, how shared prizes were split |
| ``awards.html`` (+ PDF), ``certificates/<entry>.pdf`` | rule 4 (and rule 5's title and plaque) |
| ``rulings.html`` (+ PDF) | rule 12: time-overstep rulings |
| ``members/index.html``, ``members/<member_id>.html`` | every member with an entry (HTML only) |
"""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

import polars as pl

from flows.io import csv_text
from flows.kinds.correspondence import awards as gk_awards
from flows.kinds.correspondence import games as gk_games
from flows.kinds.correspondence import members as gk_members
from flows.kinds.correspondence import sections as gk_sections
from flows.kinds.correspondence.links import (
    AWARDS,
    MEMBERS,
    PRIZES,
    QUALIFIERS,
    RULINGS,
    STANDINGS,
    People,
    href,
    keep_words,
    member_page,
    section_page,
    stage_name,
    with_people,
)
from flows.kinds.correspondence.sections import RESULT_TEXT, crosstable_sections, rulings_frame
from flows.kinds.games import GAMES_INDEX
from flows.site.pages import OFFICE, Publication, link_list
from flows.site.present import Details, Section, table_from_frame
from transforms.core.config import EventConfig
from transforms.golden_knights.event import GKResult
from transforms.golden_knights.rules import GKRules, Stage

__all__ = ["GKPublished", "crosstable_sections", "home_links", "publish_event"]

HOME = "index.html"


class GKPublished(NamedTuple):
    """What the event's pages give the rest of the run."""

    bulletin: list[Section]
    """The bulletin's sections."""
    highlights: list[str]
    """The lines of the messages and of the home page's "Latest"."""
    home: list[Section]
    """The event home's guide: where play is, the results pages, the member list."""


def _csv(pub: Publication, name: str, frame: pl.DataFrame) -> None:
    pub.files[name] = csv_text(frame.drop("line", strict=False))


def section_link(from_rel: str) -> pl.Expr:
    """The link from ``from_rel`` to the page of the row's stage and section."""
    return pl.struct("stage", "section").map_elements(
        lambda r: href(from_rel, section_page(r["stage"], r["section"])) if r["section"] else "",
        return_dtype=pl.String)


def publish_event(pub: Publication, cfg: EventConfig, rules: GKRules, res: GKResult,
                  as_of: dt.date, members: pl.DataFrame | None = None) -> GKPublished:
    """Every page, CSV and certificate of one run. ``members``: members.csv (names, ratings
    and, for the office's view only, emails and membership dates); without it names come
    from the standings."""
    cur = cfg.event.currency
    people = People.build(res.entries, members, res.standings)
    for name, frame in ((f"{OFFICE}entries.csv", res.entries),
                        (f"{OFFICE}carried_forward.csv", res.carried_forward),
                        (f"{OFFICE}proposed_sections.csv", res.proposed_sections),
                        ("schedule.csv", res.schedule), ("qualifiers.csv", res.qualifiers),
                        ("standings.csv", res.standings), ("prizes.csv", res.prizes),
                        ("awards.csv", res.awards), ("rulings.csv", res.rulings),
                        (f"{OFFICE}director_review.csv", res.director_review),
                        (f"{OFFICE}membership_flags.csv", res.membership_flags),
                        ("crosstables.csv", res.crosstables)):
        _csv(pub, name, frame)
    for o in res.applied_overrides.iter_rows(named=True):
        pub.outcome.notes.append(f"GK rule 7 director decision applied: {o['kind']} {o['entry_id']} "
                         f"{o.get('stage') or ''} {o.get('section') or ''} {o.get('previous')} -> {o['applied']} "
                         f"({o.get('note') or 'no note'})")
    office_pages(pub, rules, res, people)
    gk_games.publish_games(pub, res)  # office/games.{csv,html}
    pages = gk_games.game_pages(res)  # each published game's page: the crosstables link them
    play = gk_sections.stage_play(res)
    gk_sections.stage_pages(pub, rules, res, people, play, pages)
    gk_sections.section_pages(pub, rules, res, people, pages)
    qual = qualifiers_page(pub, rules, res, people)
    stand = standings_page(pub, rules, res, people)
    ps = gk_awards.prize_split(res, people, cur)
    prize_sec = gk_awards.prizes_page(pub, cfg, rules, res, people, ps)
    award_sec = gk_awards.awards_page(pub, cfg, rules, res, people)
    gk_awards.certificates(pub, cfg, rules, res, people, as_of)
    rulings = rulings_page(pub, rules, res, people)
    gk_members.member_pages(pub, rules, res, people, ps, cur, members, pages)
    gk_members.office_members(pub, res, people, members)
    gk_games.publish_public_games(pub, res, people)  # games/: a page per game, the PGN downloads
    bulletin = [prize_sec, stand, award_sec, qual, rulings, *gk_games.bulletin_sections(res, people)]
    prop = [s for s in (office_proposals(pub, res),) if s is not None]
    highlights: list[str] = []
    if res.prizes.height:
        top = res.prizes.row(0, named=True)
        highlights.append(f"Golden Knights Champion: {top['name']} with {top['weighted_points']} weighted points.")
    highlights.append(f"{res.entries_assigned} entries assigned; "
                      f"{'the event is complete' if res.event_complete else 'play continues'}.")
    return GKPublished(prop + bulletin, highlights, home_sections(res, people, play))


def home_sections(res: GKResult, people: People, play: list[gk_sections.StagePlay]) -> list[Section]:
    """The event home's guide for a member: where play is, then every results page."""
    pages = pl.DataFrame([
        ("Members", MEMBERS, f"every member with an entry ({len(people.member_ids())}): entries, games, "
                             "results, awards"),
        ("Standings", STANDINGS, "weighted points of every entry (rule 6)"),
        ("Qualifiers", QUALIFIERS, "who advances and on what basis (rule 3)"),
        ("Prizes", PRIZES, "the prize fund and how shared prizes were split (rules 5, 6)"),
        ("Awards", AWARDS, "gift certificates, certificates for framing, pins, title and plaque (rule 4)"),
        ("Rulings", RULINGS, "time-overstep rulings (rule 12)"),
    ] + ([("Games", GAMES_INDEX, f"the games with their moves ({len(res.published_games)}), each on a "
                                  "board to step through, and their PGN")] if res.published_games else []),
        schema={"page": pl.String, "href": pl.String, "what": pl.String}, orient="row")
    return [Section("Where play is", tables=[gk_sections.stage_table(play, HOME, res)]),
            Section("Results", tables=[table_from_frame(pages, [("page", "Page"), ("what", "What it shows")],
                                                        links={"page": "href"})])]


def home_links(pub: Publication) -> list[dict[str, str]]:
    """The bulletin and the files the home lists for download (CSV, the PDFs of the report
    pages and the bulletin); the other pages are in the home's guide, certificates on the
    awards page."""
    return [lnk for lnk in link_list(pub)
            if (lnk["href"] == "bulletin.html" or not lnk["href"].endswith(".html"))
            and not lnk["href"].startswith("certificates/")]


def office_pages(pub: Publication, rules: GKRules, res: GKResult, people: People) -> None:
    """The office's entries (rules 1, 8, 9: decisions with reasons; membership to watch)."""
    rel = f"{OFFICE}entries.html"
    counts = res.entries.group_by("status").len()
    n = dict(zip(counts["status"], counts["len"], strict=True))
    not_ok = res.entries.filter(pl.col("status") != "accepted").with_columns(
        name=pl.col("member_id").map_elements(people.name, return_dtype=pl.String),
        href=pl.col("member_id").map_elements(lambda m: href(rel, member_page(m)), return_dtype=pl.String))
    entries_sec = Section("Entries (rules 1, 8, 9)", intro=[
        f"{res.entries.height} entries: {n.get('accepted', 0)} accepted, {n.get('carried_forward', 0)} "
        f"carried forward to next year's event, {n.get('rejected', 0)} rejected. "
        f"{res.entries_assigned} entries assigned to preliminary sections (scales the prize fund, rule 5)."],
        tables=[table_from_frame(not_ok, [("entry_id", "Entry"), ("name", "Name"), ("member_id", "Member"),
                                          ("status", "Status"), ("reason", "Reason")],
                                 caption="Entries not accepted", links={"name": "href"},
                                 empty="Every entry was accepted.")])
    flags = Section("Membership to watch (rule 1)", intro=[
        "Membership must remain current throughout: active players whose membership has lapsed or "
        f"lapses within {rules.membership_warning_days} days. Not on the public pages; the members' view: "
        "members.html."],
        tables=[table_from_frame(res.membership_flags, [("entry_id", "Entry"), ("name", "Name"),
                                                        ("email", "Email"), ("membership_expires", "Expires"),
                                                        ("flag", "Flag"), ("days_left", "Days")],
                                 numeric=["days_left"], empty="No membership needs attention.")])
    pub.page(rel, title="Entries", subtitle="", sections=[entries_sec, flags])
    review = with_people(res.director_review, people, f"{OFFICE}review.html", ["entry_id"])
    rv = Section("For the director's decision (rules 7, 11, 12)", tables=[table_from_frame(
        review, [("rule", "Rule"), ("stage", "Stage"), ("section", "Section"), ("entry_id_name", "Name"),
                 ("entry_id", "Entry"), ("detail", "Detail")], links={"entry_id_name": "entry_id_href"},
        empty="Nothing to decide.")])
    pub.page(f"{OFFICE}review.html", title="For the director's decision", subtitle="", sections=[rv])


def office_proposals(pub: Publication, res: GKResult) -> Section | None:
    """Rule 2: sections proposed, not yet published (the office; in the bulletin)."""
    if not res.proposed_sections.height:
        return None
    prop = Section("Proposed sections (rule 2)", intro=[
        "Not yet published: the director publishes them by copying proposed_sections.csv into "
        "sections.csv; published sections are never reshuffled."],
        tables=[table_from_frame(res.proposed_sections, [("stage", "Stage"), ("section", "Section"),
                                                         ("seat", "Seat"), ("entry_id", "Entry")],
                                 numeric=["seat"])])
    pub.page(f"{OFFICE}proposed_sections.html", title="Proposed sections", subtitle="", sections=[prop])
    return prop


def qualifiers_page(pub: Publication, rules: GKRules, res: GKResult, people: People) -> Section:
    """``qualifiers.html``: rule 3, stage by stage: who advances and the basis of each, who may
    still fill the last section, and the 4-pointers not needed."""
    q = with_people(res.qualifiers, people, QUALIFIERS, ["entry_id"]).with_columns(
        section_href=section_link(QUALIFIERS))
    cols = [("entry_id_name", "Name"), ("section", "Section"), ("score", "Score"), ("basis", "Basis")]
    links = {"entry_id_name": "entry_id_href", "section": "section_href"}
    sections, tables = [], []
    for stage in (Stage.PRELIMINARY, Stage.SEMIFINAL):
        qs = q.filter(pl.col("stage") == stage.value)
        nxt = stage_name(stage.next.value).lower()
        yes = qs.filter(pl.col("qualified").fill_null(False)).sort("section", "score", "entry_id",
                                                                   descending=[False, True, False])
        pending = qs.filter(pl.col("qualified").is_null())
        fallback = qs.filter(~pl.col("qualified").fill_null(True) & (pl.col("score") >= rules.fallback_score))
        t = table_from_frame(yes, cols, numeric=["score"], links=links,
                             caption=f"Qualified for the {nxt} ({yes.height})",
                             empty="Decided as the sections complete.")
        tables.append(t)
        sec = Section(f"{stage_name(stage.value)} → {nxt}", tables=[t])
        if pending.height:
            sec.tables.append(table_from_frame(pending, cols, numeric=["score"], links=links,
                                               caption=f"May fill the last {nxt} section ({pending.height})"))
        if fallback.height:
            sec.details.append(Details(f"Scored {fallback['score'].min():g} but not needed to fill the last "
                                       f"{nxt} section ({fallback.height})",
                                       table_from_frame(fallback, cols, numeric=["score"], links=links)))
        sections.append(sec)
    adv = f"{rules.advance_score:g}".replace(".5", "½")
    intro = (f"Scores are game points, not weighted points (rule 3). {adv} or more advance; if nobody in a "
             f"section reaches {adv}, its {rules.fallback_score:g}-pointers advance; the last semifinal and "
             f"final sections may be filled with {rules.fallback_score:g}-pointers, highest rated first.")
    pub.page(QUALIFIERS, title="Qualifiers", subtitle=intro, sections=sections, as_of="")
    return Section("Qualifiers (rule 3)", intro=[intro], tables=tables)


def standings_page(pub: Publication, rules: GKRules, res: GKResult, people: People) -> Section:
    """``standings.html``: rule 6 weighted points of every entry (names linked)."""
    prize_place = dict(zip(res.prizes["entry_id"], res.prizes["place"], strict=True))
    st = with_people(res.standings, people, STANDINGS, ["entry_id"]).with_columns(
        place=pl.col("entry_id").replace_strict(prize_place, default=None, return_dtype=pl.Int64))
    st = st.sort(["weighted_points", "entry_id"], descending=[True, False])
    w_pre, w_semi, w_final = rules.stage_weights
    most = rules.games_per_player * sum(rules.stage_weights)
    stand = Section("Weighted-point standings (rule 6)", intro=[
        f"Wins weigh {w_pre} in the preliminaries, {w_semi} in the semifinals and {w_final} in the "
        f"final; draws half; forfeit wins count as wins (maximum {most:.2f}). Only players who "
        "completed all three stages with no forfeit losses are eligible for prizes."],
        tables=[keep_words(table_from_frame(st, [("entry_id_name", "Name"), ("entry_id", "Entry"), ("preliminary", "Prelim"),
                                      ("semifinal", "Semi"), ("final", "Final"), ("weighted_points", "Weighted"),
                                      ("forfeit_losses", "Forfeit losses"), ("completed", "Completed"),
                                      ("prize_eligible", "Eligible"), ("place", "Prize place")],
                                 numeric=["preliminary", "semifinal", "final", "weighted_points", "forfeit_losses",
                                          "place"],
                                 links={"entry_id_name": "entry_id_href"}), "Name", "Entry")],
        notes=["Game points per stage; weighted points are for prizes only, not for advancing (rule 6)."])
    pub.page(STANDINGS, title="Standings", subtitle="", sections=[stand], as_of="")
    return stand


def rulings_page(pub: Publication, rules: GKRules, res: GKResult, people: People) -> Section:
    """``rulings.html``: rule 12 time-overstep rulings, names and sections linked."""
    r = with_people(rulings_frame(rules, res.rulings), people, RULINGS, ["entry_id", "opponent"]).with_columns(
        section_href=section_link(RULINGS),
        result_text=pl.col("result_after").replace_strict(RESULT_TEXT, default=pl.col("result_after")))
    sec = Section("Time-overstep rulings (rule 12)", intro=[
        f"In the preliminaries and semifinals the first overstep costs a {rules.reflection_penalty_days}-day "
        "reflection-time penalty and any later one the game; in the final an overstep loses the game."],
        tables=[table_from_frame(
            r, [("stage_text", "Stage"), ("section", "Section"), ("entry_id_name", "Overstepped"),
                ("opponent_name", "Opponent"), ("reported_text", "Reported"), ("ruling_text", "Ruling"),
                ("result_text", "Result")],
            links={"entry_id_name": "entry_id_href", "opponent_name": "opponent_href", "section": "section_href"},
            empty="No overstep reported.")])
    keep_words(sec.tables[0], "Reported")
    pub.page(RULINGS, title="Time-overstep rulings", subtitle="", sections=[sec], as_of="")
    return sec
