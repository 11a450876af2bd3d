"""Presentation objects for the templates: documents, sections and tables, with every value
already formatted (templates only display, STYLE.md rule 7)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
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
class Details:
    summary: str
    table: Table


@dataclass
class Section:
    heading: str
    intro: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    details: list[Details] = field(default_factory=list)
    wide: bool = False
    anchor: str = ""
    """The section's ``id`` (a link target such as ``standings/round-05.html#girls``)."""


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
    if columns is None:
        columns = [(c, c) for c in frame.columns]
    numeric, money, cell_cols = set(numeric), set(money), set(cell_cols)
    cols = [Col(label, "num" if (c in numeric or c in money) else ("cell" if c in cell_cols else ""))
            for c, label in columns]
    rows = []
    for rec in frame.iter_rows(named=True):
        cells = [fmt(rec.get(c), money=c in money, currency=currency) for c, _ in columns]
        hrefs = [(rec.get(links[c]) or "") if links and c in links else "" for c, _ in columns]
        rows.append(Row(cells, (rec.get(row_css) or "") if row_css else "",
                        hrefs if any(hrefs) else []))
    return Table(cols, rows, caption=caption, empty=empty)
