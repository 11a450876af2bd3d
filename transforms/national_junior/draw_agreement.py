"""National Junior (U-19) 2024, Important Rules & Regulations — "Players shall not agree for a
draw without the consent of the arbiter, before each player makes 30 moves."

The batch job cannot stop a draw; it flags, for the arbiter, every early draw recorded
without consent (seed ``004_57e04720007abfb4.txt``).
"""

from __future__ import annotations

import polars as pl

from transforms.core.errors import Finding, Severity
from transforms.core.model import RESULT_SPELLINGS, ResultCode

RESULTS_FILE = "results.csv"



def flag_early_draws(results: pl.DataFrame, *, min_moves: int = 30) -> list[Finding]:
    """NJ 2024 Important Rules, Draw Agreement — "Players shall not agree for a draw without
    the consent of the arbiter, before each player makes 30 moves."

    Flags, as WARNINGs for the arbiter (results.csv, line, column ``moves``), every draw with
    ``moves < min_moves`` whose ``draw_consent`` is not true.

    Decision: ``moves`` counts moves completed by both players, so a draw at 30 is allowed
    and one at 29 is flagged. Decision: a draw with no ``moves`` value (or no moves column)
    is not flagged — nothing shows it was early, and flagging every such draw would bury the
    real cases. A missing ``draw_consent`` (value or column) means no consent was recorded.
    Forfeits and byes are not draws agreed over the board and are never flagged.
    """
    if "moves" not in results.columns or results.height == 0:
        return []
    df = results.with_row_index("_row")
    if "line" not in df.columns:
        df = df.with_columns(line=(pl.col("_row") + 2).cast(pl.Int64))
    consent = (
        pl.col("draw_consent").cast(pl.Boolean).fill_null(False)
        if "draw_consent" in df.columns
        else pl.lit(False)
    )
    flagged = df.filter(
        (pl.col("result").cast(pl.String).str.strip_chars().replace(RESULT_SPELLINGS)
         == ResultCode.DRAW.value)
        & pl.col("moves").is_not_null()
        & (pl.col("moves") < min_moves)
        & ~consent
    )
    return [
        Finding(
            RESULTS_FILE,
            row["line"],
            "moves",
            str(row["moves"]),
            Severity.WARNING,
            f"round {row['round']} board {row['board']}: {row['white_id']} - {row['black_id']} "
            f"drawn after {row['moves']} moves (before move {min_moves}) without the "
            f"arbiter's consent",
        )
        for row in flagged.iter_rows(named=True)
    ]
