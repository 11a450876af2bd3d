"""GK rules 4, 5, 6 — weighted points, standings, prizes and awards."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import polars as pl

from transforms.core.model import MONEY, Kind
from transforms.golden_knights.rules import GKRules, Stage

PRIZES_SCHEMA = {
    "place": pl.Int64(), "entry_id": pl.String(), "member_id": pl.String(), "name": pl.String(),
    "weighted_points": pl.Float64(), "amount": MONEY,
}
AWARDS_SCHEMA = {"entry_id": pl.String(), "member_id": pl.String(), "award": pl.String(), "value": pl.String()}
GIFT, FRAMING, PIN, CHAMPION = "gift_certificate", "framing_certificate", "golden_knights_pin", "champion_title_and_plaque"


def _weighted_cents(rules: GKRules, card: pl.DataFrame) -> pl.DataFrame:
    """The card with ``_c``: the hundredths of a weighted point each game gives (rule 6)."""
    w = pl.DataFrame({"stage": [s.value for s in Stage], "_w": [rules.weight_cents(s) for s in Stage]},
                     schema={"stage": pl.String, "_w": pl.Int64})
    return card.join(w, on="stage", how="left").with_columns(
        _c=pl.when(pl.col("points") == 1.0).then(pl.col("_w"))
        .when(pl.col("points") == 0.5).then(pl.col("_w") // 2).otherwise(0))


def rule_6_weighted_points(rules: GKRules, card: pl.DataFrame) -> pl.DataFrame:
    """GK rule 6 — weighted points: a win 1.0 / 2.2 / 4.5 by stage, a draw half, forfeit wins are wins.

    Returns entry_id, weighted_cents (exact, Int64, hundredths of a point), weighted_points
    (Float64 = cents / 100). The maximum is 6 × (1.0 + 2.2 + 4.5) = 46.20.
    Decision: a game won by a rule 12 loss-of-game ruling is a win like any other.
    """
    return (
        _weighted_cents(rules, card)
        .group_by("entry_id").agg(weighted_cents=pl.col("_c").sum().cast(pl.Int64))
        .with_columns(weighted_points=pl.col("weighted_cents") / 100)
    )


STAGE_RECORD_SCHEMA = {
    "entry_id": pl.String(), "stage": pl.String(), "section": pl.String(), "games": pl.Int64(),
    "finished": pl.Int64(), "whites": pl.Int64(), "blacks": pl.Int64(), "wins": pl.Int64(),
    "forfeit_wins": pl.Int64(), "draws": pl.Int64(), "losses": pl.Int64(), "forfeit_losses": pl.Int64(),
    "points": pl.Float64(), "weight_cents": pl.Int64(), "weighted_cents": pl.Int64(),
}


def rule_6_stage_record(rules: GKRules, card: pl.DataFrame) -> pl.DataFrame:
    """GK rules 2, 6 — each entry's record in each stage and the weighted points it gives.

    One row per entry per stage (:data:`STAGE_RECORD_SCHEMA`): the section, games assigned
    and finished, games with White and with Black (rule 2: three of each), wins over the
    board, forfeit wins, draws, losses over the board, forfeit losses, game points, the
    stage's weight of a win and the weighted points of the stage (hundredths; rule 6). The
    stages' ``weighted_cents`` add up to :func:`rule_6_weighted_points`.
    Decision: a loss by a rule 12 ruling is a loss over the board (as in the standings), a
    double forfeit a forfeit loss.
    """
    k, pts = pl.col("kind"), pl.col("points")
    played = k == Kind.PLAYED.value
    out = _weighted_cents(rules, card).group_by("entry_id", "stage").agg(
        section=pl.col("section").first(),
        games=pl.len().cast(pl.Int64),
        finished=pts.is_not_null().sum().cast(pl.Int64),
        whites=(pl.col("colour") == "w").sum().cast(pl.Int64),
        blacks=(pl.col("colour") == "b").sum().cast(pl.Int64),
        wins=(played & (pts == 1.0)).sum().cast(pl.Int64),
        forfeit_wins=(k == Kind.FORFEIT_WIN.value).sum().cast(pl.Int64),
        draws=(pts == 0.5).sum().cast(pl.Int64),
        losses=(played & (pts == 0.0)).sum().cast(pl.Int64),
        forfeit_losses=(k == Kind.FORFEIT_LOSS.value).sum().cast(pl.Int64),
        points=pts.sum(),
        weight_cents=pl.col("_w").first().cast(pl.Int64),
        weighted_cents=pl.col("_c").sum().cast(pl.Int64),
    )
    order = {s.value: i for i, s in enumerate(Stage)}
    return out.sort("entry_id", pl.col("stage").replace_strict(order, default=9)).select(
        list(STAGE_RECORD_SCHEMA)).cast(STAGE_RECORD_SCHEMA)  # type: ignore[arg-type]  # polars#14468: cast() rejects a dict[str, DataType] variable


def rule_4_standings(
    rules: GKRules, card: pl.DataFrame, scores: pl.DataFrame, people: pl.DataFrame,
    director: dict[str, tuple[bool, str]],
) -> pl.DataFrame:
    """GK rule 4 — standings, completion and prize eligibility (the Golden Knights pin).

    Columns (standings.csv): entry_id, member_id, name, preliminary, semifinal, final (game
    points per stage, null if not placed there), weighted_points, forfeit_losses, completed,
    prize_eligible; plus weighted_cents and rating for the callers.
    Decision: "complete all three rounds" = placed in a section of each stage and the final
    section is complete (every game has a result).
    Decision: forfeit losses are games lost by forfeit ("+/-"/"-/+" against, and "-/-") in any
    stage; a rule 12 time loss is not a forfeit loss.
    Decision: the director's ``prize_eligible`` overrides (rule 7) win.
    """
    wide = scores.group_by("entry_id").agg(
        *[pl.col("score").filter(pl.col("stage") == s.value).first().alias(s.value) for s in Stage],
        completed=(pl.col("stage").n_unique() == 3)
        & (pl.col("section_complete").filter(pl.col("stage") == Stage.FINAL.value).first().fill_null(False)),
    )
    fl = card.group_by("entry_id").agg(
        forfeit_losses=(pl.col("kind") == Kind.FORFEIT_LOSS.value).sum().cast(pl.Int64))
    wp = rule_6_weighted_points(rules, card)
    out = (wide.join(fl, on="entry_id", how="left").join(wp, on="entry_id", how="left")
           .join(people, on="entry_id", how="left")
           .with_columns(prize_eligible=pl.col("completed") & (pl.col("forfeit_losses") == 0)))
    if director:
        d = pl.DataFrame({"entry_id": list(director), "_d": [v[0] for v in director.values()]},
                         schema={"entry_id": pl.String, "_d": pl.Boolean})
        out = out.join(d, on="entry_id", how="left").with_columns(
            prize_eligible=pl.coalesce("_d", "prize_eligible")).drop("_d")
    return out.select(
        "entry_id", "member_id", "name", *[s.value for s in Stage], "weighted_points", "forfeit_losses",
        "completed", "prize_eligible", "weighted_cents", "rating",
    ).sort(pl.col("weighted_cents"), pl.col("final").fill_null(-1), "entry_id", descending=[True, True, False])


def scaled_prize_table(rules: GKRules, entries_assigned: int) -> list[int]:
    """GK rule 5 — the prize fund "increased or decreased proportionately per number of entries assigned".

    Returns the prize of each place in cents.
    Decision: "entries assigned" = entries placed in a published preliminary section.
    Decision: each place's prize is base × assigned / base_entries, rounded half-up to the cent
    on its own (so 203 entries: 812.00, 507.50, 304.50, 101.50 …).
    """
    out = []
    for p in rules.prize_table:
        v = Decimal(p) * entries_assigned / rules.prize_base_entries
        out.append(int((v * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP)))
    return out


def share_prize_places(table: list[int], place: int, players: int) -> tuple[int, int, int, int]:
    """GK rule 6 — "they will share equally the sum total of all prizes involved".

    ``table``: the prize of each place in cents; ``players`` tied in ``place``. Returns (the
    last place whose prize is involved, the sum of the prizes involved, each share, the cents
    left over), all in cents.
    Decision: the places involved are ``place`` … ``place + players - 1`` that exist in the
    table; each share is the sum divided by the players, rounded down to the cent; the cents
    left over (fewer than the players) go one each to the tied players in entry_id order.
    """
    last = min(place + players - 1, len(table))
    pot = sum(table[place - 1:last])
    share, left = divmod(pot, players)
    return last, pot, share, left


def _ranked_eligible(standings: pl.DataFrame, places: int) -> pl.DataFrame:
    """Prize-eligible entries with their competition place, those in the money only."""
    el = standings.filter(pl.col("prize_eligible")).sort("weighted_cents", "entry_id", descending=[True, False])
    el = el.with_columns(place=pl.col("weighted_cents").rank("min", descending=True).cast(pl.Int64))
    return el.filter(pl.col("place") <= places)


PRIZE_SPLIT_SCHEMA = {
    "place": pl.Int64(), "last_place": pl.Int64(), "players": pl.Int64(), "weighted_points": pl.Float64(),
    "pot": MONEY, "share": MONEY, "leftover_cents": pl.Int64(), "extra_cent": pl.List(pl.String()),
}


def rule_6_prize_split(rules: GKRules, standings: pl.DataFrame, entries_assigned: int) -> pl.DataFrame:
    """GK rules 5, 6 — how each money place was paid: the places involved, their sum, the share.

    One row per place reached by prize-eligible players (:data:`PRIZE_SPLIT_SCHEMA`): place,
    last_place (the last place whose prize is in the sum; = place when nobody ties), players
    tied there, their weighted points, pot (the sum of the prizes involved), share (each
    player's share, rounded down to the cent), leftover_cents and extra_cent (the entry_ids
    that receive one of them). The same arithmetic as :func:`rule_5_prizes`
    (:func:`share_prize_places`), so the shares add up to prizes.csv.
    """
    table = scaled_prize_table(rules, entries_assigned)
    rows = []
    for (place,), grp in _ranked_eligible(standings, len(table)).group_by(["place"], maintain_order=True):
        ids = sorted(grp["entry_id"].to_list())
        last, pot, share, left = share_prize_places(table, place, len(ids))
        rows.append((place, last, len(ids), grp["weighted_points"][0], Decimal(pot) / 100, Decimal(share) / 100,
                     left, ids[:left]))
    return pl.DataFrame(rows, schema=PRIZE_SPLIT_SCHEMA, orient="row").sort("place")


def rule_5_prizes(rules: GKRules, standings: pl.DataFrame, entries_assigned: int) -> pl.DataFrame:
    """GK rules 5, 6 — cash prizes by weighted points; ties share the sum of the prizes involved.

    Only prize-eligible players (pin holders, rule 4) are ranked; places are competition
    ranks among them (tied players share the place number of the best of them).
    Decision: players tied on weighted points (exact cents) whose places p … p+n-1 reach into
    the money share equally the sum of the prizes of those places that exist; each gets that
    sum / n rounded down to the cent, and the cents left over (fewer than n) go one each to the
    tied players in entry_id order, so the shares add up exactly to the sum involved
    (:func:`share_prize_places`).
    """
    table = scaled_prize_table(rules, entries_assigned)
    rows = []
    for (place,), grp in _ranked_eligible(standings, len(table)).group_by(["place"], maintain_order=True):
        _last, _pot, share, extra = share_prize_places(table, place, grp.height)
        for i, r in enumerate(grp.sort("entry_id").iter_rows(named=True)):
            cents = share + (1 if i < extra else 0)
            rows.append((place, r["entry_id"], r["member_id"], r["name"], r["weighted_points"],
                         Decimal(cents) / 100))
    return pl.DataFrame(rows, schema=PRIZES_SCHEMA, orient="row").sort("place", "entry_id")


def rule_4_awards(rules: GKRules, qualifiers: pl.DataFrame, standings: pl.DataFrame,
                  prizes: pl.DataFrame) -> pl.DataFrame:
    """GK rule 4 — $7.00 gift certificate, certificate for framing, the pin; rule 5 — title and plaque.

    Columns (awards.csv): entry_id, member_id, award (gift_certificate | framing_certificate |
    golden_knights_pin | champion_title_and_plaque), value (money as text, "7.00"; empty otherwise).
    Decision: awards are per entry (a member with several entries can receive several).
    Decision: a non-qualifier is one whose qualified is false; a 4-pointer who may still fill
    the last section gets nothing yet.
    Decision: the pin goes to every prize-eligible player (completed all three stages, no
    forfeit losses); the title and plaque to every player in place 1 (co-champions if tied,
    listed for the director).
    """
    gift = qualifiers.filter((pl.col("stage") == Stage.PRELIMINARY.value) & (~pl.col("qualified")))
    framing = qualifiers.filter((pl.col("stage") == Stage.SEMIFINAL.value) & (~pl.col("qualified")))
    parts = [
        gift.select("entry_id", "member_id", award=pl.lit(GIFT), value=pl.lit(f"{Decimal(rules.gift_certificate):.2f}")),
        framing.select("entry_id", "member_id", award=pl.lit(FRAMING), value=pl.lit("")),
        standings.filter(pl.col("prize_eligible")).select("entry_id", "member_id", award=pl.lit(PIN), value=pl.lit("")),
        prizes.filter(pl.col("place") == 1).select("entry_id", "member_id", award=pl.lit(CHAMPION), value=pl.lit("")),
    ]
    return pl.concat([p.cast(AWARDS_SCHEMA) for p in parts]).sort("award", "entry_id")  # type: ignore[arg-type]  # polars#14468: cast() rejects a dict[str, DataType] variable


def counted_entries(standings: pl.DataFrame) -> pl.DataFrame:
    """GK rules 1, 6 and the series regulations (one result per member and event) — the entry
    each member counts with in a series: the best placed by weighted points among all entries
    (``_place``: equal points share it), then the most game points (``_points``), then the
    entry id; one row per member of the standings, with ``member_id`` and ``entry_id``."""
    place = pl.col("weighted_points").fill_null(0.0).rank("min", descending=True).cast(pl.Int64)
    rows = standings.with_columns(
        pl.sum_horizontal(pl.col(x.value).fill_null(0.0) for x in Stage).alias("_points"),
        place.alias("_place"))
    return (rows.sort("_place", "_points", "entry_id", descending=[False, True, False], nulls_last=True)
            .unique("member_id", keep="first", maintain_order=True))
