"""The scorecard (one row per player per round) built from Swiss results, and what is
derived from it directly: start numbers, complete rounds, points and the crosstable."""

from __future__ import annotations

import polars as pl

from transforms.core.errors import Finding, Severity
from transforms.core.model import SCORECARD_SCHEMA, Kind, ResultCode, Title

TITLE_ORDER = {t.value: t.order for t in Title}
BYE_RESULTS = frozenset(c.value for c in ResultCode if c.is_bye)


def assign_start_numbers(players: pl.DataFrame) -> pl.DataFrame:
    """FIDE C.04.2 A.2 — initial ranking order within each section: rating (descending),
    then FIDE title, then name alphabetically; adds ``sno`` (1 = top seed).

    Decision: ties left after name are broken by player_id so the order is total. A section
    whose players all have a ``start_no`` (an event taken over from a TRF) keeps those numbers,
    so its pairings stay those of the program it came from."""
    if "start_no" in players.columns:
        given = players.group_by("section").agg(pl.col("start_no").is_not_null().all().alias("_all"),
                                                pl.col("start_no").n_unique().alias("_n"), pl.len().alias("_len"))
        keep = set(given.filter(pl.col("_all") & (pl.col("_n") == pl.col("_len")))["section"])
        if keep:
            kept = players.filter(pl.col("section").is_in(sorted(keep))).with_columns(
                pl.col("start_no").cast(pl.Int32).alias("sno"))
            rest = players.filter(~pl.col("section").is_in(sorted(keep)))
            return pl.concat([kept, assign_start_numbers(rest.drop("start_no"))
                              .with_columns(pl.lit(None, pl.Int64).alias("start_no"))
                              .select(kept.columns)]).sort("section", "sno")
    return (
        players.with_columns(
            pl.col("rating").fill_null(0).alias("_r"),
            pl.col("title").cast(pl.String).replace_strict(TITLE_ORDER, default=99, return_dtype=pl.Int32)
            .alias("_t"),
        )
        .sort(["section", "_r", "_t", "name", "player_id"], descending=[False, True, False, False, False])
        .with_columns(pl.int_range(1, pl.len() + 1, dtype=pl.Int32).over("section").alias("sno"))
        .drop("_r", "_t")
    )


def check_results(results: pl.DataFrame, players: pl.DataFrame, *, rounds: int,
                  withdrawals: pl.DataFrame | None = None) -> tuple[pl.DataFrame, list[Finding]]:
    """DESIGN.md Inputs (results.csv) — cross-file checks of typed results.

    Unknown player references, a bye with an opponent or a game without one, a player
    against themself or someone from another section, a round beyond the event's rounds,
    the same board twice in a round, a player twice in one round are errors (the row is set
    aside); a game recorded for a withdrawn player is a warning.
    Decision: a game of a round recorded again (the same two players) is one error on the
    later row: "the same game" when the row repeats the first, "contradicts" when its result
    or colours differ (which one is right is for the arbiter to say). Returns the usable rows,
    with ``section`` added, and the findings."""
    file = "results.csv"
    findings: list[Finding] = []
    bad: set[int] = set()
    sec = dict(zip(players["player_id"], players["section"]))
    withdrawn = ({} if withdrawals is None else
                 dict(zip(withdrawals["player_id"], withdrawals["from_round"])))
    seen_board: dict[tuple[object, ...], int] = {}
    seen_player: dict[tuple[object, ...], int] = {}
    seen_game: dict[tuple[object, ...], tuple[int, str | None]] = {}
    for row in results.iter_rows(named=True):
        line, w, b, res, rnd = row["line"], row["white_id"], row["black_id"], row["result"], row["round"]

        def err(col: str, value: object, reason: str, severity: Severity = Severity.ERROR,
                line: int = line) -> None:
            findings.append(Finding(file, line, col, "" if value is None else str(value), severity, reason))
            if severity is Severity.ERROR:
                bad.add(line)

        if rnd > rounds:
            err("round", rnd, f"the event has {rounds} rounds")
        if w not in sec:
            err("white_id", w, "unknown player (not in players.csv or rejected there)")
        if b is not None and b not in sec:
            err("black_id", b, "unknown player (not in players.csv or rejected there)")
        if res in BYE_RESULTS and b is not None:
            err("black_id", b, f"a {res} has no opponent: leave black_id empty")
        if b is None and res is not None and res not in BYE_RESULTS:
            err("black_id", "", f"result {res} needs an opponent")
        if b is None and res is None:
            err("result", "", "a bye row needs its kind: PAB, FPB, HPB or ZPB")
        if w == b:
            err("black_id", b, "a player cannot play themself")
        if w in sec and b in sec and sec[w] != sec[b]:
            err("black_id", b, f"plays in section {sec[b]!r}, white in {sec[w]!r}")
        if line in bad:
            continue
        game = (rnd, frozenset((w, b)))
        if b is not None and game in seen_game:
            first, first_res = seen_game[game]
            if first_res == res and (w, b) == (row["white_id"], row["black_id"]):
                err("", f"{rnd},{row['board']},{w},{b},{res or ''}",
                    f"the same game as line {first} (a row entered twice)")
            else:
                err("result", res, f"contradicts line {first}, which has {first_res or 'no result'} for "
                    f"the game of {w} and {b} in round {rnd}")
            continue
        if b is not None:
            seen_game[game] = (line, res)
        key = (sec[w], rnd, row["board"])
        if key in seen_board:
            err("board", row["board"], f"board {row['board']} of round {rnd} is already on line {seen_board[key]}")
        else:
            seen_board[key] = line
        for col, p in (("white_id", w), ("black_id", b)):
            if p is None:
                continue
            if (p, rnd) in seen_player:
                err(col, p, f"already in round {rnd} on line {seen_player[(p, rnd)]}")
            else:
                seen_player[(p, rnd)] = line
            if p in withdrawn and rnd >= withdrawn[p]:
                err(col, p, f"withdrew from round {withdrawn[p]} but has a result in round {rnd}",
                    Severity.WARNING)
    ok = results.filter(~pl.col("line").is_in(sorted(bad)))
    ok = ok.with_columns(pl.col("white_id").replace_strict(sec, default=None).alias("section"))
    return ok, findings


def complete_rounds(results: pl.DataFrame) -> int:
    """DESIGN.md Inputs (results.csv: an empty result is a game not finished) — the number of rounds
    complete from round 1 on: every board has a result."""
    done = 0
    by_round = results.group_by("round").agg(pl.col("result").is_null().any().alias("open"))
    status = dict(zip(by_round["round"], by_round["open"]))
    while status.get(done + 1) is False:
        done += 1
    return done


def scorecard_from_results(results: pl.DataFrame, snos: pl.DataFrame, *, through_round: int,
                           pab_points: float = 1.0) -> pl.DataFrame:
    """FIDE C.04.1 / DESIGN.md — the scorecard of one section through ``through_round``.

    ``results`` are the section's checked results (round, white_id, black_id, result),
    ``snos`` maps player_id to sno. Each board gives a row per player; a player with no
    board in a round is ``absent`` with 0 points. A forfeit keeps its colour (for the TRF)
    but its kind says it was not played (FIDE C.04.1: forfeits are unplayed games)."""
    ids = dict(zip(snos["player_id"], snos["sno"]))
    r = results.filter(pl.col("round") <= through_round, pl.col("result").is_not_null())
    r = r.with_columns(
        pl.col("white_id").replace_strict(ids, return_dtype=pl.Int32).alias("w"),
        pl.col("black_id").replace_strict(ids, default=None, return_dtype=pl.Int32).alias("b"),
    ).cast({"w": pl.Int32, "b": pl.Int32})  # also a category without players (empty mapping)
    wpts = {c.value: c.white.points for c in ResultCode} | {ResultCode.PAB.value: pab_points}
    wkind = {c.value: c.white.kind.value for c in ResultCode}
    games = [(c.value, c.black) for c in ResultCode if c.black is not None]
    white = r.select(
        pl.col("round").cast(pl.Int32), pl.col("w").alias("sno"), pl.col("b").alias("opponent"),
        pl.when(pl.col("b").is_null()).then(None).otherwise(pl.lit("w")).alias("colour"),
        pl.col("result").replace_strict(wpts, return_dtype=pl.Float64).alias("points"),
        pl.col("result").replace_strict(wkind, return_dtype=pl.String).alias("kind"),
    )
    g = r.filter(pl.col("b").is_not_null())
    black = g.select(
        pl.col("round").cast(pl.Int32), pl.col("b").alias("sno"), pl.col("w").alias("opponent"),
        pl.lit("b").alias("colour"),
        pl.col("result").replace_strict({v: side.points for v, side in games}, return_dtype=pl.Float64)
        .alias("points"),
        pl.col("result").replace_strict({v: side.kind.value for v, side in games}, return_dtype=pl.String)
        .alias("kind"),
    )
    rows = pl.concat([white, black]).cast(SCORECARD_SCHEMA)  # type: ignore[arg-type]  # polars#14468: cast() rejects a dict[str, DataType] variable
    grid = (pl.DataFrame({"sno": snos["sno"].cast(pl.Int32)})
            .join(pl.DataFrame({"round": pl.int_range(1, through_round + 1, eager=True, dtype=pl.Int32)}),
                  how="cross"))
    absent = grid.join(rows, on=["sno", "round"], how="anti").with_columns(
        pl.lit(None, pl.Int32).alias("opponent"), pl.lit(None, pl.String).alias("colour"),
        pl.lit(0.0).alias("points"), pl.lit(str(Kind.ABSENT)).alias("kind"),
    ).select(SCORECARD_SCHEMA.keys())
    return pl.concat([rows, absent]).cast(SCORECARD_SCHEMA).sort(["sno", "round"])  # type: ignore[arg-type]  # polars#14468: cast() rejects a dict[str, DataType] variable


def points(scorecard: pl.DataFrame) -> pl.DataFrame:
    """DESIGN.md (the scorecard) — total points per player (sno, points)."""
    return scorecard.group_by("sno").agg(pl.col("points").sum()).sort("sno")


def crosstable(scorecard: pl.DataFrame, ranking: pl.DataFrame) -> pl.DataFrame:
    """DESIGN.md Outputs (crosstable) — crosstable cells, one row per player in ranking order:
    ``r1..rN`` hold the opponent's rank, colour and result (``12w1``, ``7b½``), forfeits as
    ``+``/``-`` with the opponent, byes and absences by kind. ``ranking`` has sno and rank (and
    anything else to keep)."""
    rank_of = ranking.select(pl.col("sno").cast(pl.Int32), pl.col("rank").alias("_orank"))
    res = (pl.when(pl.col("points") == 1).then(pl.lit("1"))
           .when(pl.col("points") == 0.5).then(pl.lit("½")).otherwise(pl.lit("0")))
    cells = scorecard.join(rank_of.rename({"sno": "opponent"}), on="opponent", how="left").with_columns(
        pl.when(pl.col("kind") == Kind.PLAYED)
        .then(pl.format("{}{}{}", pl.col("_orank"), pl.col("colour"), res))
        .when(pl.col("kind") == Kind.FORFEIT_WIN).then(pl.format("{}{}+", pl.col("_orank"), pl.col("colour")))
        .when(pl.col("kind") == Kind.FORFEIT_LOSS).then(pl.format("{}{}-", pl.col("_orank"), pl.col("colour")))
        .when(pl.col("kind") == Kind.ABSENT).then(pl.lit("–"))
        .otherwise(pl.format("{} {}", pl.col("kind"), res))
        .alias("cell"),
        pl.format("r{}", pl.col("round")).alias("col"),
    )
    if cells.is_empty():
        return ranking
    wide = cells.pivot(on="col", index="sno", values="cell", sort_columns=False)
    rounds = sorted({int(c[1:]) for c in wide.columns if c != "sno"})
    wide = wide.select("sno", *[f"r{i}" for i in rounds])
    return ranking.join(wide.with_columns(pl.col("sno").cast(ranking.schema["sno"])), on="sno",
                        how="left").sort("rank")


def points_ranking(scorecard: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    """FIDE C.04.2 A.2 — standings by points only, ties in start-number order (used before tie-
    breaks apply)."""
    pts = points(scorecard)
    return (players.select("sno", "name").join(pts, on="sno", how="left")
            .with_columns(pl.col("points").fill_null(0.0))
            .sort(["points", "sno"], descending=[True, False])
            .with_columns(pl.col("points").rank("min", descending=True).cast(pl.Int32).alias("rank"))
            .select("rank", "sno", "name", "points"))
