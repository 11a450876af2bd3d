"""The individual side of a team competition: every player's games (from the board results),
their FIDE rating change as in an individual event (B.02, :mod:`transforms.fide.ratings`), and
the board prizes (``[team] board_prize_min_games``).

Decisions (pinned by tests/rulebook/test_team_players.py):

- A player's number in a group (``pno``) is their place in the group's rosters: the teams in
  number order, each roster in board order (1, 2, ...). It only joins the frames; nothing
  prints it.
- A player's board, for the board prizes, is the board they played most games on over the
  board (a tie: the higher board, the smaller number) — the usual rule of team championships
  (the Olympiad's board prizes go by the board a player mostly played); every game of theirs
  counts, whatever its board.
- The board prize goes to the best performance (B.02 8.1.1: the opponents' average rating +
  dp(p), games over the board against rated opponents) among the players of that board with
  at least ``board_prize_min_games`` games over the board; a tie: the higher score, then more
  games; players still equal share the place (the arbiter decides as the regulations say).
"""

from __future__ import annotations

import datetime as dt

import polars as pl

from transforms.core.model import SCORECARD_SCHEMA, Kind, ResultCode
from transforms.fide.ratings import RatingChanges, rating_changes
from transforms.team.matches import board_colour

GAMES_SCHEMA = {"pno": pl.Int32, "round": pl.Int64, "board": pl.Int64, "colour": pl.String,
                "opponent_pno": pl.Int32, "points": pl.Float64, "kind": pl.String,
                "team_sno": pl.Int64, "opponent_team_sno": pl.Int64}
"""One row per game (or board won or lost by forfeit) of a player: the round, the board, the
colour, the opponent (null: nobody fielded against them), the points and what it was
(:class:`transforms.core.model.Kind`), and the two teams."""

PRIZES_SCHEMA = {"board": pl.Int64, "place": pl.Int64, "pno": pl.Int32, "games": pl.Int64,
                 "score": pl.Float64, "performance": pl.Int32}
"""Per board, its prize places: the player, their games over the board and score, and the
performance the places go by."""


def numbered_players(players: pl.DataFrame) -> pl.DataFrame:
    """Team regulations (the rosters) — the group's players with their number ``pno``: the
    teams in number order, each roster in board order."""
    return (players.sort("sno", "roster_board")
            .with_columns(pl.int_range(1, pl.len() + 1, dtype=pl.Int32).alias("pno")))


def player_games(boards: pl.DataFrame, matches: pl.DataFrame, players: pl.DataFrame
                 ) -> pl.DataFrame:
    """FIDE C.04.6 (colours by board) — every player's games of the finished matches
    (:data:`GAMES_SCHEMA`), from the board results: a board played over the board gives both
    players a game; a board won by forfeit gives the fielded player a forfeit win (and a
    player fielded who did not come a forfeit loss)."""
    pno = dict(zip(players["player_id"].to_list(), players["pno"].to_list(), strict=True))
    finished = {(m["round"], m["white"], m["black"]) for m in
                matches.filter(pl.col("status") != "unfinished").iter_rows(named=True)}
    rows = []
    for b in boards.iter_rows(named=True):
        if (b["round"], b["white"], b["black"]) not in finished:
            continue
        code = ResultCode.parse(b["result"])
        # The board's White player is team A's (``white``: White on board 1) on the odd
        # boards, team B's on the even ones (board_colour).
        a_white = board_colour(b["board"]) == "w"
        white_team, black_team = (b["white"], b["black"]) if a_white else (b["black"], b["white"])
        for me, them, colour, points, team, other in (
                ("white_id", "black_id", "w", "white_points", white_team, black_team),
                ("black_id", "white_id", "b", "black_points", black_team, white_team)):
            if not b[me] or code is None:
                continue
            if b["played"]:
                kind = Kind.PLAYED
            else:
                kind = Kind.FORFEIT_WIN if (b[points] or 0) > 0 else Kind.FORFEIT_LOSS
            rows.append({"pno": pno[b[me]], "round": b["round"], "board": b["board"],
                         "colour": colour, "opponent_pno": pno.get(b[them] or ""),
                         "points": float(b[points] or 0.0), "kind": kind.value,
                         "team_sno": team, "opponent_team_sno": other})
    return pl.DataFrame(rows, schema=GAMES_SCHEMA).sort("pno", "round")


def player_rating_changes(games: pl.DataFrame, players: pl.DataFrame, as_of: dt.date,
                          later: pl.DataFrame | None = None) -> RatingChanges:
    """FIDE B.02 8.3 and 8.2 — each player's rating change over their games of the event, as
    in an individual event (:func:`transforms.fide.ratings.rating_changes`): games over the
    board against rated opponents count; the ratings are the rosters', and from a round on
    those of a list that comes into force during the event (``later``: player_id,
    from_round, rating — a league over several rating periods)."""
    card = games.select(pl.col("round").cast(pl.Int32), pl.col("pno").alias("sno"),
                        pl.col("opponent_pno").alias("opponent"), "colour", "points", "kind"
                        ).cast(SCORECARD_SCHEMA)  # type: ignore[arg-type]  # polars#14468: cast() rejects a dict[str, DataType] variable
    people = players.select(pl.col("pno").alias("sno"), pl.col("rating").cast(pl.Int32))
    by_round = None
    if later is not None and not later.is_empty():
        by_round = later.join(players.select("player_id", pl.col("pno").alias("sno")),
                              on="player_id").select("sno", "from_round", "rating")
    return rating_changes(card, people, period_year=as_of.year, later=by_round)


def player_boards(games: pl.DataFrame) -> pl.DataFrame:
    """Team regulations (board prizes) — each player's board: the one they played most games
    on over the board (a tie: the smaller number). Columns pno, board."""
    played = games.filter(pl.col("kind") == Kind.PLAYED.value)
    return (played.group_by("pno", "board").len()
            .sort(["pno", "len", "board"], descending=[False, True, False])
            .group_by("pno", maintain_order=True).first().select("pno", "board"))


def board_prizes(games: pl.DataFrame, changes: RatingChanges, min_games: int, *,
                 places: int = 3) -> pl.DataFrame:
    """Team regulations (``[team] board_prize_min_games``), FIDE B.02 8.1.1 — per board the
    best performances among its players with at least ``min_games`` games over the board:
    ``places`` places a board, by performance, then score, then games; players equal on all
    three share the place (:data:`PRIZES_SCHEMA`). ``min_games`` 0: no board prizes."""
    if min_games <= 0 or games.height == 0:
        return pl.DataFrame(schema=PRIZES_SCHEMA)
    played = games.filter(pl.col("kind") == Kind.PLAYED.value)
    counts = played.group_by("pno").agg(pl.len().alias("games"), pl.col("points").sum().alias("score"))
    perf = changes.players.select(pl.col("sno").alias("pno"), "performance")
    pool = (player_boards(games).join(counts, on="pno").join(perf, on="pno", how="left")
            .filter((pl.col("games") >= min_games) & pl.col("performance").is_not_null()))
    key = ["performance", "score", "games"]
    ranked = (pool.sort(["board", *key, "pno"], descending=[False, True, True, True, False])
              .with_columns(pl.struct(key).rank("min", descending=True).over("board")
                            .cast(pl.Int64).alias("place")))
    return (ranked.filter(pl.col("place") <= places)
            .select(pl.col("board").cast(pl.Int64), "place", "pno", pl.col("games").cast(pl.Int64),
                    "score", "performance"))
