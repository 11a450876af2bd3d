"""FIDE Dutch system (C.04.3) — the player state the criteria read.

Scores (A.2 score brackets, kept in tenths of a point), colour differences and preferences
(A.6), floats (A.4) and the round being paired. Built from a TRF tournament by
:func:`transforms.fide.dutch.engine.build_context`; read by the criteria and both editions.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from transforms.core.model import DutchEdition

WIN = 10
"""Scores are kept in tenths of a point: a win is 10, a draw 5."""

NONE, WHITE, BLACK = 0, 1, 2
DOWN, UP, NOFLOAT = 0, 1, 2

Board = tuple[int, "int | None"]


@dataclass(slots=True)
class Round:
    """One round of a player's history as the criteria see it."""

    played: bool
    """An over-the-board game (FIDE C.04.1: forfeits and byes are not games)."""
    opponent: int | None
    colour: int
    points: int
    """In tenths."""
    paired: bool
    """Took part in the pairing: had an opponent, or received the PAB (TRF ``U``/``+``)."""
    pab: bool


@dataclass(slots=True)
class Player:
    """A player to be paired, with everything the criteria read."""

    sno: int
    rank: int
    """Rank index among valid players (pairing-number order), 0-based."""
    score: int
    """The pairing score in tenths: points before this round plus this round's virtual points
    (FIDE C.04.5; without acceleration, the points)."""
    history: list[Round]
    forbidden: set[int] = field(default_factory=set)
    white_games: int = 0
    black_games: int = 0
    played_games: int = 0
    imbalance: int = 0
    preference: int = NONE
    repeated: int = NONE
    """The colour of the last two played games when they were the same, else NONE."""
    strong: bool = False
    virtual: tuple[int, ...] = ()
    """FIDE C.04.5 — virtual points (tenths) per round, round 1 first; ``score`` includes those
    of the round being paired."""

    def virtual_in(self, round_index: int) -> int:
        """Virtual points (tenths) when round ``round_index + 1`` was paired."""
        return self.virtual[round_index] if round_index < len(self.virtual) else 0

    @property
    def points(self) -> int:
        """Points (tenths) before this round without virtual points: what the standings count."""
        return self.score - self.virtual_in(len(self.history))

    @property
    def absolute_imbalance(self) -> bool:
        return self.imbalance > 1

    @property
    def absolute(self) -> bool:
        """FIDE C.04.1 / C.04.3 A.6a — absolute colour preference."""
        return self.imbalance > 1 or self.repeated != NONE

    def score_before(self, rounds_back: int) -> int:
        """The pairing score ``rounds_back`` rounds ago: the points then, plus the virtual
        points of that round."""
        s = self.points
        for i in range(rounds_back):
            s -= self.history[len(self.history) - 1 - i].points
        return s + self.virtual_in(len(self.history) - rounds_back)



def invert(c: int) -> int:
    """FIDE C.04.3 A.6 — the other colour (NONE stays NONE)."""
    return WHITE if c == BLACK else BLACK if c == WHITE else NONE


def colour_preferences(p: Player) -> None:
    """FIDE C.04.3 A.6 — colour difference, absolute / strong / mild preference.

    Only played games count (C.04.1: a forfeited game is not played)."""
    run = 0
    last = NONE
    for r in p.history:
        if not r.played:
            continue
        if r.colour == WHITE:
            p.white_games += 1
        else:
            p.black_games += 1
        run = 1 if (run == 0 or r.colour != last) else run + 1
        last = r.colour
    p.played_games = p.white_games + p.black_games
    lower = BLACK if p.white_games > p.black_games else WHITE
    p.imbalance = abs(p.white_games - p.black_games)
    if p.imbalance > 1:
        p.preference = lower
    elif run > 1:
        p.preference = invert(last)
    elif p.imbalance > 0:
        p.preference = lower
    elif run:
        p.preference = invert(last)
    else:
        p.preference = NONE
    p.repeated = last if run > 1 else NONE
    p.strong = not p.absolute and p.imbalance > 0


def preferences_compatible(a: int, b: int) -> bool:
    """FIDE C.04.3 A.6 — two colour preferences both can be granted (different, or one of them
    none)."""
    return a != b or a == NONE or b == NONE


@dataclass(slots=True)
class Context:
    """The round being paired."""

    players: list[Player]
    """Players to pair, sorted by score (descending) then rank."""
    played_rounds: int
    expected_rounds: int | None
    initial_colour: int
    edition: DutchEdition
    by_sno: dict[int, Player] = field(default_factory=dict)
    """Every player of the file (an opponent may have withdrawn)."""
    floats: dict[tuple[int, int], int] = field(default_factory=dict)
    """Memo of :func:`float_of`."""
    core: str | None = None
    """The matching core that solves the round (``matching.CORES``; None: the default)."""
    against: dict[int, int | None] | None = None
    """A recorded pairing the round is checked against (start number -> opponent, None for the
    bye), or None: the bracket procedure then stops at the first bracket whose pairs are not
    all recorded (:func:`check_bracket`; ``engine.check_pairing``)."""

    def last_round(self) -> bool:
        return self.expected_rounds is not None and self.played_rounds >= self.expected_rounds - 1



def opponents(boards: Iterable[Board]) -> dict[int, int | None]:
    """FIDE C.04.3 — each player's opponent in a pairing (``(white, black)`` boards; None for
    the bye)."""
    out: dict[int, int | None] = {}
    for w, b in boards:
        out[w] = b
        if b is not None:
            out[b] = w
    return out


class Departed(Exception):
    """FIDE C.04.3 A.9 — a bracket of the round paired otherwise than ``Context.against``:
    its pairs (start numbers, the lower first) that the recorded pairing does not have,
    and the bracket's score (tenths). Brackets are paired from the top down and a bracket's
    pairs are final, so the pairing of the round differs; the brackets below are not paired
    (they would start from other players)."""

    def __init__(self, score: int, pairs: list[tuple[int, int]]):
        super().__init__(score, pairs)
        self.score, self.pairs = score, pairs


def check_bracket(ctx: Context, score: int, pairs: list[tuple[Player, Player]]) -> None:
    """FIDE C.04.3 A.9 — a bracket's final pairs checked against ``ctx.against`` (nothing to
    check when it is None); raises :class:`Departed` with those it does not hold."""
    against = ctx.against
    if against is None:
        return
    off = sorted({(min(a.sno, b.sno), max(a.sno, b.sno)) for a, b in pairs
                  if against.get(a.sno) != b.sno})
    if off:
        raise Departed(score, off)


def float_of(p: Player, rounds_back: int, ctx: Context) -> int:
    """FIDE C.04.3 A.4 — the float of ``p`` ``rounds_back`` rounds ago.

    2017: any round without a game counts as a downfloat. 2025: only a round without a game
    that scored points (bye, forfeit win) counts as a downfloat."""
    key = (p.sno, rounds_back)
    got = ctx.floats.get(key)
    if got is None:
        got = ctx.floats[key] = _float_of(p, rounds_back, ctx)
    return got


def _float_of(p: Player, rounds_back: int, ctx: Context) -> int:
    r = p.history[ctx.played_rounds - rounds_back]
    if not r.played:
        if ctx.edition == DutchEdition.RULES_2017:
            return DOWN
        return DOWN if r.points > 0 else NOFLOAT
    mine = p.score_before(rounds_back)
    assert r.opponent is not None  # (a game has an opponent)
    opp = ctx.by_sno[r.opponent]
    theirs = opp.score_before(rounds_back)
    return DOWN if mine > theirs else UP if mine < theirs else NOFLOAT


def ranks_below(a: Player, b: Player) -> bool:
    """FIDE C.04.3 A.2 — true if ``a`` comes after ``b`` in the pairing order (score, then pairing
    number)."""
    return (a.score, b.rank) < (b.score, a.rank)


