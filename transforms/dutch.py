"""FIDE Dutch system (C.04.3) — the pairing engine, 2017 and 2025 editions.

``pair_round(t)`` pairs the next round of a TRF :class:`~transforms.trf.Tournament`. The
rules are realised as a sequence of maximum-weight matchings, bracket by bracket (see
``transforms/dutch_2017.py`` and ``transforms/dutch_2025.py``): every quality criterion is a
bit field of the edge weight, the most important highest, so one matching optimises them
lexicographically; the remaining choices the rules leave to the order of transpositions and
exchanges (C.04.3 D) are fixed one player at a time by raising the weights of the preferred
opponents. The bit layout of the weights and the order of the fixing steps follow the
published design of bbpPairings (the FIDE-endorsed engine, Apache-2.0), re-implemented here
from the rules so that both engines give the same pairings; no code of it is included.
This module holds what both editions share: the player state the criteria read
(scores, colour preferences, floats, bye eligibility), the absolute criteria, colour
allocation (E.1-E.5) and the board order (C.04.2).

| criterion | where |
|---|---|
| C1 no rematch, forbidden pairs | :func:`compatible` (played games only; forfeits are not games) |
| C2 one bye per player | :func:`eligible_for_bye_2017` / :func:`eligible_for_bye_2025` |
| C3 absolute colour preferences, top-scorer exception | :func:`compatible` |
| C4-C21 quality criteria | edge weights in the edition modules |
| E.1-E.5 colour allocation | :func:`allocate_colours` |
| board order | :func:`board_order` |

Decisions:
- Without an ``XXR`` (total rounds) line, the last-round top-scorer exception of C3 never
  applies (the TRF does not say which round is the last).
- Without ``XXC``, player 1's colour in round 1 is White.
- The round to pair is one after the last round in which some player took part in a pairing
  (played, forfeited or received the PAB); players whose line already holds an entry for that
  round (requested byes, absences) are not paired. Given ``round_no`` explicitly, later
  rounds and the games already recorded for ``round_no`` are ignored (the round is re-paired).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from transforms.errors import NoValidPairing
from transforms.model import SCORECARD_COLUMNS, Colour, Kind
from transforms.trf import Tournament

WIN = 10
"""Scores are kept in tenths of a point: a win is 10, a draw 5."""

NONE, WHITE, BLACK = 0, 1, 2
DOWN, UP, NOFLOAT = 0, 1, 2

Board = tuple[int, "int | None"]

_POINTS10 = {Kind.PLAYED: None, Kind.FORFEIT_WIN: WIN, Kind.FORFEIT_LOSS: 0, Kind.PAB: WIN,
             Kind.FPB: WIN, Kind.HPB: WIN // 2, Kind.ZPB: 0, Kind.ABSENT: 0}


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
    """Points in tenths before this round."""
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

    @property
    def absolute_imbalance(self) -> bool:
        return self.imbalance > 1

    @property
    def absolute(self) -> bool:
        """FIDE C.04.1 / C.04.3 A.6a — absolute colour preference."""
        return self.imbalance > 1 or self.repeated != NONE

    def score_before(self, rounds_back: int) -> int:
        s = self.score
        for i in range(rounds_back):
            s -= self.history[len(self.history) - 1 - i].points
        return s


def _invert(c: int) -> int:
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
        p.preference = _invert(last)
    elif p.imbalance > 0:
        p.preference = lower
    elif run:
        p.preference = _invert(last)
    else:
        p.preference = NONE
    p.repeated = last if run > 1 else NONE
    p.strong = not p.absolute and p.imbalance > 0


def preferences_compatible(a: int, b: int) -> bool:
    return a != b or a == NONE or b == NONE


@dataclass(slots=True)
class Context:
    """The round being paired."""

    players: list[Player]
    """Players to pair, sorted by score (descending) then rank."""
    played_rounds: int
    expected_rounds: int | None
    initial_colour: int
    edition: str
    by_sno: dict[int, Player] = field(default_factory=dict)
    """Every player of the file (an opponent may have withdrawn)."""
    floats: dict[tuple[int, int], int] = field(default_factory=dict)
    """Memo of :func:`float_of`."""

    def last_round(self) -> bool:
        return self.expected_rounds is not None and self.played_rounds >= self.expected_rounds - 1


def compatible(a: Player, b: Player, ctx: Context) -> bool:
    """FIDE C.04.3 C1 (no rematch, forbidden pairs) and C3 (no two players with the same
    absolute colour preference meet, except topscorers in the last round).

    Decision (as the FIDE-endorsed engines): a topscorer is a player with more than 50% of
    the maximum possible score before the last round."""
    if b.sno in a.forbidden:
        return False
    if a.absolute and b.absolute and a.preference == b.preference:
        if ctx.last_round():
            threshold = (ctx.played_rounds * WIN) >> 1
            return a.score > threshold or b.score > threshold
        return False
    return True


def eligible_for_bye_2017(p: Player) -> bool:
    """FIDE C.04.3 (2017) C2 — a player who already received a pairing-allocated bye, or
    scored a (forfeit) win without playing in a paired round, cannot get the bye."""
    return not any((not r.played) and r.paired and r.points >= WIN for r in p.history)


def eligible_for_bye_2025(p: Player) -> bool:
    """FIDE C.04.3 (2025) C2 — a player who already received a PAB, or scored a win without
    playing (forfeit win, full-point bye), cannot get the pairing-allocated bye."""
    return not any((not r.played) and (r.points >= WIN or r.pab) for r in p.history)


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
        if ctx.edition == "2017":
            return DOWN
        return DOWN if r.points > 0 else NOFLOAT
    mine = p.score_before(rounds_back)
    opp = ctx.by_sno[r.opponent]
    theirs = opp.score_before(rounds_back)
    return DOWN if mine > theirs else UP if mine < theirs else NOFLOAT


def ranks_below(a: Player, b: Player) -> bool:
    """True if ``a`` comes after ``b`` in the pairing order (score, then pairing number)."""
    return (a.score, b.rank) < (b.score, a.rank)


def _first_colour_difference(a: Player, b: Player) -> tuple[int, int]:
    ha = [r.colour for r in a.history if r.played]
    hb = [r.colour for r in b.history if r.played]
    i, j = len(ha) - 1, len(hb) - 1
    while i >= 0 and j >= 0 and ha[i] == hb[j]:
        i -= 1
        j -= 1
    return (ha[i] if i >= 0 else NONE), (hb[j] if j >= 0 else NONE)


def _neutral_colour(p: Player, q: Player) -> int:
    """FIDE C.04.3 E.1-E.4 — the colour of ``p`` against ``q`` where the rules decide it."""
    if preferences_compatible(p.preference, q.preference):
        if p.preference != NONE:
            return p.preference
        if q.preference != NONE:
            return _invert(q.preference)
        return NONE
    if p.absolute and (p.imbalance > q.imbalance or not q.absolute):
        return p.preference
    if q.absolute and (q.imbalance > p.imbalance or not p.absolute):
        return _invert(q.preference)
    if p.strong and not q.strong:
        return p.preference
    if q.strong and not p.strong:
        return _invert(q.preference)
    pc, qc = _first_colour_difference(p, q)
    if pc != NONE and qc != NONE:
        return qc
    return NONE


def colour_of(p: Player, q: Player, ctx: Context) -> int:
    """FIDE C.04.3 E.1-E.5 — the colour ``p`` gets against ``q``.

    E.5: when nothing else decides, the higher ranked player gets his preference, and
    without preferences colours follow the initial colour by pairing-number parity."""
    c = _neutral_colour(p, q)
    if c != NONE:
        return c
    init = ctx.initial_colour
    if p.preference == NONE:
        if ranks_below(p, q):
            return init if q.rank & 1 else _invert(init)
        return _invert(init) if p.rank & 1 else init
    if ranks_below(p, q):
        return _invert(q.preference)
    return p.preference


def allocate_colours(pairs: list[tuple[Player, Player]], ctx: Context) -> list[tuple[Player, Player]]:
    """FIDE C.04.3 E — (white, black) for every pair."""
    out = []
    for a, b in pairs:
        p, q = (a, b) if a.sno < b.sno else (b, a)
        if colour_of(p, q, ctx) == WHITE:
            out.append((p, q))
        else:
            out.append((q, p))
    return out


def board_order(boards: list[tuple[Player, Player]], bye: Player | None) -> list[Board]:
    """FIDE C.04.2 — boards by the higher score of the pair, then the lower score, then the
    rank of the higher player; the pairing-allocated bye last."""

    def key(wb: tuple[Player, Player]):
        w, b = wb
        hi, lo = (b, w) if ranks_below(w, b) else (w, b)
        return (-hi.score, -lo.score, hi.rank)

    out: list[Board] = [(w.sno, b.sno) for w, b in sorted(boards, key=key)]
    if bye is not None:
        out.append((bye.sno, None))
    return out


# ----------------------------------------------------------------------------- input


def _history_rows(t: Tournament):
    by_sno: dict[int, dict[int, dict]] = {}
    for r in t.card_rows:
        row = dict(zip(SCORECARD_COLUMNS, r))
        by_sno.setdefault(int(row["sno"]), {})[int(row["round"])] = row
    return by_sno


def _round_from_row(row: dict | None) -> Round:
    if row is None:
        return Round(False, None, NONE, 0, False, False)
    kind = Kind(row["kind"])
    colour = WHITE if row["colour"] == "w" else BLACK if row["colour"] == "b" else NONE
    opp = row["opponent"]
    if kind is Kind.PLAYED:
        return Round(True, int(opp), colour, int(round(float(row["points"]) * WIN)), True, False)
    pts = _POINTS10[kind]
    return Round(False, None if opp is None else int(opp), colour, pts,
                 opp is not None or kind in (Kind.PAB,), kind is Kind.PAB)


def played_rounds_of(t: Tournament) -> int:
    """The number of rounds already paired (see the module's Decision)."""
    pr = 0
    for rnd, _sno, opponent, _colour, _points, kind in t.card_rows:
        r = int(rnd)
        paired = opponent is not None or kind == Kind.PAB
        pr = max(pr, r if paired else r - 1)
    return pr


def build_context(t: Tournament, round_no: int | None, edition: str,
                  extra_forbidden: frozenset[frozenset[int]]) -> Context:
    rows = _history_rows(t)
    played = played_rounds_of(t) if round_no is None else round_no - 1
    forbidden = set(t.forbidden_for_round(played + 1)) | set(extra_forbidden)
    snos = [p.sno for p in sorted(t.players, key=lambda p: p.sno)]
    valid = []
    to_pair = []
    for sno in snos:
        prow = {r: row for r, row in rows.get(sno, {}).items()
                if r <= played or (r == played + 1 and row["opponent"] is None
                                   and row["kind"] != Kind.PAB)}
        last = max(prow, default=0)
        participated = any(r["opponent"] is not None or r["kind"] == Kind.PAB
                           for r in prow.values())
        if last <= played or participated:
            valid.append(sno)
            if last <= played:
                to_pair.append(sno)
    rank = {s: i for i, s in enumerate(valid)}
    players = []
    for sno in to_pair:
        prow = rows.get(sno, {})
        hist = [_round_from_row(prow.get(r)) for r in range(1, played + 1)]
        p = Player(sno=sno, rank=rank[sno], score=sum(h.points for h in hist), history=hist)
        colour_preferences(p)
        p.forbidden = {h.opponent for h in hist if h.played}
        players.append(p)
    snoset = {p.sno for p in players}
    for pair in forbidden:
        ab = sorted(pair)
        if len(ab) == 2 and ab[0] in snoset and ab[1] in snoset:
            pa = next(p for p in players if p.sno == ab[0])
            pb = next(p for p in players if p.sno == ab[1])
            pa.forbidden.add(pb.sno)
            pb.forbidden.add(pa.sno)
    players.sort(key=lambda p: (-p.score, p.rank))
    init = WHITE if t.initial_colour in (None, Colour.WHITE) else BLACK
    ctx = Context(players, played, t.total_rounds, init, edition)
    # every player of the file, for the float of a player against a withdrawn opponent
    all_players: dict[int, Player] = {}
    for sno in snos:
        prow = rows.get(sno, {})
        hist = [_round_from_row(prow.get(r)) for r in range(1, played + 1)]
        all_players[sno] = Player(sno=sno, rank=rank.get(sno, 0),
                                  score=sum(h.points for h in hist), history=hist)
    ctx.by_sno = all_players
    return ctx


def pair_round(t: Tournament, *, round_no: int | None = None, edition: str | None = None,
               extra_forbidden: frozenset[frozenset[int]] = frozenset()) -> list[Board]:
    """FIDE C.04.3 — the pairing of round ``round_no`` (default: the next round).

    Returns ``(white, black)`` boards in board order, the pairing-allocated bye as
    ``(sno, None)`` last. Raises :class:`NoValidPairing` when the absolute criteria cannot
    all be met."""
    ed = edition or t.edition or "2025"
    if ed not in ("2017", "2025"):
        raise ValueError(f"unknown Dutch edition {ed!r}: expected '2017' or '2025'")
    ctx = build_context(t, round_no, ed, extra_forbidden)
    if not ctx.players:
        return []
    if ed == "2017":
        from transforms.dutch_2017 import pair_brackets
    else:
        from transforms.dutch_2025 import pair_brackets
    pairs, bye = pair_brackets(ctx)
    return board_order(allocate_colours(pairs, ctx), bye)


__all__ = ["pair_round", "NoValidPairing", "Board"]
