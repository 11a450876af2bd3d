"""Final ranking of a team competition by its primary score (match points or game points) and
the configured FIDE C.07 team tie-breaks (:mod:`transforms.fide.team_tiebreaks`).

As for individuals (:mod:`transforms.fide.standings`, whose ranking machinery this reuses):
teams still equal after every tie-break share the rank (``rank`` the best place of the group,
``rank_label`` "5-6"), are listed in pairing-number order, and ``tied_after_all`` flags them
for the chief arbiter (C.07 4.2: drawing of lots, or a shared place, as the regulations say).
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from transforms.fide.standings import rank_evaluation
from transforms.fide.team_tiebreaks import TeamScore, parse_primary, team_evaluation
from transforms.fide.tiebreaks import Edition


def rank_teams(card: pl.DataFrame, boards: pl.DataFrame, codes: Sequence[str], *,
               primary: str | TeamScore, match_points: Sequence[float], rounds: int | None,
               edition: str | Edition, round_robin: bool = False,
               teams: pl.DataFrame | None = None) -> pl.DataFrame:
    """FIDE C.07 4.2, 11-13 — rank the teams by the primary score, then each configured team
    tie-break in order (DE, EDE, TBR and BBE inside the groups still tied before them).

    Columns: rank (Int32, shared by teams equal on everything), rank_label ("5" or "5-6"), sno
    (Int64), name (from ``teams``: sno, name; empty without), mp, gp, one Float64 column per
    code (canonical spelling, as configured), tied_after_all. A null tie-break value (a DE-type
    tie-break that separated nothing) ranks as the order it leaves."""
    prim = parse_primary(primary)
    if teams is not None:
        missing = sorted(set(teams["sno"].cast(pl.Int64).to_list())
                         - set(card["sno"].cast(pl.Int64).to_list()))
        if missing:  # a team without a round on the card: absent throughout (C.07 16.1.1)
            card = pl.concat([card, pl.DataFrame(
                {"round": [1] * len(missing), "sno": missing, "kind": ["absent"] * len(missing)}
            ).cast({"round": card.schema["round"], "sno": card.schema["sno"]})],
                how="diagonal_relaxed")
    ev = team_evaluation(card, boards, codes, primary=prim, match_points=match_points,
                         rounds=rounds, edition=edition, round_robin=round_robin)
    names = teams if teams is not None else pl.DataFrame(schema={"sno": pl.Int32, "name": pl.String})
    ranking = rank_evaluation(ev, names)
    in_rounds = pl.col("round") <= rounds if rounds is not None else pl.lit(True)
    totals = (card.filter(in_rounds).group_by("sno")
              .agg(pl.col("mp").sum(), pl.col("gp").sum())
              .with_columns(pl.col("sno").cast(pl.Int32)))
    return (ranking.join(totals, on="sno", how="left")
            .with_columns(pl.col("mp").fill_null(0.0), pl.col("gp").fill_null(0.0),
                          pl.col("sno").cast(pl.Int64))
            .select("rank", "rank_label", "sno", "name", "mp", "gp", *ev.codes, "tied_after_all")
            .sort("rank", "sno"))
