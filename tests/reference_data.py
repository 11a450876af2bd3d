"""Loading the normalised tie-break reference events (tests/data/tiebreak/*/normalized)."""

from pathlib import Path

import polars as pl

from transforms.core.model import SCORECARD_SCHEMA

KINDS = {"played": "played", "pab": "PAB", "full_bye": "FPB", "half_bye": "HPB",
         "zero_bye": "ZPB", "double_forfeit": "forfeit_loss", "absent": "absent",
         "forfeit_win": "forfeit_win", "forfeit_loss": "forfeit_loss"}
"""The reference files' kinds -> scorecard kinds (both sides of a double forfeit lose)."""


def load(folder: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    """normalized rounds.csv/players.csv → (scorecard, players)."""
    r = pl.read_csv(folder / "rounds.csv", infer_schema_length=0)
    sc = r.select(
        pl.col("round").cast(pl.Int32), pl.col("sno").cast(pl.Int32),
        pl.col("opponent").cast(pl.Int32),
        pl.when(pl.col("colour").is_in(["w", "b"])).then(pl.col("colour")).alias("colour"),
        pl.col("points").cast(pl.Float64), pl.col("kind").replace_strict(KINDS),
    ).cast(SCORECARD_SCHEMA)
    p = pl.read_csv(folder / "players.csv", infer_schema_length=0)
    return sc, p.with_columns(pl.col("sno").cast(pl.Int32), pl.col("rating").cast(pl.Int32))
