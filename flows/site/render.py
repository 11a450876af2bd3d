"""Rendering: Jinja2 pages and WeasyPrint PDFs (several documents in parallel)."""

from __future__ import annotations

import hashlib
import itertools
import logging
import os
import re
import threading
from functools import lru_cache
from html import escape
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from flows.site.present import hall_lines

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def plural(n: int, word: str, words: str = "") -> str:
    """A count with its noun, as people write it: "1 section", "27 sections" (``words``: the
    plural when it is not ``word`` + "s", e.g. "entries"); the templates' ``plural`` filter."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(["html"]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["plural"] = plural
    env.globals["table_html"] = table_html
    env.globals["hall_text_html"] = hall_text_html
    return env


_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;"})


@lru_cache(maxsize=65_536, typed=True)
def _text(value: Any) -> str:
    """A cell's text as HTML, escaped as Jinja's autoescape does (``markupsafe.escape``)."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return str(value).translate(_ESCAPES)


LINES_PER_ROW = 120
"""The lines of a text table one table row holds (:func:`text_lines`); a multiple of six, the
period of its shading (``templates/print.css``)."""


def text_lines(lines: list[tuple[str, str]]) -> str:
    """Lines of a text table as the text of one cell: a line with a class (``flag``,
    ``error``) in a span of that class, padded to the width of the longest so that its
    background spans the table.

    Decision (issue 26): a text table is printed as table rows of :data:`LINES_PER_ROW`
    lines each, split across pages where a page ends (the header repeated on each page):
    WeasyPrint lays out a box per 120 lines instead of one per line — a 3,000-row standings
    renders in 2.6 s instead of 5.6 s, a 3,000-player crosstable in 3.8 s instead of 7.8 s;
    all of a table's lines in one cell cost more again (WeasyPrint measures the rest of a
    text each time it breaks a line: docs/benchmarks.md)."""
    width = max((len(text) for text, css in lines if css), default=0)
    out: list[str] = []
    for css, run in itertools.groupby(lines, key=lambda line: line[1]):
        if css:     # a run of lines of one class: one span (a span a line costs a box each)
            out.append(f'<span class="{_text(css)}">'
                       + "\n".join(_text(text.ljust(width)) for text, _ in run) + "</span>")
        else:
            out.append("\n".join(_text(text) for text, _ in run))
    return "\n".join(out)


HALL_CHARS = 62
"""The longest line of a hall sheet (:func:`hall_text_html`) printed on an A4 portrait page in
its full 13 pt type: 182 mm less the page's and the cell's padding (498 pt and 0.6 em), at
0.602 em a character (DejaVu Sans Mono)."""

HALL_PORTRAIT_PT = 11.0
"""The smallest type of a hall sheet on a portrait page: a longer line is printed on a
landscape page."""

HALL_WIDE_CHARS = 94
"""The longest line of a hall sheet printed on an A4 landscape page (269 mm, 745 pt within the
page's padding) in 13 pt type: a longer line makes the type smaller."""

HALL_MIN_PT = 9.0
"""The smallest type of a hall sheet: a line longer still (very long names) is printed as a
table of rows, where names wrap."""

def hall_size(chars: int, wide: bool) -> float:
    """The type size of a hall sheet whose longest line has ``chars`` characters, on a
    landscape page (``wide``) or a portrait one: 13 pt where it fits, else smaller (by half
    points)."""
    most = HALL_WIDE_CHARS if wide else HALL_CHARS
    return 13.0 if chars <= most else int(2 * 13.0 * most / chars) / 2


def _hall_chars(tables: list[Any]) -> tuple[list[tuple[Any, tuple[str, list[str]] | None]], int]:
    made = [(t, hall_lines(t)) for t in tables]
    return made, max((len(x) for _, m in made if m is not None for x in [m[0], *m[1]]), default=0)


def hall_needs_landscape(tables: list[Any]) -> bool:
    """Whether a hall sheet section's tables need a landscape page: their longest line
    (:func:`flows.site.present.hall_lines`) would need type below :data:`HALL_PORTRAIT_PT` on
    a portrait one. A document with such a section is landscape throughout (its title's page
    too)."""
    return hall_size(_hall_chars(tables)[1], False) < HALL_PORTRAIT_PT


def hall_text_html(tables: list[Any], wide: bool) -> Markup:
    """A hall sheet section's tables as printed on a portrait page or, ``wide``, a landscape
    one (:func:`hall_needs_landscape`): each as lines of fixed-width text
    (:func:`flows.site.present.hall_lines`) in cells of :data:`LINES_PER_ROW`, split where a
    page ends, the header on every page, every other line shaded — in 13 pt type up to
    :data:`HALL_CHARS` characters a line (landscape :data:`HALL_WIDE_CHARS`), then smaller
    (:func:`hall_size`).

    Decision (issue 26): the hall sheet is set in DejaVu Sans Mono, a line of text per board
    (WeasyPrint lays out a line box per board instead of one per cell: the 1,500 boards of a
    3,000-player round render in 0.9-1.1 s instead of 3.4 s set in a cell per column,
    docs/benchmarks.md). A table whose lines would need type smaller than
    :data:`HALL_MIN_PT`, or that ``hall_lines`` cannot show, is printed as a table of rows
    (:func:`table_html`)."""
    made, chars = _hall_chars(tables)
    size = hall_size(chars, wide)
    out = []
    for t, m in made:
        if m is None or size < HALL_MIN_PT:
            out.append(table_html(t))
            continue
        header, lines = m
        style = "" if size == 13.0 else f' style="font-size: {size:g}pt"'
        caption = f"<caption>{_text(t.caption)}</caption>" if t.caption else ""
        body = "".join(f'<tr class="lines"><td>{_text(chr(10).join(lines[k:k + LINES_PER_ROW]))}</td></tr>\n'
                       for k in range(0, len(lines), LINES_PER_ROW))
        out.append(f'<div class="scroll text"><table class="text hall-lines"{style}>\n{caption}'
                   f"<thead><tr><th>{_text(header)}</th></tr></thead>\n<tbody>\n{body}</tbody>\n"
                   "</table></div>")
    return Markup("".join(out))


def table_html(t: Any) -> Markup:
    """The HTML of a :class:`flows.site.present.Table` or ``TextTable``: what the ``table`` macro
    of ``templates/macros.html`` shows, made in Python — a 3,000-player event's pages hold
    millions of cells, and a template loop costs several times this per cell (issue 26;
    ``tests/publish/test_table_html.py`` holds it to the Jinja form it replaced, byte for byte)."""
    out: list[str] = []
    put = out.append
    caption = f"<caption>{_text(t.caption)}</caption>" if t.caption else ""
    if hasattr(t, "lines"):
        rows = "".join(f'<tr class="lines"><td>{text_lines(t.lines[i:i + LINES_PER_ROW])}</td></tr>\n'
                       for i in range(0, len(t.lines), LINES_PER_ROW))
        return Markup(f'<div class="scroll text"><table class="text">\n{caption}<thead><tr><th>'
                      f'{_text(t.header)}</th></tr></thead>\n<tbody>\n{rows}</tbody>\n</table></div>')
    cols = [f'<td class="{_text(c.css)}">' for c in t.columns]
    put(f'<div class="scroll{" " + _text(t.css) if t.css else ""}"><table>\n{caption}<thead><tr>')
    put("".join(f'<th class="{_text(c.css)}">{_text(c.label)}</th>' for c in t.columns))
    put("</tr></thead>\n<tbody>\n")
    for row in t.rows:
        links = row.links
        put(f'<tr class="{_text(row.css)}">')
        for i, cell in enumerate(row.cells):
            href = links[i] if links else ""
            put(f'{cols[i]}<a href="{_text(href)}">{_text(cell)}</a></td>' if href
                else f"{cols[i]}{_text(cell)}</td>")
        put("</tr>\n")
    if not t.rows:
        put(f'<tr><td colspan="{len(t.columns)}">{_text(t.empty)}</td></tr>\n')
    put("</tbody>\n</table></div>")
    return Markup("".join(out))


@lru_cache(maxsize=1)
def css() -> str:
    return (TEMPLATES / "print.css").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def viewer_script() -> Markup:
    """The game pages' own script (``templates/viewer.js``), inlined in each page as the
    stylesheet is: a page needs no other file, from disk or offline. Decision (issue 48): no
    third-party JavaScript — chessfed's own few lines, read from the project's templates."""
    return Markup((TEMPLATES / "viewer.js").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def chessfed_version() -> str:
    try:
        return version("chessfed")
    except PackageNotFoundError:
        return "dev"


def render_page(template: str, **context: Any) -> str:
    """Render one template with the shared stylesheet inlined (pages are self-contained)."""
    context.setdefault("css", css())
    context.setdefault("version", chessfed_version())
    context.setdefault("footer", "")
    for key in ("site_index", "home", "office_home", "prev", "next"):
        context.setdefault(key, "")
    return environment().get_template(template).render(**context)


_RENDERER = threading.local()


def _stylesheet() -> tuple[Any, Any]:
    """This thread's font configuration and the shared stylesheet parsed with it, made once
    (WeasyPrint's objects are not shared between threads)."""
    if not hasattr(_RENDERER, "sheet"):
        from weasyprint import CSS
        from weasyprint.text.fonts import FontConfiguration

        _RENDERER.fonts = FontConfiguration()
        _RENDERER.sheet = CSS(string=css(), base_url=str(TEMPLATES), font_config=_RENDERER.fonts)
    return _RENDERER.fonts, _RENDERER.sheet


PDF_EPOCH = "0"
"""The time the fonts embedded in every PDF are stamped with (seconds since 1970; where
``SOURCE_DATE_EPOCH`` is already set, that): the same HTML makes the same PDF, byte for byte."""


def renderer_id() -> str:
    """What, besides its HTML, makes a PDF's bytes: the versions of WeasyPrint, of the
    libraries it writes PDFs with (pydyf; fontTools subsets the fonts; tinycss2, cssselect2 and
    tinyhtml5 read the page; Pyphen hyphenates; Pillow reads images) and the fonts' stamp
    (:data:`PDF_EPOCH`). The manifest records it; a PDF is kept from an earlier run only when
    this is the same (:func:`flows.pipeline.outputs.previous_render_hashes`). Not in it: the
    system's Pango, HarfBuzz and font files: after an upgrade of those, the PDFs made before
    it are kept while their HTML is the same (delete an event's PDFs to have them made again)."""
    libs = []
    for pkg in ("weasyprint", "pydyf", "fonttools", "tinycss2", "cssselect2", "tinyhtml5",
                "pyphen", "pillow"):
        try:
            libs.append(f"{pkg} {version(pkg)}")
        except PackageNotFoundError:
            libs.append(f"{pkg} none")
    return ", ".join(libs) + f", fonts stamped {os.environ.get('SOURCE_DATE_EPOCH', PDF_EPOCH)}"


def html_to_pdf(html: str) -> bytes:
    """One PDF from one self-contained HTML page. A page carrying the shared stylesheet
    (:func:`render_page` inlines it) is rendered with the stylesheet parsed once per renderer
    and one font configuration (the same bytes, measured: 71 -> 31 ms for a one-page
    certificate; tests/publish/test_pdf.py compares them). Relative links resolve against the page's
    own ``<base>`` (:func:`with_base`), never against a folder of this machine."""
    from weasyprint import HTML  # imported here: it is slow to import and only PDFs need it

    # Reproducible PDFs: the fonts WeasyPrint embeds are subset by fontTools, which stamps each
    # subset's ``head`` table with the time it was made unless SOURCE_DATE_EPOCH (the
    # reproducible-builds convention fontTools documents) names one — without it, the same
    # HTML rendered a second later gave other bytes, and a clean build never matched a rerun.
    os.environ.setdefault("SOURCE_DATE_EPOCH", PDF_EPOCH)
    # WeasyPrint warns about font subsetting back-ends on every document: not for the office.
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)

    inline = f"<style>{css()}</style>"
    if inline in html:
        fonts, sheet = _stylesheet()
        return HTML(string=html.replace(inline, "", 1)).write_pdf(
            stylesheets=[sheet], font_config=fonts)
    return HTML(string=html).write_pdf()


def with_base(html: str, base: str) -> str:
    """``html`` with ``<base href="base">`` as the first element of its head (WeasyPrint then
    resolves the page's relative links against it); unchanged when ``base`` is empty.

    No other base is given to WeasyPrint (:func:`html_to_pdf`): the pages load nothing by a
    relative address (the stylesheet is inlined or parsed once, images are ``data:``), so the
    only relative addresses are links, and they stay relative without a base."""
    if not base:
        return html
    tag = f'<base href="{escape(base, quote=True)}">'
    head = re.search(r"<head[^>]*>", html, flags=re.IGNORECASE)
    if head is None:
        return tag + html
    return html[:head.end()] + tag + html[head.end():]


def digest(html: str) -> str:
    return hashlib.sha256(html.encode()).hexdigest()


