"""The tables of a big printed document are set as text (``flows/site/present.py``
``text_table``, ``printed_sections``; issue 13: one line per row instead of one box per cell):
every cell in its column — numbers to the right, result cells centred, text to the left — the
header on every page, row classes kept; a table that cannot line up in the monospaced font,
or a small document, stays a table. The web page is never changed."""

from __future__ import annotations

import io
import re

import polars as pl
from pypdf import PdfReader

from flows.site.pages import Publication
from flows.site.present import (
    PRINT_TEXT_CELLS,
    PRINT_TEXT_CHARS,
    Col,
    Row,
    Section,
    Table,
    TextTable,
    printed_sections,
    table_from_frame,
    text_table,
)
from flows.site.render import html_to_pdf

EVENT = {"event": {"name": "Test Championship", "venue": "Karnal", "dates": "16–24 Sep 2024",
                   "code": ""}, "as_of": "2024-09-24"}


def standings(n: int, name=lambda i: f"Player {i:03d}") -> Table:
    frame = pl.DataFrame({"rank": list(range(1, n + 1)), "name": [name(i) for i in range(1, n + 1)],
                          "points": [11 - i * 0.5 for i in range(n)], "r1": ["12w1"] * n,
                          "_css": ["flag" if i == 2 else "" for i in range(1, n + 1)]})
    return table_from_frame(frame, [("rank", "Rk"), ("name", "Name"), ("points", "Pts"), ("r1", "1")],
                            numeric=["rank", "points"], cell_cols=["r1"], row_css="_css",
                            links={"name": "name"})


def test_a_table_as_text_keeps_every_cell_in_its_column():
    t = text_table(standings(12))
    assert isinstance(t, TextTable)
    assert t.header == "Rk  Name         Pts   1"
    assert t.lines[0] == (" 1  Player 001    11  12w1", "")
    assert t.lines[1] == (" 2  Player 002  10.5  12w1", "flag")  # the row's class is kept
    assert t.lines[11][0] == "12  Player 012   5.5  12w1"
    assert {len(line) for line, _ in t.lines} == {26}               # every row as long: aligned
    assert t.header.index("Pts") + 3 == t.lines[0][0].index("11") + 2  # labels over their numbers


def test_a_result_column_is_centred():
    t = Table([Col("Rk", "num"), Col("Result", "cell")], [Row(["1", "1-0"]), Row(["2", "½-½"]),
                                                          Row(["3", "1F-0F"])])
    assert [line for line, _ in text_table(t).lines] == [" 1   1-0", " 2   ½-½", " 3  1F-0F"]


def test_a_table_that_cannot_line_up_stays_a_table():
    assert text_table(Table([Col("Name")], [])) is None                       # no rows
    assert text_table(standings(3, name=lambda i: "राहुल शर्मा")) is None         # another script
    assert text_table(standings(3, name=lambda i: "two\nlines")) is None
    long = standings(3, name=lambda i: "x" * (PRINT_TEXT_CHARS - 10))
    assert text_table(long) is None                                            # too wide for A4
    assert text_table(long, max_chars=PRINT_TEXT_CHARS + 20) is not None       # fits landscape


def test_one_space_between_columns_when_two_do_not_fit():
    name = "x" * (PRINT_TEXT_CHARS - 14)  # 2 + 98 + 4 + 4 characters: 114 with two spaces
    t = text_table(standings(3, name=lambda i: name))
    assert t is not None and t.lines[0][0] == f" 1 {name}   11 12w1"
    assert len(t.header) <= PRINT_TEXT_CHARS


def test_only_a_big_document_is_set_as_text_and_a_wide_section_may_be_wider():
    small = [Section("Prizes", tables=[standings(10)])]
    assert printed_sections(small) == small
    n = PRINT_TEXT_CELLS // 4 + 1
    big = printed_sections([Section("Open", tables=[standings(n)]), Section("Girls", tables=[standings(3)])])
    assert all(isinstance(t, TextTable) for s in big for t in s.tables)
    name = "y" * (PRINT_TEXT_CHARS - 10)
    wide = printed_sections([Section("A", tables=[standings(n)]),
                             Section("B", tables=[standings(3, name=lambda i: name)]),
                             Section("C", tables=[standings(3, name=lambda i: name)], wide=True)])
    assert [type(s.tables[0]) for s in wide] == [TextTable, Table, TextTable]


def test_the_web_page_keeps_its_table_and_the_pdf_prints_every_cell(tmp_path):
    pub = Publication(tmp_path, ctx=EVENT)
    n = PRINT_TEXT_CELLS // 4 + 20
    pub.page("standings.html", title="Standings after round 1", subtitle="",
             sections=[Section("Open", tables=[standings(n)])])
    web = pub.files["standings.html"]
    assert '<a href="Player 001">Player 001</a>' in web and 'class="text"' not in web
    printed = pub.pdfs["standings.pdf"]
    assert 'class="text"' in printed and "<a href" not in printed.split("<main>")[1]
    reader = PdfReader(io.BytesIO(html_to_pdf(printed)))
    assert len(reader.pages) >= 2
    text = "".join(p.extract_text() for p in reader.pages)
    for i in range(1, n + 1):
        assert re.search(rf"\b{i}\s+Player {i:03d}\s+{11 - (i - 1) * 0.5:g}\s+12w1", text), i
    assert reader.pages[-1].extract_text().count("Rk") == 1  # the header repeats on every page
