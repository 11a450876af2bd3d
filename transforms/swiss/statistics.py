"""Statistics by state association: how each association's players did (players, points,
games won, drawn and lost, score percentage), per category and over all categories."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from transforms.core.model import Kind

STATISTICS_SCHEMA = {"state": pl.String, "players": pl.UInt32, "rounds": pl.UInt32,
                     "points": pl.Float64, "games": pl.UInt32, "wins": pl.UInt32,
                     "draws": pl.UInt32, "losses": pl.UInt32, "unplayed": pl.UInt32,
                     "score_pct": pl.Float64}
"""Columns of :func:`state_statistics` and :func:`total_by_state`."""

_COUNTS = ("players", "rounds", "games", "wins", "draws", "losses", "unplayed")


def _pct(points: pl.Expr, rounds: pl.Expr) -> pl.Expr:
    return pl.when(rounds > 0).then((points * 100 / rounds).round(1)).otherwise(None)


def state_statistics(scorecard: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    """DESIGN.md Publishing — statistics by state association of one category: per ``state``
    of ``players`` (sno, state; "" for players from areas without an association), the
    number of players, the rounds they were in, their points (as the standings count them),
    their games over the board won, drawn and lost, their unplayed rounds (forfeits and byes)
    and the score percentage.

    Decision: ``rounds`` counts every scorecard round of a player except those he was absent
    from (withdrawn, or neither paired nor given a bye): an association is not marked down for
    a withdrawn player's remaining rounds, while a forfeit loss counts (he was paired).
    ``score_pct`` = 100 x points / rounds, one decimal (null without rounds). Forfeits are not
    games (FIDE C.04.1): a forfeit win is an unplayed round worth a point, not a win. Sorted by
    points, then state."""
    states = players.select(pl.col("sno").cast(pl.Int32),
                            pl.col("state").cast(pl.String).fill_null("").alias("state"))
    card = scorecard.with_columns(pl.col("sno").cast(pl.Int32)).join(states, on="sno", how="left")
    played = pl.col("kind") == str(Kind.PLAYED)
    per = card.group_by("state").agg(
        pl.col("sno").filter(pl.col("kind") != str(Kind.ABSENT)).len().alias("rounds"),
        pl.col("points").sum().alias("points"),
        played.sum().alias("games"),
        (played & (pl.col("points") == 1)).sum().alias("wins"),
        (played & (pl.col("points") == 0.5)).sum().alias("draws"),
        (played & (pl.col("points") == 0)).sum().alias("losses"),
        (~played & (pl.col("kind") != str(Kind.ABSENT))).sum().alias("unplayed"))
    counted = states.group_by("state").agg(pl.len().alias("players"))
    out = (counted.join(per, on="state", how="left")
           .with_columns(pl.col("points").fill_null(0.0),
                         *[pl.col(c).fill_null(0) for c in _COUNTS if c != "players"]))
    return _finish(out)


def total_by_state(frames: Sequence[pl.DataFrame]) -> pl.DataFrame:
    """DESIGN.md Publishing — statistics by state association over several categories: the
    sums of :func:`state_statistics` per state, the score percentage taken again from the
    sums (not an average of percentages)."""
    if not frames:
        return pl.DataFrame(schema=STATISTICS_SCHEMA)
    out = pl.concat(frames).group_by("state").agg(
        *[pl.col(c).sum() for c in _COUNTS], pl.col("points").sum())
    return _finish(out)


def _finish(frame: pl.DataFrame) -> pl.DataFrame:
    return (frame.with_columns(_pct(pl.col("points"), pl.col("rounds")).alias("score_pct"))
            .select([pl.col(c).cast(t) for c, t in STATISTICS_SCHEMA.items()])
            .sort(["points", "state"], descending=[True, False]))
