"""GK rule 3 — who advances from a preliminary or semifinal section."""

from __future__ import annotations

import polars as pl

from transforms.golden_knights.rules import GKRules, Stage

QUALIFIERS_SCHEMA = {
    "stage": pl.String(), "section": pl.String(), "entry_id": pl.String(), "member_id": pl.String(),
    "score": pl.Float64(), "qualified": pl.Boolean(), "basis": pl.String(),
}


def _fmt(x: float) -> str:
    return (f"{int(x)}" if x == int(x) else f"{int(x)}½") if x >= 1 else ("½" if x == 0.5 else "0")


def rule_3_advancement(
    rules: GKRules,
    stage: str,
    scores: pl.DataFrame,
    people: pl.DataFrame,
    *,
    stage_complete: bool,
    next_stage_entries: set[str],
    director: dict[str, tuple[bool, str]],
) -> pl.DataFrame:
    """GK rule 3 — advancement: 4½ or more; else the section's 4-pointers; 4-pointers fill the last section.

    ``scores``: section scores of ``stage`` (stage, section, entry_id, score, section_complete);
    ``people``: entry_id, member_id, rating. Returns one row per player of every *complete*
    section (qualifiers.csv): qualified true / false, or null while a 4-pointer may still fill
    the last section of the next stage.

    Decision: scores are game points ("not weighted-point totals"); a section's qualifiers are
    decided only when all its games have a result.
    Decision: "if no one scores 4½ or more, those who scored 4 advance" = every player with
    ``fallback_score`` or more in a section whose best score is below ``advance_score``.
    Decision: filling: when every section of this stage (and of earlier stages) is complete,
    the number of qualifiers Q is made up to a multiple of ``section_size`` with 4-pointers of
    sections where someone reached 4½: first those the director already placed in a published
    next-stage section, then highest current rating (members.csv "at that time"; unrated last),
    then entry_id. If there are too few, the last section stays short (the run's proposals wait).
    Decision: the director's ``advance`` overrides (rule 7) win over all of this and are counted
    in Q before filling.
    """
    sc = scores.filter(pl.col("section_complete")).join(people, on="entry_id", how="left")
    if sc.is_empty():
        return pl.DataFrame(schema=QUALIFIERS_SCHEMA)
    best = pl.col("score").max().over("section")
    top = rules.advance_score
    fb = rules.fallback_score
    sc = sc.with_columns(
        qualified=pl.when(pl.col("score") >= top).then(True)
        .when((best < top) & (pl.col("score") >= fb)).then(True)
        .when((best >= top) & (pl.col("score") >= fb)).then(None)
        .otherwise(False),
        basis=pl.when(pl.col("score") >= top).then(pl.lit(f"scored {_fmt(top)} or more (rule 3)"))
        .when((best < top) & (pl.col("score") >= fb))
        .then(pl.lit(f"scored {_fmt(fb)}; nobody in the section reached {_fmt(top)} (rule 3)"))
        .when((best >= top) & (pl.col("score") >= fb)).then(pl.lit(f"scored {_fmt(fb)}: may fill the last {_next(stage)} section (rule 3)"))
        .otherwise(pl.lit(f"scored below {_fmt(top)}")),
    )
    # the director's decisions (rule 7)
    if director:
        d = pl.DataFrame({"entry_id": list(director), "_dq": [v[0] for v in director.values()],
                          "_dn": [v[1] for v in director.values()]},
                         schema={"entry_id": pl.String, "_dq": pl.Boolean, "_dn": pl.String})
        sc = sc.join(d, on="entry_id", how="left").with_columns(
            qualified=pl.when(pl.col("_dq").is_not_null()).then(pl.col("_dq")).otherwise(pl.col("qualified")),
            basis=pl.when(pl.col("_dq").is_not_null())
            .then(pl.format("director's decision (rule 7): {}", pl.col("_dn").fill_null("")))
            .otherwise(pl.col("basis")),
        ).drop("_dq", "_dn")
    pending = sc.filter(pl.col("qualified").is_null())
    placed = sorted(next_stage_entries)
    if stage_complete and not pending.is_empty():
        q = int(sc["qualified"].fill_null(False).sum())
        need = (-q) % rules.section_size
        ranked = pending.with_columns(_placed=pl.col("entry_id").is_in(placed)).sort(
            "_placed", pl.col("rating").is_null(), "rating", "entry_id", descending=[True, False, True, False],
        ).with_columns(_k=pl.int_range(1, pl.len() + 1))
        ranked = ranked.with_columns(
            qualified=pl.col("_k") <= need,
            basis=pl.when(pl.col("_k") <= need).then(
                pl.when(pl.col("_placed")).then(
                    pl.lit(f"scored {_fmt(fb)}; filled the last {_next(stage)} section as published (rule 3)"))
                .otherwise(pl.format(f"scored {_fmt(fb)}; filled the last {_next(stage)} section, rating {{}} (rule 3)",
                                     pl.col("rating").cast(pl.String).fill_null("unrated"))))
            .otherwise(pl.lit(f"scored {_fmt(fb)}; not needed to fill the last {_next(stage)} section (rule 3)")),
        ).drop("_placed", "_k")
        sc = pl.concat([sc.filter(pl.col("qualified").is_not_null()), ranked.select(sc.columns)])
    else:
        # a 4-pointer the director already placed in the next stage filled it (rule 3, rule 7)
        sc = sc.with_columns(
            basis=pl.when(pl.col("qualified").is_null() & pl.col("entry_id").is_in(placed))
            .then(pl.lit(f"scored {_fmt(fb)}; filled the last {_next(stage)} section as published (rule 3)"))
            .otherwise(pl.col("basis")),
            qualified=pl.when(pl.col("qualified").is_null() & pl.col("entry_id").is_in(placed))
            .then(True).otherwise(pl.col("qualified")),
        )
    return sc.select(pl.lit(stage).alias("stage"), "section", "entry_id", "member_id", "score", "qualified",
                     "basis").sort("section", pl.col("score"), "entry_id", descending=[False, True, False])


def _next(stage: str) -> str:
    nxt = Stage(stage).next
    return "next-stage" if nxt is None else nxt.value
