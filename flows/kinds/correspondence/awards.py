"""The Golden Knights prizes (rules 5, 6: the scaled fund, who won what and how tied players
shared) and awards (rule 4: gift certificates, certificates for framing, pins; rule 5: title
and plaque). Presentation only: the amounts and shares are the rulebook's (``GKResult.prizes``,
``prize_fund``, ``prize_split``, ``awards``)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

import polars as pl

from flows.kinds.correspondence.links import (
    AWARD_NAMES,
    AWARDS,
    PRIZES,
    People,
    certificate_file,
    href,
    keep_words,
    with_people,
)
from flows.site import render
from flows.site.pages import Publication
from flows.site.present import Section, table_from_frame
from flows.site.render import plural
from transforms.core.config import EventConfig
from transforms.core.money import amount_text
from transforms.golden_knights.event import GKResult
from transforms.golden_knights.rules import GKRules


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def places_text(first: int, last: int) -> str:
    return f"{ordinal(first)} place" if first == last else f"places {first}–{last}"


@dataclass(frozen=True)
class PrizeSplit:
    """How the prizes of the money places were paid (rules 5, 6), in words, per entry."""

    split: pl.DataFrame
    """The rulebook's split of the money places (``GKResult.prize_split``,
    :func:`transforms.golden_knights.prizes.rule_6_prize_split`; empty until the event is
    complete)."""
    by_entry: dict[str, str]
    """entry_id -> how its prize was made ("2nd place: $472.50", or the shared sum)."""
    shared: dict[str, str]
    """The entries of ``by_entry`` whose place was shared."""
    overridden: dict[str, str]
    """entry_id -> the director's decision on its prize (rule 7), in words."""


def prize_split(res: GKResult, people: People, currency: str) -> PrizeSplit:
    """The rulebook's split of every money place (``GKResult.prize_split``), explained: the
    places involved, the sum of their prizes, the share, and who receives the cents left over."""
    split = res.prize_split
    if not res.event_complete:
        return PrizeSplit(split, {}, {}, {})
    table = res.prize_fund
    won = res.prizes.filter(pl.col("place").is_not_null())
    texts: dict[str, str] = {}
    shared: dict[str, str] = {}
    for s in split.iter_rows(named=True):
        ids = won.filter(pl.col("place") == s["place"])["entry_id"].to_list()
        if s["players"] == 1 and s["last_place"] == s["place"]:
            text = f"{ordinal(s['place'])} place: {amount_text(s['pot'], currency)}"
        else:
            parts = " + ".join(amount_text(Decimal(c) / 100, currency) for c in table[s["place"] - 1:s["last_place"]])
            text = (f"{s['players']} tied for {places_text(s['place'], s['place'] + s['players'] - 1)} on "
                    f"{s['weighted_points']:.2f} weighted points share the prizes of "
                    f"{places_text(s['place'], s['last_place'])}: {parts} = {amount_text(s['pot'], currency)}, "
                    f"{amount_text(s['share'], currency)} each")
            if s["leftover_cents"]:
                who = ", ".join(f"{people.entry_name(e)} ({e})" for e in s["extra_cent"])
                text += (f"; the {plural(s['leftover_cents'], 'cent')} left over go one each to {who} "
                         "(entry order, rule 6)")
        for e in ids:
            texts[e] = text
            if s["players"] > 1:
                shared[e] = text
    over = {r["entry_id"]: f"the director's decision (rule 7): {amount_text(Decimal(r['applied']), currency)}"
            for r in res.applied_overrides.filter(pl.col("kind") == "prize").iter_rows(named=True)}
    return PrizeSplit(split, texts, shared, over)


def prizes_page(pub: Publication, cfg: EventConfig, rules: GKRules, res: GKResult, people: People,
                ps: PrizeSplit) -> Section:
    """``prizes.html``: the scaled fund, the prizes awarded and how shared prizes were split."""
    cur = cfg.event.currency
    table = res.prize_fund
    fund = pl.DataFrame({"place": list(range(1, len(table) + 1)),
                         "base": [Decimal(p) for p in rules.prize_table],
                         "scaled": [Decimal(c) / 100 for c in table]},
                        schema={"place": pl.Int64, "base": pl.Decimal(12, 2), "scaled": pl.Decimal(12, 2)})
    fund_total = sum(table)
    fund_sec = Section("The prize fund (rule 5)", intro=[
        f"The prize fund is based on {rules.prize_base_entries} entries and scaled to the {res.entries_assigned} "
        "entries assigned "
        f"to preliminary sections: each prize × {res.entries_assigned} / {rules.prize_base_entries}, to the "
        f"cent. In all {amount_text(Decimal(fund_total) / 100, cur)}. First place also takes the title of "
        "Golden Knights Champion and a plaque."],
        tables=[table_from_frame(fund, [("place", "Place"), ("base", f"For {rules.prize_base_entries}"),
                                        ("scaled", f"For {res.entries_assigned}")],
                                 numeric=["place"], money=["base", "scaled"], currency=cur)])
    won = with_people(res.prizes, people, PRIZES, ["entry_id"]).with_columns(
        how=pl.col("entry_id").replace_strict(ps.by_entry, default="", return_dtype=pl.String))
    if ps.overridden:
        won = won.with_columns(how=pl.col("entry_id").replace_strict(ps.overridden, default=pl.col("how")))
    cols = [("place", "Place"), ("entry_id_name", "Name"), ("entry_id", "Entry"),
            ("weighted_points", "Weighted"), ("amount", "Prize")]
    if ps.shared or ps.overridden:
        cols.append(("how", "How"))
    prize_sec = Section("Prizes (rules 5, 6)", intro=[
        "By weighted points (rule 6), among the players who completed all three stages with no forfeit "
        "losses (rule 4). Players tied in money places share equally the sum of the prizes involved "
        "(rule 6): each share is rounded down to the cent and the cents left over go one each to the tied "
        "players in entry order, so the shares add up to the sum."],
        tables=[keep_words(table_from_frame(won, cols, numeric=["place", "weighted_points"], money=["amount"],
                                            currency=cur, links={"entry_id_name": "entry_id_href"},
                                            empty="Prizes are awarded when the final is complete."), "Entry")])
    shared = ps.split.filter(pl.col("players") > 1)
    if shared.height:
        prize_sec.notes.append(f"{plural(shared.height, 'money place')} shared; the How column gives the sum and the "
                               "share.")
    pub.page(PRIZES, title="Prizes", subtitle="", sections=[prize_sec, fund_sec], as_of="")
    return prize_sec


def awards_page(pub: Publication, cfg: EventConfig, rules: GKRules, res: GKResult, people: People) -> Section:
    """``awards.html``: rule 4's awards, one table per kind, names linked, certificates for
    framing linked to their PDFs."""
    aw = with_people(res.awards, people, AWARDS, ["entry_id"]).with_columns(
        value_text=pl.when(pl.col("value") != "").then(
            pl.col("value").map_elements(lambda v: amount_text(Decimal(v), cfg.event.currency),
                                         return_dtype=pl.String)).otherwise(pl.lit("")),
        certificate=pl.when(pl.col("award") == "framing_certificate").then(pl.lit("PDF")).otherwise(None),
        cert_href=pl.when(pl.col("award") == "framing_certificate").then(
            pl.col("entry_id").map_elements(lambda e: href(AWARDS, certificate_file(e)), return_dtype=pl.String)),
    )
    gift = amount_text(Decimal(rules.gift_certificate), cfg.event.currency)
    what = {"champion_title_and_plaque": "First place: the title of Golden Knights Champion and a plaque (rule 5).",
            "golden_knights_pin": "Completed all three stages with no forfeit losses (rule 4).",
            "framing_certificate": "Semifinalists who did not qualify for the final (rule 4).",
            "gift_certificate": f"Players who did not qualify for the semifinals: a gift certificate of {gift} "
                                "(rule 4)."}
    tables = []
    for award in AWARD_NAMES:
        part = aw.filter(pl.col("award") == award).sort("entry_id_name", "entry_id")
        cols = [("entry_id_name", "Name"), ("entry_id", "Entry")]
        if award == "framing_certificate":
            cols.append(("certificate", "Certificate"))
        if award == "gift_certificate":
            cols.append(("value_text", "Value"))
        tables.append((award, keep_words(table_from_frame(
            part, cols, caption=f"{AWARD_NAMES[award]} ({part.height})",
            links={"entry_id_name": "entry_id_href", "certificate": "cert_href"}, empty="None yet."), "Entry")))
    sections = [Section(AWARD_NAMES[a], intro=[what[a]], tables=[t]) for a, t in tables]
    pub.page(AWARDS, title="Awards", subtitle="Per entry: a member with several entries can receive several "
             "awards.", sections=sections, as_of="",
             pdf={"sections": sections})
    return Section("Awards (rule 4)", tables=[t for _, t in tables])


def certificates(pub: Publication, cfg: EventConfig, rules: GKRules, res: GKResult, people: People,
                 as_of: dt.date) -> None:
    """GK rule 4 — a certificate suitable for framing for each semifinal non-qualifier.

    Dated the day the semifinal section ended (its last result), so a certificate is made
    once and never again while its section's results stand."""
    ended = res.games.group_by("stage", "section").agg(pl.col("ended").max())
    quals = res.qualifiers.filter(pl.col("stage") == "semifinal").join(ended, on=["stage", "section"], how="left")
    when = dict(zip(quals["entry_id"], quals["ended"], strict=True))
    for rec in res.awards.filter(pl.col("award") == "framing_certificate").iter_rows(named=True):
        day = when.get(rec["entry_id"]) or as_of
        html = render.render_page(
            "certificate.html", organiser=cfg.event.organiser, title="Certificate of Achievement",
            name=people.entry_name(rec["entry_id"]),
            text=f"Semifinalist of the {cfg.event.name}, in recognition of reaching its semifinal "
                 "round.",
            signer=rules.director, date=f"{day:%d %B %Y}")
        pub.add_pdf(certificate_file(rec["entry_id"]), html)
