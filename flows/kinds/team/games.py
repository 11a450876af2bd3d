"""A team event's games (issue 48) on its site: where its game pages are and what they link
(:class:`~flows.kinds.games.GameSite`: the round's page at the game's match, each player's page
by group and number), the links to the games from the round, team and player pages, and the
office's games, the public games and the bulletin's chosen games drawn by
:mod:`flows.kinds.games`, the machinery every kind shares."""

from __future__ import annotations

from flows.kinds import games as shared
from flows.kinds.team.pages import match_anchor, names_of, player_rel, round_rel
from flows.site.pages import Publication
from flows.site.present import Section
from transforms.core.games import GameRecord
from transforms.team.config import TeamRoundRobinConfig
from transforms.team.event import TeamRun

GameLinks = dict[tuple[int, str], str]
"""A published game's page by (round, player id) of both its players (a player plays one game
a round): what the round, team and player pages link."""


def group_word(run: TeamRun) -> str:
    """What the event calls a group: a league's division; a team Swiss's one field."""
    return "Division" if run.cfg.table(TeamRoundRobinConfig) is not None else "Group"


def game_site(run: TeamRun) -> shared.GameSite:
    """A team event's games on its site: by group, round, match (team A's id) and board; no
    player number (a team event prints none)."""
    groups = {g.id: g for g in run.groups}
    pno = {pid: (g.id, no) for g in run.groups
           for pid, no in zip(g.players["player_id"].to_list(), g.players["pno"].to_list(), strict=True)}

    def match_of(g: GameRecord) -> tuple[str, str, str]:
        """Team A's id and the two teams' names."""
        m = run.game_matches[(g.round or 0, g.white_id)]
        names = names_of(groups[m.group])
        return m.team_a, names[m.a_sno], names[m.b_sno]

    def page(g: GameRecord, suffix: str) -> str:
        return shared.game_rel(g.section, g.round, g.board, suffix, match=match_of(g)[0])

    def player(g: GameRecord, white: bool) -> str | None:
        at = pno.get(g.white_id if white else g.black_id)
        return player_rel(*at) if at is not None else None

    def pairings(g: GameRecord) -> tuple[str, str] | None:
        team_a, a, b = match_of(g)
        return (f"{round_rel('rounds', g.round or 0)}#{match_anchor(g.section, team_a)}",
                f"Round {g.round}: {a} – {b}")

    def match(g: GameRecord) -> str:
        _, a, b = match_of(g)
        return f"{a} – {b}"

    def place(g: GameRecord) -> str:
        return f"round {g.round}, {match(g)}, board {g.board}"
    return shared.GameSite({g.id: g.name for g in run.groups}, page, player, pairings,
                           group_word=group_word(run), number_word="", place=place, match=match)


def game_links(run: TeamRun) -> GameLinks:
    """Every published game's page by (round, player id) of both its players; none while the
    standings wait (no game is published then)."""
    if run.blocked or not run.published_games:
        return {}
    site = game_site(run)
    out: GameLinks = {}
    for g in run.published_games:
        rel = site.page(g, ".html")
        out[(g.round or 0, g.white_id)] = out[(g.round or 0, g.black_id)] = rel
    return out


def publish_games(pub: Publication, run: TeamRun) -> None:
    """The office's games files (none when the event has no games folder)."""
    shared.publish_office_games(pub, run.games, group_word=group_word(run))


def publish_public_games(pub: Publication, run: TeamRun) -> None:
    """The public games (none when the event has no usable game, or its standings wait)."""
    if not run.blocked:
        shared.publish_public_games(pub, run.published_games, game_site(run))


def bulletin_sections(run: TeamRun) -> list[Section]:
    """The bulletin's games (``[games] bulletin``); none when the standings wait."""
    return [] if run.blocked else shared.bulletin_sections(run.bulletin_games, game_site(run))
