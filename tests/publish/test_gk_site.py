"""The Golden Knights site a member reads: member pages with the numbers of the CSV contract,
the member list, links that resolve, no email address on a public page, prize splits that
add up, and pages that change only when their data changes. The demo event is assembled
through the flow's ``publish_site`` (the rulebook and every page), without Prefect."""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import html
import io as stdio
import posixpath
import re
from decimal import Decimal
from pathlib import Path

import polars as pl
import pytest
from markupsafe import escape

from flows import io
from flows.kinds.correspondence import site as gk_pages
from flows.kinds.correspondence.flow import compute, publish_site
from flows.kinds.correspondence.links import AWARD_NAMES, member_page, section_page
from flows.site.names import file_part as slug
from flows.site.pages import OFFICE, Publication, event_context
from transforms.core.ingest import validate_files
from transforms.core.money import amount_text
from transforms.golden_knights.prizes import rule_5_prizes, rule_6_prize_split
from transforms.golden_knights.rules import GKRules
from transforms.golden_knights.schemas import REQUIRED as GK_REQUIRED
from transforms.golden_knights.schemas import SCHEMAS as GK_SCHEMAS
from transforms.kinds import parse_event_config

ROOT = Path(__file__).resolve().parents[2]
GK = ROOT / "inputs" / "golden-knights-2019"
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
HREF = re.compile(r'href="([^"]*)"')


@pytest.fixture(scope="module")
def demo_inputs():
    cfg = parse_event_config((GK / "event.toml").read_text())
    raw = {n: io.read_csv_strings(GK / n) for n in GK_SCHEMAS if (GK / n).exists()}
    typed, findings = validate_files(raw, GK_SCHEMAS, GK_REQUIRED)
    return cfg, typed, findings


def site(cfg, typed, findings, as_of: dt.date) -> Publication:
    pub = Publication(Path("unused"), ctx=event_context(cfg, as_of))
    publish_site(pub, cfg, typed, findings, as_of)
    return pub


def until(typed: dict, day: dt.date) -> dict:
    """The inputs as they stood on ``day``: later results and oversteps not yet reported."""
    g = typed["games.csv"]
    later = pl.col("ended") > pl.lit(day)
    return {**typed,
            "games.csv": g.with_columns(result=pl.when(later).then(None).otherwise(pl.col("result")),
                                        ended=pl.when(later).then(None).otherwise(pl.col("ended"))),
            "time_oversteps.csv": typed["time_oversteps.csv"].filter(pl.col("reported") <= pl.lit(day))}


@pytest.fixture(scope="module")
def demo(demo_inputs):
    cfg, typed, findings = demo_inputs
    return cfg, typed, site(cfg, typed, findings, cfg.event.as_of)


def esc(text: str) -> str:
    """The text as the templates write it (Jinja's autoescape)."""
    return str(escape(text))


def body(page: str) -> str:
    """A page without its inlined stylesheet."""
    return re.sub(r"<style>.*?</style>", "", page, flags=re.S)


def rows(pub: Publication, name: str) -> list[dict[str, str]]:
    return list(csv.DictReader(stdio.StringIO(pub.files[name])))


def pages(pub: Publication, *, office: bool | None = None) -> dict[str, str]:
    return {rel: text for rel, text in pub.files.items()
            if rel.endswith(".html") and (office is None or rel.startswith(OFFICE) == office)}


def entry_part(page: str, entry_id: str) -> str:
    """The part of a member page about one entry."""
    start = page.index(f'<section class="report gk-entry" id="{slug(entry_id)}">')
    return page[start:page.index("</section>", start)]


def test_every_member_with_an_entry_has_a_page_linked_from_the_member_list(demo):
    _, _, pub = demo
    members = {r["member_id"] for r in rows(pub, f"{OFFICE}entries.csv")}
    listing = pub.files["members/index.html"]
    assert len(members) == 150
    for m in members:
        assert member_page(m) in pub.files
        assert f'href="{posixpath.basename(member_page(m))}"' in listing
    assert not [p for p in pub.pdfs if p.startswith("members/")]  # member pages: HTML only


def test_member_pages_show_the_numbers_of_standings_qualifiers_prizes_and_awards_csv(demo):
    _, _, pub = demo
    standings = {r["entry_id"]: r for r in rows(pub, "standings.csv")}
    prizes = {r["entry_id"]: r for r in rows(pub, "prizes.csv")}
    member_of = {r["entry_id"]: r["member_id"] for r in rows(pub, f"{OFFICE}entries.csv")}
    quals = rows(pub, "qualifiers.csv")
    awards = rows(pub, "awards.csv")
    champion = next(e for e, p in prizes.items() if p["place"] == "1")
    tenth = next(e for e, p in prizes.items() if p["place"] == "10")
    framed = next(a["entry_id"] for a in awards if a["award"] == "framing_certificate")
    gifted = next(a["entry_id"] for a in awards if a["award"] == "gift_certificate")
    filler = next(q["entry_id"] for q in quals if "filled the last" in q["basis"])
    several = next(m for m in set(member_of.values()) if sum(v == m for v in member_of.values()) >= 3)
    chosen = {champion, tenth, framed, gifted, filler} | {e for e, m in member_of.items() if m == several}
    checked = 0
    for e in sorted(chosen):
        page = pub.files[member_page(member_of[e])]
        part = entry_part(page, e)
        if e in standings:
            wp = float(standings[e]["weighted_points"])
            assert f"<dt>Weighted points</dt><dd>{wp:.2f} (rule 6)</dd>" in part, e
            checked += 1
        for q in (q for q in quals if q["entry_id"] == e):
            assert esc(q["basis"]) in part, (e, q["basis"])
        for a in (a for a in awards if a["entry_id"] == e):
            assert AWARD_NAMES[a["award"]] in part, (e, a["award"])
        if e in prizes:
            assert f"{amount_text(Decimal(prizes[e]['amount']), 'USD')}" in part
    assert checked >= 5
    champ = entry_part(pub.files[member_page(member_of[champion])], champion)
    assert "<dt>Prize</dt><dd>1st place, $756.00</dd>" in champ  # 800 × 189 / 200
    assert "Golden Knights Champion: title and plaque" in champ
    framed_part = entry_part(pub.files[member_page(member_of[framed])], framed)
    assert f'href="../certificates/{slug(framed)}.pdf"' in framed_part
    assert f"certificates/{slug(framed)}.pdf" in pub.pdfs


def test_member_page_lists_every_game_with_colour_and_opponent_linked(demo):
    _, _, pub = demo
    champion = next(r for r in rows(pub, "prizes.csv") if r["place"] == "1")
    page = pub.files[member_page(champion["member_id"])]
    part = entry_part(page, champion["entry_id"])
    # 6 games a stage, 3 with White and 3 with Black (rule 2), in all three stages
    assert part.count("6 games: 3 with White, 3 with Black; 6 finished.") == 3
    assert part.count('<td class="">White</td>') == part.count('<td class="">Black</td>') == 9
    opponents = {(r["stage"], r["white"] if r["black"] == champion["entry_id"] else r["black"])
                 for r in rows(pub, "schedule.csv") if champion["entry_id"] in (r["white"], r["black"])}
    member_of = {r["entry_id"]: r["member_id"] for r in rows(pub, f"{OFFICE}entries.csv")}
    assert len(opponents) == 18
    for _stage, opp in opponents:
        assert f'href="{member_of[opp]}.html#{slug(opp)}"' in part


def test_every_link_of_every_page_resolves_to_a_file_of_the_publication(demo):
    _, _, pub = demo
    published = set(pub.files) | set(pub.pdfs)
    bad = []
    for rel, text in pages(pub).items():
        for h in HREF.findall(text):
            if h.startswith(("https://", "http://")):  # the site's address ([publish] site_url)
                continue
            path, _, anchor = html.unescape(h).partition("#")
            target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), path)) if path else rel
            if target == "../index.html":  # the run's index of events
                continue
            if target not in published or anchor and f'id="{anchor}"' not in pub.files[target]:
                bad.append((rel, h))
    assert bad == []


def test_every_member_page_is_within_two_clicks_of_the_event_home(demo):
    _, _, pub = demo

    def links(rel: str) -> set[str]:
        return {posixpath.normpath(posixpath.join(posixpath.dirname(rel), h.partition("#")[0]))
                for h in HREF.findall(pub.files.get(rel, "")) if h.partition("#")[0]}

    one = links("index.html")
    two = set().union(*(links(r) for r in one if r.endswith(".html")))
    members = {r for r in pub.files if r.startswith("members/") and r != "members/index.html"}
    assert members and members <= one | two
    assert not [h for h in HREF.findall(pub.files["index.html"]) if "office/" in h]


def test_no_public_page_or_file_holds_an_email_address_but_the_events_contact(demo):
    cfg, typed, pub = demo
    allowed = set(EMAIL.findall(cfg.event.contact))
    member_emails = set(typed["members.csv"]["email"].drop_nulls())
    assert member_emails
    for rel, text in pub.files.items():
        if rel.startswith(OFFICE) or rel.startswith("outbox/") or not isinstance(text, str):
            continue
        assert set(EMAIL.findall(text)) <= allowed, rel
    for rel, text in pub.pdfs.items():
        assert set(EMAIL.findall(text)) <= allowed, rel
    office = pub.files[f"{OFFICE}members.html"]
    assert sum(e in office for e in member_emails) >= 140  # the office's view has them


def test_public_member_page_states_an_entry_decision_but_not_the_offices_reason(demo):
    _, _, pub = demo
    not_accepted = [r for r in rows(pub, f"{OFFICE}entries.csv") if r["status"] != "accepted"]
    assert {r["status"] for r in not_accepted} == {"rejected", "carried_forward"}
    for r in not_accepted:
        part = entry_part(pub.files[member_page(r["member_id"])], r["entry_id"])
        assert r["reason"] and esc(r["reason"]) not in part
        assert ("not accepted" if r["status"] == "rejected" else "carried forward to next year") in part
        assert esc(r["reason"]) in pub.files[f"{OFFICE}members.html"]


def test_membership_warning_is_kept_off_the_public_member_page_and_is_in_the_offices_view(demo_inputs):
    # Decision (rule 1): a membership warning is personal; the public member page shows no
    # membership date and no warning; the office's members view has both, with the email.
    cfg, typed, findings = demo_inputs
    day = dt.date(2021, 3, 1)  # preliminaries in progress
    pub = site(cfg, until(typed, day), findings, day)
    flags = rows(pub, f"{OFFICE}membership_flags.csv")
    assert {f["flag"] for f in flags} == {"lapsed", "lapses_soon"}
    office = pub.files[f"{OFFICE}members.html"]
    for f in flags:
        page = body(pub.files[member_page(f["member_id"])]).lower()
        assert not [w for w in ("membership", "expire", "lapse", "renew") if w in page]
        assert f["email"] in office and f["membership_expires"] in office
    assert "lapses soon" in office and "lapsed" in office


def tied_site(cfg, typed, ties: dict[int, int]) -> tuple[Publication, pl.DataFrame, list[str]]:
    """The demo with ties made in its final standings: ``ties`` maps a place (1-based, among
    the prize-eligible) to the place whose weighted points it takes."""
    rules = cfg.table(GKRules)
    res = compute(cfg, typed, cfg.event.as_of)
    st = res.standings.with_columns(weighted_cents=(pl.col("weighted_points") * 100).round().cast(pl.Int64))
    order = st.filter(pl.col("prize_eligible")).sort("weighted_cents", "entry_id",
                                                     descending=[True, False])["entry_id"].to_list()
    wp = dict(zip(st["entry_id"], st["weighted_points"], strict=True))
    new = {order[p - 1]: wp[order[t - 1]] for p, t in ties.items()}
    st = st.with_columns(weighted_points=pl.col("entry_id").replace_strict(
        new, default=pl.col("weighted_points"), return_dtype=pl.Float64))
    st = st.with_columns(weighted_cents=(pl.col("weighted_points") * 100).round().cast(pl.Int64))
    prizes = rule_5_prizes(rules, st, res.entries_assigned)
    res = dataclasses.replace(res, standings=st.drop("weighted_cents"), prizes=prizes,
                              prize_split=rule_6_prize_split(rules, st, res.entries_assigned))
    pub = Publication(Path("unused"), ctx=event_context(cfg, cfg.event.as_of))
    gk_pages.publish_event(pub, cfg, rules, res, cfg.event.as_of, members=typed["members.csv"])
    return pub, prizes, order


def test_prize_split_explanation_adds_up_to_the_prizes_csv_amounts(demo_inputs):
    # 189 entries: 756.00, 472.50, 283.50, 94.50 x 7 (2,173.50). Ties made: 2nd takes 1st's
    # points (places 1-2: 756.00 + 472.50 = 1,228.50, 614.25 each); 9th, 10th and 11th take
    # 8th's (places 8-11, only 8-10 paid: 3 x 94.50 = 283.50 / 4 = 70.87, 2 cents left over,
    # one each to the first two entry ids).
    cfg, typed, _ = demo_inputs
    pub, prizes, order = tied_site(cfg, typed, {2: 1, 9: 8, 10: 8, 11: 8})
    csv_rows = rows(pub, "prizes.csv")
    amounts = {r["entry_id"]: Decimal(r["amount"]) for r in csv_rows}
    assert amounts[order[0]] == amounts[order[1]] == Decimal("614.25")
    eighth = sorted(order[7:11])
    assert [amounts[e] for e in eighth] == [Decimal("70.88"), Decimal("70.88"), Decimal("70.87"), Decimal("70.87")]
    assert sum(amounts.values()) == Decimal("2173.50")  # the scaled fund, every cent
    page = pub.files["prizes.html"]
    assert "2 tied for places 1–2 on" in page
    assert "share the prizes of 1st place" not in page
    assert "share the prizes of places 1–2: $756.00 + $472.50 = $1,228.50, $614.25 each" in page
    assert ("4 tied for places 8–11 on" in page
            and "share the prizes of places 8–10: $94.50 + $94.50 + $94.50 = $283.50, $70.87 each; the 2 "
                "cents left over go one each to" in page)
    member_of = {r["entry_id"]: r["member_id"] for r in csv_rows}
    who = f"{esc(next(r['name'] for r in csv_rows if r['entry_id'] == eighth[0]))} ({eighth[0]})"
    part = entry_part(pub.files[member_page(member_of[eighth[3]])], eighth[3])
    assert "$283.50, $70.87 each" in part and who in part
    # the explanation's numbers are the CSV's: share x players + leftover cents = sum of amounts
    assert Decimal("70.87") * 4 + Decimal("0.02") == sum(amounts[e] for e in eighth) == Decimal("283.50")


def test_crosstable_names_link_to_the_members_pages(demo):
    _, _, pub = demo
    ct = [r for r in rows(pub, "crosstables.csv") if r["stage"] == "preliminary" and r["section"] == "P01"]
    page = pub.files[section_page("preliminary", "P01")]
    assert len(ct) == 7
    for r in ct:
        assert f'<a href="../{member_page(r["member_id"])}#{slug(r["entry_id"])}">{esc(r["name"])}</a>' \
            in page


def test_a_finished_game_changes_only_the_pages_that_show_it(demo_inputs):
    # The final in progress; one more final game gets its result: its section, its stage,
    # the standings, the home and the bulletin change, and the two players' pages; no other
    # member's page, no other section, no other PDF.
    cfg, typed, findings = demo_inputs
    day = dt.date(2025, 9, 1)
    before = until(typed, day)
    g = before["games.csv"]
    open_f01 = g.filter((pl.col("stage") == "final") & (pl.col("section") == "F01") & pl.col("result").is_null())
    assert open_f01.height >= 2
    w, b, line = open_f01.select("white", "black", "line").row(0)
    after = {**before, "games.csv": g.with_columns(
        result=pl.when(pl.col("line") == line).then(pl.lit("1-0")).otherwise(pl.col("result")),
        ended=pl.when(pl.col("line") == line).then(pl.lit(day)).otherwise(pl.col("ended")))}
    p1, p2 = site(cfg, before, findings, day), site(cfg, after, findings, day)
    member_of = {r["entry_id"]: r["member_id"] for r in rows(p1, f"{OFFICE}entries.csv")}
    changed = {r for r in pages(p1, office=False) if p1.files[r] != p2.files[r]}
    assert changed == {section_page("final", "F01"), "stages/final.html", "standings.html", "index.html",
                       "bulletin.html", member_page(member_of[w]), member_page(member_of[b])}
    assert {r for r in p1.pdfs if p1.pdfs[r] != p2.pdfs[r]} == {"stages/final.pdf", "standings.pdf",
                                                                 "bulletin.pdf"}


def test_a_later_run_date_changes_no_public_page_but_the_home_and_the_bulletin(demo, demo_inputs):
    cfg, typed, findings = demo_inputs
    _, _, pub = demo
    later = site(cfg, typed, findings, cfg.event.as_of + dt.timedelta(days=30))
    changed = {r for r in pages(pub, office=False) if pub.files[r] != later.files[r]}
    assert changed == {"index.html", "bulletin.html"}
    public_pdfs = {r for r in pub.pdfs if not r.startswith(OFFICE)}
    assert {r for r in public_pdfs if pub.pdfs[r] != later.pdfs[r]} == {"bulletin.pdf"}  # certificates too


def test_every_page_stays_under_300_kb(demo):
    _, _, pub = demo
    assert max(len(t.encode()) for t in pages(pub).values()) < 300_000
