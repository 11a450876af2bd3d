"""The National Junior's pages in a Swiss event (seed 004_…: Eligibility, Entry Fee Structure,
the state associations' quotas): the office's entries page with every decision, the fees and
boarding ledger by association, the public entry lists by state, and the statistics by state
association. The rulebook decided everything (:mod:`transforms.national_junior.entries`; the
statistics by its standings step: ``CategoryRun.statistics``, ``SwissRun.state_totals``,
:func:`transforms.swiss.event.state_figures`); these only show it."""

from __future__ import annotations

import polars as pl

from flows.io import csv_text
from flows.kinds.swiss.common import with_player_href
from flows.kinds.swiss.pages import jumps
from flows.site.pages import OFFICE, Publication
from flows.site.present import Details, Section, fmt, table_from_frame
from transforms.core.money import amount_text
from transforms.national_junior.entries import EntryDecision, JuniorEntryRules
from transforms.swiss.config import SwissConfig
from transforms.swiss.event import SwissRun


def decision(run: SwissRun) -> EntryDecision:
    """NJ 2024 Entries and eligibility — what the event's entry rules decided (the rulebook's
    :class:`~transforms.national_junior.entries.EntryDecision`)."""
    assert isinstance(run.entries, EntryDecision), "the National Junior's entry rules decide"
    return run.entries


def entries(pub: Publication, run: SwissRun) -> list[Section]:
    """The office's entries page (decisions, fees, ledger) and the public entry lists
    (``entries.html``: accepted entries by category and state; no birth date, no fee)."""
    if run.entries is None:  # the entries could not be decided (the event waits)
        return []
    e = decision(run)
    cur = run.cfg.event.currency
    pub.files[f"{OFFICE}entries/decisions.csv"] = csv_text(e.decisions.drop("line"))
    pub.files[f"{OFFICE}entries/entry-list.csv"] = csv_text(e.entry_list)
    pub.files[f"{OFFICE}entries/by-category-state.csv"] = csv_text(e.by_category_state)
    pub.files[f"{OFFICE}entries/ledger.csv"] = csv_text(e.ledger)
    dec = e.decisions
    n_acc = dec.filter(pl.col("status") == "accepted").height
    rejected = dec.filter(pl.col("status") == "rejected")
    summary = Section("Entries", intro=[f"{dec.height} entries received: {n_acc} accepted, "
                                        f"{rejected.height} rejected."],
                      tables=[table_from_frame(rejected, [("player_id", "Id"), ("name", "Name"),
                                                          ("section", "Category"), ("state", "State"),
                                                          ("entry_type", "Entry"), ("reasons", "Reasons")],
                                               caption="Rejected entries", empty="No entry was rejected.")])
    money = ["fees_due", "late_fees", "fees_paid", "balance", "boarding_due"]
    shown = e.ledger.with_columns(
        pl.when(pl.col("state").fill_null("") == "").then(pl.lit("(none)")).otherwise(pl.col("state")).alias("state"),
        pl.when(pl.col("state").fill_null("") == "").then(pl.lit("Areas without an association"))
        .otherwise(pl.col("name")).alias("name"))
    ledger = Section("Fee and boarding ledger by association",
                     notes=["Balance = paid − due − late fee: positive is owed back to the association, "
                            "negative is still to pay. Boarding: "
                            f"{amount_text(run.cfg.require(JuniorEntryRules).boarding_lump_sum, cur)} per selected or "
                            "seeded player under the normal entry fee."],
                     tables=[table_from_frame(shown, [("state", "State"), ("name", "Association"),
                                                         ("entries", "Entries"), ("accepted", "Accepted"),
                                                         ("fees_due", "Fees due"), ("late_fees", "Late fees"),
                                                         ("fees_paid", "Paid"), ("balance", "Balance"),
                                                         ("boarding_due", "Boarding")],
                                              numeric=["entries", "accepted"], money=money, currency=cur)])
    by_type = e.by_category_state
    type_cols = [c for c in by_type.columns if c not in ("section", "state")]
    lists = [Section(f"Entry list — {c.name}", tables=[table_from_frame(
        e.entry_list.filter(pl.col("section") == c.id),
        [("state", "State"), ("name", "Name"), ("title", ""), ("rating", "Rtg"), ("entry_type", "Entry"),
         ("seed_reason", "Seeded as")], numeric=["rating"])]) for c in run.cfg.require(SwissConfig).categories]
    counts = Section("Accepted entries by category and state", tables=[table_from_frame(
        by_type, [("section", "Category"), ("state", "State")] + [(c, c.replace("_", " ")) for c in type_cols],
        numeric=type_cols)])
    full = [Section("All entries and decisions", tables=[table_from_frame(
        dec.with_columns(pl.when(pl.col("status") == "rejected").then(pl.lit("error")).otherwise(pl.lit(""))
                         .alias("_css")),
        [("player_id", "Id"), ("name", "Name"), ("section", "Cat."), ("state", "State"),
         ("entry_type", "Entry"), ("status", "Status"), ("reasons", "Reasons"), ("fee_due", "Fee"),
         ("late_fee", "Late"), ("fee_paid", "Paid"), ("balance", "Balance"), ("boarding", "Boarding")],
        money=["fee_due", "late_fee", "fee_paid", "balance", "boarding"], currency=cur, row_css="_css")])]
    title = "Entries, eligibility and fees"
    pub.page(f"{OFFICE}entries.html", title=title, subtitle="",
             sections=[summary, counts, ledger, *lists, *full],
             pdf={"subtitle": "The full decision list is in office/entries.html and "
                              "office/entries/decisions.csv.",
                  "sections": [summary, counts, ledger, *lists]})
    public_entries(pub, run, counts)
    return [summary, ledger]


def public_entries(pub: Publication, run, counts: Section) -> None:
    """``entries.html``: the accepted entries of every category by state (names linked to the
    players' pages once they are published), and the counts by category, state and entry
    type. Nothing of the office's: no birth date, email, fee or reason."""
    page = "entries.html"
    assoc = _association_names(run)
    secs = [Section("Accepted entries by category and state", tables=counts.tables)]
    for c in run.categories:
        frame = (decision(run).entry_list.filter(pl.col("section") == c.cat.id)
                 .join(c.players.select("player_id", "sno"), on="player_id", how="left")
                 .with_columns(pl.col("state").fill_null("").alias("state"))
                 .with_columns(pl.col("state").replace_strict(assoc, default=None).alias("association"))
                 .sort("state", "name"))
        if not run.blocked:
            frame = with_player_href(frame, page, c.cat.id)
        secs.append(Section(f"{c.cat.name} — {frame.height} accepted entries", anchor=c.cat.id, tables=[
            table_from_frame(frame, [("state", "State"), ("association", "Association"), ("name", "Name"),
                                     ("title", "Title"), ("rating", "Rtg"), ("entry_type", "Entry"),
                                     ("seed_reason", "Seeded as")], numeric=["rating"],
                             links={"name": "_href"} if not run.blocked else None)]))
    pub.page(page, title="Entry lists", subtitle="Accepted entries of every category, by state "
             "association. The starting rank list of each category gives the start numbers.",
             sections=secs, pdf=False, jumps=jumps(page, run))


def _association_names(run) -> dict[str, str]:
    assoc = run.typed.get("associations.csv")
    names = {"": "Areas without an association"}
    if assoc is not None and {"state", "name"} <= set(assoc.columns):
        names |= {r["state"]: r["name"] for r in assoc.iter_rows(named=True) if r["state"]}
    return names


STAT_COLUMNS = [("state", "State"), ("players", "Players"), ("points", "Pts"), ("score_pct", "Score %"),
                ("wins", "Won"), ("draws", "Drawn"), ("losses", "Lost"), ("games", "Games"),
                ("unplayed", "Unplayed"), ("rounds", "Rounds"), ("association", "Association")]


STAT_NUMERIC = ["players", "points", "score_pct", "games", "wins", "draws", "losses", "unplayed", "rounds"]


def statistics(pub: Publication, run) -> list[Section]:
    """``statistics.html``: per category and over all categories, how each state
    association's players did (the rulebook's ``CategoryRun.statistics`` and
    ``SwissRun.state_totals``), and each association's players with their points and rank
    (names linked)."""
    page = "statistics.html"
    assoc = _association_names(run)
    secs, shown_categories = [], 0

    def shown(frame: pl.DataFrame) -> pl.DataFrame:
        return frame.with_columns(pl.col("state").replace_strict(assoc, default=None).alias("association"),
                                  pl.when(pl.col("state") == "").then(pl.lit("(none)"))
                                  .otherwise(pl.col("state")).alias("state"))

    for c in run.categories:
        stats = c.statistics
        if not c.done or stats is None:
            continue
        shown_categories += 1
        ranking = c.rankings[c.done]
        people = (c.players.select("sno", pl.col("state").fill_null(""))
                  .join(ranking.select("sno", "name", "points", "rank_label", "rank"), on="sno")
                  .sort("rank", "sno"))
        people = with_player_href(people, page, c.cat.id)
        details = [Details(f"{row['state'] or '(none)'} — {assoc.get(row['state'], '')}: {row['players']} "
                           f"players, {fmt(row['points'])} points",
                           table_from_frame(people.filter(pl.col("state") == row["state"]),
                                            [("rank_label", "Rk"), ("name", "Name"), ("sno", "SNo"),
                                             ("points", "Pts")], numeric=["rank_label", "sno", "points"],
                                            links={"name": "_href"}))
                   for row in stats.iter_rows(named=True)]
        secs.append(Section(f"{c.cat.name} — after round {c.done}", anchor=c.cat.id, details=details,
                            tables=[table_from_frame(shown(stats), STAT_COLUMNS, numeric=STAT_NUMERIC)]))
    if not secs:
        return []
    if shown_categories > 1 and run.state_totals is not None:
        secs.append(Section("All categories", anchor="all", tables=[table_from_frame(
            shown(run.state_totals), STAT_COLUMNS, numeric=STAT_NUMERIC)]))
    notes = ["Games: over the board. Unplayed: forfeits (won or lost) and byes; a forfeit win "
             "scores a point but is not a game won. Rounds: the rounds the players were in, "
             "absences after a withdrawal left out; Score % = points ÷ rounds."]
    secs[-1].notes += notes
    pub.page(page, title="Statistics by state association", subtitle="", sections=secs, pdf=False,
             jumps=jumps(page, run))
    return []
