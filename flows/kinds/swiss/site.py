"""A Swiss event's public site in one call (presentation only), so that the flow and the tests
build the same pages: the round pages, the player lists and pages, the crosstable, the
prizes, the statistics and, last, the event home that links them."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from flows.kinds.swiss import pages, players
from flows.kinds.swiss.common import GAMES, PLAYERS
from flows.kinds.swiss.parts import SwissPart
from flows.site.pages import Publication, publish_homes
from flows.site.present import Section


def publish_rounds_and_players(pub: Publication, run) -> None:
    """Standings and pairings of every round (with the hall sheets), the player lists and
    every player's page."""
    publish_rounds(pub, run)
    publish_players(pub, run)


def publish_rounds(pub: Publication, run) -> None:
    """Standings and pairings of every round, with the hall sheets."""
    pages.rounds_pages(pub, run)


def publish_players(pub: Publication, run) -> None:
    """The player lists and every player's page."""
    players.player_lists(pub, run)
    players.player_pages(pub, run)


def publish_player_lists(pub: Publication, run) -> None:
    """While the standings wait (results.csv has errors): the starting rank lists without the
    player pages they would lead to."""
    players.player_lists(pub, run, linked=False)


def publish_results(pub: Publication, run, highlights: list[str],
                    parts: Sequence[SwissPart] = ()) -> list[Section]:
    """The crosstable, the prize list and what the event's rules parts publish with the
    results (``parts``: e.g. statistics); returns the bulletin's sections."""
    bulletin = pages.bulletin_sections(pub, run, highlights)
    if any(c.prizes is not None for c in run.categories):
        bulletin += pages.prizes(pub, run)
    for part in parts:
        bulletin += part.results_pages(pub, run)
    return bulletin


def publish_home(pub: Publication, run, highlights: list[str], as_of: dt.date,
                 parts: Sequence[SwissPart] = ()) -> None:
    """The event home (each category's current pages first, with the links the rules parts
    add) and the office home: called last, when every other page is in the publication."""
    groups = [] if run.blocked else pages.home_groups(pub, run, parts)
    publish_homes(pub, facts=pages.event_facts(run), highlights=highlights, findings=run.findings,
                  as_of=as_of, groups=groups,
                  # blocked: the lists are linked here; the games from their index
                  unlisted=() if run.blocked else (PLAYERS, GAMES))
