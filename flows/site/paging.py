"""Long web pages in parts a phone can load (presentation only).

A page whose tables would make it heavier than :data:`PAGE_BYTES` is published as parts: the
first part keeps the page's name (``standings/round-09.html``), the others follow it
(``standings/round-09-p2.html``, ...). Every part shows the page list (:class:`PartGroup`):
for each section of the page, the parts holding it, each labelled with the range of its
table's first column (``Rk 1–400``, ``Bd 401–800``, ``Name Abbott–Brown``), so that the list
of an alphabetical list is the static "find a player" index of a category: it works from the
files alone, without a server or a script. A link to a section (``round-09.html#girls``)
still lands on the first part: where that section is in a later part, its entry of the page
list carries the anchor. PDFs are not split (a printed document is read whole); a page under
the budget is published as before, byte for byte.

Decision (issue 26): parts by the weight of the rows (an estimate of their HTML from their
text and links), not by a fixed count: a crosstable row weighs five standings rows. Rows per
part are rounded down to a multiple of 50 (from 100 on), for ranges a reader can remember.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from pathlib import Path

from flows.site.present import Details, Row, Section, Table, TextTable

PAGE_BYTES = 400_000
"""What a part's tables may weigh (estimated HTML bytes, :func:`row_bytes`): the page around
them (navigation, style sheet, page list) stays under 500 kB, what a phone on a venue's network
loads in a few seconds."""

ROUND_TO = 50
"""Rows per part are a multiple of this, when a part holds at least two of it."""


@dataclass
class PartLink:
    href: str
    """The part's file name (the parts are in one folder)."""
    label: str
    current: bool = False


@dataclass
class PartGroup:
    """One section of a page split into parts: its heading and the parts that hold it."""

    heading: str
    links: list[PartLink] = field(default_factory=list)
    anchor: str = ""
    """The section's anchor, given to this entry on the first part when the section itself
    is on a later one (so that ``page.html#anchor`` lands on the way to it)."""


@dataclass
class Part:
    rel: str
    sections: list[Section]
    groups: list[PartGroup] = field(default_factory=list)
    """The page list, as shown on this part."""


def part_rel(rel: str, n: int) -> str:
    """The file of part ``n`` (from 1) of the page ``rel``: the first keeps the name."""
    return rel if n == 1 else f"{rel.removesuffix('.html')}-p{n}.html"


def _cell_bytes(text: str, css: str, href: str) -> int:
    out = len(text.encode()) + 20 + len(css)            # <td class="...">...</td>
    if href:
        out += len(href.encode()) + 15                  # <a href="...">...</a>
    return out


def row_bytes(t: Table | TextTable, row: Row | tuple[str, str]) -> int:
    """The HTML one row of ``t`` weighs, about (its text, links and markup)."""
    if isinstance(t, TextTable):
        text, css = row
        return len(text.encode()) + len(css) + 35
    cols = t.columns
    links = row.links or [""] * len(row.cells)
    return 20 + len(row.css) + sum(_cell_bytes(c, cols[i].css if i < len(cols) else "", h)
                                   for i, (c, h) in enumerate(zip(row.cells, links, strict=False)))


def _rows(t: Table | TextTable) -> list:
    return t.lines if isinstance(t, TextTable) else t.rows


SAMPLE = 64
"""Rows weighed of a longer table (evenly spaced): the estimate of a page costs little next to
the page (a 3,000-player event has 3,000 player pages)."""


def mean_row_bytes(t: Table | TextTable) -> float:
    """What a row of ``t`` weighs on average (of :data:`SAMPLE` evenly spaced rows at most)."""
    rows = _rows(t)
    if not rows:
        return 0.0
    step = max(1, len(rows) // SAMPLE)
    sample = rows[::step]
    return sum(row_bytes(t, r) for r in sample) / len(sample)


def table_bytes(t: Table | TextTable) -> int:
    return 200 + round(mean_row_bytes(t) * len(_rows(t)))


def section_bytes(s: Section) -> int:
    """The HTML of a whole section, about."""
    text = sum(len(p.encode()) + 30 for p in (s.heading, *s.intro, *s.notes))
    return (100 + text + sum(table_bytes(t) for t in s.tables)
            + sum(len(d.summary.encode()) + 60 + table_bytes(d.table) for d in s.details))


def page_bytes(sections: list[Section]) -> int:
    return sum(section_bytes(s) for s in sections)


def _with_rows(t: Table | TextTable, rows: list) -> Table | TextTable:
    return replace(t, lines=rows) if isinstance(t, TextTable) else replace(t, rows=rows)


def _first_cell(t: Table | TextTable, row) -> str:
    if isinstance(t, TextTable):
        return row[0].split()[0] if row[0].split() else ""
    return row.cells[0] if row.cells else ""


SHARED = re.compile(r"[0-9]+-[0-9]+")
"""A rank shared by tied players, as the standings write it."""


def _short(text: str) -> str:
    """A name as a range's end: up to its first comma (the family name of "Abbott, Jo")."""
    return text.split(",")[0].strip()


def range_label(t: Table | TextTable, rows: list, start: int) -> str:
    """``Rk 1–400``: the first column's label and its first and last cell in ``rows`` (rows
    ``start``+1... when the first column has no label or no text)."""
    label = "" if isinstance(t, TextTable) else (t.columns[0].label if t.columns else "")
    first, last = _short(_first_cell(t, rows[0])), _short(_first_cell(t, rows[-1]))
    if SHARED.fullmatch(first):      # a shared rank (``2999-3000``): the range starts at 2999
        first = first.split("-")[0]
    if SHARED.fullmatch(last):       # ... and ends at 3000
        last = last.split("-")[-1]
    if not label or not first or not last:
        return f"rows {start + 1}–{start + len(rows)}"
    return f"{label} {first}–{last}" if first != last else f"{label} {first}"


def rows_per_part(t: Table | TextTable, budget: int) -> int:
    k = max(1, int(budget // max(1.0, mean_row_bytes(t))))
    return k // ROUND_TO * ROUND_TO if k >= 2 * ROUND_TO else k


@dataclass
class _Piece:
    """What one part holds of one section."""

    section: Section
    index: int
    """The section's place on the page."""
    label: str = ""


def split(rel: str, sections: list[Section], budget: int | None = None) -> list[Part]:
    """The parts of the page ``rel`` (one, ``rel`` itself, when its sections weigh at most
    ``budget``: :data:`PAGE_BYTES`). A section that does not fit is cut between table rows
    (or between its details), and starts a part of its own; its later pieces keep its heading
    and notes (what the columns mean), its intro and anchor stay with the first; smaller
    sections fill the part they come to."""
    budget = PAGE_BYTES if budget is None else budget
    if page_bytes(sections) <= budget:
        return [Part(rel, list(sections))]
    parts: list[list[_Piece]] = [[]]
    used = 0

    def new_part() -> None:
        nonlocal used
        if parts[-1]:
            parts.append([])
        used = 0

    for i, s in enumerate(sections):
        size = section_bytes(s)
        if size <= budget:
            if used + size > budget:
                new_part()
            parts[-1].append(_Piece(s, i))
            used += size
            continue
        for n, piece in enumerate(_cut(s, budget)):
            new_part()
            piece.index = i
            if n:
                piece.section = replace(piece.section, intro=[], anchor="")
            parts[-1].append(piece)
            used = section_bytes(piece.section)
    rels = [part_rel(rel, n + 1) for n in range(len(parts))]
    return [Part(r, [p.section for p in pieces], _groups(sections, parts, rels, k))
            for k, (r, pieces) in enumerate(zip(rels, parts, strict=True))]


def _cut(s: Section, budget: int) -> list[_Piece]:
    """The pieces of a section too heavy for one part: its biggest table cut into runs of
    :func:`rows_per_part` rows (the other tables with the first piece), or its details
    grouped up to the budget."""
    if s.tables and max(table_bytes(t) for t in s.tables) >= sum(
            table_bytes(d.table) for d in s.details):
        big = max(range(len(s.tables)), key=lambda j: table_bytes(s.tables[j]))
        t = s.tables[big]
        rows, k = _rows(t), rows_per_part(t, budget)
        out = []
        for start in range(0, len(rows), k):
            chunk = rows[start:start + k]
            tables = [_with_rows(t, chunk) if j == big else other
                      for j, other in enumerate(s.tables) if j == big or start == 0]
            out.append(_Piece(replace(s, tables=tables, details=s.details if start == 0 else []),
                              0, range_label(t, chunk, start)))
        return out
    out, group, used = [], [], 0
    for d in s.details:
        size = table_bytes(d.table) + len(d.summary.encode()) + 60
        if group and used + size > budget:
            out.append(group)
            group, used = [], 0
        group.append(d)
        used += size
    out.append(group)
    pieces = []
    for n, g in enumerate(out):
        label = (g[0].summary.split(" ")[0] if len(g) == 1 else
                 f"{g[0].summary.split(' ')[0]}–{g[-1].summary.split(' ')[0]}")
        pieces.append(_Piece(replace(s, details=g, tables=s.tables if n == 0 else []), 0, label))
    return pieces


def _groups(sections: list[Section], parts: list[list[_Piece]], rels: list[str],
            here: int) -> list[PartGroup]:
    """The page list as part ``here`` shows it: one entry per section, its parts' links."""
    groups: dict[int, PartGroup] = {}
    on_first = {p.index for p in parts[0]}
    ids = {p.section.anchor for p in parts[0]}     # one id per page: the first of an anchor
    for k, pieces in enumerate(parts):
        for p in pieces:
            s = sections[p.index]
            anchor = ""
            if here == 0 and p.index not in on_first and s.anchor not in ids:
                anchor = s.anchor
                ids.add(anchor)
            g = groups.setdefault(p.index, PartGroup(s.heading, anchor=anchor))
            g.links.append(PartLink(rels[k].rsplit("/", 1)[-1], p.label or f"page {k + 1}",
                                    current=k == here))
    return [groups[i] for i in sorted(groups)]


def stale_parts(folder: Path, rel: str, published: Collection[str]) -> list[Path]:
    """The parts of the page ``rel`` under ``folder`` that this run did not publish: a page
    that is shorter than last time (or no longer split) leaves no part of its old self."""
    return stale_parts_of(folder, [rel], published)


def stale_parts_of(folder: Path, rels: Collection[str], published: Collection[str]) -> list[Path]:
    """:func:`stale_parts` of every page of ``rels`` at once, each folder listed once (a page
    at a time listed the folder once per page: 4,875 member pages in one folder read 24
    million entries)."""
    by_folder: dict[str, set[str]] = {}
    for rel in rels:
        base = Path(rel)
        by_folder.setdefault(base.parent.as_posix(), set()).add(base.stem)
    part = re.compile(r"(.+)-p[0-9]+\.html")
    out = []
    for parent, stems in by_folder.items():
        where = folder / parent
        if not where.is_dir():
            continue
        for p in where.iterdir():
            m = part.fullmatch(p.name)
            if m and m[1] in stems and (Path(parent) / p.name).as_posix() not in published:
                out.append(p)
    return sorted(out)


def anchor_part(parts: list[Part], here: Part, href: str) -> str:
    """Where a link made for the whole page goes from the part ``here``: ``#girls`` to the
    part holding the section ``girls`` (the parts are in one folder); other links as they are."""
    if not href.startswith("#") or any(s.anchor == href[1:] for s in here.sections):
        return href
    for p in parts:
        if any(s.anchor == href[1:] for s in p.sections):
            return f"{p.rel.rsplit('/', 1)[-1]}{href}"
    return href


__all__ = ["PAGE_BYTES", "Details", "Part", "PartGroup", "PartLink", "anchor_part", "part_rel",
           "split", "stale_parts"]
