"""What a rules part adds to a Swiss event's site and letters (DESIGN.md "Event kinds and rules
parts"). The rulebook's part (:mod:`transforms.swiss.parts`: entry, result and pairing rules)
has its pages and letters in a home of its own (e.g. ``flows/parts/national_junior/``), which
makes a :class:`SwissPart`; the registry (:mod:`flows.registry`) hands the event's parts to the
Swiss kind's build (:attr:`flows.kinds.base.Build.parts`), and the Swiss pages and letters call
each one where it adds something. The Swiss kind names no part."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flows.mail.letters import Block, Letter
from flows.site.pages import Publication
from flows.site.present import Section
from transforms.swiss.event import CategoryRun, SwissRun

if TYPE_CHECKING:  # the letters' view of a category imports this module
    from flows.kinds.swiss.letters import CategoryView

Skipped = list[tuple[str, str]]
"""Recipients left without a letter: (who, why)."""


def _no_pages(pub: Publication, run: SwissRun) -> list[Section]:
    return []


def _no_links(pub: Publication, run: SwissRun, category: CategoryRun) -> list[dict[str, str]]:
    return []


def _no_letters(run: SwissRun, views: Sequence[CategoryView]) -> tuple[list[Letter], Skipped]:
    return [], []


def _no_blocks(run: SwissRun, views: Sequence[CategoryView], r: int) -> list[Block]:
    return []


@dataclass(frozen=True)
class SwissPart:
    """One rules part's pages and letters in a Swiss event (each hook optional): each gets the
    rulebook's run (:class:`transforms.swiss.event.SwissRun`), a letter hook the letters' view
    of each category's latest round (:class:`flows.kinds.swiss.letters.CategoryView`)."""

    name: str
    """The rules part's name, as ``[entries] rules`` chooses it (``national-junior-2024``)."""
    office_pages: Callable[[Publication, SwissRun], list[Section]] = _no_pages
    """Pages published before the bulletin (e.g. the entries, fees and entry lists)."""
    results_pages: Callable[[Publication, SwissRun], list[Section]] = _no_pages
    """Pages published with the results, once the standings can be (e.g. statistics)."""
    category_links: Callable[[Publication, SwissRun, CategoryRun], list[dict[str, str]]] = _no_links
    """Links of a category's group on the event home, after the kind's own (``href``,
    ``label``)."""
    letters: Callable[[SwissRun, Sequence[CategoryView]], tuple[list[Letter], Skipped]] = _no_letters
    """Letters of its own (e.g. to each association), with the recipients skipped."""
    arbiter_flags: Callable[[SwissRun, Sequence[CategoryView], int], list[Block]] = _no_blocks
    """Blocks of the office's report among the arbiter's flags of round ``r``, before the
    players equal after every tie-break (e.g. draws agreed too early)."""
    pairing_notes: Callable[[SwissRun, Sequence[CategoryView], int], list[Block]] = _no_blocks
    """Blocks of the office's report about its pairing rules, before the pairing audit."""


def swiss_parts(parts: Sequence[object]) -> tuple[SwissPart, ...]:
    """The event's parts that add to a Swiss event (:attr:`flows.kinds.base.Build.parts`)."""
    return tuple(p for p in parts if isinstance(p, SwissPart))
