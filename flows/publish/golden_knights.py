"""The Golden Knights report set (presentation only: every value is computed by
``transforms.golden_knights``; this module picks columns and labels and states the rules in
the words and numbers of the event's configuration)."""

from __future__ import annotations

import datetime as dt

import polars as pl

from flows.publish import render
from flows.publish.pages import OFFICE, Publication
from flows.publish.present import Section, table_from_frame
from transforms.core.config import EventConfig
from transforms.golden_knights.event import GKResult
from transforms.golden_knights.rules import GKRules

STAGE_NAMES = {"preliminary": "Preliminaries", "semifinal": "Semifinals", "final": "Final"}
AWARD_NAMES = {"gift_certificate": "Gift certificate", "framing_certificate": "Certificate for framing",
               "golden_knights_pin": "Golden Knights pin",
               "champion_title_and_plaque": "Golden Knights Champion: title and plaque"}


def _csv(pub: Publication, name: str, frame: pl.DataFrame) -> None:
    pub.files[name] = frame.drop("line", strict=False).write_csv()


def crosstable_sections(res: GKResult, rules: GKRules) -> list[Section]:
    out = []
    ct = res.crosstables
    for (stage, section), g in sorted(ct.group_by(["stage", "section"], maintain_order=True),
                                      key=lambda x: (list(STAGE_NAMES).index(x[0][0]), x[0][1])):
        g = g.sort("seat")
        status = "complete" if g["section_complete"][0] else "in progress"
        cells = [f"c{i}" for i in range(1, rules.section_size + 1) if f"c{i}" in g.columns]
        out.append(Section(f"{STAGE_NAMES.get(stage, stage)} — section {section} ({status})", tables=[
            table_from_frame(g, [("seat", "#"), ("name", "Player"), ("entry_id", "Entry"), ("rating", "Rtg")]
                             + [(c, c[1:]) for c in cells] + [("score", "Score")],
                             numeric=["seat", "rating", "score"], cell_cols=cells)]))
    return out


def publish_event(pub: Publication, cfg: EventConfig, rules: GKRules, res: GKResult,
                  as_of: dt.date) -> tuple[list[Section], list[str]]:
    """Every page, CSV and certificate of one run; returns the bulletin's sections and the
    highlights of the messages."""
    cur = cfg.event.currency
    bulletin: list[Section] = []
    highlights: list[str] = []
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
        pub.notes.append(f"GK rule 7 director decision applied: {o['kind']} {o['entry_id']} "
                         f"{o.get('stage') or ''} {o.get('section') or ''} {o.get('previous')} -> {o['applied']} "
                         f"({o.get('note') or 'no note'})")
    counts = res.entries.group_by("status").len()
    n = dict(zip(counts["status"], counts["len"]))
    entries_sec = Section("Entries (rules 1, 8, 9)", intro=[
        f"{res.entries.height} entries: {n.get('accepted', 0)} accepted, {n.get('carried_forward', 0)} "
        f"carried forward to next year's event, {n.get('rejected', 0)} rejected. "
        f"{res.entries_assigned} entries assigned to preliminary sections (scales the prize fund, rule 5)."],
        tables=[table_from_frame(res.entries.filter(pl.col("status") != "accepted"),
                                 [("entry_id", "Entry"), ("member_id", "Member"), ("status", "Status"),
                                  ("reason", "Reason")], caption="Entries not accepted",
                                 empty="Every entry was accepted.")])
    flags = Section("Membership to watch (rule 1)", intro=[
        "Membership must remain current throughout: active players whose membership has lapsed or "
        f"lapses within {rules.membership_warning_days} days."],
        tables=[table_from_frame(res.membership_flags, [("entry_id", "Entry"), ("name", "Name"),
                                                        ("email", "Email"), ("membership_expires", "Expires"),
                                                        ("flag", "Flag"), ("days_left", "Days")],
                                 numeric=["days_left"], empty="No membership needs attention.")])
    pub.page(f"{OFFICE}entries.html", title="Entries", subtitle="",
                                                sections=[entries_sec, flags])
    cross = crosstable_sections(res, rules)
    pub.page("sections.html", title="Sections and crosstables",
        subtitle="Cells: 1 win, ½ draw, 0 loss, + / − forfeit, * in progress.", sections=cross)
    if res.proposed_sections.height:
        prop = Section("Proposed sections (rule 2)", intro=[
            "Not yet published: the director publishes them by copying proposed_sections.csv into "
            "sections.csv; published sections are never reshuffled."],
            tables=[table_from_frame(res.proposed_sections, [("stage", "Stage"), ("section", "Section"),
                                                             ("seat", "Seat"), ("entry_id", "Entry")],
                                     numeric=["seat"])])
        pub.page(f"{OFFICE}proposed_sections.html", title="Proposed sections", subtitle="", sections=[prop])
        bulletin.append(prop)
    q = res.qualifiers.with_columns(
        pl.when(pl.col("qualified").is_null()).then(pl.lit("pending"))
        .when(pl.col("qualified")).then(pl.lit("yes")).otherwise(pl.lit("no")).alias("q"))
    qual = Section("Qualifiers (rule 3)", tables=[table_from_frame(
        q.filter(pl.col("qualified").is_null() | pl.col("qualified")),
        [("stage", "Stage"), ("section", "Section"), ("entry_id", "Entry"), ("member_id", "Member"),
         ("score", "Score"), ("q", "Qualified"), ("basis", "Basis")], numeric=["score"])])
    pub.page("qualifiers.html", title="Qualifiers", subtitle="",
                                                   sections=[qual])
    st = res.standings.sort(["weighted_points", "entry_id"], descending=[True, False])
    w_pre, w_semi, w_final = rules.stage_weights
    most = rules.games_per_player * sum(rules.stage_weights)
    stand = Section("Weighted-point standings (rule 6)", intro=[
        f"Wins weigh {w_pre} in the preliminaries, {w_semi} in the semifinals and {w_final} in the "
        f"final; draws half; forfeit wins count as wins (maximum {most:.2f}). Only players who "
        "completed all three stages with no forfeit losses are eligible for prizes."],
        tables=[table_from_frame(st.filter(pl.col("semifinal").is_not_null()) if res.event_complete else st.head(60),
                                 [("name", "Name"), ("entry_id", "Entry"), ("preliminary", "Prelim"),
                                  ("semifinal", "Semi"), ("final", "Final"), ("weighted_points", "Weighted"),
                                  ("forfeit_losses", "Forfeit losses"), ("completed", "Completed"),
                                  ("prize_eligible", "Eligible")],
                                 numeric=["preliminary", "semifinal", "final", "weighted_points", "forfeit_losses"])],
        notes=["Players who did not reach the semifinals are in standings.csv."])
    pub.page("standings.html", title="Standings", subtitle="",
                                                  sections=[stand])
    prize_sec = Section("Prizes (rule 5)", intro=[
        f"Prize fund scaled to {res.entries_assigned} entries assigned (rule 5: based on "
        f"{rules.prize_base_entries} entries). "
        "Players tied in money places share equally the sum of the prizes involved (rule 6)."],
        tables=[table_from_frame(res.prizes, [("place", "Place"), ("name", "Name"), ("entry_id", "Entry"),
                                              ("weighted_points", "Weighted"), ("amount", "Prize")],
                                 numeric=["place", "weighted_points"], money=["amount"], currency=cur,
                                 empty="Prizes are awarded when the final is complete.")])
    pub.page("prizes.html", title="Prizes", subtitle="",
                                               sections=[prize_sec])
    aw = res.awards.with_columns(pl.col("award").replace(AWARD_NAMES).alias("award_name"))
    aw = aw.join(res.standings.select("entry_id", "name"), on="entry_id", how="left")
    award_sec = Section("Awards (rule 4)", tables=[table_from_frame(
        aw, [("award_name", "Award"), ("name", "Name"), ("entry_id", "Entry"), ("value", "Value")])])
    pub.page("awards.html", title="Awards", subtitle="",
                                               sections=[award_sec])
    rulings = Section("Time-overstep rulings (rule 12)", tables=[table_from_frame(
        res.rulings, [("stage", "Stage"), ("section", "Section"), ("entry_id", "Entry"), ("opponent", "Opponent"),
                      ("reported", "Reported"), ("offense", "Offense"), ("ruling", "Ruling"),
                      ("result_before", "Before"), ("result_after", "After")], numeric=["offense"],
        empty="No overstep reported.")])
    review = Section("For the director's decision (rules 7, 11, 12)", tables=[table_from_frame(
        res.director_review, [("rule", "Rule"), ("stage", "Stage"), ("section", "Section"),
                              ("entry_id", "Entry"), ("detail", "Detail")],
        empty="Nothing to decide.")])
    pub.page("rulings.html", title="Time-overstep rulings", subtitle="", sections=[rulings])
    pub.page(f"{OFFICE}review.html", title="For the director's decision", subtitle="",
             sections=[review])
    certificates(pub, cfg, rules, res, as_of)
    bulletin += [prize_sec, stand, award_sec, qual, rulings]
    if res.prizes.height:
        top = res.prizes.row(0, named=True)
        highlights.append(f"Golden Knights Champion: {top['name']} with {top['weighted_points']} weighted points.")
    highlights.append(f"{res.entries_assigned} entries assigned; "
                      f"{'the event is complete' if res.event_complete else 'play continues'}.")
    return bulletin, highlights


def certificates(pub: Publication, cfg: EventConfig, rules: GKRules, res: GKResult,
                 as_of: dt.date) -> None:
    """GK rule 4 — a certificate suitable for framing for each semifinal non-qualifier."""
    names = dict(zip(res.standings["entry_id"], res.standings["name"]))
    for rec in res.awards.filter(pl.col("award") == "framing_certificate").iter_rows(named=True):
        html = render.render_page(
            "certificate.html", organiser=cfg.event.organiser, title="Certificate of Achievement",
            name=names.get(rec["entry_id"], rec["entry_id"]),
            text=f"Semifinalist of the {cfg.event.name}, in recognition of reaching its semifinal "
                 "round.",
            signer=rules.director, date=f"{as_of:%d %B %Y}")
        pub.pdfs[f"certificates/{rec['entry_id']}.pdf"] = html
