"""The National Junior's rules part on the flows' side: its pages and letters as a
:class:`flows.kinds.swiss.parts.SwissPart` (registered in :mod:`flows.registry`)."""

from __future__ import annotations

from flows.kinds.swiss.parts import SwissPart
from flows.parts.national_junior import letters, pages
from flows.site.pages import Publication
from transforms.national_junior.part import NAME
from transforms.swiss.event import CategoryRun, SwissRun


def category_links(pub: Publication, run: SwissRun, c: CategoryRun) -> list[dict[str, str]]:
    """A category's links on the event home: its statistics by state association (once a
    round is complete) and its entry list by state."""
    links = []
    if c.done and "statistics.html" in pub.files:
        links.append({"href": f"statistics.html#{c.cat.id}", "label": "Statistics by state association"})
    if "entries.html" in pub.files:
        links.append({"href": f"entries.html#{c.cat.id}", "label": "Entry list by state"})
    return links


NATIONAL_JUNIOR = SwissPart(
    name=NAME, office_pages=pages.entries, results_pages=pages.statistics,
    category_links=category_links, letters=letters.association_letters,
    arbiter_flags=letters.early_draw_block, pairing_notes=letters.same_state_block)
"""The National Junior's pages and letters (``[entries] rules = "national-junior-2024"``)."""
