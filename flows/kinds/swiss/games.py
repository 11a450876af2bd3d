"""A Swiss event's games (issue 48): the office's view, ``office/games.csv`` and
``office/games.html`` (every game of ``games/*.pgn`` with the pairing it matched, or why not:
the reasons are the validation report's rows), and the public games — a page per matched,
usable game with a board to step through (python-chess's SVG and the project's own script,
``templates/viewer.js``), its PGN, each round's and the event's PGN, and the games' index
(``games/``: :data:`~flows.kinds.swiss.common.GAMES`).

What a published game shows was decided by the rulebook (``SwissRun.published_games``:
:func:`transforms.swiss.games.published_games`, its PGN's tags written from the record);
here it is drawn and formatted. Every value of a PGN reaches a page through the templates'
escaping, never as markup."""

from __future__ import annotations

import base64
from functools import lru_cache

import chess
import chess.svg
import polars as pl
from markupsafe import Markup

from flows.io import csv_text
from flows.kinds.swiss.common import GAMES, game_rel, href, player_rel
from flows.kinds.swiss.pages import round_rel
from flows.site import render
from flows.site.pages import OFFICE, Publication, group_key
from flows.site.present import Section, table_from_frame, table_from_rows
from flows.site.render import plural
from transforms.core.pgn import Ply
from transforms.swiss.event import SwissRun
from transforms.swiss.games import GameRecord

SHOWN = [("file", "File"), ("game", "Game"), ("line", "Line"), ("round_tag", "Round tag"),
         ("white", "White (PGN)"), ("black", "Black (PGN)"), ("result", "PGN result"),
         ("section", "Category"), ("round", "Round"), ("board", "Board"),
         ("white_sno", "White no."), ("black_sno", "Black no."), ("recorded", "results.csv"),
         ("plies", "Half-moves"), ("status", "Status")]
"""The columns of the office's games page, in order."""


def games_status(games: pl.DataFrame) -> pl.DataFrame:
    """Each game's status in the office's words: matched and published, matched without a
    move (a result only: not published), matched but held (a finding says why), or
    unmatched."""
    return games.with_columns(
        pl.when(pl.col("usable") & (pl.col("plies") > 0)).then(pl.lit("matched, published"))
        .when(pl.col("usable")).then(pl.lit("matched; no moves (a result only): not published"))
        .when(pl.col("matched")).then(pl.lit("matched, not published (see the validation report)"))
        .otherwise(pl.lit("no pairing (see the validation report)")).alias("status"),
        pl.when(pl.col("usable")).then(pl.lit(None, pl.String)).otherwise(pl.lit("flag")).alias("_css"))


def publish_games(pub: Publication, run: SwissRun) -> None:
    """The office's games files (none when the event has no games folder): ``games.csv`` (the
    games frame without the PGN text) and ``games.html``; the manifest's notes count them."""
    if run.games is None:
        return
    frame = games_status(run.games)
    pub.files[f"{OFFICE}games.csv"] = csv_text(frame.drop("pgn", "_css"))
    matched, usable = int(frame["matched"].sum()), int(frame["usable"].sum())
    moves = int((frame["usable"] & (frame["plies"] > 0)).sum())
    said = (f"{plural(frame.height, 'game')} in games/: {matched} matched to their pairings, "
            f"{usable} without an error ({moves} with moves: published), "
            f"{frame.height - matched} without a pairing")
    pub.outcome.notes.append(said)
    section = Section("Games", intro=[
        said + ". A bye entry (an opponent named BYE) that agrees with results.csv is not a "
        "game and is not listed. Why a game is held or has no pairing: the validation report."],
        tables=[table_from_frame(frame, SHOWN, numeric=["game", "line", "round", "board", "white_sno",
                                                        "black_sno", "plies"], row_css="_css",
                                 empty="No game in games/.")])
    pub.page(f"{OFFICE}games.html", title="Games", subtitle="", sections=[section], pdf=False)


BOARD_COLOURS = {"square light": "#f0d9b5", "square dark": "#b58863",
                 "square light lastmove": "#cdd26a", "square dark lastmove": "#aaa23a"}
"""The board's squares (python-chess's ``colors``), given to the viewer script too, which
marks the last move's squares as python-chess does."""
BOARD_SIZE = 400
"""The board's width in pixels where the page is wide enough (the stylesheet scales it to a
phone's width)."""


def board_svg(fen: str, last: str = "", size: int = BOARD_SIZE) -> Markup:
    """The board of a position (FEN) as python-chess draws it (``chess.svg.board``), the
    squares of the last move (``e2e4``) marked: markup made by python-chess from a position,
    no text of the PGN in it."""
    board = chess.Board(fen)
    move = chess.Move.from_uci(last) if last else None
    return Markup(chess.svg.board(board, lastmove=move, size=size, coordinates=True,
                                  colors=BOARD_COLOURS))


@lru_cache(maxsize=1)
def piece_templates() -> Markup:
    """The twelve pieces as python-chess draws them (``chess.svg.piece``), for the viewer
    script to add to a board whose final position lacks one of them."""
    return Markup("".join(chess.svg.piece(chess.Piece.from_symbol(s)) for s in "PNBRQKpnbrqk"))


def clock_text(seconds: float | None) -> str:
    """A clock as the PGN's ``[%clk]`` writes it: ``0:09:58`` (whole seconds); "" for none."""
    if seconds is None:
        return ""
    s = int(seconds)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def move_rows(plies: tuple[Ply, ...]) -> list[dict[str, object]]:
    """The moves as the page lists them: the move number before White's move, and before
    Black's where it opens the list or follows a comment (``12...``)."""
    out: list[dict[str, object]] = []
    for i, p in enumerate(plies):
        number = f"{p.number}." if p.white else f"{p.number}..."
        show = p.white or i == 0 or bool(plies[i - 1].comment)
        out.append({"ply": p.ply, "label": number if show else "", "san": p.san, "fen": p.fen,
                    "uci": p.uci, "said": f"{number} {p.san}", "clock": clock_text(p.clock),
                    "comment": p.comment})
    return out


RESULT_TEXT = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "½-½", "*": "*"}


def round_pgn_rel(rnd: int) -> str:
    """A round's games as one PGN file (every category's)."""
    return f"{GAMES}round-{rnd:02d}.pgn"


EVENT_PGN = f"{GAMES}event.pgn"
GAMES_INDEX = f"{GAMES}index.html"


def publish_public_games(pub: Publication, run: SwissRun) -> None:
    """The public games (none when the event has no usable game, or its standings wait): a
    page and a PGN per game (one group each, :meth:`Publication.group`, kept between runs
    when nothing of it changed), each round's PGN, the event's PGN and the index of the games
    by category and round."""
    games = run.published_games
    if not games or run.blocked:
        return
    names = {c.cat.id: c.cat.name for c in run.categories}
    for i, g in enumerate(games):
        prev = games[i - 1] if i else None
        nxt = games[i + 1] if i + 1 < len(games) else None
        around = tuple(game_rel(x.section, x.round, x.board) if x else None for x in (prev, nxt))

        def build(g: GameRecord = g, around: tuple = around) -> None:
            game_page(pub, g, names.get(g.section, g.section), *around)
        pub.group(f"game-{g.section}-{g.round}-{g.board}",
                  group_key(pub, pub.ctx, g, names.get(g.section), around, len(names)), build)
    for rnd in sorted({g.round for g in games}):
        pub.files[round_pgn_rel(rnd)] = "".join(g.moves.pgn + "\n" for g in games if g.round == rnd)
    pub.files[EVENT_PGN] = "".join(g.moves.pgn + "\n" for g in games)
    games_index(pub, run, games)


def game_page(pub: Publication, g: GameRecord, category: str, prev: str | None,
              nxt: str | None) -> None:
    """One game's page and its PGN."""
    rel = game_rel(g.section, g.round, g.board)
    pgn = game_rel(g.section, g.round, g.board, ".pgn")
    pub.files[pgn] = g.moves.pgn
    moves = move_rows(g.moves.plies)
    last = g.moves.plies[-1] if g.moves.plies else None
    result = RESULT_TEXT.get(g.result, g.result)
    white, black = player_rel(g.section, g.white_sno), player_rel(g.section, g.black_sno)
    facts = [("White", f"{g.white} (start number {g.white_sno})"),
             ("Black", f"{g.black} (start number {g.black_sno})"),
             ("Result", result), ("Round", str(g.round)), ("Board", str(g.board)),
             ("Category", category), ("Date", g.date)]
    jumps = [{"href": href(rel, f"{round_rel('pairings', g.round)}#{g.section}"),
              "label": f"Pairings — round {g.round}"},
             {"href": href(rel, white), "label": f"{g.white} (White)"},
             {"href": href(rel, black), "label": f"{g.black} (Black)"},
             {"href": href(rel, pgn), "label": "Download the PGN", "download": True},
             {"href": href(rel, GAMES_INDEX), "label": "All games"}]
    pub.page(rel, "game.html", pdf=False, title=f"{g.white} – {g.black} {result}",
             subtitle=f"{category} · round {g.round}, board {g.board}", facts=facts, jumps=jumps,
             prev=prev, next=nxt, moves=moves, result=result, comment=g.moves.comment,
             start=g.moves.start, fen=g.moves.fen, board=board_svg(g.moves.fen, last.uci if last else ""),
             status=f"Final position, after {last.number}.{'' if last.white else '..'} {last.san}"
             if last else "No moves recorded",
             colours=[(k.removeprefix("square ").replace(" ", "-"), v) for k, v in BOARD_COLOURS.items()],
             pieces=piece_templates(), script=render.viewer_script())


def games_index(pub: Publication, run: SwissRun, games: tuple[GameRecord, ...]) -> None:
    """``games/index.html``: every published game by category and round (each linking its
    page), and the PGN downloads."""
    secs = []
    for c in run.categories:
        mine = [g for g in games if g.section == c.cat.id]
        if not mine:
            continue
        rows = [{"round": g.round, "board": g.board, "white": g.white,
                 "result": RESULT_TEXT.get(g.result, g.result), "black": g.black,
                 "moves": (len(g.moves.plies) + 1) // 2,
                 "_href": href(GAMES_INDEX, game_rel(g.section, g.round, g.board)),
                 "_w": href(GAMES_INDEX, player_rel(g.section, g.white_sno)),
                 "_b": href(GAMES_INDEX, player_rel(g.section, g.black_sno))} for g in mine]
        secs.append(Section(f"{c.cat.name} — {plural(len(mine), 'game')}", anchor=c.cat.id,
                            tables=[table_from_rows(rows, [
                                ("round", "Rd"), ("board", "Bd"), ("white", "White"),
                                ("result", "Result"), ("black", "Black"), ("moves", "Moves")],
                                numeric=["round", "board", "moves"],
                                links={"result": "_href", "white": "_w", "black": "_b"})]))
    downloads = [{"href": href(GAMES_INDEX, EVENT_PGN), "label": "Every game (PGN)", "download": True}]
    downloads += [{"href": href(GAMES_INDEX, round_pgn_rel(r)), "label": f"Round {r} (PGN)",
                   "download": True} for r in sorted({g.round for g in games})]
    pub.page(GAMES_INDEX, title="Games",
             subtitle=f"{plural(len(games), 'game')} with their moves: the result leads to the "
                      "game's page, where the board steps through the moves.",
             sections=secs, jumps=downloads, pdf=False)


def diagram_src(fen: str, last: str = "") -> str:
    """A diagram as an image the page and its PDF both show: python-chess's board as an SVG
    ``data:`` address (WeasyPrint draws it; nothing is fetched)."""
    svg = board_svg(fen, last, size=BOARD_SIZE)
    return "data:image/svg+xml;base64," + base64.b64encode(str(svg).encode()).decode("ascii")


def bulletin_sections(run: SwissRun) -> list[Section]:
    """The bulletin's games (``[games] bulletin``, :attr:`SwissRun.bulletin_games`): one section
    with each game's players, round and board, its diagrams and its moves in figurine notation
    with the PGN's comments (no clocks: paper), linking the game's page; none when the office
    chose none or the standings wait."""
    if not run.bulletin_games or run.blocked:
        return []
    names = {c.cat.id: c.cat.name for c in run.categories}
    blocks = []
    for b in run.bulletin_games:
        g = b.game
        diagrams = []
        for ply in b.diagrams:
            p = g.moves.plies[ply - 1] if ply else None
            fen = p.fen if p else g.moves.start
            caption = (f"After {p.number}.{'' if p.white else '..'} {p.san}" if p else "Start position")
            diagrams.append({"src": diagram_src(fen, p.uci if p else ""), "caption": caption})
        rows = move_rows(g.moves.plies)
        blocks.append(Markup(render.environment().get_template("bulletin_game.html").render(
            white=g.white, black=g.black, result=RESULT_TEXT.get(g.result, g.result),
            category=names.get(g.section, g.section), round=g.round, board=g.board,
            href=game_rel(g.section, g.round, g.board), diagrams=diagrams, moves=rows,
            comment=g.moves.comment)))
    return [Section(f"Games ({len(blocks)})", anchor="games", blocks=blocks, intro=[
        "The games the office chose, in figurine notation (♔ king, ♕ queen, ♖ rook, ♗ bishop, "
        "♘ knight). Every game with its moves is on the site, with a board to step through."])]
