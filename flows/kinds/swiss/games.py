"""A Swiss event's games (issue 48) on its site: where its game pages link (:class:`~flows.
kinds.games.GameSite`: the round's pairings, each player's page by category and start
number), and the office's games, the public games and the bulletin's chosen games drawn by
:mod:`flows.kinds.games`, the machinery every kind shares."""

from __future__ import annotations

from flows.kinds import games as shared
from flows.kinds.swiss.common import game_rel, player_rel
from flows.kinds.swiss.pages import round_rel
from flows.site.pages import Publication
from flows.site.present import Section
from transforms.core.games import GameRecord
from transforms.swiss.event import SwissRun


def game_site(run: SwissRun) -> shared.GameSite:
    """A Swiss event's games on its site: by category, round and board."""
    def page(g: GameRecord, suffix: str) -> str:
        return game_rel(g.section, g.round or 0, g.board or 0, suffix)

    def player(g: GameRecord, white: bool) -> str | None:
        sno = g.white_sno if white else g.black_sno
        return player_rel(g.section, sno) if sno is not None else None

    def pairings(g: GameRecord) -> tuple[str, str] | None:
        return (f"{round_rel('pairings', g.round)}#{g.section}", f"Pairings — round {g.round}") \
            if g.round is not None else None
    return shared.GameSite({c.cat.id: c.cat.name for c in run.categories}, page, player, pairings)


def publish_games(pub: Publication, run: SwissRun) -> None:
    """The office's games files (none when the event has no games folder)."""
    shared.publish_office_games(pub, run.games)


def publish_public_games(pub: Publication, run: SwissRun) -> None:
    """The public games (none when the event has no usable game, or its standings wait)."""
    if not run.blocked:
        shared.publish_public_games(pub, run.published_games, game_site(run))


def bulletin_sections(run: SwissRun) -> list[Section]:
    """The bulletin's games (``[games] bulletin``); none when the standings wait."""
    return [] if run.blocked else shared.bulletin_sections(run.bulletin_games, game_site(run))
