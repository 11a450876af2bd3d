"""A table's HTML is made in Python (``flows.site.render.table_html``, issue 26: a 3,000-player
event's pages hold millions of cells). A table of rows must be what the Jinja ``table`` macro
it replaced made, byte for byte: that macro is kept here as the reference and both render every
table of the National Junior demo's site and the edge cases (no rows, a caption, links,
classes, text that must be escaped, text already marked safe). A printed text table holds its
lines in cells of 120 (``text_lines``), a printed hall sheet a line of text per board
(``hall_text_html``): every line is there once, in order, every cell in its column."""

from __future__ import annotations

import re
import unicodedata
from html import unescape

import jinja2
import pytest
from markupsafe import Markup

from flows.site import render
from flows.site.present import Col, Row, Table, TextTable
from tests.publish.test_swiss_site import publish

REFERENCE = """\
{% macro table(t) -%}
{% if t.lines is defined %}<div class="scroll text"><table class="text">
{% if t.caption %}<caption>{{ t.caption }}</caption>{% endif %}
<thead><tr><th>{{ t.header }}</th></tr></thead>
<tbody>
{% for text, css in t.lines %}<tr class="{{ css }}"><td>{{ text }}</td></tr>
{% endfor %}
</tbody>
</table></div>{% else %}<div class="scroll{% if t.css %} {{ t.css }}{% endif %}"><table>
{% if t.caption %}<caption>{{ t.caption }}</caption>{% endif %}
<thead><tr>{% for c in t.columns %}<th class="{{ c.css }}">{{ c.label }}</th>{% endfor %}</tr></thead>
<tbody>
{% for row in t.rows %}<tr class="{{ row.css }}">{% for cell in row.cells %}<td class="{{ t.columns[loop.index0].css }}">{% if row.links and row.links[loop.index0] %}<a href="{{ row.links[loop.index0] }}">{{ cell }}</a>{% else %}{{ cell }}{% endif %}</td>{% endfor %}</tr>
{% else %}<tr><td colspan="{{ t.columns|length }}">{{ t.empty }}</td></tr>
{% endfor %}
</tbody>
</table></div>{% endif %}
{%- endmacro %}
{{ table(t) }}"""
"""The ``table`` macro of ``templates/macros.html`` before issue 26, in the environment's
settings (:func:`flows.site.render.environment`)."""


MACRO = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
                           lstrip_blocks=True).from_string(REFERENCE)


def reference(t) -> str:
    return MACRO.render(t=t)


CASES = [
    Table([Col("Rk", "num"), Col("Name")], []),
    Table([Col("Rk", "num"), Col("Name")], [], caption="Open", empty="No games yet.", css="keys2"),
    Table([Col("Rk", "num"), Col("Name"), Col("Pts", "num")],
          [Row(["1", "O'Brien, \"Jo\" & <Co>", "4½"], css="flag", links=["", "players/open/1.html?a=1&b=2", ""]),
           Row(["2", Markup("<b>safe</b>"), 3]), Row(["3", "", "0"], links=["#x", "", ""])]),
    Table([Col("Rk", "num")], [Row(["1"])] * 3, caption="Open"),
]


@pytest.mark.parametrize("t", CASES)
def test_a_table_is_what_the_jinja_macro_made(t):
    assert str(render.table_html(t)) == reference(t)


def test_every_table_of_the_demo_site_is_what_the_jinja_macro_made(monkeypatch):
    seen = []
    made = render.table_html

    def both(t):
        html = made(t)
        seen.append((str(html), t))
        return html

    monkeypatch.setattr(render, "table_html", both)
    render.environment.cache_clear()    # an environment whose templates call ``both``
    try:
        publish()
    finally:
        monkeypatch.undo()
        render.environment.cache_clear()
    assert len(seen) > 500
    for html, t in seen:
        if isinstance(t, Table):
            assert html == reference(t)


def lines_of(html: str) -> list[tuple[str, str]]:
    """A printed text table's lines with their classes, read back from its HTML."""
    out = []
    for cell in re.findall(r'<tr class="lines"><td>(.*?)</td></tr>', html, re.S):
        for part in re.split(r'(<span class="[^"]*">.*?</span>)', cell, flags=re.S):
            m = re.fullmatch(r'<span class="([^"]*)">(.*)</span>', part, re.S)
            css, text = (m.group(1), m.group(2)) if m else ("", part)
            out += [(unescape(x), css) for x in text.strip("\n").split("\n")] if text.strip("\n") else []
    return out


def test_a_text_table_holds_every_line_once_in_order_with_its_class():
    lines = [(f"{i:4d}  Player {i} & <Co>", "flag" if i % 7 in (1, 2) else "") for i in range(1, 300)]
    html = str(render.table_html(TextTable("  Rk  Name", lines, caption="Open")))
    assert html.count('<tr class="lines">') == 3            # 120 + 120 + 59 lines
    assert "<caption>Open</caption>" in html and "<th>  Rk  Name</th>" in html
    got = lines_of(html)
    assert [(t.rstrip(), c) for t, c in got] == lines
    # a run of lines of one class is one span, its lines padded to one width
    chunks = [lines[k:k + render.LINES_PER_ROW] for k in range(0, len(lines), render.LINES_PER_ROW)]
    runs = sum(1 for c in chunks for j, (_, css) in enumerate(c) if css and (j == 0 or not c[j - 1][1]))
    assert html.count("<span") == runs
    assert len({len(t) for t, c in got if c}) == 1


HALL = [Col("Board", "num"), Col("White"), Col("Pts", "num"), Col("Result", "cell"),
        Col("Pts", "num"), Col("Black")]


def hall_sheet(rows: list[Row], wide: bool | None = None) -> tuple[str, str, list[str], bool]:
    """A hall sheet of ``rows`` as printed: its HTML, header line, lines, and whether it is
    landscape (decided as the round's document decides it unless ``wide`` is given)."""
    t = Table(HALL, rows)
    wide = render.hall_needs_landscape([t]) if wide is None else wide
    html = str(render.hall_text_html([t], wide))
    head = re.search(r"<th>(.*?)</th>", html)
    lines = [unescape(x) for tr in re.findall(r'<tr class="lines"><td>(.*?)</td>', html, re.S)
             for x in tr.split("\n")]
    return html, unescape(head.group(1)) if head else "", lines, wide


def test_the_hall_sheet_is_a_line_of_text_per_board_every_cell_in_its_column():
    rows = [Row([str(b), f"White & <{b}>", "1½", "", "1", f"Black {b}"]) for b in range(1, 150)]
    rows.append(Row(["150", "Zed", "1", "1 (bye)", "", "bye"]))
    html, header, lines, wide = hall_sheet(rows)
    assert not wide and html.count('<tr class="lines">') == 2  # 120 + 30 lines
    assert "White &amp; &lt;1&gt;" in html                      # escaped
    # Board 5 right, White 13 left, Pts 3 right, Result 8 centred, Pts 3 right, Black left
    assert header == "Board  White          Pts   Result   Pts  Black"
    assert lines[0] == "    1  White & <1>     1½  ________    1  Black 1"
    assert lines[148] == "  149  White & <149>   1½  ________    1  Black 149"
    assert lines[149] == "  150  Zed" + " " * 14 + "1  1 (bye)        bye"
    assert len(lines) == 150


def test_a_hall_sheet_with_long_names_goes_smaller_then_landscape_then_to_rows():
    def sheet(name_chars: int):
        html, _, lines, wide = hall_sheet([Row(["1", "W" * name_chars, "0", "", "0", "B" * name_chars])])
        size = re.search(r'font-size: ([\d.]+)pt', html)
        return ("rows" if "hall-lines" not in html else "text"), wide, size and float(size.group(1))
    # board 5 + 2 + name + 2 + pts 3 + 2 + result 8 + 2 + pts 3 + 2 + name = 29 + 2 names
    assert sheet(16) == ("text", False, None)             # 61 characters: portrait, 13 pt
    assert sheet(22) == ("text", False, 11.0)             # 73: portrait, 13 * 62 / 73 pt
    assert sheet(24) == ("text", True, None)              # 77: would be under 11 pt, landscape
    assert sheet(32) == ("text", True, None)              # 93: landscape, 13 pt
    assert sheet(45) == ("text", True, 10.0)              # 119: landscape, 13 * 94 / 119 pt
    assert sheet(60)[:2] == ("rows", True)                 # 149: under 9 pt: rows, landscape
    # a section on a landscape page because another needs it: its own lines in 13 pt there
    assert hall_sheet([Row(["1", "W" * 22, "0", "", "0", "B" * 22])], wide=True)[0].count("font-size") == 0


@pytest.mark.parametrize("change", ["link", "row class", "two lines", "other script", "combining"])
def test_a_table_that_cannot_be_lines_of_text_is_printed_as_rows(change):
    rows = [Row(["1", "Abbott, Jo", "0", "", "0", "Brown, Al"]), Row(["2", "Cole, Di", "0", "", "0", "Dunn, Ed"])]
    if change == "link":
        rows[0].links = ["", "players/open/1.html", "", "", "", ""]
    elif change == "row class":
        rows[1].css = "flag"
    elif change == "two lines":
        rows[0].cells[1] = "Abbott,\nJo"
    elif change == "other script":
        rows[0].cells[1] = "王, 小明"       # another font, other widths: columns would not line up
    if change == "combining":             # a combining accent is no cell of its own
        rows[0].cells[1] = "Nguye\u0302\u0303n, An"
        html, _, lines, _ = hall_sheet(rows)

        def cells(text: str) -> int:   # the characters one sees (a combining accent takes none)
            return sum(1 for ch in text if not unicodedata.combining(ch))
        assert "hall-lines" in html    # the columns still line up
        assert cells(lines[0][:lines[0].index("Brown")]) == cells(lines[1][:lines[1].index("Dunn")])
        return
    t = Table(HALL, rows)
    assert render.hall_text_html([t], False) == render.table_html(t)


def test_tables_made_in_one_pass_are_the_tables_of_each_part_of_the_frame():
    # flows/site/present.py tables_by: a 3,000-player event's player pages get their tables
    # from one pass over the category's rows, each what table_from_frame makes of its part
    import polars as pl

    from flows.site.present import table_from_frame, tables_by

    frame = pl.DataFrame({"sno": [2, 1, 2, 3, 1], "rd": [1, 1, 2, 1, 2],
                          "name": ["Bo", "Al", None, "Cy & <Di>", "Al"],
                          "pts": [0.5, 1.0, 1.5, 0.0, 2.0], "prize": [None, 1500.0, None, 250.5, 0.0],
                          "href": ["1.html", None, "", "x.html", "2.html"],
                          "css": ["flag", "", None, "error", ""]})
    kw = {"numeric": ["rd", "pts"], "money": ["prize"], "currency": "€", "caption": "Games",
          "row_css": "css", "links": {"name": "href"}, "empty": "Not paired yet."}
    columns = [("rd", "Rd"), ("name", "Opponent"), ("pts", "Pts"), ("prize", "Prize")]
    made = tables_by(frame, "sno", columns, **kw)
    assert sorted(made) == [1, 2, 3]  # a value without rows has no table: the caller's empty one
    for sno, t in made.items():
        assert t == table_from_frame(frame.filter(pl.col("sno") == sno), columns, **kw)
        assert [r.cells[0] for r in t.rows] == [str(r) for r in frame.filter(pl.col("sno") == sno)["rd"]]
    assert made[1].columns[0] is not made[2].columns[0]  # a page may mark its own columns
    assert tables_by(frame, None, columns, **kw)[None] == table_from_frame(frame, columns, **kw)
