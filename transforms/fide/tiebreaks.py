"""FIDE C.07 tie-breaks, per edition, as a registry keyed by FIDE code.

| tie-break                              | C.07 art. | code            | notes                                   |
|----------------------------------------|-----------|-----------------|-----------------------------------------|
| Direct encounter                       | 6         | DE              | place in the tie group; null: no order   |
| Number of wins (unplayed included)     | 7.1       | WIN             | forfeit wins, PAB and FPB count          |
| Number of games won over the board     | 7.2       | WON             |                                         |
| Games played with Black                | 7.3       | BPG             |                                         |
| Games won with Black                   | 7.4       | BWG             |                                         |
| Progressive scores                     | 7.5       | PS, PS-C1/C2    | Cut-n drops the first n running scores   |
| Rounds one elected to play             | 7.6       | REP (alias GE)  | rounds minus VURs (16.1.2)               |
| Buchholz                               | 8.1       | BH, BH-C1/C2/M1/M2 | art. 16 for unplayed rounds           |
| Average of opponents' Buchholz         | 8.2       | AOB             | printed with 2 decimals (as FIDE's exercise) |
| Fore Buchholz                          | 8.3       | FB (+ modifiers)| last round's paired games as draws       |
| Sonneborn-Berger                       | 9.1       | SB, SB-C1/C2/M1/M2 | art. 16 for unplayed rounds           |
| Koya (round-robin)                     | 9.2       | KS              |                                         |
| Average rating of opponents            | 10.1      | ARO, ARO-C1/C2/M1/M2 | games over the board only        |
| Tournament performance rating          | 10.2      | TPR             | ARO + dp(p), FIDE B.02 8.1.1 table       |
| Perfect tournament performance         | 10.3      | PTP             | FIDE B.02 8.1.2 expected-score table      |
| Average performance rating of opponents| 10.4      | APRO            |                                         |
| Average perfect performance of opponents| 10.5     | APPO            |                                         |
| Modifiers Cut-1/Cut-2/Median-1/Median-2| 14.1-14.4 | -C1 -C2 -M1 -M2 |                                         |
| Unplayed rounds (pre-determined pairing)| 15.2     | round_robin=True| forfeits are games except art. 7 losses / art. 10 |
| Unplayed rounds management (Swiss)     | 16        | editions below  |                                         |

Editions (``edition=``):

- ``fide-2024`` — C.07 in force 2024-08-01 .. 2026-02-28 (same art. 16 as the 2023 text):
  16.3 an opponent's unplayed rounds count as awarded, except requested byes followed only by
  VURs (or in the last round), which count as draws; 16.4 each own unplayed round is a game
  against a *dummy* whose score is the participant's own score; 16.5 Cut-1 exception.
- ``fide-2026`` — C.07 in force from 2026-03-01: as 2024, but 16.4 caps the dummy's score by
  the scheduled opponent's adjusted score for forfeits (16.4.1) and by draw points x rounds
  for byes (16.4.2).
- ``fide-2009`` — the pre-2023 rules (FIDE Handbook C.02 13.15, GA 2009): an own unplayed
  round is a game against a *virtual opponent* with the player's score before the round, the
  opposite result in that round and draws afterwards (Svon = SPR + (1 - SfPR) + 0.5 (n - R));
  every unplayed round of an opponent counts as a draw; no Cut-1 exception.

Deviations and decisions (each pinned by a test):

- Decision: ``rounds`` (default: the last round in the scorecard) is "the number of rounds in
  the tournament" for 16.2.5 ("last round") and 16.4.2, so mid-event standings treat the
  rounds so far as the whole tournament, as FIDE TEC's TieBreakServer does.
- Decision: 16.5.1 picks the VUR with the *lowest contribution* (the text); TieBreakServer
  orders VURs by dummy score first. The two differ only under the 2026 caps for SB-Cn.
- Decision: a (sno, round) missing from the scorecard is an absence (0 points, a requested
  bye in the sense of 16.1.1).
- §10 (rating-based ARO/TPR/PTP/APRO/APPO) needs a rating for everybody: when a participant is
  unrated (rating null or 0) these tie-breaks are not applicable (null for all, ranked equal)
  unless the regulations say which rating an unrated participant counts with
  (``unrated_rating=``).
- Decision: a player who met nobody over the board (e.g. a forfeit, then absent) gets 0 for
  ARO, ARO-Cn/Mn, TPR, PTP, APRO and APPO, and so ranks after every player with a value: the
  figure Swiss-Manager prints and FIDE TEC's TieBreakServer prints in its tables (``-0``; its
  JSON has ``null``). A player whose games a cut removes entirely (ARO-C1 after one game) has
  no value (null, ranked last), as FIDE's exercise 18 publishes for ARO-C1 of Nick (12).
  Pinned by tests/cli/test_tiebreaks_no_game.py on a TRF checked with TieBreakServer.
- PTP: a 0% score gives the lowest-rated opponent - 800 (§10.3); a 100% score needs no
  exception: the lowest rating reaching it by the B.02 table is the highest opponent + 736,
  as FIDE TEC's TieBreakServer computes it.
- Decision: DE's column value is the DE *place* inside the tie group (1 = first, equal places
  shared: 1, 2, 2, 4), as TieBreakServer prints it, and null (empty) where DE does not apply:
  a player alone in the group, or a group that DE leaves entirely tied (6.2 equal separate
  standings; 6.3 nobody alone at the top whatever the missing games; TieBreakServer prints 0
  there). So the column never suggests an order the rank does not show. The points of the
  separate standings, the article that decided (6.2 all met / 6.3 not all met) and the places
  are in the explanation (see :func:`direct_encounter`).
- Decision: KS's threshold is 50% of the maximum possible score, i.e. 0.5 x ``rounds``.
- Not implemented: team tie-breaks (art. 11-13: EDE, ESB, BC, ...), the codes new in 2026
  (STD, TPN, RTNG), the /P ("forfeits as played") and KS /Lx variants.

Sources of the text: C.07 2026 art. 8, 9, 14-16 as transcribed in the echecsjs SPEC files;
the 2024 art. 16 (no caps) as applied by FIDE TEC's TieBreakServer and reproduced by IA Held's
exercise answers; art. 6.3 and 10 as quoted in lichess' scalachess Tiebreak.scala and a 2026
regulations digest; C.02 13.15 (2009) as implemented by marceljuenemann/tiebreak. Every value
FIDE's exercise publishes is reproduced (tests/rulebook/test_tiebreaks_reference.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, cast

import polars as pl

from transforms.core.errors import ConfigError
from transforms.core.model import SCORECARD_SCHEMA, Kind

# the FIDE B.02 8.1 tables live in transforms/fide/ratings.py (with their SOURCE); re-exported
from transforms.fide.ratings import dp_from_p as dp_from_p
from transforms.fide.ratings import expected_hundredths as expected_hundredths
from transforms.fide.ratings import performance_rating as aro_plus_dp

WIN_POINTS = 1.0
DRAW_POINTS = 0.5


class Edition(StrEnum):
    """Which text of FIDE C.07 decides the unplayed rounds."""

    FIDE_2009 = "fide-2009"
    """Pre-2023 rules: virtual opponent (C.02 13.15, GA 2009)."""
    FIDE_2024 = "fide-2024"
    """C.07 in force 2024-08-01 .. 2026-02-28 (dummy opponent, art. 16)."""
    FIDE_2026 = "fide-2026"
    """C.07 in force from 2026-03-01 (art. 16.4 caps)."""


class UnknownTiebreak(ConfigError):
    """A tie-break code (or edition) that the registry does not know."""

    def __init__(self, code: str, *, file: str = "event.toml", key: str = "swiss.tiebreaks",
                 reason: str | None = None):
        self.code = code
        super().__init__(file, key, reason or (
            f"unknown tie-break code {code!r}; known: {', '.join(known_codes())}"))


@dataclass(frozen=True, slots=True)
class Modifier:
    """C.07 art. 14: how many least (``low``) and most (``high``) significant values to cut."""

    low: int = 0
    high: int = 0


_MODIFIERS = {"": Modifier(), "C1": Modifier(1, 0), "C2": Modifier(2, 0),
              "M1": Modifier(1, 1), "M2": Modifier(2, 2)}


@dataclass(frozen=True, slots=True)
class Context:
    """What every tie-break function sees."""

    card: pl.DataFrame
    """The prepared scorecard (see :func:`prepare_card`)."""
    players: pl.DataFrame
    """sno, rating."""
    edition: Edition
    rounds: int
    round_robin: bool
    groups: pl.DataFrame | None = None
    """sno, group — the tie groups DE works in (points and the tie-breaks before DE)."""
    unrated_rating: int | None = None
    """The rating an unrated participant counts with in §10 tie-breaks, if the rules say so."""


@dataclass(frozen=True, slots=True)
class TiebreakResult:
    """One tie-break for every player, and the contributions behind it."""

    values: pl.DataFrame
    """sno, value (Float64, null where undefined)."""
    detail: pl.DataFrame
    """sno, round, opponent_sno, opponent, value, dropped_by_cut, note (see DETAIL_SCHEMA)."""
    key: pl.DataFrame | None = None
    """sno, key — sort key where it differs from ``value`` (DE); higher ranks first."""


DETAIL_SCHEMA: dict[str, pl.DataType] = {
    "sno": pl.Int32(), "round": pl.Int32(), "opponent_sno": pl.Int32(), "opponent": pl.String(),
    "value": pl.Float64(), "dropped_by_cut": pl.Boolean(), "note": pl.String(),
}
"""``opponent`` is the opponent's start number as text, ``dummy`` (16.4), ``virtual``
(2009 rules) or empty for per-round values that have no opponent (PS, WIN, ...)."""

TiebreakFn = Callable[[Context, Modifier], TiebreakResult]


# --------------------------------------------------------------------------- preparation


def prepare_card(scorecard: pl.DataFrame, snos: pl.Series, rounds: int) -> pl.DataFrame:
    """FIDE C.07 §16 — the scorecard for rounds 1..``rounds`` with one row per player and round,
    plus the flags art. 16 needs.

    Added columns: ``played`` (over the board), ``paired`` (an opponent, game or forfeit),
    ``vur`` (16.1.2: requested bye — HPB, ZPB, absence — or forfeit loss), ``req_bye``
    (16.1.1), ``cat5`` (16.2.5: a requested bye followed only by VURs, or in the last round),
    ``score`` (the player's total), ``score_before`` (the score before the round).
    """
    card = scorecard.select(list(SCORECARD_SCHEMA)).cast(SCORECARD_SCHEMA)  # type: ignore[arg-type]  # polars#14468: cast() rejects a dict[str, DataType] variable
    card = card.filter(pl.col("round") <= rounds)
    grid = (pl.DataFrame({"sno": snos.unique().sort().cast(pl.Int32)})
            .join(pl.DataFrame({"round": pl.int_range(1, rounds + 1, eager=True, dtype=pl.Int32)}),
                  how="cross"))
    card = (
        grid.join(card, on=["sno", "round"], how="left")
        .with_columns(
            pl.col("kind").fill_null(str(Kind.ABSENT)),
            pl.col("points").fill_null(0.0),
            pl.when(pl.col("colour").is_in(["w", "b"])).then(pl.col("colour")).alias("colour"),
        )
    )
    return _flag(card)


def _flag(card: pl.DataFrame) -> pl.DataFrame:
    kind = pl.col("kind")
    card = card.drop([c for c in ("played", "paired", "vur", "req_bye", "cat5", "score",
                                  "score_before") if c in card.columns])
    card = card.sort(["sno", "round"]).with_columns(
        (kind == str(Kind.PLAYED)).alias("played"),
        (pl.col("opponent").is_not_null()
         & kind.is_in([str(Kind.PLAYED), str(Kind.FORFEIT_WIN), str(Kind.FORFEIT_LOSS)]))
        .alias("paired"),
        kind.is_in([str(Kind.HPB), str(Kind.ZPB), str(Kind.ABSENT), str(Kind.FORFEIT_LOSS)])
        .alias("vur"),
        kind.is_in([str(Kind.HPB), str(Kind.ZPB), str(Kind.ABSENT)]).alias("req_bye"),
    )
    last_non_vur = (pl.when(~pl.col("vur")).then(pl.col("round")).otherwise(0)
                    .max().over("sno"))
    return card.with_columns(
        (pl.col("req_bye") & (pl.col("round") > last_non_vur)).alias("cat5"),
        pl.col("points").sum().over("sno").alias("score"),
        (pl.col("points").cum_sum().over("sno") - pl.col("points")).alias("score_before"),
    )


def adjusted_scores(ctx: Context, card: pl.DataFrame | None = None) -> pl.DataFrame:
    """FIDE C.07 §16.3 — a participant's score as used in the opponents' tie-breaks.

    fide-2024/2026: unplayed rounds count as awarded (16.3.1) except category 16.2.5 (requested
    byes followed only by VURs, or in the last round), which count as draws (16.3.2).
    fide-2009 (C.02 13.15 b): every unplayed round of an opponent counts as a draw.
    round_robin (15.2): forfeits are regular games, so the score is the score.
    Returns sno, adj_score."""
    card = ctx.card if card is None else card
    if ctx.round_robin:
        value = pl.col("points")
    elif ctx.edition is Edition.FIDE_2009:
        value = pl.when(pl.col("played")).then(pl.col("points")).otherwise(DRAW_POINTS)
    else:
        value = pl.when(pl.col("cat5")).then(DRAW_POINTS).otherwise(pl.col("points"))
    return card.group_by("sno").agg(value.sum().alias("adj_score"))


def _opponent_elements(ctx: Context, card: pl.DataFrame | None = None) -> pl.DataFrame:
    """FIDE C.07 §16.4 — one element per round for BH/SB: the opponent's adjusted score for a
    game, the dummy's (2024/2026) or virtual opponent's (2009) score for an unplayed round.

    Columns: sno, round, opponent_sno, opponent, opp_score, points, vur, note.
    Round-robin (15.2): forfeits are games against the scheduled opponent; byes and absences
    (which a round robin should not have) contribute nothing."""
    card = ctx.card if card is None else card
    adj = adjusted_scores(ctx, card).rename({"sno": "opponent", "adj_score": "opp_adj"})
    c = card.join(adj, on="opponent", how="left")
    game = pl.col("paired") if ctx.round_robin else pl.col("played") & pl.col("opponent").is_not_null()
    forfeit = pl.col("kind").is_in([str(Kind.FORFEIT_WIN), str(Kind.FORFEIT_LOSS)])
    rounds = ctx.rounds
    if ctx.edition is Edition.FIDE_2024:
        unplayed = pl.col("score")
        note = pl.lit("16.4 dummy: own score")
    elif ctx.edition is Edition.FIDE_2026:
        unplayed = (pl.when(forfeit & pl.col("opp_adj").is_not_null())
                    .then(pl.min_horizontal("score", "opp_adj"))
                    .otherwise(pl.min_horizontal(pl.col("score"), pl.lit(DRAW_POINTS * rounds))))
        note = (pl.when(forfeit & pl.col("opp_adj").is_not_null())
                .then(pl.lit("16.4.1 dummy: own score capped by opponent's adjusted score"))
                .otherwise(pl.lit("16.4.2 dummy: own score capped at draws x rounds")))
    else:
        unplayed = (pl.col("score_before") + (WIN_POINTS - pl.col("points"))
                    + DRAW_POINTS * (rounds - pl.col("round")))
        note = pl.lit("C.02 13.15 virtual opponent: score before + opposite result + draws")
    out = c.with_columns(
        pl.when(game).then(pl.col("opp_adj")).otherwise(unplayed).alias("opp_score"),
        pl.when(game).then(pl.col("opponent").cast(pl.String))
        .otherwise(pl.lit("virtual" if ctx.edition is Edition.FIDE_2009 else "dummy"))
        .alias("opponent_label"),
        pl.when(game).then(pl.lit("game" if not ctx.round_robin else "game (15.2)"))
        .otherwise(pl.concat_str([pl.col("kind"), pl.lit(": "), note])).alias("note"),
    )
    if ctx.round_robin:
        out = out.filter(game)
    return out.select(
        "sno", "round", pl.col("opponent").alias("opponent_sno"),
        pl.col("opponent_label").alias("opponent"), "opp_score", "points",
        (pl.col("vur") & ~pl.lit(ctx.round_robin)).alias("vur"), "note",
    )


def apply_cuts(elements: pl.DataFrame, mod: Modifier, *, sig: str, val: str,
               vur_exception: bool) -> pl.DataFrame:
    """FIDE C.07 §14 and §16.5 — mark the cut elements (``dropped_by_cut``).

    The least significant value is the element with the lowest ``sig`` (ties: lowest ``val``,
    14.1.1 d). §16.5.1: for a participant with VURs, the lowest contribution from a VUR is cut
    instead, as long as it is not lower than the least significant value; §16.5.2 repeats
    this for each further cut. Median cuts the least, then the most significant (14.3/14.4);
    16.5 concerns the least significant value only."""
    df = elements.with_columns(pl.lit(False).alias("dropped_by_cut"))
    for _ in range(mod.low):
        rem = df.filter(~pl.col("dropped_by_cut"))
        lsv = (rem.sort(["sno", sig, val, "round"]).group_by("sno", maintain_order=True)
               .agg(pl.col("round").first().alias("_lr"), pl.col(val).first().alias("_lv")))
        if vur_exception:
            vmin = (rem.filter(pl.col("vur")).sort(["sno", val, sig, "round"])
                    .group_by("sno", maintain_order=True)
                    .agg(pl.col("round").first().alias("_vr"), pl.col(val).first().alias("_vv")))
            lsv = lsv.join(vmin, on="sno", how="left").with_columns(
                pl.when(pl.col("_vr").is_not_null() & (pl.col("_vv") >= pl.col("_lv")))
                .then(pl.col("_vr")).otherwise(pl.col("_lr")).alias("_lr"))
        df = (df.join(lsv.select("sno", "_lr"), on="sno", how="left")
              .with_columns((pl.col("dropped_by_cut") | (pl.col("round") == pl.col("_lr")).fill_null(False))
                            .alias("dropped_by_cut")).drop("_lr"))
    for _ in range(mod.high):
        rem = df.filter(~pl.col("dropped_by_cut"))
        msv = (rem.sort(["sno", sig, val, "round"], descending=[False, True, True, False])
               .group_by("sno", maintain_order=True).agg(pl.col("round").first().alias("_hr")))
        df = (df.join(msv, on="sno", how="left")
              .with_columns((pl.col("dropped_by_cut") | (pl.col("round") == pl.col("_hr")).fill_null(False))
                            .alias("dropped_by_cut")).drop("_hr"))
    return df


def _detail(df: pl.DataFrame, *, value: str, opponent_sno: str | None = "opponent_sno",
            opponent: str | None = "opponent", note: str | pl.Expr = "note") -> pl.DataFrame:
    cols = [
        pl.col("sno").cast(pl.Int32),
        pl.col("round").cast(pl.Int32),
        (pl.col(opponent_sno) if opponent_sno else pl.lit(None)).cast(pl.Int32).alias("opponent_sno"),
        (pl.col(opponent) if opponent else pl.lit("")).cast(pl.String).fill_null("").alias("opponent"),
        pl.col(value).cast(pl.Float64).alias("value"),
        (pl.col("dropped_by_cut") if "dropped_by_cut" in df.columns else pl.lit(False))
        .alias("dropped_by_cut"),
        (pl.col(note) if isinstance(note, str) else note).cast(pl.String).alias("note"),
    ]
    return df.select(cols)


def _sum_values(ctx: Context, detail: pl.DataFrame) -> pl.DataFrame:
    all_snos = ctx.card.select("sno").unique()
    sums = (detail.filter(~pl.col("dropped_by_cut")).group_by("sno")
            .agg(pl.col("value").sum().alias("value")))
    return all_snos.join(sums, on="sno", how="left").with_columns(
        pl.col("value").fill_null(0.0).cast(pl.Float64)).sort("sno")


def _round_half_up(expr: pl.Expr, decimals: int) -> pl.Expr:
    f = 10.0 ** decimals
    return ((expr * f + 0.5 + 1e-9).floor() / f)


# --------------------------------------------------------------------------- tie-breaks


def buchholz(ctx: Context, mod: Modifier) -> TiebreakResult:
    """FIDE C.07 §8.1 — Buchholz: the sum of the opponents' (adjusted, §16.3) scores; own
    unplayed rounds count the dummy (§16.4) or virtual opponent (2009); cuts per §14/§16.5."""
    el = _opponent_elements(ctx)
    el = apply_cuts(el, mod, sig="opp_score", val="opp_score", vur_exception=_vur_exception(ctx))
    detail = _detail(el, value="opp_score")
    return TiebreakResult(_sum_values(ctx, detail), detail)


def sonneborn_berger(ctx: Context, mod: Modifier) -> TiebreakResult:
    """FIDE C.07 §9.1 — Sonneborn-Berger: for each round, the opponent's (adjusted) score times
    the points scored against them; unplayed rounds against the dummy/virtual opponent with
    the points awarded (§16.4); Cut-1 drops the contribution of the lowest-scored opponent
    (the lowest such contribution if several, §14.1.1 d) with the §16.5 VUR exception."""
    el = _opponent_elements(ctx).with_columns((pl.col("opp_score") * pl.col("points")).alias("sb"))
    el = apply_cuts(el, mod, sig="opp_score", val="sb", vur_exception=_vur_exception(ctx))
    detail = _detail(el, value="sb", note=pl.concat_str(
        [pl.col("note"), pl.lit(" ("), pl.col("opp_score").cast(pl.String), pl.lit(" x "),
         pl.col("points").cast(pl.String), pl.lit(")")]))
    return TiebreakResult(_sum_values(ctx, detail), detail)


def fore_buchholz(ctx: Context, mod: Modifier) -> TiebreakResult:
    """FIDE C.07 §8.3 — Fore Buchholz: Buchholz as if every paired game of the final round
    (``rounds``) had been drawn; forfeits in that round are paired games too, so they become
    draws over the board. Unplayed rounds as in §16 on that modified record."""
    last = pl.col("round") == ctx.rounds
    card = ctx.card.with_columns(
        pl.when(last & pl.col("paired")).then(pl.lit(str(Kind.PLAYED))).otherwise(pl.col("kind"))
        .alias("kind"),
        pl.when(last & pl.col("paired")).then(pl.lit(DRAW_POINTS)).otherwise(pl.col("points"))
        .alias("points"),
    )
    return buchholz(replace(ctx, card=_flag(card)), mod)


def average_of_opponents_buchholz(ctx: Context, mod: Modifier) -> TiebreakResult:
    """FIDE C.07 §8.2 — AOB: the average of the Buchholz of the opponents played over the board.

    Decision: rounded half up to 2 decimals, as FIDE's worked exercise prints it (13.375 → 13.38)."""
    bh = buchholz(ctx, Modifier()).values.rename({"sno": "opponent", "value": "opp_bh"})
    games = (ctx.card.filter(pl.col("played") & pl.col("opponent").is_not_null())
             .join(bh, on="opponent", how="left"))
    detail = _detail(games.with_columns(pl.col("opponent").alias("opponent_sno"),
                                        pl.col("opponent").cast(pl.String).alias("opponent_label")),
                     value="opp_bh", opponent="opponent_label", note=pl.lit("opponent's BH"))
    avg = detail.group_by("sno").agg(_round_half_up(pl.col("value").mean(), 2).alias("value"))
    return TiebreakResult(_all(ctx, avg), detail)


def koya(ctx: Context, mod: Modifier) -> TiebreakResult:
    """FIDE C.07 §9.2 — Koya (round-robin): points scored against the opponents who reached
    50% or more of the maximum possible score. Forfeits are games (§15.2).

    Decision: the maximum possible score is ``rounds`` points (threshold 0.5 x rounds)."""
    score = ctx.card.group_by("sno").agg(pl.col("points").sum().alias("opp_total")).rename(
        {"sno": "opponent"})
    games = (ctx.card.filter(pl.col("paired")).join(score, on="opponent", how="left")
             .filter(pl.col("opp_total") >= DRAW_POINTS * ctx.rounds))
    detail = _detail(games.with_columns(pl.col("opponent").alias("opponent_sno"),
                                        pl.col("opponent").cast(pl.String).alias("opponent_label")),
                     value="points", opponent="opponent_label",
                     note=pl.lit("opponent with >= 50%"))
    return TiebreakResult(_sum_values(ctx, detail), detail)


def _count(ctx: Context, cond: pl.Expr, note: str) -> TiebreakResult:
    rows = ctx.card.filter(cond).with_columns(pl.lit(1.0).alias("one"),
                                               pl.col("opponent").alias("opponent_sno"),
                                               pl.col("opponent").cast(pl.String).alias("opp_label"))
    detail = _detail(rows, value="one", opponent="opp_label",
                     note=pl.concat_str([pl.lit(note + ": "), pl.col("kind")]))
    return TiebreakResult(_sum_values(ctx, detail), detail)


def _over_the_board(ctx: Context) -> pl.Expr:
    """Art. 7 'games': over the board; in a round robin forfeit wins are games, forfeit losses
    stay unplayed (§15.2)."""
    if ctx.round_robin:
        return pl.col("played") | (pl.col("kind") == str(Kind.FORFEIT_WIN))
    return pl.col("played")


def wins(ctx: Context, mod: Modifier) -> TiebreakResult:
    """FIDE C.07 §7.1 — WIN: rounds in which the participant scored the points of a win, with
    or without playing (forfeit wins, PAB and FPB count; National Junior 2024 (e): "wins
    (forfeit included)")."""
    return _count(ctx, pl.col("points") >= WIN_POINTS, "win")


def games_won(ctx: Context, mod: Modifier) -> TiebreakResult:
    """FIDE C.07 §7.2 — WON: games won over the board."""
    return _count(ctx, _over_the_board(ctx) & (pl.col("points") >= WIN_POINTS), "game won")


def black_games(ctx: Context, mod: Modifier) -> TiebreakResult:
    """FIDE C.07 §7.3 — BPG: games played over the board with Black."""
    return _count(ctx, _over_the_board(ctx) & (pl.col("colour") == "b"), "game with Black")


def black_wins(ctx: Context, mod: Modifier) -> TiebreakResult:
    """FIDE C.07 §7.4 — BWG: games won over the board with Black (forfeits excluded)."""
    return _count(ctx, _over_the_board(ctx) & (pl.col("colour") == "b")
                  & (pl.col("points") >= WIN_POINTS), "win with Black")


def elected_to_play(ctx: Context, mod: Modifier) -> TiebreakResult:
    """FIDE C.07 §7.6 — REP (formerly GE): rounds the participant elected to play, i.e. every
    round that is not a VUR (§16.1.2: requested byes, absences and forfeit losses)."""
    return _count(ctx, ~pl.col("vur"), "elected to play")


def progressive(ctx: Context, mod: Modifier) -> TiebreakResult:
    """FIDE C.07 §7.5 — PS: the sum of the running scores after each round; Cut-n drops the
    first n running scores (§14.1.1 c), Median also the last."""
    el = ctx.card.with_columns(
        pl.col("points").cum_sum().over("sno", order_by="round").alias("running"),
        pl.col("round").cast(pl.Float64).alias("_sig"), pl.lit(False).alias("vur"))
    el = apply_cuts(el, mod, sig="_sig", val="running", vur_exception=False)
    detail = _detail(el, value="running", opponent_sno=None, opponent=None,
                     note=pl.lit("score after the round"))
    return TiebreakResult(_sum_values(ctx, detail), detail)


def _rated_games(ctx: Context) -> pl.DataFrame:
    """Games over the board (§10, §15.2: forfeits never count) with the opponent's rating;
    empty when a participant is unrated and no ``unrated_rating`` is set (§10 not applicable)."""
    rating = pl.col("rating").cast(pl.Float64)
    unrated = rating.is_null() | (rating <= 0)
    if ctx.unrated_rating is not None:
        rating = pl.when(unrated).then(pl.lit(float(ctx.unrated_rating))).otherwise(rating)
    elif ctx.players.select(unrated.any()).item():
        rating = pl.lit(None, pl.Float64)
    ratings = ctx.players.select(pl.col("sno").cast(pl.Int32).alias("opponent"),
                                 rating.alias("opp_rating"))
    return (ctx.card.filter(pl.col("played") & pl.col("opponent").is_not_null())
            .join(ratings, on="opponent", how="left")
            .filter(pl.col("opp_rating").is_not_null())
            .with_columns(pl.lit(False).alias("vur"), pl.col("opponent").alias("opponent_sno"),
                          pl.col("opponent").cast(pl.String).alias("opp_label")))


def _all(ctx: Context, values: pl.DataFrame) -> pl.DataFrame:
    return (ctx.card.select("sno").unique().join(values, on="sno", how="left")
            .with_columns(pl.col("value").cast(pl.Float64)).sort("sno"))


def _rating_values(ctx: Context, values: pl.DataFrame) -> pl.DataFrame:
    """§10 values of every player: 0 for a player who met nobody over the board (see the
    module's Decision), null where a cut removed every game, and null for everybody where §10
    is not applicable (an unrated participant and no ``unrated_rating``)."""
    out = _all(ctx, values)
    games = _rated_games(ctx)
    if games.is_empty() and ctx.unrated_rating is None:
        rating = pl.col("rating").cast(pl.Float64)
        if ctx.players.select((rating.is_null() | (rating <= 0)).any()).item():
            return out  # §10 not applicable
    met = games["sno"].unique().implode()
    return out.with_columns(pl.when(pl.col("sno").is_in(met)).then(pl.col("value"))
                            .otherwise(pl.col("value").fill_null(0.0)).alias("value"))


def average_rating_of_opponents(ctx: Context, mod: Modifier) -> TiebreakResult:
    """FIDE C.07 §10.1 — ARO: the average rating of the opponents met over the board, rounded
    to the nearest whole number (half up); cuts drop the lowest/highest ratings (§14)."""
    el = apply_cuts(_rated_games(ctx), mod, sig="opp_rating", val="opp_rating",
                    vur_exception=False)
    detail = _detail(el, value="opp_rating", opponent="opp_label", note=pl.lit("opponent's rating"))
    avg = (detail.filter(~pl.col("dropped_by_cut")).group_by("sno")
           .agg(_round_half_up(pl.col("value").mean(), 0).alias("value")))
    return TiebreakResult(_rating_values(ctx, avg), detail)


def _performance(ctx: Context) -> pl.DataFrame:
    """sno, tpr, ptp — FIDE C.07 §10.2 and §10.3 over rated games (plain Python: PTP is a search)."""
    games = _rated_games(ctx).select("sno", "points", "opp_rating")
    rows = []
    for (sno,), g in games.group_by(["sno"]):
        ratings = [int(r) for r in g["opp_rating"]]
        score100 = round(sum(g["points"]) * 100)
        tpr = aro_plus_dp(ratings, score100 / 100)
        assert tpr is not None  # (a group has at least one rated game)
        if score100 == 0:
            ptp = min(ratings) - 800
        else:
            r = tpr
            while sum(expected_hundredths(r - o) for o in ratings) >= score100:
                r -= 1
            while sum(expected_hundredths(r - o) for o in ratings) < score100:
                r += 1
            ptp = r
        rows.append({"sno": sno, "tpr": float(tpr), "ptp": float(ptp)})
    schema = {"sno": pl.Int32, "tpr": pl.Float64, "ptp": pl.Float64}
    return pl.DataFrame(rows, schema=schema) if rows else pl.DataFrame(schema=schema)


def performance_rating(ctx: Context, mod: Modifier) -> TiebreakResult:
    """FIDE C.07 §10.2 — TPR: ARO (rounded) + dp(p), p = score / games in rated games over the
    board, rounded to hundredths half up; dp from FIDE B.02 8.1.1."""
    perf = _performance(ctx)
    detail = _detail(_rated_games(ctx), value="opp_rating", opponent="opp_label",
                     note=pl.concat_str([pl.lit("opponent's rating, scored "),
                                         pl.col("points").cast(pl.String)]))
    return TiebreakResult(_rating_values(ctx, perf.select("sno", pl.col("tpr").alias("value"))), detail)


def perfect_performance(ctx: Context, mod: Modifier) -> TiebreakResult:
    """FIDE C.07 §10.3 — PTP: the lowest rating whose expected score (FIDE B.02 8.1.2) against
    the opponents met reaches the score; a zero score gives the lowest opponent - 800."""
    perf = _performance(ctx)
    detail = _detail(_rated_games(ctx), value="opp_rating", opponent="opp_label",
                     note=pl.lit("opponent's rating"))
    return TiebreakResult(_rating_values(ctx, perf.select("sno", pl.col("ptp").alias("value"))), detail)


def _average_of_opponents(ctx: Context, column: str, note: str) -> TiebreakResult:
    perf = _performance(ctx).select(pl.col("sno").alias("opponent"), pl.col(column).alias("opp_v"))
    games = (ctx.card.filter(pl.col("played") & pl.col("opponent").is_not_null())
             .join(perf, on="opponent", how="inner")
             .with_columns(pl.col("opponent").alias("opponent_sno"),
                           pl.col("opponent").cast(pl.String).alias("opp_label")))
    detail = _detail(games, value="opp_v", opponent="opp_label", note=pl.lit(note))
    avg = detail.group_by("sno").agg(_round_half_up(pl.col("value").mean(), 0).alias("value"))
    return TiebreakResult(_rating_values(ctx, avg), detail)


def average_performance_of_opponents(ctx: Context, mod: Modifier) -> TiebreakResult:
    """FIDE C.07 §10.4 — APRO: the average TPR of the opponents met over the board (rounded)."""
    return _average_of_opponents(ctx, "tpr", "opponent's TPR")


def average_perfect_performance_of_opponents(ctx: Context, mod: Modifier) -> TiebreakResult:
    """FIDE C.07 §10.5 — APPO: the average PTP of the opponents met over the board (rounded)."""
    return _average_of_opponents(ctx, "ptp", "opponent's PTP")


def direct_encounter(ctx: Context, mod: Modifier) -> TiebreakResult:
    """FIDE C.07 §6 — Direct encounter, inside each tie group (``ctx.groups``: players equal on
    points and on every tie-break before DE). DE is an order, not a sum.

    - 6.1: the points each scored in the games among them make separate standings.
    - 6.2 (all met): the separate standings rank them; those still equal are ranked again by
      art. 6 among themselves, until nothing changes.
    - 6.3 (not all met, Swiss): a participant is ranked ahead of the others only if alone at the
      top whatever the outcome of the missing games (their points exceed the most any other
      could reach by winning every missing encounter); the same for the next place, and so on;
      art. 6 is re-applied to the rest of the group (as FIDE TEC's TieBreakServer and IA Held's
      exercises 23-25 have it).
    - Encounters are games over the board (6.1.1, Swiss); in a round robin forfeits count
      (§15.2). Several games against one opponent count as their average (6.1.2).

    Decision: ``value`` is the DE place inside the tie group — 1 for the first, equal places
    shared (1, 2, 2, 4), as FIDE TEC's TieBreakServer prints DE — where DE separated the group;
    null where DE does not apply: a player alone in the group, or a group DE leaves entirely
    tied (6.2: equal separate standings; 6.3: nobody alone at the top whatever the missing
    games). TieBreakServer prints 0 there; a null keeps the column from showing an order the
    rank does not show. ``key`` = minus the DE position (ranking). The explanation lists the
    games inside the group and one summary row per tied player: value = the separate-standings
    points, note = the group, the article that decided and the places."""
    groups = ctx.groups if ctx.groups is not None else ctx.card.select("sno").unique().with_columns(
        pl.lit(0).alias("group"))
    enc_cond = pl.col("paired") if ctx.round_robin else pl.col("played") & pl.col("opponent").is_not_null()
    g = groups.select(pl.col("sno").cast(pl.Int32), "group")
    enc = (ctx.card.filter(enc_cond).select("sno", "round", "opponent", "points")
           .join(g, on="sno").join(g.rename({"sno": "opponent", "group": "og"}), on="opponent")
           .filter(pl.col("group") == pl.col("og")))
    pair_pts: dict[int, dict[int, float]] = {}
    for s, o, p in enc.group_by("sno", "opponent").agg(pl.col("points").mean()).iter_rows():
        pair_pts.setdefault(s, {})[o] = p
    members_of: dict[int, list[int]] = {}
    for s, grp in g.iter_rows():
        members_of.setdefault(grp, []).append(s)
    places: dict[int, float] = {}
    positions: dict[int, int] = {}
    summary: list[dict[str, Any]] = []
    for grp in sorted(members_of):
        snos = sorted(members_of[grp])
        order = _de_order(snos, pair_pts, ctx.round_robin)
        positions.update(order)
        if len(snos) < 2:
            continue
        decided = len(set(order.values())) > 1
        if decided:
            places.update({s: float(order[s] + 1) for s in snos})
        step = _de_step(snos, pair_pts, ctx.round_robin)
        note = _de_note(snos, order, step, decided)
        summary.extend({"sno": s, "round": None, "opponent_sno": None, "opponent": "",
                        "value": step.score[s], "dropped_by_cut": False, "note": note}
                       for s in snos)
    detail = _detail(enc.with_columns(pl.col("opponent").alias("opponent_sno"),
                                      pl.col("opponent").cast(pl.String).alias("opp_label")),
                     value="points", opponent="opp_label", note=pl.lit("game inside the tie group"))
    if summary:
        detail = pl.concat([detail, pl.DataFrame(summary, schema=DETAIL_SCHEMA)])
    values = pl.DataFrame({"sno": list(places), "value": list(places.values())},
                          schema={"sno": pl.Int32, "value": pl.Float64})
    key = pl.DataFrame({"sno": list(positions), "key": [-float(p) for p in positions.values()]},
                       schema={"sno": pl.Int32, "key": pl.Float64})
    return TiebreakResult(_all(ctx, values), detail, key)


@dataclass(frozen=True, slots=True)
class _DeStep:
    """One application of art. 6 to a set of tied players."""

    all_met: bool
    score: dict[int, float]
    """6.1: points scored in the games among them (the separate standings)."""
    best: dict[int, float]
    """6.3: the most reachable, every missing encounter won."""
    pos: dict[int, int]
    """Positions (0 = best) this step assigns; equal positions are still tied."""


def _de_step(snos: list[int], pts: dict[int, dict[int, float]], round_robin: bool) -> _DeStep:
    """``pts``: each player's points against each opponent met inside the tie group (the
    average of several games, 6.1.2); a player's score walks its own encounters, not every
    pair of the group (a score group of a 3,000-player open holds hundreds)."""
    among = set(snos)
    score: dict[int, float] = {}
    met: dict[int, int] = {}
    for s in snos:
        inside = [p for o, p in sorted(pts.get(s, {}).items()) if o in among and o != s]
        score[s], met[s] = float(sum(inside)), len(inside)
    all_met = round_robin or all(met[s] == len(snos) - 1 for s in snos)
    best = {s: score[s] + (0 if all_met else (len(snos) - 1 - met[s]) * WIN_POINTS) for s in snos}
    order = sorted(snos, key=lambda s: (-score[s], -best[s], s))
    pos: dict[int, int] = {order[0]: 0}
    if all_met:
        for i in range(1, len(order)):
            s, prev = order[i], order[i - 1]
            pos[s] = i if score[s] != score[prev] else pos[prev]
    else:
        separated = True
        for i in range(1, len(order)):
            if separated and score[order[i - 1]] > max(best[s] for s in order[i:]):
                pos[order[i]] = i
            else:
                separated = False
                pos[order[i]] = pos[order[i - 1]]
    return _DeStep(all_met, score, best, pos)


def _de_order(snos: list[int], pts: dict[int, dict[int, float]], round_robin: bool) -> dict[int, int]:
    """Positions (0 = best) of ``snos`` by art. 6, re-applied to sub-groups still equal."""
    if len(snos) < 2:
        return {s: 0 for s in snos}
    pos = _de_step(snos, pts, round_robin).pos
    out: dict[int, int] = {}
    for p in sorted(set(pos.values())):
        sub = [s for s in snos if pos[s] == p]
        if len(sub) == len(snos):  # nothing separated: stop (art. 6 applies only while it changes)
            return {s: p for s in sub}
        for s, q in _de_order(sub, pts, round_robin).items():
            out[s] = p + q
    return out


def _points_text(x: float) -> str:
    return f"{x:g}"


def _de_note(snos: list[int], order: dict[int, int], step: _DeStep, decided: bool) -> str:
    """The explanation of one tie group: who, which article, the separate standings, the places."""
    by_place = sorted(snos, key=lambda s: (order[s], s)) if decided else sorted(snos)
    who = f"tie group {', '.join(map(str, by_place))}"
    if step.all_met:
        rule = "all met: C.07 6.2, the games among them decide"
        scores = ", ".join(f"{s}: {_points_text(step.score[s])}" for s in by_place)
    else:
        rule = ("not all met: C.07 6.3, a player is placed only if alone at the top whatever "
                "the missing games")
        scores = ", ".join(f"{s}: {_points_text(step.score[s])} (at most "
                           f"{_points_text(step.best[s])})" for s in by_place)
    text = f"{who}: {rule}; points among them {scores}; "
    if not decided:
        return text + ("equal: DE does not separate them" if step.all_met else
                       "nobody is alone at the top whatever the missing games: DE does not apply")
    again = any(order[s] != step.pos[s] for s in snos)
    return (text + "DE places " + ", ".join(f"{s}: {order[s] + 1}" for s in by_place)
            + (" (art. 6 re-applied to those still equal)" if again else ""))


def _vur_exception(ctx: Context) -> bool:
    return ctx.edition is not Edition.FIDE_2009 and not ctx.round_robin


REGISTRY: dict[str, TiebreakFn] = {
    "DE": direct_encounter,
    "WIN": wins,
    "WON": games_won,
    "BPG": black_games,
    "BWG": black_wins,
    "PS": progressive,
    "REP": elected_to_play,
    "BH": buchholz,
    "AOB": average_of_opponents_buchholz,
    "FB": fore_buchholz,
    "SB": sonneborn_berger,
    "KS": koya,
    "ARO": average_rating_of_opponents,
    "TPR": performance_rating,
    "PTP": perfect_performance,
    "APRO": average_performance_of_opponents,
    "APPO": average_perfect_performance_of_opponents,
}
"""FIDE code (without modifier) → tie-break function."""

_TAKES_MODIFIER = frozenset({"BH", "FB", "SB", "ARO", "PS"})
_ALIASES = {"GE": "REP"}


def known_codes() -> list[str]:
    """FIDE C.07 — every code of the registry, for error messages and the input reference."""
    mods = [m for m in _MODIFIERS if m]
    return [c for base in REGISTRY for c in
            ([base] + ([f"{base}-{m}" for m in mods] if base in _TAKES_MODIFIER else []))]


def parse_code(code: str, *, key: str = "swiss.tiebreaks", file: str = "event.toml"
               ) -> tuple[str, str, Modifier]:
    """FIDE C.07 — a code of the registry in its canonical spelling: ``'bh/c1'`` → ``('BH-C1', 'BH',
    Modifier(1, 0))``; Vega's ``/`` is accepted. Raises :class:`UnknownTiebreak` naming the key."""
    text = code.strip().upper().replace("/", "-").replace(" ", "")
    m = re.fullmatch(r"([A-Z]+)(?:-(C1|C2|M1|M2))?", text)
    if not m:
        raise UnknownTiebreak(code, key=key, file=file)
    base = _ALIASES.get(m.group(1), m.group(1))
    mod = m.group(2) or ""
    if base not in REGISTRY or (mod and base not in _TAKES_MODIFIER):
        raise UnknownTiebreak(code, key=key, file=file)
    return (f"{base}-{mod}" if mod else base), base, _MODIFIERS[mod]


def parse_edition(edition: str | Edition, *, key: str = "swiss.tiebreak_edition",
                  file: str = "event.toml") -> Edition:
    """FIDE C.07 — the edition named by ``edition``; a :class:`ConfigError` naming ``key``
    otherwise."""
    try:
        return Edition(str(edition).strip().lower())
    except ValueError:
        raise UnknownTiebreak(str(edition), key=key, file=file, reason=(
            f"unknown tie-break edition {edition!r}; known: "
            f"{', '.join(e.value for e in Edition)}")) from None


# --------------------------------------------------------------------------- evaluation


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Every configured tie-break for every player."""

    codes: tuple[str, ...]
    """Canonical codes, in the configured order."""
    values: pl.DataFrame
    """sno, points, one Float64 column per code."""
    keys: pl.DataFrame
    """sno, points, one sort key per code (higher ranks first; DE's position is negated)."""
    detail: pl.DataFrame
    """code + DETAIL_SCHEMA columns."""


def evaluate_tiebreaks(scorecard: pl.DataFrame, players: pl.DataFrame, codes: Sequence[str], *,
                       edition: str | Edition, rounds: int | None = None,
                       round_robin: bool = False, unrated_rating: int | None = None) -> Evaluation:
    """FIDE C.07 — compute the configured tie-breaks in order; DE sees the tie groups formed by
    points and the tie-breaks before it (C.07 §6: DE among the participants still tied)."""
    ed = parse_edition(edition)
    parsed = [parse_code(c) for c in codes]
    canon = [p[0] for p in parsed]
    dupes = sorted({c for c in canon if canon.count(c) > 1})
    if dupes:
        raise UnknownTiebreak(dupes[0], reason=f"tie-break {dupes[0]!r} is listed twice")
    if rounds is None:
        rounds = int(cast("int | None", scorecard["round"].max()) or 0) if scorecard.height else 0
    snos = pl.concat([players["sno"].cast(pl.Int32), scorecard["sno"].cast(pl.Int32)])
    card = prepare_card(scorecard, snos, rounds)
    ctx = Context(card, players.select("sno", "rating") if "rating" in players.columns
                  else players.select("sno").with_columns(pl.lit(None, pl.Int32).alias("rating")),
                  ed, rounds, round_robin, unrated_rating=unrated_rating)
    base = card.group_by("sno").agg(pl.col("points").sum()).sort("sno")
    values, keys, details = base, base, []
    for code, name, mod in parsed:
        c = ctx
        if name == "DE":
            cols = ["points"] + [k for k in keys.columns if k not in ("sno", "points")]
            grouped = keys.with_columns(pl.concat_str(
                [pl.col(k).cast(pl.String).fill_null("-") for k in cols], separator="|")
                .alias("group"))
            c = replace(ctx, groups=grouped.select("sno", "group"))
        res = REGISTRY[name](c, mod)
        values = values.join(res.values.rename({"value": code}), on="sno", how="left")
        key = res.key if res.key is not None else res.values.rename({"value": "key"})
        keys = keys.join(key.rename({"key": code}), on="sno", how="left")
        details.append(res.detail.with_columns(pl.lit(code).alias("code")))
    detail = (pl.concat(details) if details else
              pl.DataFrame(schema={**DETAIL_SCHEMA, "code": pl.String()}))
    detail = detail.select("sno", "code", *[c for c in DETAIL_SCHEMA if c != "sno"]).sort(
        "sno", "code", "round")
    return Evaluation(tuple(canon), values.sort("sno"), keys.sort("sno"), detail)


def compute_tiebreaks(scorecard: pl.DataFrame, players: pl.DataFrame, codes: Sequence[str], *,
                      edition: str | Edition, rounds: int | None = None,
                      round_robin: bool = False, unrated_rating: int | None = None
                      ) -> pl.DataFrame:
    """FIDE C.07 — sno, points, then one Float64 column per code (canonical spelling, given
    order). ``players`` needs sno and rating; ``rounds`` defaults to the last round played;
    ``round_robin`` switches to §15.2 (pre-determined pairings)."""
    return evaluate_tiebreaks(scorecard, players, codes, edition=edition, rounds=rounds,
                              round_robin=round_robin, unrated_rating=unrated_rating).values


def explain_tiebreaks(scorecard: pl.DataFrame, players: pl.DataFrame, codes: Sequence[str], *,
                      edition: str | Edition, rounds: int | None = None,
                      round_robin: bool = False, unrated_rating: int | None = None
                      ) -> pl.DataFrame:
    """FIDE C.07 — the contributions behind each tie-break, for the standings page: sno, code,
    round, opponent_sno, opponent (start number, ``dummy`` or ``virtual``), value, dropped_by_cut,
    note. Summing ``value`` over rows not ``dropped_by_cut`` gives BH/SB/PS/WIN/... ; ARO, TPR, AOB,
    APRO are averages of their rows; DE lists the games inside the tie group plus one summary row
    per tied player (round null; value: the points among the tied players, C.07 6.1; note: the
    group, the article that decided — 6.2 all met, 6.3 not all met — and the places, or why DE
    does not apply)."""
    return evaluate_tiebreaks(scorecard, players, codes, edition=edition, rounds=rounds,
                              round_robin=round_robin, unrated_rating=unrated_rating).detail
