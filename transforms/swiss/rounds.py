"""One Swiss round as the pairing engine sees it, and back: building the engine's input
from the event's scorecard, byes and withdrawals, and turning boards into result rows."""

from __future__ import annotations

from dataclasses import dataclass, replace

import polars as pl

from transforms.core.model import (
    SCORECARD_COLUMNS,
    SCORECARD_SCHEMA,
    Acceleration,
    Colour,
    DutchEdition,
    Kind,
    ResultCode,
)
from transforms.fide.acceleration import acceleration_records
from transforms.fide.rating_report import point_system_of
from transforms.fide.trf import Tournament, recorded_pairing, tournament_from_scorecard


@dataclass(frozen=True)
class RoundSetup:
    """Who is not paired in a round before the engine runs, and why."""

    byes: dict[int, str]
    """sno -> ``HPB``/``ZPB`` requested for the round (bye_requests.csv)."""
    absent: frozenset[int]
    """Withdrawn players (withdrawals.csv ``from_round`` <= round)."""


def round_setup(players: pl.DataFrame, round_no: int, bye_requests: pl.DataFrame | None,
                withdrawals: pl.DataFrame | None) -> RoundSetup:
    """FIDE C.04.1 — players with a requested bye or who withdrew are not paired."""
    ids = dict(zip(players["player_id"], players["sno"]))
    absent = frozenset(ids[p] for p, r in (zip(withdrawals["player_id"], withdrawals["from_round"])
                                           if withdrawals is not None else ())
                       if p in ids and r <= round_no)
    byes = {}
    if bye_requests is not None:
        for p, r, k in zip(bye_requests["player_id"], bye_requests["round"], bye_requests["kind"]):
            if p in ids and r == round_no and ids[p] not in absent:
                byes[ids[p]] = k
    return RoundSetup(byes, absent)


def setup_from_scorecard(scorecard: pl.DataFrame, round_no: int) -> RoundSetup:
    """FIDE C.04.1 — the setup a recorded round had: its non-PAB byes and absences (for the audit)."""
    r = scorecard.filter(pl.col("round") == round_no)
    byes = {s: k for s, k in zip(r["sno"], r["kind"]) if k in (Kind.HPB, Kind.ZPB, Kind.FPB)}
    absent = frozenset(s for s, k in zip(r["sno"], r["kind"]) if k == Kind.ABSENT)
    return RoundSetup(byes, absent)


def trf_players(players: pl.DataFrame) -> pl.DataFrame:
    """FIDE C.04 Annex 2 (the 001 record) — the TRF's view of the event's players frame (with
    ``sno``): sno, name, rating, title, sex (``m``/``w`` from players.csv ``gender`` M/F),
    fide_id, birth (``YYYY/MM/DD``), fed (players.csv ``nationality``).

    Decision: the federation is players.csv ``nationality`` as written (ISO 3166 alpha-3,
    the same as FIDE's code for India and most federations); where FIDE's code differs
    (GER, NED, SUI, ...) players.csv should hold FIDE's. A gender other than M/F is written
    blank."""
    def text(col: str) -> pl.Expr:
        return (pl.col(col).cast(pl.String).fill_null("") if col in players.columns
                else pl.lit(""))

    sex = (pl.when(text("gender").str.to_uppercase() == "M").then(pl.lit("m"))
           .when(text("gender").str.to_uppercase() == "F").then(pl.lit("w"))
           .otherwise(pl.lit("")))
    return players.select(
        "sno", "name",
        (pl.col("rating").fill_null(0) if "rating" in players.columns else pl.lit(0))
        .alias("rating"),
        text("title").alias("title"), sex.alias("sex"), text("fide_id").alias("fide_id"),
        text("birth_date").str.replace_all("-", "/").alias("birth"),
        text("nationality").str.to_uppercase().alias("fed"),
    )


def engine_input(players: pl.DataFrame, scorecard: pl.DataFrame, round_no: int, setup: RoundSetup,
                 *, name: str, total_rounds: int, edition: DutchEdition,
                 initial_colour: str, acceleration: Acceleration = Acceleration.NONE) -> Tournament:
    """FIDE C.04 Annex 2 — the TRF view of rounds 1..round_no-1 plus the pre-set entries of round
    ``round_no`` (requested byes and absences), which the engine leaves unpaired; the players
    as :func:`trf_players` writes them; the point system the scorecard was scored with (a PAB
    worth other than a point is declared, so that the points column agrees); with an
    ``acceleration`` (FIDE C.04.5), the virtual points of every round as ``XXA`` and ``250``
    records (the points column stays the points)."""
    card = scorecard.filter(pl.col("round") < round_no)
    pre = [{"round": round_no, "sno": s, "opponent": None, "colour": None,
            "points": ResultCode(k).white.points, "kind": k}
           for s, k in setup.byes.items()]
    pre += [{"round": round_no, "sno": s, "opponent": None, "colour": None, "points": 0.0,
             "kind": str(Kind.ABSENT)} for s in sorted(setup.absent)]
    if pre:
        card = pl.concat([card, pl.DataFrame(pre, schema=SCORECARD_SCHEMA)])
    t = tournament_from_scorecard(
        trf_players(players), card, name=name, total_rounds=total_rounds, edition=edition,
        initial_colour=Colour.WHITE if initial_colour == "white" else Colour.BLACK,
        scoring=point_system_of(scorecard))
    records = acceleration_records(acceleration, players["sno"].to_list(), total_rounds)
    return replace(t, other_records=t.other_records + records) if records else t


def pairing_rows(boards: list[tuple[int, int | None]], setup: RoundSetup, players: pl.DataFrame,
                 round_no: int) -> pl.DataFrame:
    """DESIGN.md Inputs (results.csv) — boards as results.csv rows (result empty until played):
    games, then the pairing-allocated bye, then requested byes. Absent players get no row."""
    ids = dict(zip(players["sno"], players["player_id"]))
    rows = []
    for i, (w, b) in enumerate(boards, start=1):
        rows.append({"round": round_no, "board": i, "white_id": ids[w],
                     "black_id": ids[b] if b is not None else None,
                     "result": None if b is not None else "PAB"})
    n = len(rows)
    for j, (s, k) in enumerate(sorted(setup.byes.items()), start=1):
        rows.append({"round": round_no, "board": n + j, "white_id": ids[s], "black_id": None,
                     "result": k})
    return pl.DataFrame(rows, schema={"round": pl.Int64, "board": pl.Int64, "white_id": pl.String,
                                      "black_id": pl.String, "result": pl.String})


def recorded_boards(scorecard: pl.DataFrame, round_no: int) -> set[tuple[int, int | None]]:
    """FIDE C.04.3 — the pairing a recorded round had (see :func:`recorded_pairing`)."""
    return recorded_pairing(scorecard.select(SCORECARD_COLUMNS).iter_rows(), round_no)
