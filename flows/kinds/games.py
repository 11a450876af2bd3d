"""An event's games on its site, whatever its kind (issue 48): the office's view,
``office/games.csv`` and ``office/games.html`` (every game of ``games/*.pgn`` with the pairing
it matched, or why not: the reasons are the validation report's rows), and the public games — a
page per matched, usable game with a board to step through (python-chess's SVG and the
project's own script, ``templates/viewer.js``), its PGN, each round's and the event's PGN, the
games' index (``games/``) and the bulletin's chosen games with their diagrams.

What a published game shows was decided by the rulebook (:func:`transforms.core.games.
published_games`, its PGN's tags written from the record); here it is drawn and formatted.
A kind says where its own pages are (:class:`GameSite`: a game's page, a player's page, the
round's pairings) and this module links them. Every value of a PGN reaches a page through the
templates' escaping, never as markup."""

from __future__ import annotations

import base64
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import chess
import chess.svg
import polars as pl
from markupsafe import Markup

from flows.io import csv_text
from flows.site import render
from flows.site.names import file_part
from flows.site.pages import OFFICE, Publication, group_key
from flows.site.present import Section, table_from_frame, table_from_rows
from flows.site.render import plural
from transforms.core.games import BulletinGame, GameRecord
from transforms.core.pgn import Ply

GAMES = "games/"
"""Where the games are published: ``games/index.html``, ``games/event.pgn``, each round's
``games/round-NN.pgn`` and each game's page and PGN (:meth:`GameSite.page`)."""
EVENT_PGN = f"{GAMES}event.pgn"
GAMES_INDEX = f"{GAMES}index.html"


def href(page: str, target: str) -> str:
    """A link from the page at ``page`` to ``target`` (both inside the event folder)."""
    return "../" * page.count("/") + target


def game_rel(group: str, rnd: int | None, board: int | None, suffix: str = ".html", *,
             white: str = "", black: str = "", match: str = "") -> str:
    """A game's page (or, with ``suffix`` ``.pgn``, its PGN), inside the event folder:
    ``games/<group>/round-NN-board-NN`` (an individual event), ``games/<group>/round-NN-
    <match>-board-NN`` (a team event: the match by its first-named team), ``games/<group>/
    <white>-<black>`` (an event without rounds: the players' ids)."""
    folder = f"{GAMES}{file_part(group)}/"
    if rnd is None:
        return f"{folder}{file_part(white)}-{file_part(black)}{suffix}"
    at = f"-{file_part(match)}" if match else ""
    return f"{folder}round-{int(rnd):02d}{at}-board-{int(board or 0):02d}{suffix}"


@dataclass(frozen=True)
class GameSite:
    """Where a kind's pages are, for its games' pages to link them, and the words it names its
    groups by."""

    groups: Mapping[str, str]
    """Group id (a category, a division, a section) -> its name, in the site's order."""
    page: Callable[[GameRecord, str], str]
    """A game's page (``.html``) or PGN (``.pgn``), inside the event folder."""
    player: Callable[[GameRecord, bool], str | None]
    """The page of the game's White (True) or Black player; None: no page."""
    pairings: Callable[[GameRecord], tuple[str, str] | None] = lambda g: None
    """The page that lists the game's pairing (``#anchor`` allowed) and its label."""
    group_word: str = "Category"
    """What the event calls a group (``Category``, ``Division``, ``Section``)."""
    number_word: str = "start number"
    """What the event calls a player's number, shown after the name; "" for none."""
    place: Callable[[GameRecord], str] = lambda g: (
        f"round {g.round}, board {g.board}" if g.round is not None and g.board is not None
        else f"round {g.round}" if g.round is not None else "")
    """Where the game was played, in words (``round 3, board 2``)."""
    match: Callable[[GameRecord], str] | None = None
    """A team event's match of the game, in words (``Riverside A – Northgate A``): a fact of
    the game's page and a column of the index; None for an individual event."""


SHOWN = [("file", "File"), ("game", "Game"), ("line", "Line"), ("round_tag", "Round tag"),
         ("white", "White (PGN)"), ("black", "Black (PGN)"), ("result", "PGN result"),
         ("section", "Group"), ("round", "Round"), ("board", "Board"),
         ("white_sno", "White no."), ("black_sno", "Black no."), ("recorded", "Recorded"),
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


NO_ROUNDS = frozenset({"round_tag", "round", "board", "white_sno", "black_sno"})
"""The columns of :data:`SHOWN` an event without rounds (a correspondence section) leaves
empty: its office page does not show them."""


def publish_office_games(pub: Publication, games: pl.DataFrame | None, *, record: str = "results.csv",
                         group_word: str = "Category", rounds: bool = True) -> None:
    """The office's games files (none when the event has no games folder): ``games.csv`` (the
    games frame without the PGN text) and ``games.html`` (without the round, board and start
    numbers where the event has no rounds: ``rounds`` False); the manifest's notes count
    them."""
    if games is None:
        return
    frame = games_status(games)
    pub.files[f"{OFFICE}games.csv"] = csv_text(frame.drop("pgn", "_css"))
    matched, usable = int(frame["matched"].sum()), int(frame["usable"].sum())
    moves = int((frame["usable"] & (frame["plies"] > 0)).sum())
    said = (f"{plural(frame.height, 'game')} in games/: {matched} matched to their pairings, "
            f"{usable} without an error ({moves} with moves: published), "
            f"{frame.height - matched} without a pairing")
    pub.outcome.notes.append(said)
    shown = [(k, group_word if k == "section" else record if k == "recorded" else v) for k, v in SHOWN
             if rounds or k not in NO_ROUNDS]
    section = Section("Games", intro=[
        said + ". A bye entry (an opponent named BYE) that agrees with the record is not a "
        "game and is not listed. Why a game is held or has no pairing: the validation report."],
        tables=[table_from_frame(frame, shown, numeric=["game", "line", "round", "board", "white_sno",
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
    """A round's games as one PGN file (every group's)."""
    return f"{GAMES}round-{rnd:02d}.pgn"


def publish_public_games(pub: Publication, games: Sequence[GameRecord], site: GameSite) -> None:
    """The public games (none when the event has no usable game): a page and a PGN per game
    (one group each, :meth:`Publication.group`, kept between runs when nothing of it
    changed), each round's PGN, the event's PGN and the index of the games by group and
    round."""
    if not games:
        return
    for i, g in enumerate(games):
        prev = games[i - 1] if i else None
        nxt = games[i + 1] if i + 1 < len(games) else None
        around = tuple(site.page(x, ".html") if x else None for x in (prev, nxt))
        rel = site.page(g, ".html")
        links = (site.player(g, True), site.player(g, False), site.pairings(g))

        def build(g: GameRecord = g, around: tuple = around) -> None:
            game_page(pub, g, site, *around)
        pub.group(f"game-{rel}", group_key(pub, pub.ctx, g, site.groups.get(g.section), around,
                                           len(site.groups), links, site.group_word,
                                           site.number_word, site.place(g)), build)
    for rnd in sorted({g.round for g in games if g.round is not None}):
        pub.files[round_pgn_rel(rnd)] = "".join(g.moves.pgn + "\n" for g in games if g.round == rnd)
    pub.files[EVENT_PGN] = "".join(g.moves.pgn + "\n" for g in games)
    games_index(pub, games, site)


def game_page(pub: Publication, g: GameRecord, site: GameSite, prev: str | None,
              nxt: str | None) -> None:
    """One game's page and its PGN."""
    rel, pgn = site.page(g, ".html"), site.page(g, ".pgn")
    pub.files[pgn] = g.moves.pgn
    moves = move_rows(g.moves.plies)
    last = g.moves.plies[-1] if g.moves.plies else None
    result = RESULT_TEXT.get(g.result, g.result)
    group = site.groups.get(g.section, g.section)

    def named(name: str, no: int | None) -> str:
        return f"{name} ({site.number_word} {no})" if site.number_word and no is not None else name
    facts = [("White", named(g.white, g.white_sno)), ("Black", named(g.black, g.black_sno)),
             ("Result", result)]
    facts += [("Round", str(g.round))] if g.round is not None else []
    facts += [("Match", site.match(g))] if site.match is not None else []
    facts += [("Board", str(g.board))] if g.board is not None else []
    facts += [(site.group_word, group), ("Date", g.date)]
    jumps = []
    at = site.pairings(g)
    if at is not None:
        jumps.append({"href": href(rel, at[0]), "label": at[1]})
    for white, name, colour in ((True, g.white, "White"), (False, g.black, "Black")):
        page = site.player(g, white)
        if page is not None:
            jumps.append({"href": href(rel, page), "label": f"{name} ({colour})"})
    jumps += [{"href": href(rel, pgn), "label": "Download the PGN", "download": True},
              {"href": href(rel, GAMES_INDEX), "label": "All games"}]
    place = site.place(g)
    pub.page(rel, "game.html", pdf=False, title=f"{g.white} – {g.black} {result}",
             subtitle=" · ".join(x for x in (group, place) if x), facts=facts, jumps=jumps,
             prev=prev, next=nxt, moves=moves, result=result, comment=g.moves.comment,
             start=g.moves.start, fen=g.moves.fen, board=board_svg(g.moves.fen, last.uci if last else ""),
             status=f"Final position, after {last.number}.{'' if last.white else '..'} {last.san}"
             if last else "No moves recorded",
             colours=[(k.removeprefix("square ").replace(" ", "-"), v) for k, v in BOARD_COLOURS.items()],
             pieces=piece_templates(), script=render.viewer_script())


def games_index(pub: Publication, games: Sequence[GameRecord], site: GameSite) -> None:
    """``games/index.html``: every published game by group and round (each linking its
    page), and the PGN downloads."""
    secs = []
    rounds = any(g.round is not None for g in games)
    boards = any(g.board is not None for g in games)
    for gid, name in site.groups.items():
        mine = [g for g in games if g.section == gid]
        if not mine:
            continue
        rows = []
        for g in mine:
            w, b = site.player(g, True), site.player(g, False)
            rows.append({"round": g.round, "match": site.match(g) if site.match else "",
                         "board": g.board, "white": g.white,
                         "result": RESULT_TEXT.get(g.result, g.result), "black": g.black,
                         "moves": (len(g.moves.plies) + 1) // 2,
                         "_href": href(GAMES_INDEX, site.page(g, ".html")),
                         "_w": href(GAMES_INDEX, w) if w else None,
                         "_b": href(GAMES_INDEX, b) if b else None})
        cols = ([("round", "Rd")] if rounds else []) + ([("match", "Match")] if site.match else []) \
            + ([("board", "Bd")] if boards else []) + [
            ("white", "White"), ("result", "Result"), ("black", "Black"), ("moves", "Moves")]
        secs.append(Section(f"{name} — {plural(len(mine), 'game')}", anchor=file_part(gid),
                            tables=[table_from_rows(rows, cols, numeric=["round", "board", "moves"],
                                                    links={"result": "_href", "white": "_w", "black": "_b"})]))
    downloads = [{"href": href(GAMES_INDEX, EVENT_PGN), "label": "Every game (PGN)", "download": True}]
    downloads += [{"href": href(GAMES_INDEX, round_pgn_rel(r)), "label": f"Round {r} (PGN)",
                   "download": True} for r in sorted({g.round for g in games if g.round is not None})]
    pub.page(GAMES_INDEX, title="Games",
             subtitle=f"{plural(len(games), 'game')} with their moves: the result leads to the "
                      "game's page, where the board steps through the moves.",
             sections=secs, jumps=downloads, pdf=False)


def diagram_src(fen: str, last: str = "") -> str:
    """A diagram as an image the page and its PDF both show: python-chess's board as an SVG
    ``data:`` address (WeasyPrint draws it; nothing is fetched)."""
    svg = board_svg(fen, last, size=BOARD_SIZE)
    return "data:image/svg+xml;base64," + base64.b64encode(str(svg).encode()).decode("ascii")


def bulletin_sections(chosen: Sequence[BulletinGame], site: GameSite) -> list[Section]:
    """The bulletin's games (``[games] bulletin``): one section with each game's players,
    group and place, its diagrams and its moves in figurine notation with the PGN's comments
    (no clocks: paper), linking the game's page; none when the office chose none."""
    if not chosen:
        return []
    blocks = []
    for b in chosen:
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
            category=site.groups.get(g.section, g.section), place=site.place(g),
            href=site.page(g, ".html"), diagrams=diagrams, moves=rows, comment=g.moves.comment)))
    return [Section(f"Games ({len(blocks)})", anchor="games", blocks=blocks, intro=[
        "The games the office chose, in figurine notation (♔ king, ♕ queen, ♖ rook, ♗ bishop, "
        "♘ knight). Every game with its moves is on the site, with a board to step through."])]

