"""FIDE C.07 team tie-breaks (articles 11-13, with 6-9 and 14-16 applied to teams), per
edition, as a registry keyed by FIDE code — the team counterpart of
:mod:`transforms.fide.tiebreaks`.

A code is ``NAME[:MP|:GP][/modifier]``, as FIDE TEC's calculator (Gacrux, "TieBreakServer")
reads it and as a TRF-2026 ``212`` record lists it: ``BH:MP/C1``, ``SB:GP``, ``EMGSB/C1``,
``EDEBT``. ``:MP``/``:GP`` names the reference score; without it the primary score is used
(C.07 13: "the primary score being the default"). ``-`` is accepted for ``/`` (``BH:MP-C1``).

| tie-break                                  | C.07 art.     | code (Gacrux)            | what, for teams                                   |
|--------------------------------------------|---------------|--------------------------|---------------------------------------------------|
| Match points / game points                 | 11.1.1/11.1.2 | MPTS, GPTS (PTS: primary)| the totals                                        |
| Match points or game points                | 13.1          | MPVGP (alias MPGP)       | the secondary score                               |
| Direct encounter                           | 6             | DE[:MP/:GP]              | on one score; place in the tie group              |
| Extended direct encounter                  | 13.3.1, 13.3.3| EDE                      | DE on the primary, else the secondary score       |
| EDE + knockout tie-breaks (two teams)      | 13.3.2        | EDEBT, EDEBB, EDET, EDEB | EDE, then BC+TBR / BC+BBE / TBR / BBE             |
| Number of wins                             | 7.1           | WIN[:MP/:GP]             | :MP matches, :GP boards (byes, forfeits included) |
| Number of games won                        | 7.2           | WON[:MP/:GP]             | over the board                                    |
| Games played / won with Black              | 7.3, 7.4      | BPG, BWG [:MP/:GP]       | :MP Black on board 1; :GP boards with Black       |
| Progressive scores                         | 7.5           | PS[:MP/:GP][/C1,/C2]     |                                                   |
| Rounds one elected to play                 | 7.6           | REP (alias GE) [:MP/:GP] | rounds (boards) not VURs                          |
| Tournament pairing number                  | 7.8           | TPN (alias SNO)          | lower first                                       |
| Buchholz                                   | 8.1           | BH[:MP/:GP][/C1..M2]     | art. 16 for unplayed rounds                       |
| Average of opponents' Buchholz             | 8.2           | AOB[:MP/:GP]             | over the matches played                           |
| Fore Buchholz                              | 8.3           | FB[:MP/:GP][/C1..M2]     | final round's paired matches drawn                |
| Sonneborn-Berger                           | 9.1           | SB[:MP/:GP][/C1..M2]     | opponent's score x score against them, one score  |
| Koya (round robin)                         | 9.2           | KS[:MP/:GP]              | 50% of a win's points x rounds                    |
| Board count                                | 12.1          | BC                       | sum of board number x game points; lower first    |
| Top board results                          | 12.2          | TBR                      | board 1, then board 2, ...; place in the group    |
| Bottom board elimination                   | 12.3          | BBE                      | all boards but the last, ...; place in the group  |
| Extended Sonneborn-Berger                  | 13.2.1-13.2.4 | EMMSB, EMGSB, EGMSB, EGGSB (/C1..M2) | opponent's MP/GP x MP/GP scored       |
| Extended SB, primary x secondary           | 13.2          | ESB (ESB:MP = EMGSB, ESB:GP = EGMSB, ESB:MG = EMGSB, ...) |                  |
| Scores and schedule strength combination   | 13.4          | SSSC (SSSC/F: over FB)   | secondary + BH(primary) / normalising factor      |
| Modifiers Cut-1/Cut-2/Median-1/Median-2    | 14.1-14.4     | /C1 /C2 /M1 /M2          | 14.1: ESB cuts the opponent lowest in its score   |
| Forfeited matches as played                | 6.1.1         | /P (DE, EDE*, BH, FB, SB, ESB*, SSSC) | the regulations' "otherwise"         |
| Unplayed rounds (pre-determined pairings)  | 15.2          | round_robin=True         | forfeits are matches; byes are no element         |
| Unplayed rounds management (Swiss)         | 16            | editions below           | "points" = match points and game points           |

Not for teams: art. 10 (ARO, TPR, PTP, APRO, APPO, RTNG are "Ratings-based Tie-Breaks for
Individuals"); not implemented for teams: STD (7.7, new in 2026: its "scheduled opponent"
and FIDE TEC's calculator's board-by-board reading of it for game points differ), the Koya
limit /L, AOB/F, SSSC/Kx and FIDE TEC's own EDEC (EDE, then board count; not in C.07). An unknown code is a ConfigError naming the key (:func:`parse_team_code`).

Editions (``edition=``), as for individuals (:mod:`transforms.fide.tiebreaks`):

- ``fide-2024`` — C.07 2024-08 (art. 16 of 2023): 16.3 an opponent's unplayed rounds count as
  awarded, except a team's absences followed only by VURs (or in the last round), which count
  as drawn matches (16.3.2: the draw's match points, or half the boards in game points);
  16.4 each own unplayed round is a match against a dummy whose score is the team's own score
  (in the score the tie-break is computed on); 16.5 Cut-1 exception.
- ``fide-2026`` — C.07 2026-03: as 2024, but the dummy's score is capped by the scheduled
  opponent's adjusted score for forfeited matches (16.4.1) and by a draw's points x rounds for
  byes and absences (16.4.2); "for team competitions, 'points' means 'match points and game
  points'" — the cap is taken in the score the tie-break is computed on.
- ``fide-2009`` — the pre-2023 rules (C.02 13.15, GA 2009), which FIDE TEC's calculator does
  not implement. Decision: applied to teams as for individuals, in the score of the tie-break:
  an own unplayed round is a match against a virtual opponent with the team's score before
  the round, the opposite result in that round (match points: a win's for a loss, a loss's
  for a win, a draw's for a draw; game points: the boards minus the team's game points) and
  drawn matches afterwards; every unplayed round of an opponent counts as a drawn match; no
  Cut-1 exception. Pinned by ``test_team_buchholz_2009_virtual_opponent_C02_13_15``.

The team's rounds: ``kind`` played (a match with a game over the board), forfeit_win /
forfeit_loss (a whole match forfeited, 16.2.2 / 16.2.4; a double forfeit is a forfeit loss
for both), PAB (16.2.1), absent (a zero-point bye, 16.1.1; also every round missing from the
card). VURs (16.1.2) are forfeit losses and absences (and HPB/ZPB, should a card carry them).

Decisions (each pinned by a test of tests/rulebook/test_team_tiebreaks.py):

- Article 12's board points: a played match's boards as the ``boards`` frame gives them
  (individual forfeits count as wins and losses, art. 12); a pairing-allocated bye or a match
  won by forfeit scores a game win on every board, a match lost by forfeit or an absence
  nothing on any (art. 12: "the game points considered for each board are the same as those
  assigned to a standard win"), whatever the bye's game points are. Game points are scored
  1 / 0.5 / 0 (FIDE's game scoring), so a board's win is 1.
- The number of boards (GP's win = boards x 1, draw = boards x 0.5) is the largest ``boards``
  of the card: a team event plays every match on the same number of boards.
- ``:GP`` counts of art. 7 (WIN, WON, BPG, BWG, REP) count boards, as FIDE TEC's calculator
  does: "the number of games" of a team scored in game points are its games. Board colours
  alternate down the boards from board 1 (FIDE C.04.6), so a board's colour follows from the
  card's ``colour``.
- DE-type tie-breaks (DE, EDE and its variants, TBR, BBE) are an order inside the tie group
  (the teams equal on the primary score and every tie-break listed before): the column holds
  the place in the group (1, 2, 2, 4), null where nothing was separated — as DE for
  individuals. FIDE TEC's calculator prints 0 there.
- EDE's knockout steps (13.3.2) compare the two teams' boards in the matches they played
  against each other (the knockout reading of art. 12, as FIDE TEC's calculator has it): BC on
  those boards (lower first), then TBR board by board, or BBE; standalone BC, TBR and BBE
  count every match of the tournament (art. 12 as written).
- Koya's maximum possible score is a win's points x ``rounds`` (as for individuals).
- WON, BPG and BWG count matches (boards) played over the board in a round robin too: 7.2-7.4
  say "over the board", which 15.2 does not undo (as FIDE TEC's calculator counts them; the
  individual module counts a round robin's forfeit wins as games, :mod:`transforms.fide.tiebreaks`).
- SSSC's normalising factor (13.4.2 b) is the highest primary score of the tournament (a win's
  points x ``rounds``) divided by the highest secondary score of one match, rounded towards
  zero; the value is rounded half up to hundredths, as FIDE TEC's calculator prints it.
- ``rounds`` is "the number of rounds in the tournament" (16.2.5, 16.4.2, SSSC's factor):
  standings after round 5 of 9 treat the 5 rounds as the tournament, as FIDE TEC's calculator
  does. FB's final round is ``rounds`` too (as for individuals): FIDE TEC's calculator takes
  the announced last round (record 142), so that part-way its FB is BH (not compared).

Reference: FIDE TEC's calculator (Gacrux 1.11.65), test_team_tiebreaks.py —

- the 15 team events of tests/data/team_tiebreak_own/ (14 generated Swiss and round robin
  events of both editions, one constructed; SOURCE.md there): 13,818 values and 3,952 ranks in
  498 runs of every code above;
- the 10 team Swiss events the calculator paired itself (tests/data/team_tiebreak/, C.07 2026;
  SOURCE.md there): 5,216 values and ranks (its STD and EDEC columns are not computed here);

every one equal except where the calculator departs from the text, where the text is followed:

- EDE (13.3.3): "Any time a new subset of tied teams is determined, restart with the new
  subset from 13.3.1" — a subset that the secondary score separated is examined again from
  the primary score. The calculator keeps applying the score that separated it before going
  back to the primary score. The two differ only when the primary and the secondary score
  order a sub-subset differently: none of the 14 generated events has such a case; the
  constructed round robin has one (teams 1, 2 and 3 on 10 GP: match points order them 1, 2, 3,
  the calculator's game points 2, 1, 3), 32 of the values and ranks above. Pinned by
  ``test_team_extended_direct_encounter_restarts_from_the_primary_score_C07_13_3_3``.

Sources of the text: C.07 effective 1 March 2026 (FIDE Handbook, "Play-Off and Tie-Break
Regulations", articles 6-16, as transcribed verbatim in AuroraRyunix/Ainalrami
docs/c07-regulation-text.md, from handbook.fide.com/chapter/TieBreakRegulations032026). The
2024-08 text of articles 11-13 was not read: the 2024 edition is applied as the 2026 one
without 16.4's caps, as FIDE TEC's calculator applies its 2024 rules (and as for individuals).
FIDE TEC's calculator (gacrux 1.11.65) for the codes' spelling and for the reference values.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, cast

import polars as pl

from transforms.core.model import Kind
from transforms.fide.tiebreaks import (
    DETAIL_SCHEMA,
    Edition,
    Evaluation,
    Modifier,
    TiebreakResult,
    UnknownTiebreak,
    apply_cuts,
    parse_edition,
)

GAME_WIN = 1.0
GAME_DRAW = 0.5

CARD_COLUMNS: dict[str, pl.DataType] = {
    "round": pl.Int64(), "sno": pl.Int64(), "opponent": pl.Int64(), "colour": pl.String(),
    "mp": pl.Float64(), "gp": pl.Float64(), "opp_gp": pl.Float64(), "kind": pl.String(),
    "boards": pl.Int64(),
}
"""The team scorecard the team rulebook hands over: one row per team per round."""
BOARD_COLUMNS: dict[str, pl.DataType] = {
    "round": pl.Int64(), "sno": pl.Int64(), "board": pl.Int64(), "points": pl.Float64(),
    "played": pl.Boolean(),
}
"""The team's points on each board of each round (``played``: over the board)."""

_PAIRED = (str(Kind.PLAYED), str(Kind.FORFEIT_WIN), str(Kind.FORFEIT_LOSS))
_FORFEIT = (str(Kind.FORFEIT_WIN), str(Kind.FORFEIT_LOSS))
_VUR = (str(Kind.FORFEIT_LOSS), str(Kind.ABSENT), str(Kind.HPB), str(Kind.ZPB))
_REQ_BYE = (str(Kind.ABSENT), str(Kind.HPB), str(Kind.ZPB))
_WIN_ON_EVERY_BOARD = (str(Kind.PAB), str(Kind.FORFEIT_WIN), str(Kind.FPB))


class TeamScore(StrEnum):
    """The two scores of a team (C.07 11.1)."""

    MP = "MP"
    """Match points: those of a match won, drawn or lost (11.1.1)."""
    GP = "GP"
    """Game points: the sum of the team's players' points (11.1.2)."""

    @property
    def other(self) -> TeamScore:
        return TeamScore.GP if self is TeamScore.MP else TeamScore.MP

    @property
    def column(self) -> str:
        return self.value.lower()


def parse_primary(primary: str | TeamScore) -> TeamScore:
    """FIDE C.07 11.1 — the primary score: ``MP``/``GP`` (also ``match_points``/``game_points``,
    as ``[team] primary`` spells it)."""
    text = str(primary).strip().upper()
    text = {"MATCH_POINTS": "MP", "GAME_POINTS": "GP", "MATCH": "MP", "GAME": "GP"}.get(text, text)
    try:
        return TeamScore(text)
    except ValueError:
        raise UnknownTiebreak(str(primary), key="team.primary", reason=(
            f"unknown primary score {primary!r}; known: MP (match points), GP (game points)"
        )) from None


@dataclass(frozen=True, slots=True)
class TeamCode:
    """A team tie-break code read into its parts."""

    code: str
    """The canonical spelling, e.g. ``BH:MP/C1``; the column of the tie-break."""
    name: str
    """The registry key, e.g. ``BH``, ``EMGSB``."""
    score: TeamScore | None
    """The reference score; None: the primary score (C.07 13)."""
    modifier: Modifier
    """C.07 14: the cuts."""
    forfeits_played: bool = False
    """``/P``: forfeited matches count as matches against the scheduled opponent (C.07 6.1.1:
    "unless the specific regulations of the tournament state otherwise")."""


@dataclass(frozen=True, slots=True)
class TeamContext:
    """What every team tie-break function sees."""

    card: pl.DataFrame
    """The prepared team card (:func:`prepare_team_card`)."""
    boards: pl.DataFrame
    """Every team's points on every board of every round (:func:`prepare_board_card`)."""
    primary: TeamScore
    match_points: tuple[float, float, float]
    """A match won, drawn, lost."""
    n_boards: int
    rounds: int
    edition: Edition
    round_robin: bool
    groups: pl.DataFrame | None = None
    """sno, group — the tie groups the DE-type tie-breaks work in."""
    memo: dict[tuple[Any, ...], tuple[pl.DataFrame, Any]] = field(default_factory=dict)
    """What several tie-breaks of one evaluation share (the elements of art. 16 per score),
    keyed by the card they were computed from (kept with them)."""

    def remember(self, key: tuple[Any, ...], card: pl.DataFrame, make: Callable[[], Any]) -> Any:
        """``make()``, computed once per ``key`` and card."""
        full = (id(card), *key)
        if full not in self.memo:
            self.memo[full] = (card, make())
        return self.memo[full][1]

    def score(self, code: TeamCode) -> TeamScore:
        return code.score or self.primary

    def win(self, s: TeamScore) -> float:
        return self.match_points[0] if s is TeamScore.MP else GAME_WIN * self.n_boards

    def draw(self, s: TeamScore) -> float:
        return self.match_points[1] if s is TeamScore.MP else GAME_DRAW * self.n_boards


TeamTiebreakFn = Callable[[TeamContext, TeamCode], TiebreakResult]


# --------------------------------------------------------------------------- preparation


def prepare_team_card(card: pl.DataFrame, snos: pl.Series, rounds: int) -> pl.DataFrame:
    """FIDE C.07 §15-16 for teams — the team card for rounds 1..``rounds``, one row per team and
    round (a missing round is an absence), with the flags art. 16 needs: ``played`` (a match
    over the board), ``paired`` (a match, played or forfeited), ``vur`` (16.1.2), ``req_bye``
    (16.1.1), ``cat5`` (16.2.5), and per score (``mp``, ``gp``) the team's total ``tot_*`` and
    its score before the round ``bef_*``."""
    cols = [c for c in CARD_COLUMNS if c in card.columns]
    c = card.select(cols).cast({k: CARD_COLUMNS[k] for k in cols})
    for k, t in CARD_COLUMNS.items():
        if k not in c.columns:
            c = c.with_columns(pl.lit(None, t).alias(k))
    c = c.filter(pl.col("round") <= rounds)
    grid = (pl.DataFrame({"sno": snos.cast(pl.Int64).unique().sort()})
            .join(pl.DataFrame({"round": pl.int_range(1, rounds + 1, eager=True, dtype=pl.Int64)}),
                  how="cross"))
    c = grid.join(c, on=["sno", "round"], how="left").with_columns(
        pl.col("kind").fill_null(str(Kind.ABSENT)),
        pl.col("mp").fill_null(0.0), pl.col("gp").fill_null(0.0),
        pl.when(pl.col("colour").is_in(["w", "b"])).then(pl.col("colour")).alias("colour"),
    )
    return _flag(c)


def _flag(card: pl.DataFrame) -> pl.DataFrame:
    kind = pl.col("kind")
    card = card.drop([c for c in ("played", "paired", "vur", "req_bye", "cat5", "tot_mp", "tot_gp",
                                  "bef_mp", "bef_gp") if c in card.columns])
    card = card.sort(["sno", "round"]).with_columns(
        (kind == str(Kind.PLAYED)).alias("played"),
        (pl.col("opponent").is_not_null() & kind.is_in(_PAIRED)).alias("paired"),
        kind.is_in(_VUR).alias("vur"),
        kind.is_in(_REQ_BYE).alias("req_bye"),
    )
    last_non_vur = pl.when(~pl.col("vur")).then(pl.col("round")).otherwise(0).max().over("sno")
    return card.with_columns(
        (pl.col("req_bye") & (pl.col("round") > last_non_vur)).alias("cat5"),
        *[pl.col(s).sum().over("sno").alias(f"tot_{s}") for s in ("mp", "gp")],
        *[(pl.col(s).cum_sum().over("sno") - pl.col(s)).alias(f"bef_{s}") for s in ("mp", "gp")],
    )


def prepare_board_card(card: pl.DataFrame, boards: pl.DataFrame, n_boards: int) -> pl.DataFrame:
    """FIDE C.07 §12 — every team's points on every board of every round: a played match's
    boards as given (individual forfeits are wins and losses); a pairing-allocated bye or a
    match won by forfeit a game win on every board, a match lost by forfeit or an absence
    nothing. Columns: sno, round, board, kind, opponent, points, played (over the board),
    colour (the team's colour on that board; boards alternate from board 1), rep (the board
    counts for REP: played, won by forfeit, or a bye's)."""
    grid = card.select("sno", "round", "kind", "opponent", "colour").join(
        pl.DataFrame({"board": pl.int_range(1, n_boards + 1, eager=True, dtype=pl.Int64)}),
        how="cross")
    cols = [c for c in BOARD_COLUMNS if c in boards.columns]
    b = boards.select(cols).cast({k: BOARD_COLUMNS[k] for k in cols}).rename(
        {"points": "b_points", "played": "b_played"})
    g = grid.join(b, on=["sno", "round", "board"], how="left")
    played = pl.col("kind") == str(Kind.PLAYED)
    other = pl.when(pl.col("colour") == "w").then(pl.lit("b")).otherwise(pl.lit("w"))
    return g.with_columns(
        pl.when(played).then(pl.col("b_points").fill_null(0.0))
        .when(pl.col("kind").is_in(_WIN_ON_EVERY_BOARD)).then(pl.lit(GAME_WIN))
        .otherwise(pl.lit(0.0)).alias("points"),
        (played & pl.col("b_played").fill_null(False)).alias("played"),
        pl.when(played & pl.col("colour").is_not_null())
        .then(pl.when(pl.col("board") % 2 == 1).then(pl.col("colour")).otherwise(other))
        .alias("colour"),
    ).with_columns(
        (pl.col("played") | (pl.col("kind") == str(Kind.PAB))
         | (pl.col("points") >= GAME_WIN)).alias("rep"),
    ).select("sno", "round", "board", "kind", "opponent", "points", "played", "colour", "rep"
             ).sort("sno", "round", "board")


# --------------------------------------------------------------------------- helpers


def _all(ctx: TeamContext, values: pl.DataFrame) -> pl.DataFrame:
    return (ctx.card.select("sno").unique().join(values, on="sno", how="left")
            .with_columns(pl.col("value").cast(pl.Float64)).sort("sno"))


def _detail(df: pl.DataFrame, *, value: str, opponent_sno: str | None = "opponent_sno",
            opponent: str | pl.Expr | None = None, note: str | pl.Expr = "note") -> pl.DataFrame:
    opp_label: pl.Expr
    if opponent is None:
        opp_label = (pl.col(opponent_sno).cast(pl.String) if opponent_sno else pl.lit(""))
    else:
        opp_label = pl.col(opponent) if isinstance(opponent, str) else opponent
    return df.select(
        pl.col("sno").cast(pl.Int32),
        pl.col("round").cast(pl.Int32),
        (pl.col(opponent_sno) if opponent_sno else pl.lit(None)).cast(pl.Int32).alias("opponent_sno"),
        opp_label.cast(pl.String).fill_null("").alias("opponent"),
        pl.col(value).cast(pl.Float64).alias("value"),
        (pl.col("dropped_by_cut") if "dropped_by_cut" in df.columns else pl.lit(False))
        .alias("dropped_by_cut"),
        (pl.col(note) if isinstance(note, str) else note).cast(pl.String).alias("note"),
    )


def _sum_values(ctx: TeamContext, detail: pl.DataFrame) -> pl.DataFrame:
    sums = (detail.filter(~pl.col("dropped_by_cut")).group_by("sno")
            .agg(pl.col("value").sum().alias("value")).with_columns(pl.col("sno").cast(pl.Int64)))
    return _all(ctx, sums).with_columns(pl.col("value").fill_null(0.0))


def _round_half_up(expr: pl.Expr, decimals: int) -> pl.Expr:
    f = 10.0 ** decimals
    return (expr * f + 0.5 + 1e-9).floor() / f


def _vur_exception(ctx: TeamContext) -> bool:
    return ctx.edition is not Edition.FIDE_2009 and not ctx.round_robin


def adjusted_team_scores(ctx: TeamContext, s: TeamScore, card: pl.DataFrame | None = None
                         ) -> pl.DataFrame:
    """FIDE C.07 §16.3 for teams — a team's score in ``s`` as its opponents' tie-breaks use it:
    unplayed rounds as awarded (16.3.1), absences followed only by VURs or in the last round
    (16.2.5) as drawn matches (16.3.2). fide-2009: every unplayed round as a drawn match.
    Round robin (15.2): the score itself. Returns sno, adj."""
    card = ctx.card if card is None else card
    pts = pl.col(s.column)
    if ctx.round_robin:
        value = pts
    elif ctx.edition is Edition.FIDE_2009:
        value = pl.when(pl.col("played")).then(pts).otherwise(pl.lit(ctx.draw(s)))
    else:
        value = pl.when(pl.col("cat5")).then(pl.lit(ctx.draw(s))).otherwise(pts)
    return card.group_by("sno").agg(value.sum().alias("adj"))


def _opponent_elements(ctx: TeamContext, o: TeamScore, card: pl.DataFrame | None = None, *,
                       forfeits_played: bool = False) -> pl.DataFrame:
    """FIDE C.07 §16.4 for teams — one element per round for BH/SB/ESB in score ``o``: the
    opponent's adjusted score for a match, the dummy's (2024/2026) or virtual opponent's (2009)
    score for an unplayed round. Round robin (15.2): forfeited matches are matches, rounds
    without an opponent no element; ``forfeits_played`` (``/P``): forfeited matches are matches
    in a Swiss too. Columns: sno, round, opponent_sno, opponent, opp_score, mp, gp, vur, note."""
    card = ctx.card if card is None else card
    return cast(pl.DataFrame, ctx.remember(("elements", o, forfeits_played), card, lambda: (
        _elements(ctx, o, card, forfeits_played))))


def _elements(ctx: TeamContext, o: TeamScore, card: pl.DataFrame, forfeits_played: bool
              ) -> pl.DataFrame:
    adj = adjusted_team_scores(ctx, o, card).rename({"sno": "opponent", "adj": "opp_adj"})
    c = card.join(adj, on="opponent", how="left")
    game = (pl.col("paired") if ctx.round_robin or forfeits_played
            else pl.col("played") & pl.col("opponent").is_not_null())
    forfeit = pl.col("kind").is_in(_FORFEIT) & pl.col("opp_adj").is_not_null()
    own = pl.col(f"tot_{o.column}")
    cap = ctx.draw(o) * ctx.rounds
    if ctx.edition is Edition.FIDE_2024:
        unplayed = own
        note = pl.lit("16.4 dummy: own score")
    elif ctx.edition is Edition.FIDE_2026:
        unplayed = (pl.when(forfeit).then(pl.min_horizontal(own, pl.col("opp_adj")))
                    .otherwise(pl.min_horizontal(own, pl.lit(cap))))
        note = (pl.when(forfeit).then(pl.lit("16.4.1 dummy: own score capped by opponent's "
                                             "adjusted score"))
                .otherwise(pl.lit(f"16.4.2 dummy: own score capped at draws x rounds ({cap:g})")))
    else:
        pts = pl.col(o.column)
        if o is TeamScore.MP:
            win, draw, loss = ctx.match_points
            opposite = (pl.when(pts == win).then(pl.lit(loss)).when(pts == draw).then(pl.lit(draw))
                        .otherwise(pl.lit(win)))
        else:
            opposite = ctx.n_boards * GAME_WIN - pts
        unplayed = (pl.col(f"bef_{o.column}") + opposite
                    + ctx.draw(o) * (ctx.rounds - pl.col("round")))
        note = pl.lit("C.02 13.15 virtual opponent: score before + opposite result + draws")
    out = c.with_columns(
        pl.when(game).then(pl.col("opp_adj")).otherwise(unplayed).cast(pl.Float64).alias("opp_score"),
        pl.when(game).then(pl.col("opponent").cast(pl.String))
        .otherwise(pl.lit("virtual" if ctx.edition is Edition.FIDE_2009 else "dummy"))
        .alias("opponent_label"),
        pl.when(game).then(pl.lit("match" if not ctx.round_robin else "match (15.2)"))
        .otherwise(pl.concat_str([pl.col("kind"), pl.lit(": "), note])).alias("note"),
    )
    if ctx.round_robin:
        out = out.filter(game)
    return out.select(
        "sno", "round", pl.col("opponent").alias("opponent_sno"),
        pl.col("opponent_label").alias("opponent"), "opp_score", "mp", "gp",
        (pl.col("vur") & ~game & pl.lit(not ctx.round_robin)).alias("vur"), "note",
    )


# --------------------------------------------------------------------------- tie-breaks


def total_score(ctx: TeamContext, code: TeamCode) -> TiebreakResult:
    """FIDE C.07 11.1 — MPTS, GPTS (PTS: the primary score): the team's match or game points."""
    s = {"MPTS": TeamScore.MP, "GPTS": TeamScore.GP}.get(code.name, ctx.primary)
    return _score_total(ctx, s, f"{s.value} scored")


def secondary_score(ctx: TeamContext, code: TeamCode) -> TiebreakResult:
    """FIDE C.07 13.1 — MPvGP: match points in a competition decided by game points, game points
    in one decided by match points (the secondary score)."""
    return _score_total(ctx, ctx.primary.other, f"{ctx.primary.other.value} scored")


def _score_total(ctx: TeamContext, s: TeamScore, note: str) -> TiebreakResult:
    detail = _detail(ctx.card.with_columns(pl.col("opponent").alias("opponent_sno")),
                     value=s.column, note=pl.concat_str([pl.lit(note + ": "), pl.col("kind")]))
    return TiebreakResult(_sum_values(ctx, detail), detail)


def buchholz(ctx: TeamContext, code: TeamCode) -> TiebreakResult:
    """FIDE C.07 §8.1, §13 — Buchholz for teams: the sum of the opponents' (adjusted, §16.3)
    match or game points; own unplayed rounds against the dummy (§16.4); cuts per §14/§16.5."""
    el = _opponent_elements(ctx, ctx.score(code), forfeits_played=code.forfeits_played)
    el = apply_cuts(el, code.modifier, sig="opp_score", val="opp_score",
                    vur_exception=_vur_exception(ctx))
    detail = _detail(el, value="opp_score", opponent="opponent")
    return TiebreakResult(_sum_values(ctx, detail), detail)


def average_of_opponents_buchholz(ctx: TeamContext, code: TeamCode) -> TiebreakResult:
    """FIDE C.07 §8.2, §13 — AOB for teams: the average of the Buchholz (on the same score) of the
    opponents met in matches played; none without such a match.

    Decision: rounded half up to 2 decimals below 9 rounds, 3 below 27, 4 beyond, as FIDE TEC's
    calculator prints it (the individual AOB's 2 decimals, :mod:`transforms.fide.tiebreaks`,
    for the events it is used in)."""
    s = ctx.score(code)
    bh = buchholz(ctx, TeamCode("BH", "BH", s, Modifier())).values.rename(
        {"sno": "opponent", "value": "opp_bh"})
    games = (ctx.card.filter(pl.col("played") & pl.col("opponent").is_not_null())
             .join(bh, on="opponent", how="left")
             .with_columns(pl.col("opponent").alias("opponent_sno")))
    detail = _detail(games, value="opp_bh", note=pl.lit(f"opponent's BH:{s.value}"))
    decimals = 2 if ctx.rounds < 9 else 3 if ctx.rounds < 27 else 4
    avg = detail.group_by("sno").agg(_round_half_up(pl.col("value").mean(), decimals)
                                     .alias("value")).with_columns(pl.col("sno").cast(pl.Int64))
    return TiebreakResult(_all(ctx, avg), detail)


def fore_buchholz(ctx: TeamContext, code: TeamCode) -> TiebreakResult:
    """FIDE C.07 §8.3, §13 — Fore Buchholz for teams: Buchholz as if every match paired in the
    final round (``rounds``; forfeited ones too) had been drawn (a draw's match points, half the
    boards in game points)."""
    return buchholz(replace(ctx, card=_fore_card(ctx)), code)


def _fore_card(ctx: TeamContext) -> pl.DataFrame:
    last = (pl.col("round") == ctx.rounds) & pl.col("paired")
    return _flag(ctx.card.with_columns(
        pl.when(last).then(pl.lit(str(Kind.PLAYED))).otherwise(pl.col("kind")).alias("kind"),
        pl.when(last).then(pl.lit(ctx.draw(TeamScore.MP))).otherwise(pl.col("mp")).alias("mp"),
        pl.when(last).then(pl.lit(ctx.draw(TeamScore.GP))).otherwise(pl.col("gp")).alias("gp"),
    ))


def _sonneborn(ctx: TeamContext, code: TeamCode, o: TeamScore, s: TeamScore) -> TiebreakResult:
    el = _opponent_elements(ctx, o, forfeits_played=code.forfeits_played).with_columns(
        (pl.col("opp_score") * pl.col(s.column)).alias("sb"))
    el = apply_cuts(el, code.modifier, sig="opp_score", val="sb", vur_exception=_vur_exception(ctx))
    detail = _detail(el, value="sb", opponent="opponent", note=pl.concat_str(
        [pl.col("note"), pl.lit(f" ({o.value} "), pl.col("opp_score").cast(pl.String),
         pl.lit(f" x {s.value} "), pl.col(s.column).cast(pl.String), pl.lit(")")]))
    return TiebreakResult(_sum_values(ctx, detail), detail)


def sonneborn_berger(ctx: TeamContext, code: TeamCode) -> TiebreakResult:
    """FIDE C.07 §9.1, §13 — Sonneborn-Berger on one score: for each round the opponent's
    (adjusted) score times the team's score in that match (the dummy's for unplayed rounds,
    §16.4); Cut-1 drops the contribution of the lowest-scored opponent (§14.1.2 d, §16.5)."""
    s = ctx.score(code)
    return _sonneborn(ctx, code, s, s)


_ESB_SCORES = {"EMMSB": (TeamScore.MP, TeamScore.MP), "EMGSB": (TeamScore.MP, TeamScore.GP),
               "EGMSB": (TeamScore.GP, TeamScore.MP), "EGGSB": (TeamScore.GP, TeamScore.GP)}


def extended_sonneborn_berger(ctx: TeamContext, code: TeamCode) -> TiebreakResult:
    """FIDE C.07 §13.2 — Extended Sonneborn-Berger: for each opponent, their total MP or GP
    times the MP or GP scored against them (13.2.1 EMMSB, 13.2.2 EMGSB, 13.2.3 EGMSB, 13.2.4
    EGGSB; ESB: the primary score's total x the secondary score scored). Cut-1 drops the
    contribution of the opponent lowest in the first score (§14.1, teams), §16 for unplayed
    rounds."""
    if code.name in _ESB_SCORES:
        o, s = _ESB_SCORES[code.name]
    else:
        o = ctx.primary
        s = o.other
    return _sonneborn(ctx, code, o, s)


def koya(ctx: TeamContext, code: TeamCode) -> TiebreakResult:
    """FIDE C.07 §9.2, §13 — Koya for teams: the score achieved against the teams that reached
    50% of the maximum possible score (a win's points x ``rounds``); forfeited matches count
    (§15.2)."""
    s = ctx.score(code)
    limit = 0.5 * ctx.win(s) * ctx.rounds
    totals = ctx.card.group_by("sno").agg(pl.col(s.column).sum().alias("opp_total")).rename(
        {"sno": "opponent"})
    games = (ctx.card.filter(pl.col("paired")).join(totals, on="opponent", how="left")
             .filter(pl.col("opp_total") >= limit)
             .with_columns(pl.col("opponent").alias("opponent_sno")))
    detail = _detail(games, value=s.column, note=pl.lit(f"opponent with >= 50% ({limit:g})"))
    return TiebreakResult(_sum_values(ctx, detail), detail)


def progressive(ctx: TeamContext, code: TeamCode) -> TiebreakResult:
    """FIDE C.07 §7.5, §13 — progressive scores for teams: the sum of the running MP or GP after
    each round; Cut-n drops the first n (§14.1.2 c)."""
    s = ctx.score(code)
    el = ctx.card.with_columns(
        pl.col(s.column).cum_sum().over("sno", order_by="round").alias("running"),
        pl.col("round").cast(pl.Float64).alias("_sig"), pl.lit(False).alias("vur"))
    el = apply_cuts(el, code.modifier, sig="_sig", val="running", vur_exception=False)
    detail = _detail(el, value="running", opponent_sno=None,
                     note=pl.lit(f"{s.value} after the round"))
    return TiebreakResult(_sum_values(ctx, detail), detail)


def _count(ctx: TeamContext, code: TeamCode, match: pl.Expr, board: pl.Expr, note: str
           ) -> TiebreakResult:
    """A count of art. 7: rounds (``:MP``) or boards (``:GP``) where the condition holds."""
    if ctx.score(code) is TeamScore.MP:
        rows = ctx.card.filter(match).with_columns(pl.lit(None, pl.Int64).alias("board"))
    else:
        rows = ctx.boards.filter(board)
    rows = rows.with_columns(pl.lit(1.0).alias("one"), pl.col("opponent").alias("opponent_sno"))
    where = (pl.lit(note + ": ") + pl.col("kind")
             + pl.when(pl.col("board").is_not_null())
             .then(pl.lit(", board ") + pl.col("board").cast(pl.String)).otherwise(pl.lit("")))
    detail = _detail(rows, value="one", note=where)
    return TiebreakResult(_sum_values(ctx, detail), detail)


def wins(ctx: TeamContext, code: TeamCode) -> TiebreakResult:
    """FIDE C.07 §7.1, §13 — WIN for teams: rounds in which the team obtained, with or without
    playing, a win's match points (``:MP``); games won, boards of byes and forfeited matches
    included (``:GP``)."""
    return _count(ctx, code, pl.col("mp") == ctx.match_points[0], pl.col("points") >= GAME_WIN,
                  "win")


def games_won(ctx: TeamContext, code: TeamCode) -> TiebreakResult:
    """FIDE C.07 §7.2, §13 — WON for teams: matches won over the board (``:MP``), games won over
    the board (``:GP``)."""
    return _count(ctx, code, pl.col("played") & (pl.col("mp") == ctx.match_points[0]),
                  pl.col("played") & (pl.col("points") >= GAME_WIN), "won over the board")


def black_games(ctx: TeamContext, code: TeamCode) -> TiebreakResult:
    """FIDE C.07 §7.3, §13 — BPG for teams: matches played with Black on board 1 (``:MP``),
    games played with Black (``:GP``)."""
    return _count(ctx, code, pl.col("played") & (pl.col("colour") == "b"),
                  pl.col("played") & (pl.col("colour") == "b"), "with Black")


def black_wins(ctx: TeamContext, code: TeamCode) -> TiebreakResult:
    """FIDE C.07 §7.4, §13 — BWG for teams: matches won with Black on board 1 (``:MP``), games
    won with Black (``:GP``), over the board."""
    return _count(ctx, code,
                  pl.col("played") & (pl.col("colour") == "b") & (pl.col("mp") == ctx.match_points[0]),
                  pl.col("played") & (pl.col("colour") == "b") & (pl.col("points") >= GAME_WIN),
                  "won with Black")


def elected_to_play(ctx: TeamContext, code: TeamCode) -> TiebreakResult:
    """FIDE C.07 §7.6, §13 — REP for teams: rounds that are not VURs (§16.1.2: absences, forfeit
    losses) (``:MP``); boards played, won by forfeit or of a bye (``:GP``)."""
    return _count(ctx, code, ~pl.col("vur"), pl.col("rep"), "elected to play")


def pairing_number(ctx: TeamContext, code: TeamCode) -> TiebreakResult:
    """FIDE C.07 §7.8 — TPN: the team's pairing number, lower first."""
    values = ctx.card.select("sno").unique().with_columns(pl.col("sno").cast(pl.Float64).alias("value"))
    key = values.select("sno", (-pl.col("value")).alias("key"))
    return TiebreakResult(_all(ctx, values), pl.DataFrame(schema=DETAIL_SCHEMA), key)


def board_count(ctx: TeamContext, code: TeamCode) -> TiebreakResult:
    """FIDE C.07 §12.1 — Board count: for each board, the board number times the game points
    achieved on it in all the team's matches; the lower the sum, the higher the ranking."""
    b = ctx.boards.with_columns((pl.col("board") * pl.col("points")).alias("bc"),
                                pl.col("opponent").alias("opponent_sno"))
    detail = _detail(b, value="bc", note=pl.concat_str(
        [pl.lit("board "), pl.col("board").cast(pl.String), pl.lit(" x "),
         pl.col("points").cast(pl.String), pl.lit(": "), pl.col("kind")]))
    values = _sum_values(ctx, detail)
    return TiebreakResult(values, detail, values.select("sno", (-pl.col("value")).alias("key")))


def _board_sums(ctx: TeamContext) -> dict[int, list[float]]:
    """Each team's game points on each board over the tournament (art. 12)."""
    return cast("dict[int, list[float]]", ctx.remember(("board sums",), ctx.card,
                                                        lambda: _sum_boards(ctx)))


def _sum_boards(ctx: TeamContext) -> dict[int, list[float]]:
    sums = ctx.boards.group_by("sno", "board").agg(pl.col("points").sum()).sort("sno", "board")
    out: dict[int, list[float]] = {}
    for sno, _, pts in sums.iter_rows():
        out.setdefault(sno, []).append(pts)
    return out


def top_board_results(ctx: TeamContext, code: TeamCode) -> TiebreakResult:
    """FIDE C.07 §12.2 — Top board results: the game points on board 1 in all the team's
    matches; where not decisive, on the top-most board not yet counted, and so on. An order
    inside the tie group (the column holds the place, null where nothing was separated)."""
    sums = _board_sums(ctx)
    return _lexicographic(ctx, {s: tuple(v) for s, v in sums.items()},
                          "board points from board 1 down")


def bottom_board_elimination(ctx: TeamContext, code: TeamCode) -> TiebreakResult:
    """FIDE C.07 §12.3 — Bottom board elimination: the game points on every board but the
    bottom one; where not decisive, without the bottom-most board not yet excluded, and so on.
    An order inside the tie group (the place; null where nothing was separated)."""
    sums = _board_sums(ctx)
    keys = {s: tuple(sum(v[:k]) for k in range(len(v) - 1, 0, -1)) for s, v in sums.items()}
    return _lexicographic(ctx, keys, "game points without the bottom boards")


def _groups(ctx: TeamContext) -> dict[Any, list[int]]:
    groups = ctx.groups if ctx.groups is not None else ctx.card.select("sno").unique().with_columns(
        pl.lit(0).alias("group"))
    members: dict[Any, list[int]] = {}
    for s, g in groups.select(pl.col("sno").cast(pl.Int64), "group").iter_rows():
        members.setdefault(g, []).append(s)
    return {g: sorted(m) for g, m in members.items()}


def _lexicographic(ctx: TeamContext, keys: dict[int, tuple[float, ...]], what: str
                   ) -> TiebreakResult:
    places: dict[int, float] = {}
    positions: dict[int, int] = {}
    summary: list[dict[str, Any]] = []
    for _, snos in sorted(_groups(ctx).items(), key=lambda kv: str(kv[0])):
        order = sorted(snos, key=lambda s: tuple(-x for x in keys.get(s, ())))
        pos: dict[int, int] = {}
        for i, s in enumerate(order):
            pos[s] = pos[order[i - 1]] if i and keys.get(s) == keys.get(order[i - 1]) else i
        positions.update(pos)
        if len(snos) > 1 and len(set(pos.values())) > 1:
            places.update({s: float(pos[s] + 1) for s in snos})
        if len(snos) > 1:
            summary.extend({"sno": s, "round": None, "opponent_sno": None, "opponent": "",
                            "value": places.get(s), "dropped_by_cut": False,
                            "note": f"tie group {', '.join(map(str, order))}: {what} "
                                    + ", ".join(f"{t}: {'/'.join(f'{x:g}' for x in keys.get(t, ()))}"
                                                for t in order)} for s in snos)
    return _order_result(ctx, places, positions, summary)


def _order_result(ctx: TeamContext, places: dict[int, float], positions: dict[int, int],
                  summary: list[dict[str, Any]]) -> TiebreakResult:
    values = pl.DataFrame({"sno": list(places), "value": list(places.values())},
                          schema={"sno": pl.Int64, "value": pl.Float64})
    key = pl.DataFrame({"sno": list(positions), "key": [-float(p) for p in positions.values()]},
                       schema={"sno": pl.Int64, "key": pl.Float64})
    detail = (pl.DataFrame(summary, schema=DETAIL_SCHEMA) if summary
              else pl.DataFrame(schema=DETAIL_SCHEMA))
    return TiebreakResult(_all(ctx, values), detail, key)


# --------------------------------------------------------------------------- direct encounter


@dataclass(frozen=True, slots=True)
class _Encounters:
    """Each team's average score against each opponent met (6.1.2), in one measure."""

    pts: dict[int, dict[int, float]]
    win: float
    """What a missing encounter can bring at most (6.3): a win's points in that measure."""


def _encounters(ctx: TeamContext, value: Callable[[pl.DataFrame], pl.DataFrame], win: float,
                forfeits_played: bool = False) -> _Encounters:
    """``value`` maps the encounter rows (sno, round, opponent, + card columns) to sno,
    opponent, v. Encounters: matches played (6.1.1); in a round robin (15.2) or with ``/P``
    forfeited ones too."""
    cond = (pl.col("paired") if ctx.round_robin or forfeits_played
            else pl.col("played") & pl.col("opponent").is_not_null())
    enc = value(ctx.card.filter(cond))
    pts: dict[int, dict[int, float]] = {}
    for s, o, v in enc.group_by("sno", "opponent").agg(pl.col("v").mean()).iter_rows():
        pts.setdefault(s, {})[o] = v
    return _Encounters(pts, win)


def _score_encounters(ctx: TeamContext, s: TeamScore, forfeits_played: bool = False
                      ) -> _Encounters:
    return cast(_Encounters, ctx.remember(("encounters", s, forfeits_played), ctx.card, lambda: (
        _encounters(ctx, lambda c: c.select("sno", "opponent", pl.col(s.column).alias("v")),
                    ctx.win(s), forfeits_played))))


def _weighted_encounters(ctx: TeamContext, weights: Sequence[float], forfeits_played: bool = False
                         ) -> _Encounters:
    """Art. 12 inside EDE (13.3.2): the team's boards in each match against the other, weighted
    (board count: minus the board number; TBR: one board; BBE: the boards kept)."""
    w = pl.DataFrame({"board": list(range(1, len(weights) + 1)), "w": list(weights)},
                     schema={"board": pl.Int64, "w": pl.Float64})

    def value(c: pl.DataFrame) -> pl.DataFrame:
        b = (ctx.boards.join(c.select("sno", "round"), on=["sno", "round"])
             .join(w, on="board").group_by("sno", "round", "opponent")
             .agg((pl.col("points") * pl.col("w")).sum().alias("v")))
        return b.select("sno", "opponent", "v")

    return _encounters(ctx, value, ctx.win(ctx.primary.other), forfeits_played)


def _de_split(snos: list[int], enc: _Encounters, round_robin: bool) -> list[list[int]]:
    """One application of FIDE C.07 art. 6 to ``snos``: the tiers it separates (best first);
    one tier when it separates nothing. 6.2 all met: the separate standings; 6.3 not all met
    (Swiss): a team is placed only while alone at the top whatever the missing encounters."""
    among = set(snos)
    score: dict[int, float] = {}
    met: dict[int, int] = {}
    for s in snos:
        inside = [p for o, p in enc.pts.get(s, {}).items() if o in among and o != s]
        score[s], met[s] = float(sum(inside)), len(inside)
    all_met = round_robin or all(met[s] == len(snos) - 1 for s in snos)
    best = {s: score[s] + (0 if all_met else (len(snos) - 1 - met[s]) * enc.win) for s in snos}
    order = sorted(snos, key=lambda s: (-score[s], -best[s], s))
    tiers: list[list[int]] = [[order[0]]]
    if all_met:
        for s in order[1:]:
            if score[s] == score[tiers[-1][0]]:
                tiers[-1].append(s)
            else:
                tiers.append([s])
    else:
        separated = True
        for i in range(1, len(order)):
            if separated and score[order[i - 1]] > max(best[t] for t in order[i:]):
                tiers.append([order[i]])
            else:
                separated = False
                tiers[-1].append(order[i])
    return [sorted(t) for t in tiers]


def _de_order(snos: list[int], enc: _Encounters, round_robin: bool) -> list[list[int]]:
    """Art. 6 re-applied to every subset still tied (6.2, 6.3 last sentence)."""
    if len(snos) < 2:
        return [snos]
    tiers = _de_split(snos, enc, round_robin)
    if len(tiers) == 1:
        return tiers
    return [t for tier in tiers for t in _de_order(tier, enc, round_robin)]


def _ede_order(snos: list[int], steps: Sequence[_Encounters],
               knockouts: Sequence[Callable[[], _Encounters]], round_robin: bool
               ) -> list[list[int]]:
    """FIDE C.07 13.3 — DE on the primary score, else on the secondary (13.3.1); each new
    subset restarts from the primary score (13.3.3); two teams still tied in both go through the
    knockout tie-breaks in order (13.3.2)."""
    if len(snos) < 2:
        return [snos]
    for enc in steps:
        tiers = _de_split(snos, enc, round_robin)
        if len(tiers) > 1:
            return [t for tier in tiers for t in _ede_order(tier, steps, knockouts, round_robin)]
    if len(snos) == 2:
        for knockout in knockouts:
            tiers = _de_split(snos, knockout(), round_robin)
            if len(tiers) > 1:
                return tiers
    return [snos]


def _order_by(ctx: TeamContext, order: Callable[[list[int]], list[list[int]]], what: str
              ) -> TiebreakResult:
    places: dict[int, float] = {}
    positions: dict[int, int] = {}
    summary: list[dict[str, Any]] = []
    for _, snos in sorted(_groups(ctx).items(), key=lambda kv: str(kv[0])):
        tiers = order(snos)
        i = 0
        for tier in tiers:
            positions.update({s: i for s in tier})
            i += len(tier)
        if len(snos) > 1:
            decided = len(tiers) > 1
            if decided:
                places.update({s: float(positions[s] + 1) for s in snos})
            text = " | ".join(", ".join(map(str, t)) for t in tiers)
            summary.extend({"sno": s, "round": None, "opponent_sno": None, "opponent": "",
                            "value": places.get(s), "dropped_by_cut": False,
                            "note": f"tie group {', '.join(map(str, snos))}: {what}: "
                                    + (f"places {text}" if decided else "not separated")}
                           for s in snos)
    return _order_result(ctx, places, positions, summary)


def direct_encounter(ctx: TeamContext, code: TeamCode) -> TiebreakResult:
    """FIDE C.07 §6, §13 — Direct encounter for teams, on one score (the primary by default),
    inside each tie group: the separate standings of the matches among the tied teams (played
    matches; in a round robin forfeited ones too, §15.2; several matches averaged, 6.1.2), 6.2
    when all met, 6.3 when not (Swiss), re-applied to those still tied. The column holds the
    place in the group, null where DE separated nothing."""
    s = ctx.score(code)
    enc = _score_encounters(ctx, s, code.forfeits_played)
    return _order_by(ctx, lambda snos: _de_order(snos, enc, ctx.round_robin),
                     f"C.07 art. 6 on {s.value}")


_KNOCKOUTS = {"EDE": "", "EDEBT": "CT", "EDEBB": "CB", "EDET": "T", "EDEB": "B"}


def extended_direct_encounter(ctx: TeamContext, code: TeamCode) -> TiebreakResult:
    """FIDE C.07 §13.3 — Extended direct encounter: DE (art. 6) on the primary score, then, if no
    tie was broken, on the secondary (13.3.1); every new subset restarts from 13.3.1 (13.3.3).
    EDEBT, EDEBB, EDET, EDEB (13.3.2): two teams still tied in both scores are then compared by
    board count and top board results (EDEBT), board count and bottom board elimination
    (EDEBB), TBR (EDET) or BBE (EDEB), on the boards of their matches against each other."""
    first, fp = ctx.score(code), code.forfeits_played
    steps = [_score_encounters(ctx, first, fp), _score_encounters(ctx, first.other, fp)]
    n = ctx.n_boards
    weights: list[list[float]] = []
    for step in _KNOCKOUTS[code.name]:
        if step == "C":
            weights.append([-float(b) for b in range(1, n + 1)])
        elif step == "T":
            weights += [[1.0 if b == k else 0.0 for b in range(1, n + 1)] for k in range(1, n + 1)]
        else:
            weights += [[1.0 if b <= n - k else 0.0 for b in range(1, n + 1)] for k in range(1, n)]
    knockouts = [functools.cache(functools.partial(_weighted_encounters, ctx, w, fp))
                 for w in weights]
    return _order_by(ctx, lambda snos: _ede_order(snos, steps, knockouts, ctx.round_robin),
                     f"C.07 13.3 ({code.name}) on {first.value}, then {first.other.value}")


def scores_and_schedule_strength(ctx: TeamContext, code: TeamCode) -> TiebreakResult:
    """FIDE C.07 §13.4 — SSSC: the secondary score plus the Buchholz on the primary score (Fore
    Buchholz with ``/F``) divided by the normalising factor: the highest primary score of the
    tournament over the highest secondary score of one match, rounded towards zero (13.4.2 b).
    Rounded half up to hundredths."""
    p = ctx.primary
    bh_code = TeamCode("BH", "BH", p, Modifier(), code.forfeits_played)
    bh = (fore_buchholz if code.name == "SSSC/F" else buchholz)(ctx, bh_code).values
    factor = max(1, math.floor(ctx.win(p) * ctx.rounds / ctx.win(p.other)))
    sec = ctx.card.group_by("sno").agg(pl.col(p.other.column).sum().alias("sec"))
    values = (bh.join(sec, on="sno", how="left")
              .select("sno", _round_half_up(pl.col("sec") + pl.col("value") / factor, 2)
                      .alias("value")))
    detail = (values.join(bh.rename({"value": "bh"}), on="sno").join(sec, on="sno")
              .with_columns(pl.lit(None, pl.Int64).alias("round"),
                            pl.lit(None, pl.Int64).alias("opponent_sno")))
    detail = _detail(detail, value="value", note=pl.concat_str(
        [pl.lit(f"{p.other.value} "), pl.col("sec").cast(pl.String),
         pl.lit(f" + BH:{p.value} "), pl.col("bh").cast(pl.String), pl.lit(f" / {factor}")]))
    return TiebreakResult(_all(ctx, values), detail)


# --------------------------------------------------------------------------- the registry


@dataclass(frozen=True, slots=True)
class _Entry:
    fn: TeamTiebreakFn
    scores: bool = False
    """Takes ``:MP``/``:GP``."""
    modifiers: tuple[str, ...] = ()
    """The modifiers of C.07 14 it takes."""
    forfeits: bool = False
    """Takes ``/P`` (forfeited matches as matches)."""


_CUTS = ("C1", "C2", "M1", "M2")

REGISTRY: dict[str, _Entry] = {
    "PTS": _Entry(total_score),
    "MPTS": _Entry(total_score),
    "GPTS": _Entry(total_score),
    "MPVGP": _Entry(secondary_score),
    "DE": _Entry(direct_encounter, scores=True, forfeits=True),
    "EDE": _Entry(extended_direct_encounter, scores=True, forfeits=True),
    "EDEBT": _Entry(extended_direct_encounter, scores=True, forfeits=True),
    "EDEBB": _Entry(extended_direct_encounter, scores=True, forfeits=True),
    "EDET": _Entry(extended_direct_encounter, scores=True, forfeits=True),
    "EDEB": _Entry(extended_direct_encounter, scores=True, forfeits=True),
    "WIN": _Entry(wins, scores=True),
    "WON": _Entry(games_won, scores=True),
    "BPG": _Entry(black_games, scores=True),
    "BWG": _Entry(black_wins, scores=True),
    "PS": _Entry(progressive, scores=True, modifiers=("C1", "C2")),
    "REP": _Entry(elected_to_play, scores=True),
    "TPN": _Entry(pairing_number),
    "BH": _Entry(buchholz, scores=True, modifiers=_CUTS, forfeits=True),
    "FB": _Entry(fore_buchholz, scores=True, modifiers=_CUTS, forfeits=True),
    "AOB": _Entry(average_of_opponents_buchholz, scores=True),
    "SB": _Entry(sonneborn_berger, scores=True, modifiers=_CUTS, forfeits=True),
    "KS": _Entry(koya, scores=True),
    "BC": _Entry(board_count),
    "TBR": _Entry(top_board_results),
    "BBE": _Entry(bottom_board_elimination),
    "ESB": _Entry(extended_sonneborn_berger, modifiers=_CUTS, forfeits=True),
    "EMMSB": _Entry(extended_sonneborn_berger, modifiers=_CUTS, forfeits=True),
    "EMGSB": _Entry(extended_sonneborn_berger, modifiers=_CUTS, forfeits=True),
    "EGMSB": _Entry(extended_sonneborn_berger, modifiers=_CUTS, forfeits=True),
    "EGGSB": _Entry(extended_sonneborn_berger, modifiers=_CUTS, forfeits=True),
    "SSSC": _Entry(scores_and_schedule_strength, forfeits=True),
    "SSSC/F": _Entry(scores_and_schedule_strength, forfeits=True),
}
"""FIDE code (without score and modifier) → team tie-break; ``SSSC/F`` is SSSC over Fore
Buchholz (13.4.2 a)."""

_ALIASES = {"GE": "REP", "SNO": "TPN", "MPGP": "MPVGP", "MPVSGP": "MPVGP"}
_MODIFIERS = {"": Modifier(), "C1": Modifier(1, 0), "C2": Modifier(2, 0),
              "M1": Modifier(1, 1), "M2": Modifier(2, 2)}
_SCORE_SPELLINGS = {"MP": "MP", "GP": "GP", "MPOINTS": "MP", "GPOINTS": "GP"}
"""``:MPOINTS``/``:GPOINTS``: how FIDE TEC's calculator writes the score back into a 212 record."""
_ESB_PAIRS = {"MM": "EMMSB", "MG": "EMGSB", "GM": "EGMSB", "GG": "EGGSB",
              "MP": "EMGSB", "GP": "EGMSB"}
_NOT_FOR_TEAMS = {"ARO": "10.1", "TPR": "10.2", "PTP": "10.3", "APRO": "10.4", "APPO": "10.5",
                  "RTNG": "10.6"}


def known_team_codes() -> list[str]:
    """FIDE C.07 11-13 — every team code of the registry (with its scores and modifiers), for
    error messages and the input reference."""
    out: list[str] = []
    for name, e in REGISTRY.items():
        bases = [name] + ([f"{name}:MP", f"{name}:GP"] if e.scores else [])
        mods = [f"/{m}" if m else "" for m in ("", *e.modifiers)]
        mods += [m + "/P" for m in mods] if e.forfeits else []
        out += [b + m for b in bases for m in mods]
    return out


def _unknown(code: str, key: str, file: str, why: str = "") -> UnknownTiebreak:
    return UnknownTiebreak(code, key=key, file=file, reason=(
        f"unknown team tie-break code {code!r}{why}; known: "
        + ", ".join(n for n in REGISTRY) + " (BH, FB, SB, PS, DE, EDE, KS and the art. 7 counts "
        "take :MP or :GP; BH, FB, SB and the ESB family take /C1, /C2, /M1, /M2; PS /C1, /C2; "
        "DE, EDE*, BH, FB, SB, ESB* and SSSC /P, forfeited matches as played)"))


def parse_team_code(code: str, *, key: str = "team.tiebreaks", file: str = "event.toml") -> TeamCode:
    """FIDE C.07 11-13 — a team tie-break code in its canonical spelling: ``'bh:mp-c1'`` →
    ``TeamCode('BH:MP/C1', 'BH', MP, Modifier(1, 0))``; ``ESB:MG`` → ``EMGSB``; ``GE`` → ``REP``;
    ``EMGSB/P/C1`` → ``EMGSB/C1/P``. Raises :class:`transforms.fide.tiebreaks.UnknownTiebreak`
    (a ConfigError) naming ``key``."""
    text = code.strip().upper().replace(" ", "")
    m = re.fullmatch(r"([A-Z]+)(?::([A-Z]+))?((?:[/-][A-Z0-9]+)*)", text)
    if not m:
        raise _unknown(code, key, file)
    name, score_text, mods_text = m.group(1), m.group(2), m.group(3)
    name = _ALIASES.get(name, name)
    mods = [x for x in re.split(r"[/-]", mods_text) if x]
    if name == "SSSC" and "F" in mods:
        name, mods = "SSSC/F", [x for x in mods if x != "F"]
    if name in _NOT_FOR_TEAMS:
        raise _unknown(code, key, file, f" (C.07 {_NOT_FOR_TEAMS[name]} is a rating-based "
                                        "tie-break for individuals)")
    score: TeamScore | None = None
    if score_text is not None:
        if name == "ESB" and score_text in _ESB_PAIRS:
            name, score_text = _ESB_PAIRS[score_text], None
        elif score_text in _SCORE_SPELLINGS:
            score = TeamScore(_SCORE_SPELLINGS[score_text])
        else:
            raise _unknown(code, key, file, f" (score {score_text!r}: MP or GP)")
    entry = REGISTRY.get(name)
    if entry is None:
        raise _unknown(code, key, file)
    if score is not None and not entry.scores:
        implied = {"MPTS": TeamScore.MP, "GPTS": TeamScore.GP}.get(name)
        if implied is not score:
            raise _unknown(code, key, file, f" ({name} takes no :MP/:GP)")
        score = None
    forfeits = "P" in mods
    cuts = [x for x in mods if x != "P"]
    if (len(cuts) > 1 or mods.count("P") > 1 or (cuts and cuts[0] not in entry.modifiers)
            or (forfeits and not entry.forfeits)):
        raise _unknown(code, key, file, f" (modifier {'/'.join(mods)!r} not for {name})")
    mod = cuts[0] if cuts else ""
    canon = (name + (f":{score.value}" if score else "") + (f"/{mod}" if mod else "")
             + ("/P" if forfeits else ""))
    return TeamCode(canon, name, score, _MODIFIERS[mod], forfeits)


_POINTS_CODES = {"PTS": None, "MPTS": TeamScore.MP, "GPTS": TeamScore.GP}


def parse_team_212(record: str, *, key: str = "212", file: str = "TRF"
                   ) -> tuple[TeamScore | None, tuple[TeamCode, ...]]:
    """FIDE TRF-2026 ``212`` (C.07 4.1, 11-13) — a team event's ranking order: the score first
    (``PTS``, ``MPTS`` or ``GPTS``; MPTS/GPTS name the primary score), then the tie-breaks,
    separated by commas or spaces, as FIDE TEC's calculator reads and writes it (``212
    MPTS,GPTS,BH:MP,EDE``). ``record`` is the whole line or its text after the tag. Returns the
    primary score named (None: not named) and the tie-break codes."""
    text = record[4:] if record[:3] == "212" else record
    items = [x for x in re.split(r"[,\s]+", text.strip()) if x]
    primary: TeamScore | None = None
    if items and items[0].upper().split(":")[0] in _POINTS_CODES:
        first = parse_team_code(items.pop(0), key=key, file=file)
        primary = _POINTS_CODES[first.name]
    return primary, tuple(parse_team_code(x, key=key, file=file) for x in items)


# --------------------------------------------------------------------------- evaluation


def _n_boards(card: pl.DataFrame, boards: pl.DataFrame) -> int:
    n = card["boards"].max() if "boards" in card.columns and card.height else None
    if n is None and boards.height:
        n = boards["board"].max()
    return max(1, int(cast("int", n or 1)))


def team_evaluation(card: pl.DataFrame, boards: pl.DataFrame, codes: Sequence[str], *,
                    primary: str | TeamScore, match_points: Sequence[float], rounds: int | None,
                    edition: str | Edition, round_robin: bool = False) -> Evaluation:
    """FIDE C.07 4.2, 11-16 — every configured team tie-break, in order: the DE-type ones (DE,
    EDE and its variants, TBR, BBE) see the tie groups formed by the primary score and the
    tie-breaks before them. ``values``: sno (Int32), points (the primary score), one column per
    code; ``keys``: the sort keys (higher first); ``detail``: the contributions."""
    ed = parse_edition(edition, key="team.tiebreak_edition")
    prim = parse_primary(primary)
    win, draw, loss = (float(x) for x in match_points)
    parsed = [parse_team_code(c) for c in codes]
    canon = [p.code for p in parsed]
    dupes = sorted({c for c in canon if canon.count(c) > 1})
    if dupes:
        raise UnknownTiebreak(dupes[0], key="team.tiebreaks",
                              reason=f"tie-break {dupes[0]!r} is listed twice")
    if rounds is None:
        rounds = int(cast("int | None", card["round"].max()) or 0) if card.height else 0
    snos = card["sno"] if card.height else pl.Series("sno", [], pl.Int64)
    prepared = prepare_team_card(card, snos, rounds)
    n_boards = _n_boards(card, boards)
    ctx = TeamContext(prepared, prepare_board_card(prepared, boards, n_boards), prim,
                      (win, draw, loss), n_boards, rounds, ed, round_robin)
    base = prepared.group_by("sno").agg(pl.col(prim.column).sum().alias("points")).sort("sno")
    values, keys, details = base, base, []
    for tc in parsed:
        c = ctx
        if tc.name in _GROUPED:
            cols = ["points"] + [k for k in keys.columns if k not in ("sno", "points")]
            grouped = keys.with_columns(pl.concat_str(
                [pl.col(k).cast(pl.String).fill_null("-") for k in cols], separator="|")
                .alias("group"))
            c = replace(ctx, groups=grouped.select("sno", "group"))
        res = REGISTRY[tc.name].fn(c, tc)
        values = values.with_columns(_aligned(base["sno"], res.values, "value").alias(tc.code))
        keys = keys.with_columns(
            _aligned(base["sno"], res.key if res.key is not None else res.values,
                     "key" if res.key is not None else "value").alias(tc.code))
        details.append(res.detail.with_columns(pl.lit(tc.code).alias("code")))
    detail = (pl.concat(details) if details
              else pl.DataFrame(schema={**DETAIL_SCHEMA, "code": pl.String()}))
    detail = detail.select("sno", "code", *[c for c in DETAIL_SCHEMA if c != "sno"]).sort(
        "sno", "code", "round")
    to32 = pl.col("sno").cast(pl.Int32)
    return Evaluation(tuple(canon), values.with_columns(to32).sort("sno"),
                      keys.with_columns(to32).sort("sno"), detail)


def _aligned(snos: pl.Series, frame: pl.DataFrame, column: str) -> pl.Series:
    """``frame[column]`` in the order of ``snos`` (null for a team it lacks)."""
    if frame["sno"].cast(pl.Int64).equals(snos, check_names=False):
        return frame[column].cast(pl.Float64)
    found = dict(zip(frame["sno"].cast(pl.Int64).to_list(), frame[column].to_list()))
    return pl.Series(column, [found.get(s) for s in snos.to_list()], dtype=pl.Float64)


_GROUPED = frozenset({"DE", "EDE", "EDEBT", "EDEBB", "EDET", "EDEB", "TBR", "BBE"})


def evaluate_team_tiebreaks(card: pl.DataFrame, boards: pl.DataFrame, codes: Sequence[str], *,
                            primary: str | TeamScore, match_points: Sequence[float],
                            rounds: int | None, edition: str | Edition,
                            round_robin: bool = False) -> pl.DataFrame:
    """FIDE C.07 11-16 — sno (Int64) and one Float64 column per code (canonical spelling, in the
    given order). ``card``: one row per team per round (round, sno, opponent, colour, mp, gp,
    opp_gp, kind, boards); ``boards``: round, sno, board, points, played; ``primary``: ``MP`` or
    ``GP``; ``match_points``: a match won, drawn, lost; ``rounds``: the rounds of the
    tournament (None: the last round of the card); ``round_robin``: pre-determined pairings
    (§15.2) instead of a Swiss (§16)."""
    ev = team_evaluation(card, boards, codes, primary=primary, match_points=match_points,
                         rounds=rounds, edition=edition, round_robin=round_robin)
    return ev.values.drop("points").with_columns(pl.col("sno").cast(pl.Int64))


def explain_team_tiebreaks(card: pl.DataFrame, boards: pl.DataFrame, codes: Sequence[str], *,
                           primary: str | TeamScore, match_points: Sequence[float],
                           rounds: int | None, edition: str | Edition,
                           round_robin: bool = False) -> pl.DataFrame:
    """FIDE C.07 11-16 — the contributions behind each team tie-break (columns as
    :func:`transforms.fide.tiebreaks.explain_tiebreaks`): for BH/SB/ESB the opponent (or
    ``dummy``/``virtual``) of each round, its score or product and whether a cut dropped it;
    for the DE-type tie-breaks one row per tied team with the group and the places."""
    return team_evaluation(card, boards, codes, primary=primary, match_points=match_points,
                           rounds=rounds, edition=edition, round_robin=round_robin).detail


_TEAM_WORDS = {
    "MPTS": "match points", "GPTS": "game points", "PTS": "the primary score",
    "MPVGP": "the secondary score (game points when match points rank first, and the other way)",
    "DE": "direct encounter: the {score} scored in the matches among the tied teams",
    "EDE": "extended direct encounter: the primary score among the tied teams, then the secondary",
    "EDET": "extended direct encounter, then top board results",
    "EDEB": "extended direct encounter, then bottom board elimination",
    "EDEBT": "extended direct encounter, then board count and top board results",
    "EDEBB": "extended direct encounter, then board count and bottom board elimination",
    "WIN": "matches won (boards won, for game points)", "WON": "matches won over the board",
    "BPG": "matches with Black on board 1", "BWG": "matches won with Black on board 1",
    "PS": "progressive score: the {score} after each round, added up",
    "REP": "rounds the team elected to play", "TPN": "the team's pairing number (lower first)",
    "BH": "Buchholz: the opponents' {score}, added up",
    "AOB": "the average of the opponents' Buchholz", "FB": "fore Buchholz: Buchholz with the last round drawn",
    "SB": "Sonneborn-Berger: each opponent's {score} times the {score} scored against them",
    "KS": "Koya: the {score} scored against the teams with at least half the possible score",
    "BC": "board count: each board's number times the game points scored on it (lower first)",
    "TBR": "top board results: board 1's points, then board 2's, ...",
    "BBE": "bottom board elimination: every board's points, then all but the last board, ...",
    "EMMSB": "extended Sonneborn-Berger: opponents' match points times match points scored",
    "EMGSB": "extended Sonneborn-Berger: opponents' match points times game points scored",
    "EGMSB": "extended Sonneborn-Berger: opponents' game points times match points scored",
    "EGGSB": "extended Sonneborn-Berger: opponents' game points times game points scored",
    "SSSC": "score and schedule strength: the secondary score plus the Buchholz, normalised",
}


def team_tiebreak_name(code: str, primary: str | TeamScore = TeamScore.MP) -> str:
    """FIDE C.07 11-14 — a team tie-break in words, as the standings' legend prints it
    (``BH:MP/C1`` → "Buchholz: the opponents' match points, added up; the lowest one cut")."""
    c = parse_team_code(code)
    score = c.score or parse_primary(primary)
    words = _TEAM_WORDS.get(c.name, c.name).format(
        score="match points" if score is TeamScore.MP else "game points")
    cut = {(1, 0): "the lowest one cut", (2, 0): "the two lowest cut",
           (1, 1): "the highest and the lowest cut", (2, 2): "the two highest and two lowest cut"}
    extra = [cut[(c.modifier.low, c.modifier.high)]] if (c.modifier.low, c.modifier.high) in cut else []
    if c.forfeits_played:
        extra.append("forfeited matches counted as played")
    return "; ".join([words, *extra])
