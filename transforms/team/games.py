"""A team event's games (issue 48): ``games/*.pgn`` matched to the boards of results.csv,
checked against them and published, as an individual event's are (:mod:`transforms.core.games`
does the matching; this module hands it a team event's boards as pairings with their real
colours, and names a team event's games).

Decisions (docs/decisions.md, "The games of a team event"; pinned by
tests/rulebook/test_team_games.py):

- A board's colours are the team kind's one rule (:func:`transforms.team.matches.board_colour`,
  FIDE C.04.6: team A has White on the odd boards), as :func:`transforms.team.matches.
  match_boards` already gives them; results.csv's result (team A's player first) is turned
  White first where team A's player has Black. A game matches the board where its two players
  were fielded against each other in its round; the board is never a key (a round has a board
  2 in every match), nor the match.
- A ``Round`` tag is the round (``3``), with what team pairing programs add after it
  (``3.2``: the board or the game's number in the round; ``3.5.2``: round, match and board, the
  PGN standard's multipart round): only the round is read.
- A board fielded by one side only (won by forfeit) has no game: a PGN naming its player and
  anyone else is a game no board has (an error); a bye entry for that player (``Black "BYE"``)
  agrees with it. A board neither side fielded is not a pairing.
- The players are the rosters' (rosters.csv: ``player_id``, ``name``, ``fide_id``); a team
  event prints no player's number, so a ``WhiteStartNo`` tag finds nobody.
- A published game's ``Round`` tag is ``round.match.board`` (``3.5.2``: round 3, the round's
  5th match as its page numbers them, board 2), so that a team event's game is named once; its
  page is ``games/<group>/round-NN-<team A>-board-NN.html`` (team A by its id: a number that
  does not move when results.csv's rows do); published in the order of the groups, rounds,
  matches and boards.
- ``[games] bulletin`` names a team event's game by a team of its match: ``"NOR1:3.2"`` is
  board 2 of the match team NOR1 plays in round 3 (either team's id); ``"3.2"`` alone names
  no one game (every match has a board 2) and is refused at load.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import polars as pl

from transforms.core.errors import ConfigError, Finding, Severity
from transforms.core.games import (
    DIAGRAM,
    GAME_KEY,
    BulletinGame,
    GameRecord,
    GamesConfig,
    diagrams_asked,
    match_games,
    published_games,
    with_diagrams,
)
from transforms.core.ingest import RawFile, visible
from transforms.core.model import ResultCode
from transforms.core.pgn import PgnGame, read_games
from transforms.team.matches import board_colour

REFERENCE = (
    "**In a team event** (`team_round_robin`, `team_swiss`) the players are rosters.csv's "
    "(its `player_id`, `name` and `fide_id` stand for players.csv's; a team event prints no "
    "player number: `WhiteStartNo` finds nobody), and a game is matched to the board of "
    "results.csv where its two players were fielded against each other in its round, in the "
    "colours of that board (team A has White on the odd boards; results.csv's result, team A's "
    "player's first, is compared White first). Neither the board nor the match is a key.",
    "",
    "- **Round**: `3`, `3.2` or `3.5.2` (round 3, match 5, board 2: the PGN standard's "
    "multipart round, as team pairing programs write it): only the round is read.",
    "- A board one team did not field (won or lost by forfeit) has no game: a game naming "
    "its player is a game no board has (an error); a bye entry for that player agrees.",
    "- Published: `games/<group>/round-NN-<team A's id>-board-NN.html`, its PGN's `Round` "
    "`round.match.board` (`3.5.2`: the round page's match number).",
    "- `[games] bulletin` names a game by a team of its match (below).",
)
"""What the input reference adds to the games folder's text for a team event's games."""

KEYS = ("a game is named by a team of its match, `team_id:round.board`: `\"NOR1:3.2\"` is "
        "board 2 of the match team NOR1 plays in round 3 (either team's `team_id`); `\"3.2\"` "
        "alone (a board 2 of every match) is an error at load; a diagram the same way "
        "(`\"NOR1:3.2 after 12...\"`).")
"""How a team event's ``[games]`` keys name a game (the input reference's ``[games]``)."""

PAIRINGS_SCHEMA = {"line": pl.Int64, "section": pl.String, "round": pl.Int64, "board": pl.Int64,
                   "white_id": pl.String, "black_id": pl.String, "result": pl.String}
"""The boards as :func:`transforms.core.games.match_games` reads pairings."""

ROUND = re.compile(r"\s*([1-9]\d{0,3})(?:\.\d{1,4}){0,2}\s*")
"""A team event's ``Round`` tag: the round, then up to two more numbers (``3``, ``3.2``,
``3.5.2``)."""
ROUND_COLUMN = re.compile(r"game (\d+), Round")
"""A finding's column about a game's ``Round`` tag (its value: the tag as the file has it)."""


@dataclass(frozen=True)
class GameMatch:
    """The match a team event's board belongs to, as its round's page numbers and names it."""

    group: str
    """The group (a league's division, or a team Swiss's field)."""
    round: int
    number: int | None
    """The match's number in its round (the round page's "No": a league's fixture, a team
    Swiss's table); None for a match the fixtures do not have (an error of results.csv)."""
    team_a: str
    """The first-named team's id (White on board 1)."""
    team_b: str
    a_sno: int
    b_sno: int


class BoardsOf(Protocol):
    """What the games read of a team event's group (:class:`transforms.team.event.Group`,
    whose module calls this one)."""

    id: str
    name: str
    teams: pl.DataFrame
    """``sno``, ``team_id``, ``name``."""
    players: pl.DataFrame
    """The rosters: ``player_id``, ``name``, ``fide_id`` (if given)."""
    boards: pl.DataFrame
    """:data:`transforms.team.matches.BOARDS_SCHEMA`."""
    fixtures: pl.DataFrame
    """``round``, ``match``, ``white``, ``black``."""


def board_pairings(groups: Sequence[BoardsOf]) -> pl.DataFrame:
    """FIDE C.04.6 (colours by board) — every board of every group as the pairings the games
    are matched to (:data:`PAIRINGS_SCHEMA`): each board's players with the colours they had
    (the boards' ``white_id``/``black_id``, :func:`transforms.team.matches.board_colour`), the
    result White first (results.csv gives team A's player's first: reversed where team A had
    Black); a board fielded by one side only as that player without an opponent, its result
    theirs first (a bye to the matcher: a bye entry of the PGN agrees with it); a board neither
    side fielded left out."""
    rows = []
    for g in groups:
        for b in g.boards.iter_rows(named=True):
            players = [p for p in (b["white_id"], b["black_id"]) if p]
            if not players:
                continue
            code = ResultCode.parse(b["result"])  # team A's player's first
            a_white = board_colour(b["board"]) == "w"
            first_is_a = a_white if len(players) == 2 else (players[0] == b["white_id"]) == a_white
            if code is not None and not first_is_a:
                code = code.reversed
            rows.append({"line": b["line"], "section": g.id, "round": b["round"],
                         "board": b["board"], "white_id": players[0],
                         "black_id": players[1] if len(players) == 2 else None,
                         "result": code.value if code is not None else None})
    return pl.DataFrame(rows, schema=PAIRINGS_SCHEMA)


def roster_players(groups: Sequence[BoardsOf]) -> pl.DataFrame:
    """DESIGN.md Inputs (games) — the players a team event's games may name: every group's
    rosters (``player_id``, ``name``, ``fide_id``), without a number (``sno`` None: a team
    event's pages print none)."""
    frames = []
    for g in groups:
        p = g.players
        frames.append(p.select("player_id", "name",
                               (pl.col("fide_id").cast(pl.String) if "fide_id" in p.columns
                                else pl.lit(None, pl.String)).alias("fide_id"),
                               pl.lit(None, pl.Int64).alias("sno")))
    return (pl.concat(frames, how="vertical_relaxed") if frames else
            pl.DataFrame(schema={"player_id": pl.String, "name": pl.String, "fide_id": pl.String,
                                 "sno": pl.Int64}))


def round_only(game: PgnGame) -> PgnGame:
    """DESIGN.md Inputs (games) — a team event's game as the matcher reads it: its ``Round``
    tag cut to the round (``3.5.2`` -> ``3``); a tag that is not a round is left as it is (the
    matcher reports it)."""
    m = ROUND.fullmatch(game.headers.get("Round", ""))
    if m is None:
        return game
    return dataclasses.replace(game, headers={**game.headers, "Round": m.group(1)})


def check_games(raw: RawFile, groups: Sequence[BoardsOf]) -> tuple[pl.DataFrame, list[Finding]]:
    """DESIGN.md Inputs (games) — a team event's PGN files (``raw``: a frame of ``file`` and
    ``text``, and the findings of reading them) read and every game matched to the board its
    two players were fielded against each other on in its round
    (:func:`transforms.core.games.match_games` over :func:`board_pairings`). Decision: the
    ``Round`` tag gives the round only (:func:`round_only`); the games frame keeps the tag as
    the file has it. The games hold back nothing: results.csv is the record."""
    frame, read_findings = raw
    texts = dict(zip(frame["file"], frame["text"], strict=True)) if frame.height else {}
    games, findings = read_games(texts)
    said = {(g.file, g.number): g.headers.get("Round", "") for g in games}
    matched, more = match_games([round_only(g) for g in games], roster_players(groups),
                                board_pairings(groups),
                                sections={g.id: g.name for g in groups})
    if matched.height:
        tags = [visible(said[(f, n)]) for f, n in zip(matched["file"], matched["game"], strict=True)]
        matched = matched.with_columns(pl.Series("round_tag", tags, pl.String))
    more = [dataclasses.replace(f, value=visible(said[(f.file, int(m.group(1)))]))
            if (m := ROUND_COLUMN.fullmatch(f.column)) and (f.file, int(m.group(1))) in said else f
            for f in more]
    order = {f: i for i, f in enumerate(texts)}  # each game's rows together, in the files' order
    return matched, [*read_findings, *sorted([*findings, *more], key=lambda f: (
        order.get(f.file, -1), f.line or 0))]


def game_matches(groups: Sequence[BoardsOf]) -> dict[tuple[int, str], GameMatch]:
    """FIDE C.04.6 (the round's matches) — the match of every fielded player of every round,
    by (round, player id): its group, its number in the round (the fixtures': a league's
    Berger table, a team Swiss's tables), and its two teams."""
    out: dict[tuple[int, str], GameMatch] = {}
    for g in groups:
        ids = dict(zip(g.teams["sno"].to_list(), g.teams["team_id"].to_list(), strict=True))
        numbers = {(f["round"], f["white"], f["black"]): f["match"]
                   for f in g.fixtures.iter_rows(named=True)}
        for b in g.boards.iter_rows(named=True):
            m = GameMatch(g.id, b["round"], numbers.get((b["round"], b["white"], b["black"])),
                          ids[b["white"]], ids[b["black"]], b["white"], b["black"])
            for pid in (b["white_id"], b["black_id"]):
                if pid:
                    out[(b["round"], pid)] = m
    return out


def match_round_tag(rnd: int, board: int, match: GameMatch | None) -> str:
    """DESIGN.md Inputs (games) — a team event's published ``Round`` tag: ``round.match.board``
    (the PGN standard's multipart round, 8.1.1.5: the leftmost the round), ``round.board``
    where the match has no number."""
    if match is None or match.number is None:
        return f"{rnd}.{board}"
    return f"{rnd}.{match.number}.{board}"


def team_published_games(games: pl.DataFrame, groups: Sequence[BoardsOf], matches: Mapping[tuple[int, str], GameMatch],
                         *, event: str, site: str, start: dt.date) -> tuple[GameRecord, ...]:
    """DESIGN.md Inputs (games) — a team event's matched, usable games with moves as published
    (:func:`transforms.core.games.published_games`: the seven tags from the record, the names
    as rosters.csv writes them), each ``Round`` tag ``round.match.board``
    (:func:`match_round_tag`), in the order of the groups, rounds, matches and boards."""
    sections = {g.id: g.name for g in groups}
    players = roster_players(groups)
    tags = {(r["file"], r["game"]): match_round_tag(r["round"], r["board"], matches.get((r["round"], r["white_id"])))
            for r in games.filter(pl.col("usable")).iter_rows(named=True)}
    out = published_games(games, players, event=event, site=site, start=start, sections=sections,
                          round_tags=tags)
    order = {s: i for i, s in enumerate(sections)}

    def place(g: GameRecord) -> tuple[int, int, int, int]:
        m = matches.get((g.round or 0, g.white_id))
        number = m.number if m is not None and m.number is not None else 0
        return order.get(g.section, len(order)), g.round or 0, number, g.board or 0
    return tuple(sorted(out, key=place))  # (a stable sort: the record's order among equals)


def check_games_config(games: GamesConfig | None, file: str) -> None:
    """DESIGN.md Inputs (``[games]``) — Decision: in a team event a bulletin game is named by a
    team of its match, ``"NOR1:3.2"`` (board 2 of the match team NOR1 plays in round 3); a key
    without a team (``"3.2"``) names a board 2 of every match of the round: a
    :class:`~transforms.core.errors.ConfigError` naming the key."""
    if games is None:
        return
    for i, key in enumerate(games.bulletin):
        m = GAME_KEY.fullmatch(key)
        if m is not None and m.group("category") is None:
            raise ConfigError(file, f"games.bulletin[{i}]", f"{key!r} names board {m.group('board')} "
                              f"of every match of round {m.group('round')}: in a team event name "
                              f"the game by a team of its match, team_id:round.board "
                              f"(\"NOR1:{key}\": board {m.group('board')} of the match NOR1 "
                              f"plays in round {m.group('round')})")


def team_bulletin_games(games: Sequence[GameRecord], chosen: GamesConfig | None,
                        matches: Mapping[tuple[int, str], GameMatch], teams: Mapping[str, str]
                        ) -> tuple[tuple[BulletinGame, ...], list[Finding]]:
    """DESIGN.md Inputs (games) — the published games the office chose for a team event's
    bulletin (``[games] bulletin``, ``team_id:round.board``: :func:`check_games_config`), in its
    order, each with its diagrams (``[games] diagrams``, else the final position); ``teams``:
    every team's id -> name. A key naming no published game (a team not in teams.csv, a board
    with no game in games/ or one held back), and a diagram after a move the game does not
    have, are warnings on event.toml: the bulletin prints the rest."""
    if chosen is None or not chosen.bulletin:
        return (), []
    findings: list[Finding] = []
    out: list[BulletinGame] = []
    wanted = diagrams_asked(chosen.diagrams, DIAGRAM.fullmatch)
    for i, key in enumerate(chosen.bulletin):
        m = GAME_KEY.fullmatch(key)
        assert m is not None and m.group("category") is not None  # (checked at load)
        team, rnd, board = m.group("category"), int(m.group("round")), int(m.group("board"))
        found = [g for g in games if g.round == rnd and g.board == board
                 and (x := matches.get((rnd, g.white_id))) is not None and team in (x.team_a, x.team_b)]
        if not found:
            why = (f"no team {team!r} in teams.csv" if team not in teams else
                   f"no published game of board {board} of the match {teams[team]} plays in round "
                   f"{rnd} (not in games/, or held back: see its row of the validation report)")
            findings.append(Finding("event.toml", None, f"games.bulletin[{i}]", key, Severity.WARNING,
                                    f"{why}: the bulletin prints the others"))
        for g in found:
            chosen_game, more = with_diagrams(g, key, wanted.get(key, []), DIAGRAM.fullmatch)
            out.append(chosen_game)
            findings += more
    return tuple(out), findings
