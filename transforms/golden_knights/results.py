"""GK rules 2, 7, 11, 12 — games of a section, rulings on time oversteps, the director's
result decisions, section scores and crosstables."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import polars as pl

from transforms.core.errors import Finding, Severity
from transforms.core.model import GAME_RESULTS, Kind, ResultCode, Side
from transforms.golden_knights.rules import GKRules, Stage

GAMES_SCHEMA = {
    "stage": pl.String(), "section": pl.String(), "white": pl.String(), "black": pl.String(),
    "result": pl.String(), "ended": pl.Date(), "line": pl.Int64(), "source": pl.String(),
}
RULINGS_SCHEMA = {
    "stage": pl.String(), "section": pl.String(), "entry_id": pl.String(), "opponent": pl.String(),
    "reported": pl.Date(), "offense": pl.Int64(), "ruling": pl.String(),
    "result_before": pl.String(), "result_after": pl.String(), "line": pl.Int64(),
}
REVIEW_SCHEMA = {
    "rule": pl.String(), "stage": pl.String(), "section": pl.String(), "entry_id": pl.String(),
    "detail": pl.String(),
}
PENALTY, LOSS = "reflection_time_penalty", "loss_of_game"


def _norm_code(text: str | None) -> str | None:
    """A game result code (white's view), None while in progress ("" or "*"); ValueError if
    it is not the result of a game."""
    if text is None or text.strip() == "*":
        return None
    code = ResultCode.parse(text)
    if code is not None and code not in GAME_RESULTS:
        raise ValueError(text)
    return None if code is None else code.value


def section_games(
    rules: GKRules, seated: pl.DataFrame, games: pl.DataFrame
) -> tuple[pl.DataFrame, list[Finding]]:
    """GK rule 2 — every game of every published section, one row per pair.

    ``seated``: published sections (stage, section, entry_id, seat). Games recorded in
    games.csv are checked: unknown stage/section, a player not in that section, a player
    against himself, an unknown result code (error, row ignored), the same pair recorded twice
    (error, later row ignored), a player with more than ``whites_per_player`` Whites (warning).
    Decision: a pair with no row in games.csv is a game in progress, its colours taken from
    :func:`~transforms.golden_knights.sections.section_schedule`.
    Decision: the Whites of rule 2 are counted over the player's whole section, the recorded
    games and those still in progress (a recorded game with the colours the other way round
    gives one player a fourth White even while his other games are unfinished); the warning
    is on the first games.csv row where he has White against the schedule.
    """
    from transforms.golden_knights.sections import section_schedule

    f: list[Finding] = []
    g = games.with_columns(pl.col("line").cast(pl.Int64)).sort("line")
    members = seated.select("stage", "section", "entry_id")
    known_sections = members.select("stage", "section").unique()
    codes = []
    for r in g.iter_rows(named=True):
        try:
            codes.append(_norm_code(r["result"]))
        except ValueError:
            codes.append("?")
    g = g.with_columns(result=pl.Series(codes, dtype=pl.String))
    in_w = members.rename({"entry_id": "white"}).with_columns(_w=pl.lit(True))
    in_b = members.rename({"entry_id": "black"}).with_columns(_b=pl.lit(True))
    ks = known_sections.with_columns(_s=pl.lit(True))
    g = g.join(ks, on=["stage", "section"], how="left").join(in_w, on=["stage", "section", "white"], how="left") \
        .join(in_b, on=["stage", "section", "black"], how="left").sort("line")
    keep: list[tuple[Any, ...]] = []  # GAMES_SCHEMA's columns
    seen: dict[tuple[str, str, str, str], tuple[int, str, str | None]] = {}
    for r in g.iter_rows(named=True):
        line, reason, col, val = r["line"], None, "", ""
        if r["stage"] not in {s.value for s in Stage}:
            reason, col, val = "unknown stage", "stage", r["stage"]
        elif not r["_s"]:
            reason, col, val = "no published section of that name in sections.csv", "section", r["section"]
        elif r["white"] == r["black"]:
            reason, col, val = "a player cannot play himself", "black", r["black"]
        elif not r["_w"]:
            reason, col, val = "white is not in that section", "white", r["white"]
        elif not r["_b"]:
            reason, col, val = "black is not in that section", "black", r["black"]
        elif r["result"] == "?":
            reason, col, val = "unknown result code", "result", str(games.filter(pl.col("line") == line)["result"][0])
        if reason:
            f.append(Finding("games.csv", line, col, val or "", Severity.ERROR, reason + "; row ignored"))
            continue
        key = (r["stage"], r["section"], *sorted((r["white"], r["black"])))
        if key in seen:
            first, white, res = seen[key]
            if (white, res) == (r["white"], r["result"]):
                why = f"game between these two players recorded twice in this section (line {first})"
            else:
                shown = "in progress" if res is None else f"{res} for {white}"
                why = (f"game between these two players recorded twice in this section, contradicting "
                       f"line {first} ({shown}): another result or colours")
            f.append(Finding("games.csv", line, "black", r["black"], Severity.ERROR, why + "; later row ignored"))
            continue
        seen[key] = (line, r["white"], r["result"])
        keep.append((r["stage"], r["section"], r["white"], r["black"], r["result"], r["ended"], line, "games"))
    sched = section_schedule(rules, seated)
    scheduled_white = set()
    for row in sched.iter_rows():
        scheduled_white.add((row[0], row[1], row[2], row[3]))
        key = (row[0], row[1], *sorted((row[2], row[3])))
        if key not in seen:
            keep.append((*row, None, None, None, "schedule"))
    whites: dict[tuple[str, str], int] = {}
    for stage, _section, white, *_ in keep:
        whites[(stage, white)] = whites.get((stage, white), 0) + 1
    warned: set[tuple[str, str]] = set()
    for stage, section, white, black, _res, _end, line, _src in sorted(
            (k for k in keep if k[7] == "games"), key=lambda k: k[6]):
        wk = (stage, white)
        if (whites[wk] > rules.whites_per_player and wk not in warned
                and (stage, section, white, black) not in scheduled_white):
            warned.add(wk)
            f.append(Finding("games.csv", line, "white", white, Severity.WARNING,
                             f"player has {whites[wk]} games with White in his section, not "
                             f"{rules.whites_per_player} (rule 2)"))
    f.sort(key=lambda x: x.line or 0)
    return pl.DataFrame(keep, schema=GAMES_SCHEMA, orient="row"), f


def _no_game(file: str, o: dict[str, Any], games: list[dict[str, Any]], then: str) -> Finding:
    """A row naming a game (stage, section, entry_id, opponent) that the section does not have:
    the column at fault is the entry that does not play in that section, else the opponent."""
    playing = {(g["stage"], g["section"], p) for g in games for p in (g["white"], g["black"])}
    col = "entry_id" if (o["stage"], o["section"], o["entry_id"]) not in playing else "opponent"
    return Finding(file, o["line"], col, o[col] or "", Severity.ERROR,
                   f"no game between {o['entry_id']} and {o['opponent']} in {o['stage']} {o['section']}; {then}")


def rule_12_rulings(
    rules: GKRules, games: pl.DataFrame, oversteps: pl.DataFrame
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame, list[Finding]]:
    """GK rule 12 — time oversteps: penalty for the first, loss of game for later ones; final: loss.

    Returns (games with rulings applied, rulings, director review rows, findings).
    Decision: offences are counted per entry per stage (each stage is one section for a
    player), in order of ``reported`` then file line; the count restarts in each stage.
    Decision: the 5-day reflection-time penalty is recorded only (no score effect).
    Decision: a loss of game makes the game a normal loss for the offender (0) and a normal
    win for the opponent (1) — "1-0"/"0-1", not a forfeit: it does not count as a forfeit loss
    for the pin (rule 4) nor for rule 11. It replaces any result recorded in games.csv; a
    replaced different result is listed for the director. If one game gets two loss rulings,
    the first applies and the second is listed for the director.
    """
    f: list[Finding] = []
    ov = oversteps.with_columns(pl.col("line").cast(pl.Int64)).sort("stage", "entry_id", "reported", "line")
    idx = {}
    rows = games.to_dicts()
    for i, r in enumerate(rows):
        idx[(r["stage"], r["section"], *sorted((r["white"], r["black"])))] = i
    counts: dict[tuple[str, str], int] = {}
    rulings, review = [], []
    ruled_games: set[int] = set()
    for o in ov.iter_rows(named=True):
        key = (o["stage"], o["section"], *sorted((o["entry_id"] or "", o["opponent"] or "")))
        if key not in idx:
            f.append(_no_game("time_oversteps.csv", o, rows, "row ignored"))
            continue
        ck = (o["stage"], o["entry_id"])
        counts[ck] = counts.get(ck, 0) + 1
        n = counts[ck]
        g = rows[idx[key]]
        before = g["result"]
        if o["stage"] != Stage.FINAL and n == 1:
            ruling, after = PENALTY, before
        else:
            ruling = LOSS
            after = "0-1" if g["white"] == o["entry_id"] else "1-0"
            if idx[key] in ruled_games:
                review.append(("12", o["stage"], o["section"], o["entry_id"],
                               f"second loss-of-game ruling on the game against {o['opponent']}; first kept"))
                after = before
            else:
                ruled_games.add(idx[key])
                if before is not None and before != after:
                    review.append(("12", o["stage"], o["section"], o["entry_id"],
                                   f"overstep against {o['opponent']}: recorded {before} replaced by {after} (loss of game)"))
                g["result"], g["source"] = after, "rule 12"
                if g["ended"] is None:
                    g["ended"] = o["reported"]
        rulings.append((o["stage"], o["section"], o["entry_id"], o["opponent"], o["reported"], n, ruling,
                        before, after, o["line"]))
    out = pl.DataFrame(rows, schema=GAMES_SCHEMA, orient="row") if rows else games
    return (out, pl.DataFrame(rulings, schema=RULINGS_SCHEMA, orient="row"),
            pl.DataFrame(review, schema=REVIEW_SCHEMA, orient="row"), f)


def rule_7_result_overrides(
    games: pl.DataFrame, overrides: pl.DataFrame
) -> tuple[pl.DataFrame, list[dict[str, Any]], list[Finding]]:
    """GK rule 7 — the director's adjudications win over recorded results and rulings.

    Override rows with ``kind == "result"``: stage, section, entry_id, opponent, value.
    Decision: ``value`` is read from ``entry_id``'s side ("1-0": entry_id won, "+/-": entry_id
    won by forfeit, "1/2-1/2", "-/-"; empty or "*": the game is back in progress).
    Returns (games, applied override records, findings).
    """
    f: list[Finding] = []
    rows = games.to_dicts()
    idx = {(r["stage"], r["section"], *sorted((r["white"], r["black"]))): i for i, r in enumerate(rows)}
    applied = []
    for o in overrides.filter(pl.col("kind") == "result").sort("line").iter_rows(named=True):
        key = (o["stage"], o["section"], *sorted((o["entry_id"] or "", o["opponent"] or "")))
        try:
            code = _norm_code(o["value"])
        except ValueError:
            f.append(Finding("overrides.csv", o["line"], "value", o["value"] or "", Severity.ERROR,
                             "unknown result code; override ignored"))
            continue
        if key not in idx:
            f.append(_no_game("overrides.csv", o, rows, "override ignored"))
            continue
        g = rows[idx[key]]
        white_view = code if (code is None or g["white"] == o["entry_id"]) else ResultCode(code).reversed.value
        applied.append({**o, "previous": g["result"], "applied": white_view})
        g["result"], g["source"] = white_view, "rule 7"
    out = pl.DataFrame(rows, schema=GAMES_SCHEMA, orient="row") if rows else games
    return out, applied, f


def scorecard(games: pl.DataFrame) -> pl.DataFrame:
    """GK rules 2, 6 — one row per player per game: the long frame scores are derived from.

    Columns: stage, section, entry_id, opponent, colour (w/b), result (white's view code),
    points (null while in progress), kind (played | forfeit_win | forfeit_loss | null), ended,
    source (games | schedule | rule 12 | rule 7). A double forfeit "-/-" is a forfeit loss
    for both players.
    """
    r = pl.col("result")

    def side(of: Callable[[ResultCode], Side | None]) -> tuple[pl.Expr, pl.Expr]:
        sides = {c.value: s for c in GAME_RESULTS if (s := of(c)) is not None}  # (games: all)
        points = r.replace_strict({v: s.points for v, s in sides.items()}, default=None,
                                  return_dtype=pl.Float64)
        kind = r.replace_strict({v: s.kind.value for v, s in sides.items()}, default=None,
                                return_dtype=pl.String)
        return points, kind

    (w_pts, w_kind), (b_pts, b_kind) = side(lambda c: c.white), side(lambda c: c.black)
    base = ["stage", "section", "result", "ended", "source"]
    white = games.select(*base, entry_id="white", opponent="black", colour=pl.lit("w"),
                         points=w_pts, kind=w_kind)
    black = games.select(*base, entry_id="black", opponent="white", colour=pl.lit("b"),
                         points=b_pts, kind=b_kind)
    return pl.concat([white, black]).select(
        "stage", "section", "entry_id", "opponent", "colour", "result", "points", "kind", "ended", "source"
    ).sort("stage", "section", "entry_id", "opponent")


def section_scores(card: pl.DataFrame) -> pl.DataFrame:
    """GK rules 2, 3 — score per entry per stage, and whether the section is complete.

    Columns: stage, section, entry_id, score, finished, forfeit_losses, forfeit_opponents,
    section_complete (every game of the section has a result).
    """
    per = card.group_by("stage", "section", "entry_id").agg(
        score=pl.col("points").sum(),
        finished=pl.col("points").is_not_null().sum().cast(pl.Int64),
        games=pl.len().cast(pl.Int64),
        forfeit_losses=(pl.col("kind") == Kind.FORFEIT_LOSS.value).sum().cast(pl.Int64),
        forfeit_opponents=pl.col("opponent").filter(pl.col("kind") == Kind.FORFEIT_LOSS.value).n_unique().cast(pl.Int64),
    )
    return per.with_columns(
        section_complete=(pl.col("finished") == pl.col("games")).all().over("stage", "section")
    ).sort("stage", "section", "entry_id")


def rule_11_review(scores: pl.DataFrame) -> pl.DataFrame:
    """GK rule 11 — a player who forfeits to two opponents in one section is listed for the director.

    Decision: "forfeits to" = forfeit losses ("+/-"/"-/+" against him, "-/-") against two or
    more different opponents in one section; listed, never acted on automatically (the rule
    says it *may* lead to further forfeits: the director decides, rule 7).
    """
    return scores.filter(pl.col("forfeit_opponents") >= 2).select(
        rule=pl.lit("11"), stage="stage", section="section", entry_id="entry_id",
        detail=pl.format("forfeited to {} opponents in this section: director to decide on further forfeits",
                         pl.col("forfeit_opponents")),
    )


def crosstables(seated: pl.DataFrame, card: pl.DataFrame, scores: pl.DataFrame, people: pl.DataFrame) -> pl.DataFrame:
    """GK rule 2 — section crosstables as games finish (bulletins show sections in progress).

    One row per entry in seat order: stage, section, seat, entry_id, member_id, name, rating,
    c1 … cN (the cell against the player in seat k: "1", "0", "½", "+" forfeit win, "-"
    forfeit loss, "*" in progress, "X" himself), score, finished, section_complete.
    """
    seats = seated.select("stage", "section", "entry_id", "seat")
    cell = (pl.when(pl.col("points").is_null()).then(pl.lit("*"))
            .when(pl.col("kind") == Kind.FORFEIT_WIN.value).then(pl.lit("+"))
            .when(pl.col("kind") == Kind.FORFEIT_LOSS.value).then(pl.lit("-"))
            .when(pl.col("points") == 1.0).then(pl.lit("1"))
            .when(pl.col("points") == 0.5).then(pl.lit("½")).otherwise(pl.lit("0")))
    c = card.join(seats.rename({"entry_id": "opponent", "seat": "opp_seat"}), on=["stage", "section", "opponent"]) \
        .select("stage", "section", "entry_id", "opp_seat", cell=cell)
    selfs = seats.select("stage", "section", "entry_id", opp_seat="seat", cell=pl.lit("X"))
    allc = pl.concat([c, selfs])
    max_seat = int(cast("int | None", seats["seat"].max()) or 0)
    wide = allc.pivot(on="opp_seat", index=["stage", "section", "entry_id"], values="cell",
                      on_columns=list(range(1, max_seat + 1))) if max_seat else None
    if wide is None:
        return pl.DataFrame(schema={
            "stage": pl.String, "section": pl.String, "seat": pl.Int64, "entry_id": pl.String,
            "member_id": pl.String, "name": pl.String, "rating": pl.Int64, "score": pl.Float64,
            "finished": pl.Int64, "section_complete": pl.Boolean})
    wide = wide.rename({str(k): f"c{k}" for k in range(1, max_seat + 1) if str(k) in wide.columns})
    out = seats.join(wide, on=["stage", "section", "entry_id"], how="left") \
        .join(people, on="entry_id", how="left") \
        .join(scores.select("stage", "section", "entry_id", "score", "finished", "section_complete"),
              on=["stage", "section", "entry_id"], how="left")
    cells = [f"c{k}" for k in range(1, max_seat + 1)]
    order = {s.value: i for i, s in enumerate(Stage)}
    return out.with_columns(_o=pl.col("stage").replace_strict(order, default=9)).sort("_o", "section", "seat").select(
        "stage", "section", "seat", "entry_id", "member_id", "name", "rating", *cells,
        "score", "finished", "section_complete")
