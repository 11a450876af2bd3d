"""Presentation objects for the templates: documents, sections and tables, with every value
already formatted (templates only display, STYLE.md rule 7)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

import polars as pl

from transforms.core.money import grouped


@dataclass
class Col:
    label: str
    css: str = ""


@dataclass
class Row:
    cells: list[str]
    css: str = ""
    links: list[str] = field(default_factory=list)
    """Per cell: the href it links to, or "" (empty list: no links)."""


@dataclass
class Table:
    columns: list[Col]
    rows: list[Row]
    caption: str = ""
    empty: str = "Nothing to show yet."
    css: str = ""
    """Classes of the table's scroll box (e.g. ``keys2``: the first two columns stay in view)."""


@dataclass
class TextTable:
    """A big table as printed (:func:`printed_sections`): one line of fixed-width text per row
    under a header line, every cell of the table in its column, padded with spaces."""

    header: str
    lines: list[tuple[str, str]]
    """Per row: its text and its class (``flag``, ``error`` or "")."""
    caption: str = ""


PRINT_TEXT_CELLS = 600
"""From this many table cells in a printed document its tables are set as text
(:func:`printed_sections`): a standings PDF of 180 players has 2,300; a page of ten prizes 40."""
PRINT_TEXT_CHARS = 112
"""The longest line of a text table on an A4 portrait page (7.2 pt DejaVu Sans Mono, 0.6 em
a character, in 182 mm: 119, less the cell's padding)."""
PRINT_TEXT_CHARS_WIDE = 168
"""The same on a landscape page (a ``wide`` section: 269 mm, 176)."""


def _char_width(ch: str) -> int:
    return 0 if unicodedata.combining(ch) else 1


def _monospace_safe(text: str) -> bool:
    """Whether every character of ``text`` has one cell of DejaVu Sans Mono (Latin, Greek,
    Cyrillic, general punctuation, ½): a name in another script is set in a font of other
    widths, and its columns would not line up."""
    if text.isascii():      # most cells: a test of the whole string at once
        return text.isprintable()
    return all(" " <= ch <= "\u052f" or "\u2000" <= ch <= "\u206f" or unicodedata.combining(ch)
               for ch in text)


def _width(text: str) -> int:
    return len(text) if text.isascii() else sum(_char_width(ch) for ch in text)


def _align(css: str) -> str:
    """How a column is padded: ``num`` right, ``cell`` centred, the others left."""
    classes = css.split()
    return "num" if "num" in classes else "cell" if "cell" in classes else ""


def _pad(text: str, width: int, align: str) -> str:
    gap = width - _width(text)
    if align == "num":
        return " " * gap + text
    if align == "cell":
        return " " * (gap // 2) + text + " " * (gap - gap // 2)
    return text + " " * gap


def text_table(t: Table, max_chars: int = PRINT_TEXT_CHARS) -> TextTable | None:
    """The table set as text for print, or None when it is kept as a table: no rows, a line
    longer than ``max_chars`` even with one space between columns, a cell with a line break or
    a character that is not one cell wide in the monospaced font.

    Decision: the tables of a big printed document (standings, crosstables, the sections of a
    correspondence stage: :data:`PRINT_TEXT_CELLS`) are set in a monospaced font, a row a line, columns padded with spaces (numbers to the
    right, result cells centred, text to the left), header repeated on every page and row
    classes kept: every cell's text is printed as on the web page (links are not: a PDF is
    read on paper or as a mail attachment, where the site's relative links do not open). It
    is how chess bulletins have long printed tables, and WeasyPrint lays out one line instead
    of one box per cell: a 4-page standings PDF renders in about a tenth of the time (issue 13,
    measured in the README)."""
    if not t.rows:
        return None
    labels = [c.label for c in t.columns]
    grid = [labels] + [list(r.cells) + [""] * (len(labels) - len(r.cells)) for r in t.rows]
    if any(len(r) != len(labels) for r in grid) or not all(
            _monospace_safe(cell) and "\n" not in cell for r in grid for cell in r):
        return None
    widths = [max(_width(r[i]) for r in grid) for i in range(len(labels))]
    for gap in (2, 1):
        if sum(widths) + gap * (len(widths) - 1) <= max_chars:
            break
    else:
        return None
    sep = " " * gap
    css = [_align(c.css) for c in t.columns]

    def line(cells: list[str], header: bool = False) -> str:
        return sep.join(_pad(cell, w, "" if header and not c else c)
                        for cell, w, c in zip(cells, widths, css)).rstrip()

    return TextTable(header=line(labels, header=True),
                     lines=[(line(r.cells + [""] * (len(labels) - len(r.cells))), r.css)
                            for r in t.rows], caption=t.caption)


RESULT_CHARS = 8
"""The width of the line a result is written on in a hall sheet (:func:`hall_lines`), in
characters ("1/2-1/2" and a little room)."""


def hall_lines(t: Table) -> tuple[str, list[str]] | None:
    """A hall sheet's table as lines of fixed-width text (``flows/site/render.py``
    ``hall_text_html``): its header line and a line per row, each column as wide as its
    longest text, two spaces between columns, numbers to the right, text to the left, the
    result column (class ``cell``) centred, an empty result the line to write it on
    (underscores, :data:`RESULT_CHARS` at least). None for a table this cannot show (a table
    of rows then): no rows, a link, a row class, a cell of two lines or a character that is
    not one cell wide in the monospaced font (:func:`_monospace_safe`)."""
    rows = t.rows
    labels = [c.label for c in t.columns]
    if (not rows or any(r.css or any(r.links) or len(r.cells) != len(labels) for r in rows)
            or not all(_monospace_safe(x) and "\n" not in x for r in [labels, *(r.cells for r in rows)]
                       for x in r)):
        return None
    aligns = [_align(c.css) for c in t.columns]
    widths = [max([_width(labels[i]), RESULT_CHARS if a == "cell" else 0]
                  + [_width(r.cells[i]) for r in rows]) for i, a in enumerate(aligns)]

    def line(cells: list[str], header: bool) -> str:
        return "  ".join(_pad("_" * w if not cell and a == "cell" and not header else cell, w, a)
                         for cell, w, a in zip(cells, widths, aligns, strict=True)).rstrip()

    return line(labels, True), [line(r.cells, False) for r in rows]


def printed_sections(sections: Sequence[Section]) -> list[Section]:
    """The sections as printed: in a document whose tables have :data:`PRINT_TEXT_CELLS`
    cells or more, every table set as text where it can be (:func:`text_table`; lines may be
    longer in a ``wide`` section: landscape); a smaller document as it is."""
    cells = sum(len(t.columns) * len(t.rows) for s in sections for t in s.tables
                if isinstance(t, Table))
    if cells < PRINT_TEXT_CELLS:
        return list(sections)
    out = []
    for s in sections:
        limit = PRINT_TEXT_CHARS_WIDE if s.wide else PRINT_TEXT_CHARS
        tables = [text_table(t, limit) or t if isinstance(t, Table) else t for t in s.tables]
        out.append(replace(s, tables=tables))
    return out


@dataclass
class Details:
    summary: str
    table: Table


@dataclass
class Section:
    heading: str
    intro: list[str] = field(default_factory=list)
    tables: list[Table | TextTable] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    details: list[Details] = field(default_factory=list)
    wide: bool = False
    anchor: str = ""
    """The section's ``id`` (a link target such as ``standings/round-05.html#girls``)."""
    source: str = ""
    """The page that holds this section's whole table (inside the event folder, with its
    anchor): where a long bulletin's web form sends the reader (:func:`flows.site.pages.
    web_bulletin`)."""
    link: dict[str, str] | None = None
    """A link shown under the section (``href``, ``label``)."""
    printed_apart: str = ""
    """The PDF of its own that prints this section's whole table (e.g. ``crosstable.pdf``):
    where a long table is not printed again in the bulletin (:func:`flows.site.pages.
    printed_bulletin`)."""
    blocks: list[Any] = field(default_factory=list)
    """Blocks of markup a kind made through a template of its own (escaped there; e.g. a
    bulletin game's diagrams and moves, :mod:`flows.kinds.swiss.games`), after the tables."""


def fmt(value: Any, *, money: bool = False, currency: str = "") -> str:
    """One cell's text: ints plain, halves as .5, money with thousands separators."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if money and isinstance(value, int | float | Decimal):
        return grouped(value, currency)
    if isinstance(value, float):
        if value == int(value):
            return str(int(value))
        return f"{value:.2f}".rstrip("0")
    return str(value)


def table_from_frame(frame: pl.DataFrame, columns: Sequence[tuple[str, str]] | None = None, *,
                     numeric: Iterable[str] = (), money: Iterable[str] = (), currency: str = "",
                     caption: str = "", row_css: str | None = None, cell_cols: Iterable[str] = (),
                     empty: str = "Nothing to show yet.",
                     links: dict[str, str] | None = None) -> Table:
    """Turn a frame into a :class:`Table`; ``columns`` is (column, label) in display order;
    ``links`` maps a shown column to the frame column holding the href its cells link to
    (null or empty: no link)."""
    return tables_by(frame, None, columns, numeric=numeric, money=money, currency=currency,
                     caption=caption, row_css=row_css, cell_cols=cell_cols, empty=empty,
                     links=links)[None]


def tables_by(frame: pl.DataFrame, by: str | None, columns: Sequence[tuple[str, str]] | None = None,
              *, numeric: Iterable[str] = (), money: Iterable[str] = (), currency: str = "",
              caption: str = "", row_css: str | None = None, cell_cols: Iterable[str] = (),
              empty: str = "Nothing to show yet.",
              links: dict[str, str] | None = None) -> dict[Any, Table]:
    """:func:`table_from_frame` of the rows of each value of the column ``by`` (None: one table
    of every row, under the key None), made in one pass over the frame, rows in the frame's
    order: the tables of many pages at once (a 3,000-player open's player pages) without a
    filter per page. A value with no row has no table (the caller's empty one)."""
    return _tables(frame.iter_rows(named=True), by, columns or [(c, c) for c in frame.columns],
                   numeric=numeric, money=money, currency=currency, caption=caption,
                   row_css=row_css, cell_cols=cell_cols, empty=empty, links=links)


def table_from_rows(rows: Iterable[dict[str, Any]], columns: Sequence[tuple[str, str]], *,
                    numeric: Iterable[str] = (), money: Iterable[str] = (), currency: str = "",
                    caption: str = "", row_css: str | None = None, cell_cols: Iterable[str] = (),
                    empty: str = "Nothing to show yet.",
                    links: dict[str, str] | None = None) -> Table:
    """:func:`table_from_frame` of rows already at hand as dicts (a page's few rows: a frame
    per page costs more than the page — 1,800 member pages of a correspondence event)."""
    return _tables(rows, None, columns, numeric=numeric, money=money, currency=currency,
                   caption=caption, row_css=row_css, cell_cols=cell_cols, empty=empty,
                   links=links)[None]


def _tables(records: Iterable[dict[str, Any]], by: str | None, columns: Sequence[tuple[str, str]],
            *, numeric: Iterable[str], money: Iterable[str], currency: str, caption: str,
            row_css: str | None, cell_cols: Iterable[str], empty: str,
            links: dict[str, str] | None) -> dict[Any, Table]:
    numeric, money, cell_cols = set(numeric), set(money), set(cell_cols)
    cols = [Col(label, "num" if (c in numeric or c in money) else ("cell" if c in cell_cols else ""))
            for c, label in columns]
    rows: dict[Any, list[Row]] = {} if by is not None else {None: []}
    for rec in records:
        cells = [fmt(rec.get(c), money=c in money, currency=currency) for c, _ in columns]
        hrefs = [(rec.get(links[c]) or "") if links and c in links else "" for c, _ in columns]
        rows.setdefault(rec[by] if by is not None else None, []).append(
            Row(cells, (rec.get(row_css) or "") if row_css else "", hrefs if any(hrefs) else []))
    return {k: Table([replace(c) for c in cols], v, caption=caption, empty=empty)
            for k, v in rows.items()}


def signed_tenths(change: float | None) -> str:
    """FIDE B.02 8.3.2 — a rating change as chess-results prints ``Rtg+/-``: signed, one
    decimal ("+12.4", "-3.0", "0.0"); "" for none. The change is K x (score - PD) with PD in hundredths, so
    exact in hundredths; they are rounded to tenths half away from zero."""
    if change is None:
        return ""
    h = round(change * 100)
    t = (abs(h) + 5) // 10
    if t == 0:
        return "0.0"
    return f"{'-' if h < 0 else '+'}{t // 10}.{t % 10}"
