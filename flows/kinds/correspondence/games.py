"""A correspondence event's games (issue 48) on its site: where its game pages are and link
(:class:`~flows.kinds.games.GameSite`: a game by section and entries, the section's page, each
entry on its member's page), and the office's games, the public games and the bulletin's
chosen games drawn by :mod:`flows.kinds.games`, the machinery every kind shares. Which game is
published, and with what result, the rulebook decided
(:func:`transforms.golden_knights.games.check_section_games`)."""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from flows.kinds import games as shared
from flows.kinds.correspondence.links import People, href, member_page, section_page
from flows.site.names import file_part
from flows.site.pages import Publication
from flows.site.present import Section
from transforms.core.games import GameRecord
from transforms.golden_knights.event import GKResult
from transforms.golden_knights.games import RECORD, section_group

RULED = {"rule 12": "result by a time-overstep ruling (rule 12)",
         "rule 7": "result by the director's decision (rule 7)"}
"""What a game's page says where the standings' result is a ruling's, not the one played
(games.csv ``source``)."""

GameKey = tuple[str, str, str, str]
"""A section's game by stage, section and its two entries in order."""


def game_key(stage: str, section: str, a: str, b: str) -> GameKey:
    """The key of the game of entries ``a`` and ``b`` in a section, whichever is White."""
    first, second = sorted((a, b))
    return stage, section, first, second


def sections_of(res: GKResult) -> dict[str, tuple[str, str]]:
    """Each section's group id among the games -> its stage and section."""
    return {section_group(st, s): (st, s)
            for st, s in res.games.select("stage", "section").unique().iter_rows()}


def game_page(g: GameRecord, suffix: str = ".html") -> str:
    """A section's game page (``.html``) or PGN (``.pgn``): ``games/<stage>-<section>/
    <white>-<black>``, the entries as games.csv writes them."""
    return shared.game_rel(g.section, None, None, suffix, white=g.white_id, black=g.black_id)


def game_pages(res: GKResult) -> dict[GameKey, str]:
    """Every published game's page, by :func:`game_key` (what the crosstables, the sections'
    games and the members' pages link)."""
    where = sections_of(res)
    return {game_key(*where[g.section], g.white_id, g.black_id): game_page(g)
            for g in res.published_games if g.section in where}


def game_site(res: GKResult, people: People) -> shared.GameSite:
    """A correspondence event's games on its site: by section and entries; each player is
    the entry on its member's page; the game's section page; no round, board or start
    number; a result a ruling made is said under the title."""
    where = sections_of(res)
    ruled = {game_key(r["stage"], r["section"], r["white"], r["black"]): r["source"]
             for r in res.games.filter(pl.col("source").is_in(list(RULED))).iter_rows(named=True)}

    def player(g: GameRecord, white: bool) -> str | None:
        entry = g.white_id if white else g.black_id
        member = people.member_of.get(entry)
        return f"{member_page(member)}#{file_part(entry)}" if member else None

    def pairings(g: GameRecord) -> tuple[str, str] | None:
        if g.section not in where:
            return None
        return section_page(*where[g.section]), f"{res.game_sections.get(g.section, g.section)}: crosstable"

    def place(g: GameRecord) -> str:
        if g.section not in where:
            return ""
        return RULED.get(ruled.get(game_key(*where[g.section], g.white_id, g.black_id), ""), "")
    return shared.GameSite(res.game_sections, game_page, player, pairings, group_word="Section",
                           number_word="", place=place)


def publish_games(pub: Publication, res: GKResult) -> None:
    """The office's games files (none when the event has no games folder)."""
    shared.publish_office_games(pub, res.pgn_games, record=RECORD, group_word="Section", rounds=False)


def publish_public_games(pub: Publication, res: GKResult, people: People) -> None:
    """The public games (none when the event has no published game)."""
    shared.publish_public_games(pub, res.published_games, game_site(res, people))


def bulletin_sections(res: GKResult, people: People) -> list[Section]:
    """The bulletin's games (``[games] bulletin``); none when the office chose none."""
    return shared.bulletin_sections(res.bulletin_games, game_site(res, people))


def with_game_links(rows: pl.DataFrame, pages: Mapping[GameKey, str], from_rel: str, *,
                    stage: str = "stage", section: str = "section", entry: str = "white",
                    opponent: str = "black") -> pl.DataFrame:
    """``rows`` (one game each: its stage, section and two entries) with ``g_label`` ("game")
    and ``g_href``, the link from ``from_rel`` to the game's page where it is published."""
    keys = [game_key(*k) for k in rows.select(stage, section, entry, opponent).iter_rows()]
    found = [pages.get(k) for k in keys]
    return rows.with_columns(
        pl.Series("g_label", ["game" if p else None for p in found], pl.String),
        pl.Series("g_href", [href(from_rel, p) if p else None for p in found], pl.String))


GAME_COLUMN = ("g_label", "Game")
"""The column that links a game's page, where the game is published."""
