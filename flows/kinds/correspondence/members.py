"""The Golden Knights member pages: the member list (``members/index.html``), a page per
member with an entry (``members/<member_id>.html``: entries, sections, games and colours,
results, rulings, qualification, weighted points, awards, prizes) and the office's view of
every member (``office/members.html``: email, membership, entry decisions with reasons).

Decision (rule 1, membership warnings): a membership warning is personal. The public member
page shows no membership date and no warning; the warning, with the member's email and
expiry date, is in the office's per-member view (and the member's own message, Step 8).
Public pages show no email address and no reason the office gave for an entry decision.
Presentation only: every number is the rulebook's (``GKResult``: its ``stage_records`` from
:func:`transforms.golden_knights.prizes.rule_6_stage_record`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any
from urllib.parse import quote

import polars as pl

from flows.kinds.correspondence.awards import PrizeSplit, ordinal
from flows.kinds.correspondence.games import GAME_COLUMN, GameKey, game_key
from flows.kinds.correspondence.links import (
    AWARD_NAMES,
    MEMBERS,
    STAGE_ORDER,
    STATUS_NAMES,
    People,
    certificate_file,
    href,
    keep_words,
    member_page,
    section_page,
    stage_name,
    stage_sorted,
    surname_key,
)
from flows.kinds.correspondence.sections import SOURCE_NOTES, rulings_frame
from flows.site.names import file_part
from flows.site.pages import OFFICE, Publication, season_rel
from flows.site.present import Section, Table, table_from_frame, table_from_rows
from transforms.core.model import Kind
from transforms.core.money import amount_text
from transforms.golden_knights.event import GKResult
from transforms.golden_knights.rules import GKRules, Stage

OFFICE_MEMBERS = f"{OFFICE}members.html"


@dataclass
class Fact:
    label: str
    value: str
    href: str = ""


@dataclass
class StagePart:
    heading: str
    href: str
    lines: list[str]
    games: Table


@dataclass
class EntryPart:
    anchor: str
    heading: str
    facts: list[Fact] = field(default_factory=list)
    stages: list[StagePart] = field(default_factory=list)
    weighted: Table | None = None
    rulings: Table | None = None


def outcome(points: float | None, kind: str | None) -> str:
    """A game from the player's side."""
    if points is None:
        return "in progress"
    if kind == Kind.FORFEIT_WIN.value:
        return "won by forfeit"
    if kind == Kind.FORFEIT_LOSS.value:
        return "lost by forfeit"
    return {1.0: "won", 0.5: "draw"}.get(points, "lost")


def _by(frame: pl.DataFrame, key: str) -> dict[str, pl.DataFrame]:
    if frame.is_empty():
        return {}
    return {k[0]: g for k, g in frame.partition_by(key, as_dict=True, maintain_order=True).items()}


def _rows_by(frame: pl.DataFrame, key: str) -> dict[Any, list[dict[str, Any]]]:
    """The frame's rows as dicts by the value of ``key``, in the frame's order: what a member
    page formats (a frame per entry cost more than its page: 1,800 entries took 10 s)."""
    out: dict[Any, list[dict[str, Any]]] = {}
    for r in frame.iter_rows(named=True):
        out.setdefault(r[key], []).append(r)
    return out


def half(x: float | None) -> str:
    """A game score as players write it: 4½."""
    if x is None:
        return ""
    whole = int(x)
    return (str(whole) if whole or x == 0 else "") + ("½" if x - whole == 0.5 else "")


def qualification_line(stage: str, q: dict | None) -> str:
    if stage == Stage.FINAL.value:
        return ""
    nxt = stage_name(Stage(stage).next.value).lower()
    if q is None:
        return f"Qualification for the {nxt} (rule 3): decided when the section is complete."
    if q["qualified"] is None:
        return f"Qualification for the {nxt}: pending, {q['basis']}."
    if q["qualified"]:
        return f"Qualified for the {nxt}: {q['basis']}."
    return f"Did not qualify for the {nxt}: {q['basis']}."


@dataclass(frozen=True)
class MemberData:
    """The rulebook's frames cut by entry (built once for every member page)."""

    entries: dict[str, list[dict[str, Any]]]
    card: dict[str, list[dict[str, Any]]]
    record: dict[str, list[dict[str, Any]]]
    qualifiers: dict[str, list[dict[str, Any]]]
    standings: dict[str, dict]
    awards: dict[str, list[str]]
    prizes: dict[str, dict]
    rulings: dict[str, pl.DataFrame]
    waiting: dict[str, list[str]]

    @classmethod
    def build(cls, rules: GKRules, res: GKResult) -> MemberData:
        rul = res.rulings
        both = pl.concat([rul.with_columns(_who=pl.col("entry_id")),
                          rul.with_columns(_who=pl.col("opponent"))]) if rul.height else rul.with_columns(
            _who=pl.lit(None, pl.String))
        awards: dict[str, list[str]] = {}
        for e, a in res.awards.select("entry_id", "award").iter_rows():
            awards.setdefault(e, []).append(a)
        waiting: dict[str, list[str]] = {}
        for st, e in res.waiting.select("stage", "entry_id").iter_rows():
            waiting.setdefault(e, []).append(st)
        return cls(
            entries=_rows_by(res.entries, "member_id"),
            card=_rows_by(res.scorecard, "entry_id"),
            record=_rows_by(res.stage_records, "entry_id"),
            qualifiers=_rows_by(res.qualifiers, "entry_id"),
            standings={r["entry_id"]: r for r in res.standings.iter_rows(named=True)},
            awards=awards,
            prizes={r["entry_id"]: r for r in res.prizes.iter_rows(named=True)},
            rulings=_by(both, "_who"),
            waiting=waiting,
        )


def in_stage_order(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows in the order the stages are played (:func:`stage_sorted` of rows at hand)."""
    return sorted(rows, key=lambda r: STAGE_ORDER.get(r["stage"], 9))


def weighted_table(rules: GKRules, record: list[dict[str, Any]], total: float | None) -> Table:
    weights = dict(zip([s.value for s in Stage], rules.stage_weights, strict=True))
    rows = []
    for r in in_stage_order(record):
        wins = r["wins"] + r["forfeit_wins"]
        rows.append({"stage": stage_name(r["stage"]),
                     "wins": f"{wins} ({r['forfeit_wins']} by forfeit)" if r["forfeit_wins"] else str(wins),
                     "draws": str(r["draws"]), "weight": str(weights[r["stage"]]),
                     "weighted": f"{r['weighted_cents'] / 100:.2f}"})
    rows.append({"stage": "Total", "wins": "", "draws": "", "weight": "",
                 "weighted": "" if total is None else f"{total:.2f}"})
    return table_from_rows(rows, [("stage", "Stage"), ("wins", "Wins"), ("draws", "Draws"),
                                  ("weight", "Win ×"), ("weighted", "Weighted")],
                           numeric=["weighted"], caption="Weighted points (rule 6)")


def entry_part(rules: GKRules, res: GKResult, people: People, data: MemberData, ps: PrizeSplit,
               currency: str, rel: str, entry: dict, pages: Mapping[GameKey, str] | None = None
               ) -> EntryPart:
    """One entry's part of its member's page; a game published (``pages``) is linked from its
    row ("game")."""
    e = entry["entry_id"]
    part = EntryPart(anchor=file_part(e), heading=f"Entry {e}")
    part.facts.append(Fact("Status", STATUS_NAMES.get(entry["status"], entry["status"])))
    for st in data.waiting.get(e, []):
        part.facts.append(Fact("Waiting", f"for a {stage_name(st).lower()} section of {rules.section_size} "
                                          "(rule 2)"))
    s = data.standings.get(e)
    if s is not None:
        part.facts.append(Fact("Weighted points", f"{s['weighted_points']:.2f} (rule 6)"))
        if s["completed"]:
            losses = s["forfeit_losses"]
            part.facts.append(Fact("Completed all three stages",
                                   "yes, with no forfeit loss" if not losses else f"yes, {losses} forfeit loss(es)"))
    for a in data.awards.get(e, []):
        label = AWARD_NAMES.get(a, a)
        if a == "gift_certificate":
            part.facts.append(Fact("Award", f"{label}, {amount_text(Decimal(rules.gift_certificate), currency)} "
                                            "(rule 4)"))
        elif a == "framing_certificate":
            part.facts.append(Fact("Award", f"{label} (rule 4): the certificate (PDF)",
                                   href(rel, certificate_file(e))))
        else:
            part.facts.append(Fact("Award", f"{label} ({'rule 5' if a == 'champion_title_and_plaque' else 'rule 4'})"))
    p = data.prizes.get(e)
    if p is not None:
        place = f"{ordinal(p['place'])} place, " if p["place"] is not None else ""
        part.facts.append(Fact("Prize", f"{place}{amount_text(p['amount'], currency)}"))
        how = ps.overridden.get(e) or ps.shared.get(e)
        if how:
            part.facts.append(Fact("How the prize was made", how))
    card = data.card.get(e)
    quals = {r["stage"]: r for r in data.qualifiers.get(e, [])}
    if card is not None:
        rec = {r["stage"]: r for r in data.record[e]}
        by_section: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for r in card:
            by_section.setdefault((r["stage"], r["section"]), []).append(r)
        for (stage, section), g in sorted(by_section.items(),
                                          key=lambda kv: list(Stage).index(Stage(kv[0][0]))):
            r = rec[stage]
            lines = [f"{r['games']} games: {r['whites']} with White, {r['blacks']} with Black; "
                     f"{r['finished']} finished. Score {half(r['points'])}."]
            ql = qualification_line(stage, quals.get(stage))
            if ql:
                lines.append(ql)
            shown = sorted(({
                "colour_text": {"w": "White", "b": "Black"}.get(r["colour"], ""),
                "opponent_name": None if r["opponent"] is None else people.entry_name(r["opponent"]),
                "opponent_href": None if r["opponent"] is None else people.entry_href(rel, r["opponent"]),
                "outcome": outcome(r["points"], r["kind"]),
                "ended": r["ended"],
                "ended_text": None if r["ended"] is None else r["ended"].strftime("%Y-%m-%d"),
                "note": SOURCE_NOTES.get(r["source"]) if r["source"] is not None else None,
                "g_href": (href(rel, pages[k]) if pages and r["opponent"] is not None
                           and (k := game_key(stage, section, e, r["opponent"])) in pages else None),
            } for r in g), key=lambda r: (r["ended"] is None, r["ended"] or dt.date.min, r["opponent_name"] or ""))
            cols = [("opponent_name", "Opponent"), ("colour_text", "Colour"), ("outcome", "Result"),
                    ("ended_text", "Ended")]
            if any(r["note"] is not None for r in shown):
                cols.append(("note", "Note"))
            if any(r["g_href"] for r in shown):
                cols.append(GAME_COLUMN)
                for r in shown:
                    r["g_label"] = "game" if r["g_href"] else None
            games = keep_words(table_from_rows(shown, cols, links={"opponent_name": "opponent_href",
                                                                   "g_label": "g_href"}), "Ended")
            part.stages.append(StagePart(f"{stage_name(stage)} — section {section}",
                                         href(rel, section_page(stage, section)), lines, games))
        part.weighted = weighted_table(rules, data.record[e], s["weighted_points"] if s else None)
    rl = data.rulings.get(e)
    if rl is not None:
        rl = rulings_frame(rules, rl).with_columns(
            who=pl.col("entry_id").map_elements(people.entry_name, return_dtype=pl.String),
            who_href=pl.col("entry_id").map_elements(lambda o: people.entry_href(rel, o), return_dtype=pl.String),
            opp=pl.col("opponent").map_elements(people.entry_name, return_dtype=pl.String),
            opp_href=pl.col("opponent").map_elements(lambda o: people.entry_href(rel, o), return_dtype=pl.String),
        )
        part.rulings = table_from_frame(
            stage_sorted(rl, "reported"), [("stage_text", "Stage"), ("who", "Overstepped"), ("opp", "Opponent"),
                                           ("reported_text", "Reported"), ("ruling_text", "Ruling")],
            links={"who": "who_href", "opp": "opp_href"},
            caption="Time-overstep rulings concerning this entry (rule 12)")
    return part


def reached(data: MemberData, entry_ids: list[str]) -> str:
    """The furthest stage any of the entries was placed in."""
    best = -1
    for e in entry_ids:
        for st in (r["stage"] for r in data.record.get(e, [])):
            best = max(best, list(Stage).index(Stage(st)))
    return stage_name(list(Stage)[best].value) if best >= 0 else "not placed"


def member_pages(pub: Publication, rules: GKRules, res: GKResult, people: People, ps: PrizeSplit,
                 currency: str, members: pl.DataFrame | None,
                 pages: Mapping[GameKey, str] | None = None) -> None:
    """The member list and one page per member with an entry (HTML only; each published game,
    ``pages``, linked from its row)."""
    data = MemberData.build(rules, res)
    best = res.series_entries  # the entry a series counts each member with
    counted = dict(zip(best["member_id"].to_list(), best["entry_id"].to_list(), strict=True))
    ratings = {} if members is None else dict(zip(members["member_id"], members["rating"], strict=True))
    rows = []
    for m in people.member_ids():
        rel = member_page(m)
        ents = sorted(data.entries[m], key=lambda r: r["entry_id"])
        parts = [entry_part(rules, res, people, data, ps, currency, rel, r, pages) for r in ents]
        ids = [r["entry_id"] for r in ents]
        summary = [{
            "entry": r["entry_id"], "href": f"#{p.anchor}",
            "reached": reached(data, [r["entry_id"]]),
            "weighted": (f"{data.standings[r['entry_id']]['weighted_points']:.2f}"
                         if r["entry_id"] in data.standings else ""),
            "prize": (amount_text(data.prizes[r["entry_id"]]["amount"], currency)
                      if r["entry_id"] in data.prizes else ""),
        } for p, r in zip(parts, ents, strict=True)]
        rating = ratings.get(m)
        sub = f"Member {m}" + (f" · rating {rating}" if rating is not None else " · unrated") + \
            f" · {len(ids)} entr{'y' if len(ids) == 1 else 'ies'}."
        table = table_from_rows(summary, [("entry", "Entry"), ("reached", "Reached"), ("weighted", "Weighted"),
                                          ("prize", "Prize")], numeric=["weighted"], links={"entry": "href"},
                                caption="Entries") if len(ids) > 1 else None
        season = [{"href": "../" * rel.count("/") + f"../{quote(folder)}/"
                           f"{season_rel(pub.out_dir.name, '', counted[m])}",
                   "label": f"{name}: every event of the member's season, the series' standings"
                            + (f" (counted with entry {counted[m]})" if len(ids) > 1 else "")}
                  for folder, name in pub.ctx.get("counted_in", ()) if m in counted]  # a series counting it
        pub.page(rel, "gk_member.html", pdf=False, as_of="", title=people.name(m), subtitle=sub, summary=table,
                 entries=parts, members_href=href(rel, MEMBERS), season=season)
        rows.append({"name": people.name(m), "member_id": m, "href": href(MEMBERS, rel), "entries": len(ids),
                     "reached": reached(data, ids),
                     "awards": ", ".join(dict.fromkeys(AWARD_NAMES.get(a, a) for e in ids
                                                       for a in data.awards.get(e, []))),
                     "prize": (amount_text(sum(data.prizes[e]["amount"] for e in ids if e in data.prizes), currency)
                               if any(e in data.prizes for e in ids) else "")})
    frame = pl.DataFrame(rows, schema={"name": pl.String, "member_id": pl.String, "href": pl.String,
                                       "entries": pl.Int64, "reached": pl.String, "awards": pl.String,
                                       "prize": pl.String})
    frame = frame.with_columns(_k=pl.col("name").map_elements(surname_key, return_dtype=pl.String)) \
        .sort("_k", "member_id")
    sec = Section(f"{frame.height} members with an entry", intro=[
        "In order of last names. Each name leads to the member's page: entries, sections, games, results, "
        "rulings, qualification, weighted points, awards and prizes. Members of the same name are "
        "told apart by their member number."],
        tables=[keep_words(table_from_frame(frame, [("name", "Name"), ("member_id", "Member"),
                                                    ("entries", "Entries"),
                                                    ("reached", "Reached"), ("prize", "Prize")],
                                            numeric=["entries"], links={"name": "href"}), "Name")])
    pub.page(MEMBERS, title="Members", subtitle="", sections=[sec], pdf=False, as_of="")


def office_members(pub: Publication, res: GKResult, people: People, members: pl.DataFrame | None) -> None:
    """``office/members.html``: every member with an entry, their email and membership, the
    rule 1 warning (lapsed / lapses soon) and each entry's decision with the office's reason."""
    flags: dict[str, list[str]] = {}
    for r in res.membership_flags.iter_rows(named=True):
        flags.setdefault(r["member_id"], []).append(
            f"{r['flag'].replace('_', ' ')} ({r['days_left']} days), entry {r['entry_id']}")
    info = {} if members is None else {r["member_id"]: r for r in members.iter_rows(named=True)}
    rows = []
    for m in people.member_ids():
        ents = res.entries.filter(pl.col("member_id") == m).sort("entry_id")
        mi = info.get(m, {})
        rows.append({
            "name": people.name(m), "href": href(OFFICE_MEMBERS, member_page(m)), "member_id": m,
            "email": mi.get("email") or "", "expires": str(mi.get("membership_expires") or ""),
            "flag": "; ".join(flags.get(m, [])),
            "entries": "; ".join(f"{r['entry_id']} {r['status']}" + (f": {r['reason']}" if r["reason"] else "")
                                 for r in ents.iter_rows(named=True)),
            "_css": "flag" if m in flags else "",
        })
    frame = pl.DataFrame(rows, schema={k: pl.String for k in ("name", "href", "member_id", "email", "expires",
                                                              "flag", "entries", "_css")})
    frame = frame.sort(pl.col("flag") == "", "name", "member_id")
    sec = Section("Members with an entry", intro=[
        "For the office only: email addresses, membership dates and the rule 1 warnings are not on the "
        "public member pages (their names link there). Flagged members first."],
        tables=[table_from_frame(frame, [("name", "Name"), ("member_id", "Member"), ("email", "Email"),
                                         ("expires", "Membership expires"), ("flag", "Rule 1 warning"),
                                         ("entries", "Entries: decision and reason")],
                                 links={"name": "href"}, row_css="_css")])
    pub.page(OFFICE_MEMBERS, title="Members (office view)", subtitle="", sections=[sec], pdf=False)
