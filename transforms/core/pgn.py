"""Games as PGN (the PGN standard, 1994, which FIDE's Laws' notation appendix C follows): an
event's ``games/*.pgn`` read with python-chess, the field's own library, into one record per
game with what a person must look at as validation rows.

Nothing here opens a file: the flow hands each file's text in (``games/<name>.pgn`` -> text,
:data:`GAMES`). Every tag is input like any other: read as text, never trusted (pages escape
it; an Elo or birth tag of a minor must not reach a public file, so :class:`PgnGame` keeps
every tag and the publishing side chooses which to print).

A validation row of a game (:class:`~transforms.core.errors.Finding`): ``file`` the PGN file,
``line`` the physical line where the game begins (its first tag), ``column`` the game number
in the file (1-based) and, where one thing of it is at fault, the tag or the move
(``game 3, Round``, ``game 3, move 12``), ``value`` what the file says, ``reason`` why.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TextIO, cast

import chess
import chess.pgn

from transforms.core.errors import Finding, Severity
from transforms.core.ingest import visible

GAMES = "games/"
"""The key of an event's PGN files in the raw inputs the flow hands the rulebook (and the
folder of the event they are read from): a frame of ``file`` (``games/round-3.pgn``) and
``text``, one row per file."""

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
"""The PGN standard's four game termination markers (8.2.6), White's result first; ``*``: the
game is unfinished or its result unknown."""


@dataclass(frozen=True)
class PgnGame:
    """One game of a PGN file as read: its tags, its moves, and its result as decided by
    :func:`game_result`."""

    file: str
    """The PGN file, relative to the event folder (``games/round-3.pgn``)."""
    number: int
    """The game's place in its file, 1-based."""
    line: int
    """The physical line of the file where the game begins (its first tag)."""
    headers: dict[str, str]
    """Every tag as read (the seven tag roster filled with ``?`` where absent)."""
    result: str
    """The game's result: one of :data:`RESULTS` (:func:`game_result`)."""
    plies: int
    """Half-moves read before the end of the movetext or the first illegal move."""
    pgn: str
    """The game as python-chess writes it out (tags, moves, comments, clocks)."""
    clocks: tuple[float | None, ...] = ()
    """Each move's remaining clock time in seconds (``[%clk]``), None where it has none."""
    comments: tuple[str, ...] = ()
    """Each move's comment, "" where it has none."""
    usable: bool = True
    """False when a finding of the game is an error (an illegal move, an unreadable result)."""
    findings: tuple[Finding, ...] = field(default=())
    """What is wrong with the game as read (before it is matched to a pairing)."""

    @property
    def where(self) -> str:
        """How a finding names the game: ``game 3``."""
        return f"game {self.number}"


class _Lines:
    """A text read line by line, as :func:`chess.pgn.read_game` reads its handle (``readline``),
    keeping where it is (``pos``, a character offset) so that a finding names the line where a
    game begins. The rulebook opens no file, not even an in-memory one (tests/rulebook/
    test_architecture.py): the flow hands the text in."""

    def __init__(self, text: str) -> None:
        self.text, self.pos = text, 0

    def readline(self) -> str:
        end = self.text.find("\n", self.pos)
        end = len(self.text) if end < 0 else end + 1
        line, self.pos = self.text[self.pos:end], end
        return line


class _Builder(chess.pgn.GameBuilder[chess.pgn.Game]):
    """python-chess's game builder (its documented visitor, ``read_game(Visitor=…)``) that
    also keeps the movetext's own termination marker, and its errors in ``game.errors``
    without logging them (its documented hook: the validation report says them)."""

    marker = ""
    """The last game's termination marker as its movetext wrote it ("" when none)."""

    def begin_game(self) -> None:
        super().begin_game()
        self.marker = ""

    def visit_result(self, result: str) -> None:
        self.marker = result
        super().visit_result(result)

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)


def game_result(tag: str, marker: str, plies: int) -> tuple[str, str]:
    """DESIGN.md Inputs (games) — a game's result from its ``Result`` tag and its movetext's
    termination marker, and a warning's reason where they disagree ("" when they do not).

    The PGN standard (8.2.6) has both say the same. Real exports do not: Vega writes the
    result in the tag and only ``*`` as movetext. Decision: the tag is the result whenever it
    has one; the marker only where the tag is ``*`` or absent; ``*`` on both is no result —
    never a contradiction of results.csv. A movetext that is only a marker (no moves) and
    says ``*`` is silent (the export's habit); a game with moves whose marker and tag give
    two different results is a warning (the tag is used)."""
    tag = tag if tag in RESULTS else "*"
    marker = marker if marker in RESULTS else "*"
    if tag != "*":
        if marker != "*" and marker != tag and plies:
            return tag, f"the movetext ends {marker!r} but the Result tag says {tag!r}: the tag is used"
        return tag, ""
    return marker, ""


def round_and_board(tag: str) -> tuple[int, int | None] | None:
    """FIDE (PGN standard 8.1.1.4) — the round of a ``Round`` tag and, as pairing programs
    write it (``3.2``), its board: ``"3"`` -> (3, None), ``"3.2"`` -> (3, 2); None when the
    tag is not a round (``?``, ``-``, empty, ``3a``)."""
    m = re.fullmatch(r"\s*(\d{1,4})(?:\.(\d{1,4}))?\s*", tag)
    if m is None or int(m.group(1)) == 0 or (m.group(2) is not None and int(m.group(2)) == 0):
        return None
    return int(m.group(1)), (int(m.group(2)) if m.group(2) is not None else None)


MOVE_ERRORS = (chess.IllegalMoveError, chess.InvalidMoveError, chess.AmbiguousMoveError)
"""python-chess's errors about a move of the movetext (after one, it reads no more moves of
that line)."""


def _first_line(text: str, offset: int) -> int:
    """The physical line (1-based) of the first non-blank character at or after ``offset``."""
    m = re.compile(r"\S").search(text, offset)
    return text.count("\n", 0, m.start() if m else len(text)) + 1


def _illegal(game: chess.pgn.Game, error: Exception, file: str, number: int, line: int) -> Finding:
    board = game.end().board()
    move = f"{board.fullmove_number}{'.' if board.turn == chess.WHITE else '...'}"
    said = re.search(r"san: '([^']*)'", str(error))
    value = visible(said.group(1) if said else str(error)[:80])
    kind = ("illegal" if isinstance(error, chess.IllegalMoveError) else
            "ambiguous" if isinstance(error, chess.AmbiguousMoveError) else "unreadable")
    return Finding(file, line, f"game {number}, move {board.fullmove_number}", value, Severity.ERROR,
                   f"{kind} move {move} {value} in the position after "
                   f"{board.ply()} half-moves (FEN {board.fen()}): the game's moves stop there; "
                   "the game is not published until the file is corrected")


def read_pgn(file: str, text: str) -> list[PgnGame]:
    """FIDE (PGN standard) — every game of one PGN file's ``text``, read with python-chess
    (:func:`chess.pgn.read_game`), each with its findings: an illegal or unreadable move (an
    error: the game is not published), a ``Result`` tag that is not a result (an error), a
    marker that contradicts the tag (:func:`game_result`, a warning).

    The reader collects errors and goes on (python-chess's ``game.errors``): one bad game
    never hides the next."""
    handle = _Lines(text)
    builder = _Builder()
    games: list[PgnGame] = []
    while True:
        start = handle.pos
        game = chess.pgn.read_game(cast(TextIO, handle), Visitor=lambda: builder)
        if game is None:
            break
        number, line = len(games) + 1, _first_line(text, start)
        marker = builder.marker
        found = [_illegal(game, e, file, number, line) if isinstance(e, MOVE_ERRORS) else
                 Finding(file, line, f"game {number}", visible(str(e))[:120], Severity.ERROR,
                         f"the PGN reader could not read this game's text: {e}")
                 for e in game.errors]
        tag = game.headers.get("Result", "*")
        nodes = list(game.mainline())
        if tag not in RESULTS:
            found.append(Finding(file, line, f"game {number}, Result", tag, Severity.ERROR,
                                 "not a result of the PGN standard (1-0, 0-1, 1/2-1/2, *)"))
        result, why = game_result(tag, marker, len(nodes))
        if why:
            found.append(Finding(file, line, f"game {number}, Result", tag, Severity.WARNING, why))
        headers = dict(game.headers)
        headers["Result"] = result
        game.headers["Result"] = result
        games.append(PgnGame(
            file, number, line, headers, result, len(nodes),
            game.accept(chess.pgn.StringExporter(headers=True, variations=True, comments=True)),
            tuple(n.clock() for n in nodes), tuple(n.comment for n in nodes),
            usable=not any(f.severity is Severity.ERROR for f in found), findings=tuple(found)))
    return games


def read_games(files: Mapping[str, str]) -> tuple[list[PgnGame], list[Finding]]:
    """FIDE (PGN standard) — every game of the event's PGN files (file -> text, in the order
    given: the flow sorts them by name), and the findings of reading them, in file order
    (:func:`read_pgn`). A file without a single game is a warning (an empty export)."""
    games: list[PgnGame] = []
    findings: list[Finding] = []
    for file, text in files.items():
        got = read_pgn(file, text)
        if not got:
            findings.append(Finding(file, None, "", "", Severity.WARNING,
                                    "no game in this file (the PGN reader found no tags or moves)"))
        games += got
        findings += [f for g in got for f in g.findings]
    return games, findings


FIGURINES = {"K": "♔", "Q": "♕", "R": "♖", "B": "♗", "N": "♘"}
"""The piece letters of SAN (K Q R B N) as the figurines FIDE's Laws (Appendix C.5) allow a
printed score to use instead: one set for both sides, as bulletins print them."""

PUBLISHED_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
"""The only tags a published PGN carries: the PGN standard's seven tag roster (8.1.1),
written from the record (event.toml, players.csv, results.csv), never copied from the file
read (docs/decisions.md, "Games")."""

POSITION_TAGS = ("SetUp", "FEN")
"""The tags of a game that starts from a set-up position (PGN standard 9.7): the position, kept."""

COMMAND = re.compile(r"\[%[^\]]*\]")
"""An embedded command of a PGN comment (``[%clk 0:09:58]``, ``[%eval …]``): read by
python-chess (``node.clock()``), not text for a reader."""


def figurine(san: str) -> str:
    """FIDE (Laws of Chess, Appendix C.5) — a move in SAN with its piece letters as figurines
    (``Nf3`` -> ``♘f3``, ``e8=Q+`` -> ``e8=♕+``); castling and squares unchanged."""
    return "".join(FIGURINES.get(ch, ch) for ch in san)


@dataclass(frozen=True)
class Ply:
    """One half-move of a game's main line, as a page shows it."""

    ply: int
    """The half-move's place, 1-based."""
    number: int
    """The move number (both half-moves of a move share it)."""
    white: bool
    """Whether White made it."""
    san: str
    """The move in figurine algebraic notation (:func:`figurine`)."""
    uci: str
    """The move as from- and to-square (``e2e4``, ``e7e8q``): the squares a board marks."""
    fen: str
    """The position after it (FEN)."""
    clock: float | None
    """The mover's remaining time in seconds after it (``[%clk]``), None where the PGN has none."""
    comment: str
    """Its comment as the PGN carries it, without embedded commands (:data:`COMMAND`)."""


@dataclass(frozen=True)
class GameMoves:
    """A game's main line as published: its positions and moves, and its PGN for download."""

    start: str
    """The position before the first move (FEN)."""
    plies: tuple[Ply, ...]
    """Every half-move of the main line."""
    comment: str
    """The comment before the first move ("" when none)."""
    pgn: str
    """The game as published: :data:`PUBLISHED_TAGS` only, then its moves, comments and clocks."""

    @property
    def fen(self) -> str:
        """The final position (FEN)."""
        return self.plies[-1].fen if self.plies else self.start


def tag_value(value: str) -> str:
    """FIDE (PGN standard 7, 8.1.1) — a tag's value as a PGN file writes it between its quotes:
    a backslash and a quote escaped with a backslash, a line break as a space (a tag is one
    line)."""
    return " ".join(value.replace("\\", "\\\\").replace('"', '\\"').splitlines())


def game_moves(pgn: str, tags: Mapping[str, str]) -> GameMoves:
    """FIDE (PGN standard) — a read game (its text as :class:`PgnGame` keeps it) as published:
    its main line move by move (:class:`Ply`) and its PGN with exactly ``tags``, in the order of
    :data:`PUBLISHED_TAGS` (every other tag of the file dropped: an Elo, a FIDE id, a birth
    date; a game from a set-up position keeps its ``SetUp`` and ``FEN``, the position), and
    its moves, variations, comments and clocks as the file carries them.

    Decision (issue 48): the published tags are written from the record, never copied from
    the file read (``tags`` must hold exactly :data:`PUBLISHED_TAGS`)."""
    if set(tags) != set(PUBLISHED_TAGS):
        raise ValueError(f"the published tags are {PUBLISHED_TAGS}, not {sorted(tags)}")
    game = chess.pgn.read_game(cast(TextIO, _Lines(pgn)))
    if game is None:
        game = chess.pgn.Game()
    board = game.board()
    start = board.fen()
    position = {k: game.headers[k] for k in POSITION_TAGS if k in game.headers}
    for key in list(game.headers):
        del game.headers[key]
    for key in PUBLISHED_TAGS:  # (python-chess writes a value as given: escaped here, 8.1.1)
        game.headers[key] = tag_value(tags[key])
    game.headers.update(position)
    plies = []
    for k, node in enumerate(game.mainline(), start=1):
        number, white = board.fullmove_number, board.turn == chess.WHITE
        san = board.san(node.move)
        board.push(node.move)
        plies.append(Ply(k, number, white, figurine(san), node.move.uci(), board.fen(),
                         node.clock(), " ".join(COMMAND.sub(" ", node.comment).split())))
    text = game.accept(chess.pgn.StringExporter(headers=True, variations=True, comments=True))
    return GameMoves(start, tuple(plies), " ".join(COMMAND.sub(" ", game.comment).split()),
                     text + "\n")
