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
    for fmt in ("%Y/%m/%d", "%Y-%m-%d", "%Y.%m.%d"):
        try:
            return dt.datetime.strptime(text.strip(), fmt).date().isoformat()
        except ValueError:
            continue
    return ""


def players_from_trf(t: Tournament, *, section: str) -> pl.DataFrame:
    """DESIGN.md Inputs — players.csv rows (all text) of a plain Swiss for the TRF's players:
    ``player_id`` and ``start_no`` are the TRF start number, so pairings continue those of the
    program the event came from; sex, federation, FIDE id, title and birth date as the file
    has them (empty where it has none).

    Decision: a birth date the file gives as a year only, or with day or month 00, is kept as
    no date (players.csv needs a whole date; nothing the event pairs or ranks by needs it)."""
    rows = []
    for p in t.players:
        sex = p.sex.strip().lower()
        rows.append({
            "player_id": str(p.sno), "name": p.name, "rating": str(p.rating) if p.rating else "",
            "section": section, "fide_id": p.fide_id,
            "title": p.title.upper() if p.title.upper() in TITLES else "",
            "federation": p.fed.strip().upper(),
            "sex": "F" if sex in ("f", "w") else "M" if sex == "m" else "",
            "birth_date": _birth(p.birth), "start_no": str(p.sno),
        })
    columns = ("player_id", "name", "rating", "section", "fide_id", "title", "federation", "sex",
               "birth_date", "start_no")
    return pl.DataFrame(rows, schema={k: pl.String for k in columns})


def results_from_trf(t: Tournament) -> pl.DataFrame:
    """DESIGN.md Inputs (TRF import) — results.csv rows (all text) from the TRF scorecard: one row
    per game (forfeits included) and per bye; absences have no row. Boards in each round follow the
    higher score before the round, then the lower start number (FIDE C.04.2 board order).

    Decision: a game both of whose records score 0 (``0`` and ``0``: an arbiter's 0-0, as a real
    Vega event has it) is ``-/-`` — neither player scores, as the file's points say; results.csv
    has no code for a played game both lost."""
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
                if p == 0 and ok is not None and ok[2] == 0 and k in (Kind.PLAYED, Kind.FORFEIT_LOSS):
                    # both records say lost ("0" and "0", or "-" and "-"): neither scores
                    res = ResultCode.DOUBLE_FORFEIT.value
                elif (k, p) in _GAME_RESULT:
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
