"""A table's HTML is made in Python (``flows.site.render.table_html``, issue 26: a 3,000-player
event's pages hold millions of cells). It must be what the Jinja ``table`` macro it replaced
made, byte for byte: that macro is kept here as the reference and both render every table of
the National Junior demo's site and the edge cases (no rows, a caption, links, classes, text
that must be escaped, text already marked safe, text tables)."""

from __future__ import annotations

import jinja2
import pytest
from markupsafe import Markup

from flows.site import render
from flows.site.present import Col, Row, Table, TextTable
from tests.test_swiss_site import publish

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
    TextTable("Bd  White            Black", [("  1  A & B", ""), ("  2  <C>", "flag")], caption="Round 1"),
    TextTable("Bd", []),
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
        assert html == reference(t)
