"""National Junior 2024, "System of Play" — no same-state pairings in the last round.

    Players from the same state shall not be paired against each other in the last round.
    However, they may be paired if there is no compatible opponent with the same point group
    or score group with a maximum difference of 1 point. It is applicable only for the top
    50% score of the penultimate round.

This is a declared departure from FIDE C.04.3, applied on top of the Dutch engine: the
same-state pairs the rule covers become forbidden pairs (C1) for the last round, and are
allowed again, player by player, where the rule's exception applies.

Decisions (each pinned by a test in tests/rulebook/test_same_state.py):
- The rule applies only when the round being paired is the last one (TRF ``XXR``).
- "Top 50%": players to be paired whose score after the penultimate round is at least the
  score of the player at position ceil(N/2) in the score order (N = players to be paired);
  everyone tied on that boundary score is in, so the group may exceed half.
- A same-state pair is covered when at least one of the two is in the top 50%.
- "Compatible opponent": one the Dutch absolute criteria allow (no rematch, C3 colours), with
  a score at most 1 point from the player's ("the same point group or score group with a
  maximum difference of 1 point").
- A covered player keeps the right to meet a same-state player when, without it, the Dutch
  pairing would give him an opponent more than 1 point away, or no opponent (the bye): then
  his same-state pairs are allowed again and the round is re-paired. When the round cannot be
  paired at all with the restrictions, they are lifted from the lowest-ranked covered player
  upward until it can.
- Every board that differs from the plain Dutch pairing is logged, with the reason.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from transforms.core.errors import NoValidPairing
from transforms.core.model import DutchEdition
from transforms.fide.dutch.criteria import compatible
from transforms.fide.dutch.engine import build_context, pair_round, played_rounds_of
from transforms.fide.dutch.state import Board, Context
from transforms.fide.trf import Tournament

POINT = 10
"""One point in the engine's tenths."""


def top_half(scores: dict[int, int]) -> set[int]:
    """National Junior 2024 — the players with a "top 50% score" (see Decision above)."""
    if not scores:
        return set()
    ranked = sorted(scores.values(), reverse=True)
    boundary = ranked[math.ceil(len(ranked) / 2) - 1]
    return {s for s, v in scores.items() if v >= boundary}


def pair_round_same_state(t: Tournament, states: dict[int, str], *,
                          edition: DutchEdition | str | None = None,
                          names: dict[int, str] | None = None) -> tuple[list[Board], list[str]]:
    """National Junior 2024 "System of Play" — Dutch pairing of the next round without
    same-state games among the top 50% in the last round; returns the boards and a log.

    The log names players as "Name (start number)" when ``names`` is given, else by start
    number."""

    def who(sno: int | None) -> str:
        if sno is None:
            return "bye"
        return f"{names[sno]} ({sno})" if names and sno in names else str(sno)

    plain = pair_round(t, edition=edition)
    round_no = played_rounds_of(t) + 1
    if t.total_rounds is None or round_no != t.total_rounds:
        return plain, [f"round {round_no} is not the last round: same-state rule not applied"]
    ed = DutchEdition.of(edition or t.edition or DutchEdition.RULES_2025)
    ctx = build_context(t, None, ed, frozenset())
    scores = {p.sno: p.points for p in ctx.players}
    covered = top_half(scores)
    same_state = {
        frozenset((a, b)) for a in scores for b in scores
        if a < b and states.get(a) and states.get(a) == states.get(b)
        and (a in covered or b in covered)
    }
    if not same_state:
        return plain, ["no same-state pair among the top 50%: pairing unchanged"]
    log: list[str] = []
    allowed: set[int] = set()  # covered players whose same-state pairs are allowed again
    order = sorted(covered, key=lambda s: (-scores[s], s))

    def forbidden() -> frozenset[frozenset[int]]:
        return frozenset(p for p in same_state if not (p & allowed))

    while True:
        try:
            boards = pair_round(t, edition=edition, extra_forbidden=forbidden())
        except NoValidPairing:
            lift = next((s for s in reversed(order) if s not in allowed
                         and any(s in p for p in same_state)), None)
            if lift is None:
                raise
            allowed.add(lift)
            log.append(f"{who(lift)}: same-state opponents allowed again: the round cannot be "
                       f"paired otherwise")
            continue
        opp = {}
        for w, b in boards:
            opp[w] = b
            if b is not None:
                opp[b] = w
        changed = False
        for s in order:
            if s in allowed or not any(s in p for p in same_state):
                continue
            o = opp.get(s)
            far = o is None or abs(scores[o] - scores[s]) > POINT
            if far and _has_same_state_candidate(s, same_state, scores, ctx):
                allowed.add(s)
                what = "the bye" if o is None else f"{who(o)}, {_pts(scores[o])} points"
                log.append(f"{who(s)}: same-state opponents allowed again: otherwise paired with "
                           f"{what}, more than 1 point from their {_pts(scores[s])}")
                changed = True
                break
        if not changed:
            break
    plain_set = set(plain)
    for board in boards:
        if board not in plain_set:
            log.append(f"board {_fmt(board, who)} replaces the plain Dutch pairing"
                       f"{_old(board, plain, states, who)}")
    return boards, log


def _has_same_state_candidate(s: int, same_state: set[frozenset[int]], scores: dict[int, int],
                              ctx: Context) -> bool:
    """Is there a same-state opponent within 1 point that the absolute criteria allow?"""
    me = next(p for p in ctx.players if p.sno == s)
    for pair in same_state:
        if s in pair:
            (o,) = pair - {s}
            other = next(p for p in ctx.players if p.sno == o)
            if abs(scores[o] - scores[s]) <= POINT and compatible(me, other, ctx):
                return True
    return False


def _pts(tenths: int) -> str:
    return f"{tenths / POINT:g}"


def _fmt(board: Board, who: Callable[[int | None], str]) -> str:
    w, b = board
    return f"{who(w)} - {who(b)}"


def _old(board: Board, plain: list[Board], states: dict[int, str],
         who: Callable[[int | None], str]) -> str:
    olds = []
    for x in board:
        if x is None:
            continue
        for pb in plain:
            if x in pb:
                w, b = pb
                tag = (f", same state {states.get(w)}" if b is not None
                       and states.get(w) and states.get(w) == states.get(b) else "")
                olds.append(f"{_fmt(pb, who)}{tag}")
    return " (was " + "; ".join(dict.fromkeys(olds)) + ")" if olds else ""
