"""FIDE Dutch system (C.04.3) — the pairing engine, 2017 and 2025 editions.

``pair_round(t)`` pairs the next round of a TRF :class:`~transforms.fide.trf.Tournament`. The
rules are realised as a sequence of maximum-weight matchings, bracket by bracket (see
``rules_2017`` and ``rules_2025``, sharing ``brackets``): every quality criterion is a
bit field of the edge weight, the most important highest, so one matching optimises them
lexicographically; the remaining choices the rules leave to the order of transpositions and
exchanges (C.04.3 D) are fixed one player at a time by raising the weights of the preferred
opponents. The bit layout of the weights and the order of the fixing steps follow the
published design of bbpPairings (the FIDE-endorsed engine, Apache-2.0), re-implemented here
from the rules so that both engines give the same pairings; no code of it is included.
This module builds the player state the criteria read (``state``: scores, colour
preferences, floats) from the TRF and hands the round to the edition's bracket procedure;
what both editions share lives in ``state``, ``criteria`` and ``brackets``.

| criterion | where |
|---|---|
| C1 no rematch, forbidden pairs | ``criteria.compatible`` (played games only) |
| C2 one bye per player | ``criteria.eligible_for_bye_2017`` / ``criteria.eligible_for_bye_2025`` |
| C3 absolute colour preferences, top-scorer exception | ``criteria.compatible`` |
| C4-C21 quality criteria | edge weights in ``rules_2017`` / ``rules_2025`` |
| B, D: moved-down players, exchanges, transpositions | ``brackets.pair_bracket`` |
| E.1-E.5 colour allocation | ``criteria.allocate_colours`` |
| board order | ``criteria.board_order`` |
| C.04.5 acceleration: pairing score = points + virtual points (``XXA``/``250``) | ``build_context`` |

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

from collections.abc import Iterable
from typing import NamedTuple

from transforms.core.model import Colour, DutchEdition, Kind
from transforms.fide.acceleration import virtual_points
from transforms.fide.dutch import rules_2017, rules_2025
from transforms.fide.dutch.criteria import allocate_colours, board_order
from transforms.fide.dutch.state import (
    BLACK,
    NONE,
    WHITE,
    WIN,
    Board,
    Context,
    Departed,
    Player,
    Round,
    colour_preferences,
    opponents,
)
from transforms.fide.trf import CardRecord, Tournament, card_record

_POINTS10 = {Kind.FORFEIT_WIN: WIN, Kind.FORFEIT_LOSS: 0, Kind.PAB: WIN,
             Kind.FPB: WIN, Kind.HPB: WIN // 2, Kind.ZPB: 0, Kind.ABSENT: 0}
"""The points (tenths) of a round without a game (a played game's are its row's)."""



def _history_rows(t: Tournament) -> dict[int, dict[int, CardRecord]]:
    by_sno: dict[int, dict[int, CardRecord]] = {}
    for r in t.card_rows:
        row = card_record(r)
        by_sno.setdefault(int(row["sno"]), {})[int(row["round"])] = row
    return by_sno


def _round_from_row(row: CardRecord | None) -> Round:
    if row is None:
        return Round(False, None, NONE, 0, False, False)
    kind = Kind(row["kind"])
    colour = WHITE if row["colour"] == "w" else BLACK if row["colour"] == "b" else NONE
    opp = row["opponent"]
    if kind is Kind.PLAYED:
        assert opp is not None  # (a game has an opponent: the TRF reader and the scorecard check)
        return Round(True, int(opp), colour, int(round(float(row["points"]) * WIN)), True, False)
    pts = _POINTS10[kind]
    return Round(False, None if opp is None else int(opp), colour, pts,
                 opp is not None or kind in (Kind.PAB,), kind is Kind.PAB)


def played_rounds_of(t: Tournament) -> int:
    """FIDE C.04.3 — the number of rounds already paired (see the module's Decision)."""
    pr = 0
    for rnd, _sno, opponent, _colour, _points, kind in t.card_rows:
        r = int(rnd)
        paired = opponent is not None or kind == Kind.PAB
        pr = max(pr, r if paired else r - 1)
    return pr


def build_context(t: Tournament, round_no: int | None, edition: DutchEdition,
                  extra_forbidden: frozenset[frozenset[int]]) -> Context:
    """FIDE C.04.3 A.1-A.6 — the round to pair as the criteria read it: the players to pair (score
    order), their histories, colour preferences and forbidden pairs (C1: earlier opponents, the
    file's and the caller's).

    FIDE C.04.5 — with virtual points in the file (``XXA``/``250``, see
    :mod:`transforms.fide.acceleration`) a player's ``score`` is his pairing score, points plus
    the virtual points of the round being paired. Decision (as bbpPairings applies ``XXA``): the
    pairing score is what every criterion reads — score order and brackets (A.2, A.3), the
    score differences of the quality criteria (2017 C6, C16-C19; 2025 C6-C8, C18-C21), the
    bye's score group (2025 C5), the floats of earlier rounds (A.4: the pairing scores those
    rounds were paired with), the last-round topscorers of C3 and the higher-ranked player of
    E.4-E.5; only the board order (C.04.2) reads the points (``Player.points``)."""
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
    virtual = {s: tuple(round(v * WIN) for v in vals) for s, vals in virtual_points(t).items()}

    def player(sno: int, rank: int) -> Player:
        prow = rows.get(sno, {})
        hist = [_round_from_row(prow.get(r)) for r in range(1, played + 1)]
        vp = virtual.get(sno, ())
        return Player(sno=sno, rank=rank, history=hist, virtual=vp,
                      score=sum(h.points for h in hist) + (vp[played] if played < len(vp) else 0))

    players = []
    for sno in to_pair:
        p = player(sno, rank[sno])
        colour_preferences(p)
        p.forbidden = {h.opponent for h in p.history if h.played and h.opponent is not None}
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
        all_players[sno] = player(sno, rank.get(sno, 0))
    ctx.by_sno = all_players
    return ctx


def pair_round(t: Tournament, *, round_no: int | None = None,
               edition: DutchEdition | str | None = None,
               extra_forbidden: frozenset[frozenset[int]] = frozenset(),
               core: str | None = None) -> list[Board]:
    """FIDE C.04.3 — the pairing of round ``round_no`` (default: the next round).

    Returns ``(white, black)`` boards in board order, the pairing-allocated bye as
    ``(sno, None)`` last. Raises :class:`NoValidPairing` when the absolute criteria cannot
    all be met. The edition is ``edition``, else the file's, else the 2025 rules. ``core``
    names the matching solver (``matching.CORES``: ``compiled`` by default where built,
    ``python`` the reference); both give the same pairing."""
    boards = _pair(t, round_no, edition, extra_forbidden, core, None)
    assert not isinstance(boards, Departure)
    return boards


class Departure(NamedTuple):
    """FIDE C.04.3 A.9 — where the engine's pairing of a round first leaves a recorded one
    (:func:`check_pairing`)."""

    score: int
    """The bracket's score, in tenths of a point (its residents' pairing score)."""
    pairs: list[tuple[int, int]]
    """The bracket's pairs (start numbers, the lower first) that the recorded pairing does not
    have."""


def check_pairing(t: Tournament, recorded: Iterable[Board], *, round_no: int | None = None,
                  edition: DutchEdition | str | None = None,
                  extra_forbidden: frozenset[frozenset[int]] = frozenset(),
                  core: str | None = None) -> list[Board] | Departure:
    """FIDE C.04.3 — round ``round_no`` paired as :func:`pair_round` pairs it and checked,
    bracket by bracket from the top (A.9), against a recorded pairing (``(white, black)``
    boards, ``(sno, None)`` for the bye). A bracket's pairs are final once it is paired, so at
    the first bracket whose pairs are not all recorded the round is known to differ: the
    :class:`Departure` is returned there, and the brackets below are not paired (they would
    start from other players; on a history paired by another system this is most of the
    engine's work). Otherwise the whole pairing, exactly :func:`pair_round`'s: the caller
    compares it with the recorded one (colours, the bye, players the recorded pairing has
    and the engine does not pair)."""
    return _pair(t, round_no, edition, extra_forbidden, core, opponents(recorded))


def _pair(t: Tournament, round_no: int | None, edition: DutchEdition | str | None,
          extra_forbidden: frozenset[frozenset[int]], core: str | None,
          against: dict[int, int | None] | None) -> list[Board] | Departure:
    ed = DutchEdition.of(edition or t.edition or DutchEdition.RULES_2025)
    ctx = build_context(t, round_no, ed, extra_forbidden)
    ctx.core, ctx.against = core, against
    if not ctx.players:
        return []
    try:
        pairs, bye = _PAIR_BRACKETS[ed](ctx)
    except Departed as d:
        return Departure(d.score, d.pairs)
    return board_order(allocate_colours(pairs, ctx), bye)


_PAIR_BRACKETS = {DutchEdition.RULES_2017: rules_2017.pair_brackets,
                  DutchEdition.RULES_2025: rules_2025.pair_brackets}
"""Each edition's bracket-by-bracket procedure (A.9, B, C, D)."""
