"""What the Swiss pages share (presentation only): where each player's page is, links between
pages of different depths, each player's side of a board, and the names of the tie-breaks."""

from __future__ import annotations

import polars as pl

from flows.kinds import games
from flows.kinds.games import GAMES
from flows.site.names import file_part
from transforms.core.model import Kind, ResultCode
from transforms.fide.tiebreaks import parse_code

__all__ = ["GAMES"]  # (re-exported: the Swiss pages' games folder)

PLAYERS = "players/"
"""Every player's page is ``players/<category>/<sno>.html``; the lists are beside them (the
category id through :func:`~flows.site.names.file_part`: event.toml names it)."""


def player_rel(category: str, sno: int) -> str:
    """The player's page, inside the event folder."""
    return f"{PLAYERS}{file_part(category)}/{int(sno)}.html"


def game_rel(category: str, rnd: int, board: int, suffix: str = ".html") -> str:
    """A game's page (or, with ``suffix`` ``.pgn``, its PGN), inside the event folder:
    ``games/<category>/round-NN-board-NN`` (:func:`flows.kinds.games.game_rel`)."""
    return games.game_rel(category, rnd, board, suffix)


def list_rel(category: str, alphabetical: bool = False) -> str:
    """The category's starting rank list (or its alphabetical list)."""
    return f"{PLAYERS}{file_part(category)}/{'alphabetical' if alphabetical else 'index'}.html"


def href(page: str, target: str) -> str:
    """A link from the page at ``page`` to ``target`` (both inside the event folder)."""
    return "../" * page.count("/") + target


def with_player_href(frame: pl.DataFrame, page: str, category: str, sno: str = "sno",
                     out: str = "_href") -> pl.DataFrame:
    """``frame`` with ``out``: the link from ``page`` to the page of the player in ``sno``
    (null where ``sno`` is null)."""
    up = "../" * page.count("/")
    return frame.with_columns(
        pl.when(pl.col(sno).is_not_null())
        .then(pl.format(f"{up}{PLAYERS}{file_part(category)}/{{}}.html", pl.col(sno)))
        .otherwise(None).alias(out))


KIND_LABEL = {Kind.PAB: "bye", Kind.FPB: "full-point bye", Kind.HPB: "half-point bye",
              Kind.ZPB: "zero-point bye", Kind.ABSENT: "not paired"}


def columns_for(run, cols: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The columns of a table, but those the event's players.csv does not have: a plain Swiss
    has no ``state`` (associations are a rules part's), so its tables show no State column."""
    schema = run.cfg.files.get("players.csv")
    have = {c.name for c in schema.columns} if schema is not None else {"state"}
    drop = set() if "state" in have else {"state", "opp_state"}
    return [c for c in cols if c[0] not in drop]


def own_result(code: str | None, white: bool, pab_points: float = 1.0) -> str:
    """One player's side of a board as a cell: 1, ½, 0 over the board, + and − for forfeits,
    the bye with what it scored; empty while the game is not finished."""
    rc = ResultCode.parse(code)
    if rc is None:
        return ""
    side = rc.white if white else rc.black
    assert side is not None
    points = pab_points if rc is ResultCode.PAB else side.points
    if side.kind is Kind.FORFEIT_WIN:
        return "+"
    if side.kind is Kind.FORFEIT_LOSS:
        return "−"
    text = {1.0: "1", 0.5: "½", 0.0: "0"}.get(points, f"{points:g}")
    return text if side.kind is Kind.PLAYED else f"{text} ({KIND_LABEL[side.kind]})"


def boards_by_player(rows: pl.DataFrame, players: pl.DataFrame, pab_points: float = 1.0
                     ) -> pl.DataFrame:
    """results.csv rows (or a new pairing's rows) seen from each player: round, board, sno,
    colour (``w``/``b``, null for a bye), opponent (sno), result (the board's code) and own (the
    player's side, :func:`own_result`)."""
    ids = dict(zip(players["player_id"].to_list(), players["sno"].to_list(), strict=True))
    out = []
    for r in rows.iter_rows(named=True):
        w, b = ids.get(r["white_id"]), ids.get(r["black_id"]) if r["black_id"] else None
        if w is not None:
            out.append({"round": r["round"], "board": r["board"], "sno": w,
                        "colour": "w" if b is not None else None, "opponent": b,
                        "result": r["result"], "own": own_result(r["result"], True, pab_points)})
        if b is not None:
            out.append({"round": r["round"], "board": r["board"], "sno": b, "colour": "b",
                        "opponent": w, "result": r["result"],
                        "own": own_result(r["result"], False, pab_points)})
    return pl.DataFrame(out, schema={"round": pl.Int64, "board": pl.Int64, "sno": pl.Int32,
                                     "colour": pl.String, "opponent": pl.Int32,
                                     "result": pl.String, "own": pl.String})


COLOUR = {"w": "White", "b": "Black"}

TIEBREAK_NAMES = {
    "BH": "Buchholz: the sum of the opponents' scores (C.07 8.1)",
    "SB": "Sonneborn-Berger: the scores of the opponents beaten, plus half the scores of those "
          "drawn (C.07 9.1)",
    "DE": "Direct encounter: the place among the players still tied, by the games between them "
          "(C.07 6)",
    "WIN": "Number of wins, forfeit wins and full-point byes included (C.07 7.1)",
    "WON": "Number of games won over the board (C.07 7.2)",
    "BPG": "Number of games played with Black (C.07 7.3)",
    "BWG": "Number of games won with Black (C.07 7.4)",
    "PS": "Progressive score: the sum of the running scores after each round (C.07 7.5)",
    "REP": "Rounds the player elected to play (C.07 7.6)",
    "AOB": "Average of the opponents' Buchholz (C.07 8.2)",
    "FB": "Fore Buchholz: Buchholz with the last round's games counted as draws (C.07 8.3)",
    "KS": "Koya: points against the opponents with at least half the possible score (C.07 9.2)",
    "ARO": "Average rating of the opponents (C.07 10.1)",
    "TPR": "Tournament performance rating (C.07 10.2)",
    "PTP": "Perfect tournament performance (C.07 10.3)",
    "APRO": "Average performance rating of the opponents (C.07 10.4)",
    "APPO": "Average perfect performance of the opponents (C.07 10.5)",
}
MODIFIER_NAMES = {"C1": "without the lowest contribution (Cut 1)",
                  "C2": "without the two lowest contributions (Cut 2)",
                  "M1": "without the highest and the lowest contribution (Median 1)",
                  "M2": "without the two highest and the two lowest contributions (Median 2)"}


def tiebreak_name(code: str) -> str:
    """What a configured tie-break code is, in words (for readers of the standings)."""
    canon, base, _ = parse_code(code)
    text = TIEBREAK_NAMES.get(base, base)
    mod = canon.removeprefix(base).removeprefix("-")
    if mod:
        name, _, rest = text.partition(":")
        text = f"{name} {MODIFIER_NAMES[mod]}:{rest}" if rest else f"{name} {MODIFIER_NAMES[mod]}"
    return text
