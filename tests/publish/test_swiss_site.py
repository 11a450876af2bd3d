"""The National Junior demo's public site, built by the page builders without Prefect: every
player has a page whose numbers are the standings' numbers, every link resolves, no public
page holds a birth date or an email address, round pages have previous/next, pages stay light,
and a round's printed documents do not change when the next round is added."""

from __future__ import annotations

import csv
import io
import posixpath
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import polars as pl
import pytest

from flows import io as flows_io
from flows.kinds.swiss import site
from flows.kinds.swiss.common import own_result, player_rel
from flows.registry import rules_parts
from flows.site import render
from flows.site.pages import (
    OFFICE,
    Publication,
    event_context,
    publish_bulletin,
    publish_validation,
)
from flows.site.present import RESULT_CHARS
from transforms.kinds import parse_event_config
from transforms.national_junior.schemas import SCHEMAS as SWISS_SCHEMAS
from transforms.swiss.config import SwissConfig
from transforms.swiss.event import run_swiss

NJ = Path(__file__).resolve().parents[2] / "inputs" / "national-junior-2024"


def raw_inputs(through: int | None = None) -> dict:
    raw = {n: flows_io.read_csv_strings(NJ / n) for n in SWISS_SCHEMAS if (NJ / n).exists()}
    if through is not None:
        frame, found = raw["results.csv"]
        raw["results.csv"] = (frame.filter(pl.col("round").cast(pl.Int64) <= through), found)
    return raw


def publish(through: int | None = None) -> tuple[Publication, object]:
    return publish_inputs(raw_inputs(through))


def publish_inputs(raw: dict) -> tuple[Publication, object]:
    """The demo's event published from ``raw`` (its input files as read: :func:`raw_inputs`)."""
    cfg = parse_event_config((NJ / "event.toml").read_text())
    run = run_swiss(cfg, raw, cfg.event.as_of)
    pub = Publication(Path("unused"), ctx=event_context(cfg, run.as_of))
    parts = rules_parts(cfg)
    for part in parts:
        part.office_pages(pub, run)
    site.publish_rounds_and_players(pub, run)
    highlights: list[str] = []
    bulletin = site.publish_results(pub, run, highlights, parts)
    publish_validation(pub, cfg, run.findings, run.as_of)
    publish_bulletin(pub, bulletin, run.as_of)
    site.publish_home(pub, run, highlights, run.as_of, parts)
    return pub, run


@pytest.fixture(scope="module")
def demo():
    return publish()


class Page(HTMLParser):
    """The tables (rows of (text, href) cells), links and ids of one page."""

    def __init__(self, html: str):
        super().__init__()
        self.tables: list[list[list[tuple[str, str]]]] = []
        self.hrefs: list[str] = []
        self.ids: set[str] = set()
        self.rels: dict[str, str] = {}
        self._cell: list[str] | None = None
        self._href = ""
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and "href" in a:
            self.hrefs.append(a["href"])
            if "rel" in a:
                self.rels[a["rel"]] = a["href"]
            if self._cell is not None:
                self._href = a["href"]
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell, self._href = [], ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append(("".join(self._cell).strip(), self._href))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def table(page: Page, first_header: str, nth: int = 0) -> list[dict[str, tuple[str, str]]]:
    """The nth table whose first header cell is ``first_header``, as dicts by header text
    (a repeated header gets a suffix: Pts, Pts2)."""
    found = [t for t in page.tables if t and t[0] and t[0][0][0] == first_header]
    rows = found[nth]
    names: list[str] = []
    for text, _ in rows[0]:
        names.append(text if text not in names else f"{text}{names.count(text) + 1}")
    return [dict(zip(names, r, strict=True)) for r in rows[1:]]


def standings_csv(pub: Publication, rnd: int) -> dict[tuple[str, int], dict[str, str]]:
    rows = csv.DictReader(io.StringIO(pub.files[f"standings/round-{rnd:02d}.csv"]))
    return {(r["category"], int(r["sno"])): r for r in rows}


def num(text: str) -> float | None:
    return None if text in ("", "—") else float(text.replace("½", ".5"))


@pytest.mark.parametrize("category, sno", [("open", 1), ("open", 2), ("open", 57), ("open", 103),
                                           ("girls", 4), ("girls", 78)])
def test_the_player_page_shows_the_points_rank_and_tiebreaks_the_standings_csv_has(demo, category, sno):
    pub, run = demo
    page = Page(pub.files[player_rel(category, sno)])
    rounds = table(page, "Rd")
    assert [int(r["Rd"][0]) for r in rounds] == list(range(1, 12))
    for r in rounds:
        expected = standings_csv(pub, int(r["Rd"][0]))[(category, sno)]
        assert num(r["Pts"][0]) == float(expected["points"]), (sno, r)
        assert r["Rk"][0] == expected["rank_label"], (sno, r)
    final = standings_csv(pub, 11)[(category, sno)]
    values = {r["Tie-break"][0]: r["Value"][0] for r in table(page, "Tie-break")}
    assert list(values) == list(run.cfg.require(SwissConfig).tiebreaks)
    for code, shown in values.items():
        assert num(shown) == (float(final[code]) if final[code] else None), code


def test_the_player_page_says_what_each_round_gave_each_tiebreak_and_marks_what_a_cut_dropped(demo):
    pub, _ = demo
    page = Page(pub.files[player_rel("open", 2)])
    contrib = table(page, "Rd", -1)  # the last "Rd" table (the FIDE rating table comes before it)
    bh = [c["BH"][0] for c in contrib if c["Rd"][0] != "all"]
    cut = [c["BH-C1"][0] for c in contrib if c["Rd"][0] != "all"]
    final = standings_csv(pub, 11)[("open", 2)]
    assert sum(float(x) for x in bh) == float(final["BH"])
    dropped = [x for x in cut if x.startswith("(")]
    assert len(dropped) == 1   # Cut 1: the lowest contribution, in brackets
    assert sum(float(x) for x in cut if not x.startswith("(")) == float(final["BH-C1"])
    assert float(dropped[0].strip("()")) == min(float(x.strip("()")) for x in cut)


def test_the_player_page_links_every_opponent_and_holds_the_prize(demo):
    pub, run = demo
    c = run.category("open")
    winner = c.prizes.row(0, named=True)
    page = Page(pub.files[player_rel("open", winner["sno"])])
    opponents = [r["Opponent"] for r in table(page, "Rd")]
    assert all(h and h.endswith(".html") for _, h in opponents)
    assert "Prize" in pub.files[player_rel("open", winner["sno"])]
    assert "place 1, Rs 50,000" in pub.files[player_rel("open", winner["sno"])]


def test_the_withdrawn_player_s_page_shows_the_rounds_he_was_not_paired(demo):
    pub, run = demo
    c = run.category("open")
    sno = c.players.filter(pl.col("player_id") == "O012")["sno"].item()
    rounds = table(Page(pub.files[player_rel("open", sno)]), "Rd")
    assert [r["Opponent"][0] for r in rounds[7:]] == ["not paired"] * 4   # withdrawn from round 8


def test_every_player_has_a_page_linked_from_both_player_lists(demo):
    pub, run = demo
    for c in run.categories:
        snos = set(c.players["sno"].to_list())
        assert {k for k in pub.files if k.startswith(f"players/{c.cat.id}/") and k[-6].isdigit()} == \
            {player_rel(c.cat.id, s) for s in snos}
        for lst in (f"players/{c.cat.id}/index.html", f"players/{c.cat.id}/alphabetical.html"):
            linked = {posixpath.normpath(posixpath.join(posixpath.dirname(lst), h))
                      for h in Page(pub.files[lst]).hrefs}
            assert {player_rel(c.cat.id, s) for s in snos} <= linked, lst


def test_player_pages_are_html_only(demo):
    pub, _ = demo
    assert not [p for p in pub.pdfs if p.startswith("players/")]


def resolve(page: str, href: str) -> tuple[str, str]:
    path, _, frag = href.partition("#")
    if not path:
        return page, frag
    return posixpath.normpath(posixpath.join(posixpath.dirname(page), path)), frag


def broken_links(pub: Publication) -> list[str]:
    """Every link of every page that does not reach a published file and anchor, as
    ``page: href`` (outside addresses and the run's index of events left out)."""
    published = set(pub.files) | set(pub.pdfs)
    ids = {p: Page(html).ids for p, html in pub.files.items() if p.endswith(".html")}
    bad = []
    for p, html in pub.files.items():
        if not p.endswith(".html"):
            continue
        for h in Page(html).hrefs:
            if h.startswith(("http://", "https://", "mailto:")):
                continue
            target, frag = resolve(p, h)
            if target == "../index.html":      # the run's index of events (flows/pipeline/events.py)
                continue
            if target not in published or (frag and frag not in ids.get(target, set())):
                bad.append(f"{p}: {h}")
    return bad


def test_every_link_of_every_page_resolves_to_a_published_file_and_anchor(demo):
    bad = broken_links(demo[0])
    assert not bad, bad[:10]


def test_every_name_on_the_round_pages_links_to_the_player_s_page(demo):
    pub, run = demo
    names = {c.cat.id: set(c.players["name"].to_list()) for c in run.categories}
    everyone = set().union(*names.values())
    for p in ("standings/round-05.html", "pairings/round-05.html", "pairings/round-05-alphabetical.html",
              "crosstable.html", "prizes.html", "statistics.html"):
        page = Page(pub.files[p])
        cells = [cell for t in page.tables for row in t for cell in row if cell[0] in everyone]
        assert cells, p
        unlinked = [text for text, h in cells if not h or "players/" not in h]
        assert not unlinked, (p, unlinked[:5])


def test_crosstable_cells_link_to_the_opponent(demo):
    pub, run = demo
    c = run.category("girls")
    page = Page(pub.files["crosstable.html"])
    rows = table(page, "Rk", 1)    # the second category's crosstable
    first = c.rankings[11].row(0, named=True)
    opp = c.card.filter((pl.col("sno") == first["sno"]) & (pl.col("round") == 1))["opponent"].item()
    assert rows[0]["1"][1] == f"players/girls/{opp}.html"


PUBLIC_EXCLUDED = (OFFICE, "outbox/")


def test_no_public_page_or_file_holds_a_birth_date_or_an_email_address(demo):
    pub, _ = demo
    players = pl.read_csv(NJ / "players.csv", infer_schema_length=0)
    births = set(players["birth_date"].drop_nulls().to_list())
    births |= {f"{d[8:10]}/{d[5:7]}/{d[:4]}" for d in births} | {d.replace("-", "/") for d in births}
    email = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
    for p, content in pub.files.items():
        if p.startswith(PUBLIC_EXCLUDED) or not isinstance(content, str):
            continue
        assert not email.search(content), (p, email.search(content).group())
        found = [b for b in births if b in content]
        assert not found, (p, found[:3])
    for p, html in pub.pdfs.items():
        if not p.startswith(PUBLIC_EXCLUDED):
            assert not email.search(html), p


def test_round_pages_link_the_previous_and_the_next_round(demo):
    pub, _ = demo
    for kind, suffix in (("standings", ""), ("pairings", ""), ("pairings", "-alphabetical")):
        for r in range(1, 12):
            page = f"{kind}/round-{r:02d}{suffix}.html"
            rels = {k: resolve(page, h)[0] for k, h in Page(pub.files[page]).rels.items()}
            assert rels.get("prev") == (f"{kind}/round-{r - 1:02d}{suffix}.html" if r > 1 else None)
            assert rels.get("next") == (f"{kind}/round-{r + 1:02d}{suffix}.html" if r < 11 else None)


def test_no_page_weighs_more_than_300_kB(demo):
    pub, _ = demo
    heavy = {p: len(h.encode()) for p, h in pub.files.items() if p.endswith(".html") and len(h.encode()) > 300_000}
    assert not heavy


def test_the_event_home_leads_each_category_to_its_current_pages(demo):
    pub, run = demo
    page = Page(pub.files["index.html"])
    for c in run.categories:
        cid = c.cat.id
        for target in (f"pairings/round-11.html#{cid}", f"pairings/round-11-alphabetical.html#{cid}",
                       f"standings/round-11.html#{cid}", f"crosstable.html#{cid}",
                       f"players/{cid}/alphabetical.html", f"players/{cid}/index.html",
                       f"prizes.html#{cid}", f"statistics.html#{cid}", f"entries.html#{cid}"):
            assert target in page.hrefs, target
    # every player's page is reached from the lists, not listed on the home
    assert not [h for h in page.hrefs if re.fullmatch(r"players/\w+/\d+\.html", h)]
    assert not [h for h in page.hrefs if "office/" in h]


def test_before_the_round_is_played_the_home_points_to_the_new_pairing():
    pub, run = publish(through=9)
    page = Page(pub.files["index.html"])
    assert "pairings/round-10.html#open" in page.hrefs
    assert "standings/round-09.html#open" in page.hrefs
    assert "(next round, to be played)" in pub.files["index.html"]


def test_the_prize_list_shows_the_tiebreak_that_separated_equal_players(demo):
    pub, run = demo
    c = run.category("open")
    rows = table(Page(pub.files["prizes.html"]), "Place")
    final = standings_csv(pub, 11)
    order = c.rankings[11].sort("rank", "sno")["sno"].to_list()
    checked = 0
    for r, here, nxt in zip(rows, order, order[1:], strict=False):
        a, b = final[("open", here)], final[("open", nxt)]
        sep = r["Ahead of the next by"][0]
        if a["points"] != b["points"]:
            assert sep == ""
            continue
        code = next(k for k in run.cfg.require(SwissConfig).tiebreaks if a[k] != b[k])
        assert sep == f"{code}: {fmt_csv(a[code])} v {fmt_csv(b[code])}", r
        assert r["Next place"][1] == f"players/open/{nxt}.html"
        checked += 1
    assert checked >= 10


def fmt_csv(text: str) -> str:
    x = float(text)
    return str(int(x)) if x == int(x) else f"{x:g}"


def test_statistics_by_state_add_up_to_the_category_s_points(demo):
    pub, run = demo
    rows = table(Page(pub.files["statistics.html"]), "State")
    c = run.category("open")
    assert sum(float(r["Pts"][0]) for r in rows) == c.rankings[11]["points"].sum()
    assert sum(int(r["Players"][0]) for r in rows) == c.players.height


def test_the_public_entry_lists_link_players_and_hold_no_fee(demo):
    pub, run = demo
    html = pub.files["entries.html"]
    assert "Rs " not in html and "Balance" not in html
    rows = table(Page(html), "State")
    assert len(rows) == run.category("open").players.height
    assert all(r["Name"][1].startswith("players/open/") for r in rows)


def test_a_round_s_printed_documents_do_not_change_when_the_next_round_is_added():
    nine, _ = publish(through=9)
    ten, _ = publish(through=10)
    # standings after round 9 and the hall sheet of round 10 (paired after round 9): printed once
    for p in ("standings/round-09.pdf", "pairings/round-10-hall.pdf", "pairings/round-09-hall.pdf"):
        assert nine.pdfs[p] == ten.pdfs[p], p
    # while the screen page of round 9 gains its link to round 10, and round 10 its results
    assert nine.files["standings/round-09.html"] != ten.files["standings/round-09.html"]
    assert "standings/round-10.pdf" in ten.pdfs and "standings/round-10.pdf" not in nine.pdfs
    assert "pairings/round-11-hall.pdf" in ten.pdfs


def hall_text(html: str, nth: int) -> tuple[str, list[str]]:
    """The header line and the lines of the nth table of a hall sheet (flows/site/render.py
    ``hall_text_html``: a line of text per board)."""
    found = re.findall(r'<table class="text hall-lines"[^>]*>(.*?)</table>', html, re.S)[nth]
    header = unescape(re.search(r"<th>(.*?)</th>", found).group(1))
    return header, [unescape(x) for tr in re.findall(r'<tr class="lines"><td>(.*?)</td>', found, re.S)
                    for x in tr.split("\n")]


def test_the_hall_sheet_has_every_board_in_large_type_and_no_result_before_the_round():
    pub, run = publish(through=9)
    html = pub.pdfs["pairings/round-10-hall.pdf"]
    assert 'class="hall"' in html
    tables = re.findall(r'<table class="text hall-lines"(?: style="font-size: ([\d.]+)pt")?>', html)
    assert len(tables) == len(run.categories)
    assert all(not size or float(size) >= render.HALL_PORTRAIT_PT for size in tables)  # large type
    for i, c in enumerate(run.categories):
        header, lines = hall_text(html, i)
        names = dict(zip(c.players["sno"], c.players["name"]))
        white, black = header.index("White"), header.index("Black")
        assert len(lines) == len(c.pairing.boards) + len(c.pairing.setup.byes)
        for k, (w, b) in enumerate(c.pairing.boards):
            line = lines[k]
            assert line[:white].strip() == str(k + 1) and line[white:].startswith(names[w] + " ")
            if b is None:   # the pairing-allocated bye: its result printed, nothing to write
                assert "_" not in line and "bye" in line[black:]
            else:           # a line to write the result on
                assert line[black:] == names[b] and "_" * RESULT_CHARS in line
        for line in lines[len(c.pairing.boards):]:  # requested byes
            assert "_" not in line and "bye" in line[black:]


@pytest.mark.parametrize("code, white, text", [
    ("1-0", True, "1"), ("1-0", False, "0"), ("1/2-1/2", False, "½"), ("½-½", True, "½"),
    ("+/-", True, "+"), ("+/-", False, "−"), ("-/-", True, "−"), ("-/+", False, "+"),
    ("PAB", True, "1 (bye)"), ("HPB", True, "½ (half-point bye)"), ("ZPB", True, "0 (zero-point bye)"),
    ("", True, ""), (None, False, ""),
])
def test_each_player_s_side_of_a_result(code, white, text):
    assert own_result(code, white) == text
