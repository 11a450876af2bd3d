"""Long pages in parts (flows/site/paging.py, issue 26): the demo built with a small budget so
that its pages split — every row is in exactly one part and in order, every part shows the page
list, every link and anchor still resolves, the parts are not on the home pages, the bulletin's
web form links the full tables while its PDF keeps every row; an event under the budget is
published as before; stale parts of a page that got shorter are removed."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from flows.kinds.swiss import site
from flows.registry import rules_parts
from flows.site import pages, paging
from flows.site.pages import (
    PRINTED_APART_ROWS,
    PRINTED_TOP_ROWS,
    Publication,
    event_context,
    printed_bulletin,
    web_bulletin,
)
from flows.site.present import Col, Row, Section, Table, TextTable
from tests.publish.test_swiss_site import Page, broken_links, publish, resolve, table

BUDGET = 30_000
"""Small enough that the demo's standings, crosstable and lists split (they weigh 80–250 kB)."""


@pytest.fixture(scope="module")
def small():
    """The demo, and the demo published with parts of at most :data:`BUDGET` (estimated)."""
    whole, _ = publish()
    saved = paging.PAGE_BYTES
    paging.PAGE_BYTES = BUDGET
    try:
        parted, run = publish()
    finally:
        paging.PAGE_BYTES = saved
    return whole, parted, run


def parts_of(pub: Publication, rel: str) -> list[str]:
    """The parts of ``rel`` in order, as published."""
    later = re.compile(re.escape(rel.removesuffix(".html")) + r"-p([0-9]+)\.html")
    found = sorted((int(m.group(1)), p) for p in pub.files if (m := later.fullmatch(p)))
    assert [n for n, _ in found] == list(range(2, len(found) + 2)), found
    return [rel] + [p for _, p in found]


def test_an_event_under_the_budget_is_published_as_before(small):
    whole, _, _ = small
    assert not [p for p in whole.files if re.search(r"-p[0-9]+\.html$", p)]
    assert not whole.later_parts
    assert 'class="parts' not in whole.files["standings/round-11.html"]
    assert 'class="note more"' not in whole.files["bulletin.html"]


@pytest.mark.parametrize("rel, first", [("standings/round-11.html", "Rk"), ("crosstable.html", "Rk"),
                                        ("standings/round-03.html", "Rk")])
def test_every_row_is_in_exactly_one_part_in_order(small, rel, first):
    whole, parted, _ = small
    parts = parts_of(parted, rel)
    assert len(parts) > 1
    for nth in (0, 1):      # both categories
        expected = [r["Name"][0] for r in table(Page(whole.files[rel]), first, nth)]
        got = []
        for p in parts:
            page = Page(parted.files[p])
            headed = [t for t in page.tables if t and t[0] and t[0][0][0] == first]
            got += [r["Name"][0] for k in range(len(headed)) for r in table(page, first, k)]
        # the parts hold the categories in order: the second category follows the first
        assert got[:len(expected)] == expected if nth == 0 else got[-len(expected):] == expected
    total = sum(len(table(Page(whole.files[rel]), first, k)) for k in (0, 1))
    assert len(got) == total


def test_no_part_is_much_heavier_than_the_budget(small):
    _, parted, _ = small
    for p in parted.later_parts:
        assert len(parted.files[p].encode()) < BUDGET + 20_000, p


def test_every_part_shows_the_page_list_leading_to_every_other_part(small):
    _, parted, _ = small
    for rel in ("standings/round-11.html", "crosstable.html", "pairings/round-11-alphabetical.html",
                "bulletin.html"):
        parts = parts_of(parted, rel)
        for p in parts:
            html = parted.files[p]
            assert f"Part {parts.index(p) + 1} of {len(parts)}" in html, p
            lists = re.findall(r'<nav class="parts.*?</nav>', html, re.S)
            assert len(lists) == 2, p          # above and below the tables
            targets = {resolve(p, h)[0] for h in Page(lists[0]).hrefs}
            assert targets == set(parts) - {p}, (p, targets)


def test_the_page_list_labels_each_part_with_the_range_it_holds(small):
    _, parted, _ = small
    html = parted.files["standings/round-11.html"]
    nav = re.findall(r'<nav class="parts.*?</nav>', html, re.S)[0]
    labels = re.findall(r">(Rk [0-9]+–[0-9]+)<", nav)
    assert labels[0] == "Rk 1–" + labels[0].split("–")[1]
    # the ranges of one category follow each other: 1–k, k+1–m, ...
    ends = [tuple(map(int, lab[3:].split("–"))) for lab in labels]
    firsts = [a for a, _ in ends]
    assert firsts.count(1) == 2                  # one run of ranges per category
    for (_, b), (c, _) in zip(ends, ends[1:], strict=False):
        assert c in (b + 1, 1)


def test_every_link_and_anchor_of_every_part_resolves(small):
    _, pub, _ = small
    bad = broken_links(pub)
    assert not bad, bad[:10]


def test_no_page_has_an_id_twice(small):
    whole, parted, _ = small
    for pub in (whole, parted):
        for p, html in pub.files.items():
            if p.endswith(".html"):
                found = re.findall(r' id="([^"]+)"', html)
                assert len(found) == len(set(found)), (p, sorted(i for i in found if found.count(i) > 1))


def test_a_jump_to_a_category_goes_to_the_part_that_holds_it(small):
    _, parted, _ = small
    for p in parts_of(parted, "crosstable.html"):
        jumps = re.findall(r'<nav class="jump.*?</nav>', parted.files[p], re.S)[0]
        for h in Page(jumps).hrefs:
            target, frag = resolve(p, h)
            assert f'<section class="report wide" id="{frag}"' in parted.files[target] or \
                   f'<li id="{frag}"' in parted.files[target], (p, h)
    # from part 1 the girls' jump does not stop at the page list: it leads to their part
    first = re.findall(r'<nav class="jump.*?</nav>', parted.files["crosstable.html"], re.S)[0]
    girls = [h for h in Page(first).hrefs if h.endswith("#girls")][0]
    assert girls.startswith("crosstable-p") and 'id="girls"' in parted.files[resolve("crosstable.html", girls)[0]]


def test_the_later_parts_are_not_on_the_home_pages_the_first_is(small):
    _, parted, _ = small
    home = Page(parted.files["index.html"])
    linked = {resolve("index.html", h)[0] for h in home.hrefs}
    assert "crosstable.html" in linked
    assert not linked & set(parted.later_parts)


def test_the_bulletin_web_form_links_the_full_tables_its_pdf_keeps_every_row(small):
    whole, parted, run = small
    web = "".join(parted.files[p] for p in parts_of(parted, "bulletin.html"))
    open_ = run.category("open")
    assert f"The first 20 of {open_.players.height} rows" in web
    more = Page("".join(re.findall(r'<p class="note more">.*?</p>', web)))
    assert any(resolve("bulletin.html", h)[0].startswith("standings/round-11") for h in more.hrefs)
    assert any(resolve("bulletin.html", h)[0] == "crosstable.html" for h in more.hrefs)
    # the printed bulletin is the same document as without parts: every row
    assert parted.pdfs["bulletin.pdf"] == whole.pdfs["bulletin.pdf"]
    assert "The first 20 of" not in parted.pdfs["bulletin.pdf"]


def test_the_printed_bulletin_prints_the_top_of_a_long_table_printed_apart(small):
    """Up to PRINTED_APART_ROWS rows the printed bulletin carries the standings and the
    crosstable whole; beyond, their first PRINTED_TOP_ROWS rows and the name of the PDF that
    holds every row."""
    whole, _, run = small
    printed = whole.pdfs["bulletin.pdf"]
    assert "crosstable after round 11" in printed and "the whole table is printed in" not in printed
    cross = Section("Open — crosstable", tables=[standings(PRINTED_APART_ROWS + 1)],
                    notes=["Cells: rank, colour, result."], printed_apart="crosstable.pdf")
    short = replace(cross, tables=[standings(PRINTED_APART_ROWS)])
    web_only = Section("Open — list", tables=[standings(3000)], source="players/open.html")
    long_out, short_out, web_out = printed_bulletin([cross, short, web_only])
    assert short_out == short and web_out == web_only
    assert long_out.heading == cross.heading
    assert long_out.tables[0].rows == cross.tables[0].rows[:PRINTED_TOP_ROWS]
    assert long_out.notes == [f"The first {PRINTED_TOP_ROWS} of {PRINTED_APART_ROWS + 1:,} rows: the "
                              "whole table is printed in crosstable.pdf, published with this "
                              "bulletin.", "Cells: rank, colour, result."]


def test_the_bulletin_names_the_standings_and_crosstable_pdfs(small, monkeypatch):
    """The demo's bulletin, as if its categories were longer than PRINTED_APART_ROWS: each
    category's standings and crosstable print their top rows and name the PDF that holds them."""
    _, _, run = small
    sections = site.publish_results(Publication(Path("unused"), ctx=event_context(run.cfg, run.as_of)),
                                    run, [], rules_parts(run.cfg))
    monkeypatch.setattr(pages, "PRINTED_APART_ROWS", 60)
    printed = {s.heading: s for s in printed_bulletin(sections)}
    for c in run.categories:
        stand, cross = (printed[f"{c.cat.name} — {what} after round 11"] for what in ("standings", "crosstable"))
        for s, pdf in ((stand, "standings/round-11.pdf"), (cross, "crosstable.pdf")):
            assert len(s.tables[0].rows) == PRINTED_TOP_ROWS < c.players.height
            assert s.notes[0] == (f"The first {PRINTED_TOP_ROWS} of {c.players.height:,} rows: the whole "
                                  f"table is printed in {pdf}, published with this bulletin.")


def test_printed_documents_are_not_split(small):
    whole, parted, _ = small
    assert not [p for p in parted.pdfs if re.search(r"-p[0-9]+\.pdf$", p)]
    assert {p: h for p, h in parted.pdfs.items()} == whole.pdfs


# --------------------------------------------------------------------------- split, pure


def standings(n: int, name_width: int = 20) -> Table:
    return Table([Col("Rk", "num"), Col("Name")],
                 [Row([str(i), f"Player{i:04d}, A".ljust(name_width, "x")]) for i in range(1, n + 1)])


def test_a_page_under_the_budget_is_one_part_with_its_sections_as_they_are():
    secs = [Section("Open", tables=[standings(10)], anchor="open")]
    [part] = paging.split("standings/round-01.html", secs, budget=100_000)
    assert part.rel == "standings/round-01.html" and part.sections == secs and not part.groups


def test_a_long_section_is_cut_into_runs_of_round_numbers_of_rows():
    secs = [Section("Open", intro=["Who is where."], tables=[standings(1_030)], notes=["Rk: rank."],
                    anchor="open"),
            Section("Girls", tables=[standings(30)], anchor="girls")]
    parts = paging.split("standings/round-01.html", secs, budget=20_000)
    assert [p.rel for p in parts][:3] == ["standings/round-01.html", "standings/round-01-p2.html",
                                          "standings/round-01-p3.html"]
    opens = [s for p in parts for s in p.sections if s.heading == "Open"]
    sizes = [len(s.tables[0].rows) for s in opens]
    assert sum(sizes) == 1_030 and all(k % paging.ROUND_TO == 0 for k in sizes[:-1])
    assert [r.cells[0] for s in opens for r in s.tables[0].rows] == [str(i) for i in range(1, 1_031)]
    # the first piece keeps the intro and anchor; every piece keeps the heading and the notes
    assert opens[0].intro and opens[0].anchor == "open"
    assert all(not s.intro and not s.anchor and s.notes == ["Rk: rank."] for s in opens[1:])
    # the small section fills the last part of the long one
    assert parts[-1].sections[-1].heading == "Girls" and len(parts[-1].sections) == 2
    for p in parts:
        assert paging.page_bytes(p.sections) <= 20_000


def test_the_page_list_names_ranges_and_marks_the_current_part():
    secs = [Section("Open", tables=[standings(400)], anchor="open"),
            Section("Girls", tables=[standings(400)], anchor="girls")]
    parts = paging.split("s.html", secs, budget=16_000)
    first = parts[0].groups
    assert [g.heading for g in first] == ["Open", "Girls"]
    assert first[0].links[0].label.startswith("Rk 1–") and first[0].links[0].current
    assert not any(link.current for link in first[1].links)
    # on the first part, a section that starts on a later part carries its anchor in the list
    assert first[0].anchor == "" and first[1].anchor == "girls"
    assert all(g.anchor == "" for p in parts[1:] for g in p.groups)


def test_range_labels():
    t = standings(5)
    assert paging.range_label(t, t.rows[1:4], 1) == "Rk 2–4"
    shared = Table([Col("Rk", "num")], [Row(["1-2"]), Row(["1-2"]), Row(["3"]), Row(["4-6"])])
    assert paging.range_label(shared, shared.rows, 0) == "Rk 1–6"
    names = Table([Col("Name")], [Row(["Abbott, Jo"]), Row(["Brown, Al"])])
    assert paging.range_label(names, names.rows, 0) == "Name Abbott–Brown"
    assert paging.range_label(names, names.rows[:1], 0) == "Name Abbott"
    text = TextTable("Bd  White  Black", [("", "")])
    assert paging.range_label(text, text.lines, 0) == "rows 1–1"


def test_a_jump_to_a_section_on_another_part_goes_to_that_part():
    secs = [Section("Open", tables=[standings(400)], anchor="open"),
            Section("Girls", tables=[standings(10)], anchor="girls")]
    parts = paging.split("s.html", secs, budget=16_000)
    holding = [p for p in parts if any(s.anchor == "girls" for s in p.sections)][0]
    assert paging.anchor_part(parts, parts[0], "#girls") == f"{holding.rel}#girls"
    assert paging.anchor_part(parts, holding, "#girls") == "#girls"
    assert paging.anchor_part(parts, parts[0], "other.html#x") == "other.html#x"


def test_stale_parts_of_a_shorter_page_are_found(tmp_path):
    (tmp_path / "standings").mkdir()
    for name in ("round-01.html", "round-01-p2.html", "round-01-p3.html", "round-01-px.html",
                 "round-011-p2.html", "round-02-p2.html"):
        (tmp_path / "standings" / name).write_text("x")
    stale = paging.stale_parts(tmp_path, "standings/round-01.html",
                               {"standings/round-01.html", "standings/round-01-p2.html"})
    assert [p.name for p in stale] == ["round-01-p3.html"]
    assert paging.stale_parts(tmp_path, "missing/page.html", set()) == []


def test_the_bulletin_web_form_is_the_printed_one_under_the_budget():
    secs = [Section("Open", tables=[standings(50)], source="standings/round-01.html#open")]
    assert web_bulletin(secs) == secs


def test_the_stale_parts_of_many_pages_are_those_of_each_page(tmp_path):
    """stale_parts_of lists each folder once and finds, for every page, exactly what
    stale_parts finds for it alone: its own parts not published, no other page's."""
    (tmp_path / "members").mkdir()
    for name in ("a.html", "a-p2.html", "a-p3.html", "ab-p2.html", "b-p2.html", "b-p1-p2.html",
                 "c.html", "x-p2.html.tmp"):
        (tmp_path / "members" / name).write_text("x")
    pages = ["members/a.html", "members/b.html", "members/b-p1.html", "members/c.html", "gone/d.html"]
    published = {"members/a.html", "members/a-p2.html"}
    one_by_one = sorted(p for rel in pages for p in paging.stale_parts(tmp_path, rel, published))
    assert paging.stale_parts_of(tmp_path, pages, published) == one_by_one
    assert [p.name for p in one_by_one] == ["a-p3.html", "b-p1-p2.html", "b-p2.html"]
