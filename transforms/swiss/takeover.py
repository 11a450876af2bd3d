"""Taking a Swiss event over from a TRF file (DESIGN.md, "TRF import"): the players and
results of an event run in Swiss-Manager or Vega, as chessfed's players.csv and results.csv."""

from __future__ import annotations

import datetime as dt

import polars as pl

from transforms.core.model import Kind, ResultCode, Title
from transforms.fide.trf import Tournament

TITLES = frozenset(t.value for t in Title)
_GAME_RESULT = {(c.white.kind, c.white.points): c.value for c in ResultCode
                if c.black is not None and c.white.kind is not Kind.FORFEIT_LOSS}
"""(white's kind, white's points) -> the results.csv code, where those two decide it (a
forfeit loss of White is ``-/+`` or ``-/-`` by Black's side)."""


def _birth(text: str) -> str:
    for fmt in ("%Y/%m/%d", "%Y-%m-%d", "%Y"):
        try:
            d = dt.datetime.strptime(text.strip(), fmt).date()
            return d.isoformat() if fmt != "%Y" else f"{d.year}-01-01"
        except ValueError:
            continue
    return ""


def players_from_trf(t: Tournament, *, section: str, registered_at: dt.datetime) -> pl.DataFrame:
    """DESIGN.md Inputs — players.csv rows (all text) for the TRF's players; ``player_id`` and
    ``start_no`` are the TRF start number, so pairings continue those of the program the
    event came from.

    Decision: entry data a TRF does not carry (entry type, registration, AICF registration)
    is filled as an ordinary accepted entry registered at ``registered_at``: eligibility was
    decided by whoever ran the event so far."""
    rows = []
    for p in t.players:
        rows.append({
            "player_id": str(p.sno), "name": p.name, "section": section,
            "gender": "F" if p.sex.lower() in ("f", "w") else "M",
            "birth_date": _birth(p.birth), "nationality": p.fed, "state": "",
            "fide_id": p.fide_id, "rating": str(p.rating) if p.rating else "",
            "title": p.title.upper() if p.title.upper() in TITLES else "",
            "entry_type": "quota", "seed_reason": "",
            "registered_at": registered_at.strftime("%Y-%m-%dT%H:%M"), "fee_paid": "",
            "aicf_registered": "true", "email": "", "start_no": str(p.sno),
        })
    return pl.DataFrame(rows, schema={k: pl.String for k in rows[0]} if rows else None)


def results_from_trf(t: Tournament) -> pl.DataFrame:
    """DESIGN.md Inputs (TRF import) — results.csv rows (all text) from the TRF scorecard: one row
    per game (forfeits included) and per bye; absences have no row. Boards in each round follow the
    higher score before the round, then the lower start number (FIDE C.04.2 board order)."""
    card = t.scorecard.sort(["sno", "round"])
    before = card.with_columns(
        (pl.col("points").cum_sum().over("sno") - pl.col("points")).alias("before"))
    score = {(r, s): b for r, s, b in zip(before["round"], before["sno"], before["before"])}
    by_key = {(r, s): (o, c, p, k) for r, s, o, c, p, k in card.select(
        "round", "sno", "opponent", "colour", "points", "kind").iter_rows()}
    rows = []
    for rnd in sorted(set(card["round"].to_list())):
        boards = []
        for (r, s), (o, c, p, k) in by_key.items():
            if r != rnd:
                continue
            if o is not None and c == "w":
                ok = by_key.get((r, o))
                if (k, p) in _GAME_RESULT:
                    res = _GAME_RESULT[(k, p)]
                elif k == Kind.FORFEIT_LOSS:
                    res = (ResultCode.BLACK_FORFEIT_WIN if ok is not None and ok[3] == Kind.FORFEIT_WIN
                           else ResultCode.DOUBLE_FORFEIT).value
                else:
                    res = (ResultCode.DRAW if p == 0.5 else ResultCode.WHITE_WINS if p > 0.5
                           else ResultCode.BLACK_WINS).value
                boards.append((-max(score[(r, s)], score.get((r, o), 0)), min(s, o), str(s), str(o), res))
            elif o is None and k in (Kind.PAB, Kind.FPB, Kind.HPB, Kind.ZPB):
                boards.append((1e9, s, str(s), None, str(k)))
        for i, (_, _, w, b, res) in enumerate(sorted(boards), start=1):
            rows.append({"round": str(rnd), "board": str(i), "white_id": w, "black_id": b, "result": res})
    return pl.DataFrame(rows, schema={"round": pl.String, "board": pl.String, "white_id": pl.String,
                                      "black_id": pl.String, "result": pl.String})
