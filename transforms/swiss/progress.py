"""A player's event as the standings saw it, round by round, and what separated neighbours in
a ranking: the numbers a player's page and the prize list show (DESIGN.md "Publishing": every
player has a page of their own). Both read only the scorecard and the standings already
computed by :func:`transforms.fide.standings.rank_players`; nothing is ranked again here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import polars as pl

PROGRESS_SCHEMA = {"round": pl.Int32, "sno": pl.Int32, "opponent": pl.Int32, "colour": pl.String,
                   "kind": pl.String, "points": pl.Float64, "total": pl.Float64,
                   "rank": pl.Int32, "rank_label": pl.String}
"""Columns of :func:`round_by_round`."""

SEPARATION_SCHEMA = {"sno": pl.Int32, "next_sno": pl.Int32, "by": pl.String,
                     "value": pl.Float64, "next_value": pl.Float64}
"""Columns of :func:`tiebreak_separation`."""

EQUAL_AFTER_ALL = "equal after every tie-break"
"""``by`` of two neighbours no tie-break separates (the chief arbiter decides, C.07)."""


def round_by_round(scorecard: pl.DataFrame, rankings: Mapping[int, pl.DataFrame]) -> pl.DataFrame:
    """FIDE C.07 §1 — every player's rounds as the standings after each round saw them: what
    the round scored (``points``), the points after it (``total``) and the rank after it
    (``rank``, ``rank_label`` as the standings after that round print it, "5-6" for players
    equal after every tie-break).

    ``rankings`` is round -> standings after it (:func:`rank_players` columns); a round without
    standings (not complete) has null total and rank. One row per scorecard row, ordered by
    sno and round (columns :data:`PROGRESS_SCHEMA`)."""
    frames = [r.select(pl.lit(rnd, pl.Int32).alias("round"), pl.col("sno").cast(pl.Int32),
                       pl.col("points").cast(pl.Float64).alias("total"),
                       pl.col("rank").cast(pl.Int32), pl.col("rank_label").cast(pl.String))
              for rnd, r in sorted(rankings.items())]
    after = (pl.concat(frames) if frames else
             pl.DataFrame(schema={k: PROGRESS_SCHEMA[k] for k in ("round", "sno", "total", "rank",
                                                                 "rank_label")}))
    card = scorecard.select(pl.col("round").cast(pl.Int32), pl.col("sno").cast(pl.Int32),
                            pl.col("opponent").cast(pl.Int32), pl.col("colour").cast(pl.String),
                            pl.col("kind").cast(pl.String), pl.col("points").cast(pl.Float64))
    return (card.join(after, on=["round", "sno"], how="left")
            .select(list(PROGRESS_SCHEMA)).sort("sno", "round"))


def tiebreak_separation(ranking: pl.DataFrame, codes: Sequence[str]) -> pl.DataFrame:
    """FIDE C.07 §1-§2 — what put each player ahead of the next one in the ranking: ``by`` is
    ``points`` when their points differ, else the first tie-break of ``codes`` (the configured
    order) whose values differ, with both values (``value``, ``next_value``); players no
    tie-break separates get :data:`EQUAL_AFTER_ALL`. The last player has no next one (null).

    Decision: a tie-break value the player has and the next one has not (null, ranked last,
    e.g. DE outside a group it decides) separates them like two different values; DE's value
    is the place inside the tie group (lower is better), every other value higher is better,
    as the ranking reads them. The comparison is between neighbours in ranking order only:
    the prize list shows, for each prize winner, what kept them ahead of the next place."""
    ordered = ranking.sort("rank", "sno")
    rows = ordered.select("sno", "points", *codes).to_dicts()
    out = []
    for here, nxt in zip(rows, [*rows[1:], None], strict=True):
        if nxt is None:
            out.append({"sno": here["sno"], "next_sno": None, "by": None, "value": None,
                        "next_value": None})
            continue
        by, a, b = EQUAL_AFTER_ALL, None, None
        for col in ("points", *codes):
            if here[col] != nxt[col]:
                by, a, b = col, here[col], nxt[col]
                break
        out.append({"sno": here["sno"], "next_sno": nxt["sno"], "by": by, "value": a,
                    "next_value": b})
    return pl.DataFrame(out, schema=SEPARATION_SCHEMA)
