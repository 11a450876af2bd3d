"""The demo's games (issue 48): ``games/round-01.pgn`` of the club open, the first boards of
round 1 as PGN with moves, clocks and comments — a well-known line for each board's recorded
result (the Blackburne Shilling trap for 0-1, Légal's mate and the Fried Liver Attack for
1-0, a Queen's Gambit Declined for a draw), so that the demo site publishes game pages, the
round's and the event's PGN, and the bulletin prints two of them."""

from __future__ import annotations

import io

import chess.pgn
import polars as pl

LINES = {
    "0-1": ["1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 {the Blackburne Shilling gambit} 4. Nxe5 Qg5 "
            "5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3#"],
    "1-0": ["1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 {Légal's sacrifice} Bxd1 "
            "6. Bxf7+ Ke7 7. Nd5#",
            "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Ng5 d5 5. exd5 Nxd5 6. Nxf7 {the Fried Liver} "
            "Kxf7 7. Qf3+ Ke6 8. Nc3 Ncb4 9. a3 Nxc2+ 10. Kd1 Nxa1 11. Nxd5 Qh4 12. Nxc7+ Kd7 "
            "13. Qf7+ Qe7 14. Nxa8 Qxf7 15. Bxf7 Nc2 16. Kxc2 b6 17. d3 {Black resigned}"],
    "1/2-1/2": ["1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6 7. Bh4 b6 "
                "8. cxd5 Nxd5 9. Bxe7 Qxe7 10. Nxd5 exd5 {draw agreed}"],
}
"""Lines by result, each used once in turn."""
BOARDS = 6
"""The boards of round 1 given a game."""


def with_clocks(line: str, start: int = 600) -> str:
    """``line`` (movetext) with each half-move's clock (python-chess's ``set_clock``: a
    10-minute game, a few seconds a move), comments kept."""
    game = chess.pgn.read_game(io.StringIO(line))
    assert game is not None and not game.errors, line
    left = [start, start]
    for ply, node in enumerate(game.mainline()):
        left[ply % 2] -= 3 + (ply * 7) % 11
        node.set_clock(left[ply % 2])
    return game.accept(chess.pgn.StringExporter(headers=False, columns=None)).removesuffix(" *")


def demo_games(results: pl.DataFrame, players: pl.DataFrame, *, event: str, date: str) -> str:
    """Round 1's first :data:`BOARDS` boards as one PGN file, the players named as players.csv
    names them, each game a line of :data:`LINES` for its result (a board whose result has no
    line is left out)."""
    names = dict(zip(players["player_id"], players["name"], strict=True))
    used: dict[str, int] = {}
    games = []
    for r in results.filter((pl.col("round") == 1) & (pl.col("board") <= BOARDS)).sort("board").iter_rows(named=True):
        lines = LINES.get(r["result"] or "")
        if not lines or r["black_id"] is None:
            continue
        line = lines[used.get(r["result"], 0) % len(lines)]
        used[r["result"]] = used.get(r["result"], 0) + 1
        games.append(f'[Event "{event}"]\n[Site "Riverside"]\n[Date "{date}"]\n'
                     f'[Round "1.{r["board"]}"]\n[White "{names[r["white_id"]]}"]\n'
                     f'[Black "{names[r["black_id"]]}"]\n[Result "{r["result"]}"]\n\n'
                     f'{with_clocks(line)} {r["result"]}\n')
    return "\n".join(games)


SECTION_GAMES = 6
"""The games of a correspondence section the demo gives moves."""


def demo_section_games(games: pl.DataFrame, names: dict[str, str], *, stage: str, section: str,
                       event: str, date: str) -> str:
    """A correspondence section's first :data:`SECTION_GAMES` finished games of games.csv (in
    its order) as its server exports them: one PGN file, the members named surname first as
    ICCF writes them (``Torres, Mary``), ``Round "-"`` (a section has no rounds), no clocks;
    each game a line of :data:`LINES` for its result (a forfeit, with no line, left out)."""
    used: dict[str, int] = {}
    out = []
    for r in games.filter((pl.col("stage") == stage) & (pl.col("section") == section)).iter_rows(named=True):
        lines = LINES.get(r["result"] or "")
        if not lines:
            continue
        line = lines[used.get(r["result"], 0) % len(lines)]
        used[r["result"]] = used.get(r["result"], 0) + 1
        white, black = (", ".join(reversed(names[e].rsplit(" ", 1))) for e in (r["white"], r["black"]))
        out.append(f'[Event "{event}"]\n[Site "US Chess CC server"]\n[Date "{date}"]\n'
                   f'[Round "-"]\n[White "{white}"]\n[Black "{black}"]\n[Result "{r["result"]}"]\n\n'
                   f'{line} {r["result"]}\n')
        if len(out) == SECTION_GAMES:
            break
    return "\n".join(out)


TEAM_MATCHES = 2
"""The matches of round 1 of a team event given their games (the first in results.csv)."""


def demo_team_games(results: pl.DataFrame, rosters: pl.DataFrame, *, event: str, date: str) -> str:
    """Round 1's first :data:`TEAM_MATCHES` matches of a team event as one PGN file, each
    board's players in the colours of the team kind's rule (``board_colour``: team A White on
    the odd boards), named as rosters.csv names them, each game a line of :data:`LINES` for
    the board's result turned White first (a board whose result has no line is left out)."""
    from transforms.core.model import ResultCode
    from transforms.team.matches import board_colour

    names = dict(zip(rosters["player_id"], rosters["name"], strict=True))
    round_1 = results.filter(pl.col("round") == 1)
    matches = list(dict.fromkeys(zip(round_1["team_a"], round_1["team_b"], strict=True)))[:TEAM_MATCHES]
    used: dict[str, int] = {}
    games = []
    for r in round_1.sort("board").iter_rows(named=True):
        if (r["team_a"], r["team_b"]) not in matches or not r["player_a"] or not r["player_b"]:
            continue
        code = ResultCode.parse(r["result"])
        a_white = board_colour(r["board"]) == "w"
        if code is None:
            continue
        white_first = (code if a_white else code.reversed).value
        lines = LINES.get(white_first)
        if not lines:
            continue
        line = lines[used.get(white_first, 0) % len(lines)]
        used[white_first] = used.get(white_first, 0) + 1
        white, black = (r["player_a"], r["player_b"]) if a_white else (r["player_b"], r["player_a"])
        games.append((matches.index((r["team_a"], r["team_b"])), r["board"],
                      f'[Event "{event}"]\n[Site "Riverton"]\n[Date "{date}"]\n'
                      f'[Round "1.{matches.index((r["team_a"], r["team_b"])) + 1}.{r["board"]}"]\n'
                      f'[White "{names[white]}"]\n[Black "{names[black]}"]\n'
                      f'[Result "{white_first}"]\n\n{with_clocks(line)} {white_first}\n'))
    return "\n".join(text for *_, text in sorted(games))
