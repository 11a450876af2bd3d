"""Final ranking by points and the configured FIDE C.07 tie-breaks, and the prize list.

Decision (players still equal after every tie-break): they share the rank (``rank`` is the
best place of the group, ``rank_label`` shows "5-6"), are listed in start-number order (the
initial ranking order, FIDE C.04.2 A.2), and ``tied_after_all`` flags them for the chief
arbiter. FIDE C.07 leaves the last word to the regulations (drawing of lots as the final
tie-break); a batch job does not draw lots, it says who must.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal

import polars as pl

from transforms.fide.tiebreaks import Edition, evaluate_tiebreaks

RANKING_TAIL = ("tied_after_all",)


def rank_players(scorecard: pl.DataFrame, players: pl.DataFrame, codes: Sequence[str], *,
                 edition: str | Edition, rounds: int | None = None,
                 round_robin: bool = False, unrated_rating: int | None = None) -> pl.DataFrame:
    """FIDE C.07 §1-§6 — rank by points, then each configured tie-break in order (DE inside the
    groups still tied before it, §6).

    Columns: rank (Int32, shared by players equal on everything), rank_label ("5" or "5-6"),
    sno, name, points, one Float64 column per code (canonical spelling, as configured),
    tied_after_all. A null tie-break value (e.g. ARO without rated games) ranks last."""
    ev = evaluate_tiebreaks(scorecard, players, codes, edition=edition, rounds=rounds,
                            round_robin=round_robin, unrated_rating=unrated_rating)
    codes_c = list(ev.codes)
    key_cols = ["points"] + [f"_k{i}" for i in range(len(codes_c))]
    keys = ev.keys.rename({c: f"_k{i}" for i, c in enumerate(codes_c)})
    names = (players.select(pl.col("sno").cast(pl.Int32), pl.col("name").cast(pl.String))
             if "name" in players.columns else players.select(pl.col("sno").cast(pl.Int32))
             .with_columns(pl.lit("").alias("name")))
    df = (ev.values.join(keys.drop("points"), on="sno").join(names, on="sno", how="left")
          .with_columns(pl.col("name").fill_null(""))
          .sort(key_cols + ["sno"], descending=[True] * len(key_cols) + [False],
                nulls_last=True))
    same = pl.all_horizontal([pl.col(k).eq_missing(pl.col(k).shift(1)) for k in key_cols])
    pos = pl.int_range(1, pl.len() + 1, dtype=pl.Int32)
    df = df.with_columns(pl.when(same).then(None).otherwise(pos).forward_fill().alias("rank"))
    df = df.with_columns(pl.len().over("rank").cast(pl.Int32).alias("_n"))
    df = df.with_columns(
        (pl.col("_n") > 1).alias("tied_after_all"),
        pl.when(pl.col("_n") > 1)
        .then(pl.format("{}-{}", pl.col("rank"), pl.col("rank") + pl.col("_n") - 1))
        .otherwise(pl.col("rank").cast(pl.String)).alias("rank_label"),
    )
    return df.select("rank", "rank_label", "sno", "name", "points", *codes_c, "tied_after_all")


def allocate_prizes(ranking: pl.DataFrame, prize_table: Sequence[Decimal | float | int | str], *,
                    shared: bool = False) -> pl.DataFrame:
    """National Junior 2024 "Prizes" — one prize per place, in ranking order; "In case of tie,
    cash prizes will not be shared" (``shared=False``): ties are decided by the tie-breaks
    (:func:`rank_players`), so each place gets its own prize.

    Decision: players still equal after every tie-break take their places provisionally in
    start-number order and are flagged for the chief arbiter (drawing of lots, FIDE C.07),
    whenever the group reaches a prize place. With ``shared=True`` (events whose rules share
    prizes) such a group shares the sum of its places' prizes equally, to the cent (half up).

    Columns: place, sno, name, points, amount (Decimal, 2 places), flag ("" when none)."""
    prizes = [Decimal(str(p)) for p in prize_table]
    cent = Decimal("0.01")
    df = ranking.sort(["rank", "sno"]).with_row_index("place", offset=1)
    rows = []
    groups: dict[int, list[dict]] = {}
    for r in df.iter_rows(named=True):
        groups.setdefault(r["rank"], []).append(r)
    for members in groups.values():
        places = [m["place"] for m in members]
        amounts = [prizes[p - 1] if p <= len(prizes) else Decimal(0) for p in places]
        in_money = any(a != 0 for a in amounts)
        flag = ""
        if len(members) > 1 and shared:
            each = (sum(amounts, Decimal(0)) / len(members)).quantize(cent, ROUND_HALF_UP)
            amounts = [each] * len(members)
            if in_money:
                flag = f"places {places[0]}-{places[-1]} shared equally"
        elif len(members) > 1 and in_money:
            snos = ", ".join(str(m["sno"]) for m in members)
            flag = (f"tied after all tie-breaks (snos {snos}): places {places[0]}-{places[-1]} "
                    "provisional by start number; chief arbiter to decide (drawing of lots)")
        for m, a in zip(members, amounts, strict=True):
            rows.append({"place": m["place"], "sno": m["sno"], "name": m.get("name", ""),
                         "points": m["points"], "amount": a.quantize(cent), "flag": flag})
    schema = {"place": pl.Int32, "sno": pl.Int32, "name": pl.String, "points": pl.Float64,
              "amount": pl.Decimal(12, 2), "flag": pl.String}
    return pl.DataFrame(rows, schema=schema).sort("place")
